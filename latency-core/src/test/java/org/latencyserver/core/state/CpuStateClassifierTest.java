package org.latencyserver.core.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class CpuStateClassifierTest {

    private final CpuStateClassifier plain = new CpuStateClassifier(new CpuThresholds(33, 66, 0));
    private final CpuStateClassifier withBand = CpuStateClassifier.withDefaults();

    /** The thesis's integer bands, section 4.2.4: 0-33, 34-66, 67-100. */
    private static CpuState thesisBand(final int percent) {
        return percent <= 33 ? CpuState.LOW : percent <= 66 ? CpuState.MEDIUM : CpuState.HIGH;
    }

    @Test
    void everyIntegerUtilisationFallsInTheThesisBand() {
        for (int percent = 0; percent <= 100; percent++) {
            assertEquals(thesisBand(percent), plain.classify(percent, CpuState.UNKNOWN), percent + " %");
            assertEquals(thesisBand(percent), withBand.classify(percent, null), percent + " % with no current state");
            assertEquals(thesisBand(percent), withBand.classifyPlain(percent), percent + " % plain");
        }
    }

    @ParameterizedTest(name = "{0} % is {1}")
    @CsvSource({"33.49, LOW", "33.5, MEDIUM", "66.49, MEDIUM", "66.5, HIGH", "0, LOW", "100, HIGH"})
    void realUtilisationsSplitHalfWayBetweenTheThesisIntegers(final double percent, final CpuState expected) {
        assertEquals(expected, plain.classifyPlain(percent));
    }

    @Test
    void allNineCpuPairsAreClassifiedWithTheirIdlCodesAndSixProfileKeys() {
        final double[] utilisations = {12.5, 50, 88};
        final CpuState[] states = {CpuState.LOW, CpuState.MEDIUM, CpuState.HIGH};
        final Set<Integer> codes = new HashSet<>();
        final List<CpuStatePair> canonical = new ArrayList<>();
        for (int c = 0; c < 3; c++) {
            for (int p = 0; p < 3; p++) {
                final CpuStatePair pair = new CpuStatePair(plain.classifyPlain(utilisations[c]), plain.classifyPlain(utilisations[p]));
                assertEquals(new CpuStatePair(states[c], states[p]), pair);
                assertEquals(10 * (c + 1) + (p + 1), pair.code(), "IDL code 10 * client + peer");
                codes.add(pair.code());
                canonical.add(pair.canonical());
                assertEquals(pair.canonical(), new CpuStatePair(pair.peer(), pair.client()).canonical(), "symmetric key");
            }
        }
        assertEquals(9, codes.size());
        assertEquals(Set.copyOf(CpuStatePair.PROFILED_PAIRS), Set.copyOf(canonical));
        assertEquals(0, new CpuStatePair(CpuState.UNKNOWN, CpuState.HIGH).code());
    }

    /** Where each state may stay, with the default band: the boundary ± 1 point (half the band). */
    private static CpuState expectedWithBand(final double u, final CpuState current) {
        switch (current) {
            case LOW:
                return u >= 67.5 ? CpuState.HIGH : u >= 34.5 ? CpuState.MEDIUM : CpuState.LOW;
            case MEDIUM:
                return u < 32.5 ? CpuState.LOW : u >= 67.5 ? CpuState.HIGH : CpuState.MEDIUM;
            case HIGH:
                return u < 32.5 ? CpuState.LOW : u < 65.5 ? CpuState.MEDIUM : CpuState.HIGH;
            default:
                throw new AssertionError(current);
        }
    }

    @Test
    void theBandHoldsAStateUntilTheUtilisationIsClearOfTheBoundaryByHalfTheBand() {
        for (final CpuState current : new CpuState[] {CpuState.LOW, CpuState.MEDIUM, CpuState.HIGH}) {
            for (int tenths = 0; tenths <= 1000; tenths++) {
                final double u = tenths / 10.0;
                assertEquals(expectedWithBand(u, current), withBand.classify(u, current), "from " + current + " at " + u + " %");
            }
        }
    }

    @Test
    void utilisationHoveringAtAThresholdDoesNotFlapTheState() {
        final Random random = new Random(33);
        for (final double boundary : new double[] {33.5, 66.5}) {
            CpuState state = withBand.classify(boundary - 0.2, null);
            final CpuState start = state;
            int changes = 0;
            for (int poll = 0; poll < 10_000; poll++) {
                // Within the band: boundary ± just under 1 point.
                final CpuState next = withBand.classify(boundary + (random.nextDouble() * 2 - 1) * 0.999, state);
                changes += next == state ? 0 : 1;
                state = next;
            }
            assertEquals(0, changes, "hovering at " + boundary + " %");
            assertEquals(start, state);
        }
        // Without the band the same hovering flaps.
        CpuState state = plain.classify(33, null);
        int flaps = 0;
        for (final double u : new double[] {34, 33, 34, 33}) {
            final CpuState next = plain.classify(u, state);
            flaps += next == state ? 0 : 1;
            state = next;
        }
        assertEquals(4, flaps);
    }

    @Test
    void aClearJumpChangesTheStateAtOnceEvenAcrossTwoBands() {
        assertEquals(CpuState.HIGH, withBand.classify(80, CpuState.LOW));
        assertEquals(CpuState.LOW, withBand.classify(5, CpuState.HIGH));
        assertEquals(CpuState.MEDIUM, withBand.classify(34.5, CpuState.LOW));
        assertEquals(CpuState.MEDIUM, withBand.classify(65.4, CpuState.HIGH));
        // Over the upper boundary but inside its band: only as far as MEDIUM.
        assertEquals(CpuState.MEDIUM, withBand.classify(67, CpuState.LOW));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(doubles = {Double.NaN, -0.1, 100.01, Double.POSITIVE_INFINITY})
    void badUtilisationsAreRefusedWithTheValue(final double percent) {
        final IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
            () -> withBand.classify(percent, CpuState.LOW));
        assertTrue(error.getMessage().contains(Double.toString(percent)), error.getMessage());
        assertThrows(IllegalArgumentException.class, () -> withBand.classify(percent, null));
    }

    @Test
    void badThresholdsAreRefusedWithTheValue() {
        final IllegalArgumentException order = assertThrows(IllegalArgumentException.class, () -> new CpuThresholds(66, 33, 2));
        assertTrue(order.getMessage().contains("66.0") && order.getMessage().contains("33.0"), order.getMessage());
        final IllegalArgumentException negative = assertThrows(IllegalArgumentException.class, () -> new CpuThresholds(33, 66, -1));
        assertTrue(negative.getMessage().contains("-1.0"), negative.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new CpuThresholds(33, 36, 5), "wider than MEDIUM");
        assertThrows(IllegalArgumentException.class, () -> new CpuThresholds(33, 98, 2), "wider than HIGH (98.5..100)");
        assertThrows(IllegalArgumentException.class, () -> new CpuThresholds(Double.NaN, 66, 2));
        assertThrows(IllegalArgumentException.class, () -> new CpuThresholds(33, 66, Double.NaN));
        assertThrows(IllegalArgumentException.class, () -> new CpuThresholds(33, 100, 0));
        assertThrows(NullPointerException.class, () -> new CpuStateClassifier(null));
    }

    @Test
    void defaultThresholdsAreTheThesisBandsWithATwoPointBand() {
        assertEquals(new CpuThresholds(33, 66, 2), CpuThresholds.DEFAULT);
        assertEquals(33.5, CpuThresholds.DEFAULT.lowMediumBoundaryPercent());
        assertEquals(66.5, CpuThresholds.DEFAULT.mediumHighBoundaryPercent());
    }
}
