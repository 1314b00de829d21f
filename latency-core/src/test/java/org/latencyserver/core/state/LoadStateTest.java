package org.latencyserver.core.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class LoadStateTest {

    private final CpuStateClassifier plain = new CpuStateClassifier(new CpuThresholds(33, 66, 0));
    private final CpuStateClassifier withBand = new CpuStateClassifier(CpuThresholds.DEFAULT);

    @ParameterizedTest(name = "{0} % is {1}")
    @CsvSource({"0, LOW", "33, LOW", "33.4, LOW", "34, MEDIUM", "66, MEDIUM", "67, HIGH", "100, HIGH"})
    void integerUtilisationsFallInTheThesisBands(final double percent, final CpuState expected) {
        assertEquals(expected, plain.classify(percent, CpuState.UNKNOWN));
        assertEquals(expected, withBand.classify(percent, null), "no current state: plain bands");
    }

    @Test
    void allNineCpuPairsAreDistinctStatesWithSymmetricProfileKeys() {
        final double[] levels = {10, 50, 90};
        final List<CpuStatePair> pairs = new ArrayList<>();
        for (final double client : levels) {
            for (final double peer : levels) {
                pairs.add(new CpuStatePair(plain.classifyPlain(client), plain.classifyPlain(peer)));
            }
        }
        assertEquals(9, pairs.stream().distinct().count());
        assertEquals(9, pairs.stream().map(CpuStatePair::code).distinct().count());
        assertEquals(6, pairs.stream().map(CpuStatePair::canonical).distinct().count());
        assertTrue(CpuStatePair.PROFILED_PAIRS.containsAll(pairs.stream().map(CpuStatePair::canonical).toList()));
        assertEquals(13, new CpuStatePair(CpuState.LOW, CpuState.HIGH).code());
        assertEquals(new CpuStatePair(CpuState.LOW, CpuState.HIGH), new CpuStatePair(CpuState.HIGH, CpuState.LOW).canonical());
        assertEquals(0, new CpuStatePair(CpuState.UNKNOWN, CpuState.HIGH).code());
    }

    @Test
    void utilisationHoveringAtAThresholdDoesNotFlapTheState() {
        CpuState state = withBand.classify(33, null);
        assertEquals(CpuState.LOW, state);
        for (final double percent : new double[] {34, 33, 34.4, 33.1, 34, 32.6, 34.3}) {
            state = withBand.classify(percent, state);
            assertEquals(CpuState.LOW, state, "at " + percent + " %");
        }
        state = withBand.classify(36, state);
        assertEquals(CpuState.MEDIUM, state);
        for (final double percent : new double[] {33, 34, 32.6, 33.9}) {
            state = withBand.classify(percent, state);
            assertEquals(CpuState.MEDIUM, state, "at " + percent + " %");
        }
        assertEquals(CpuState.LOW, withBand.classify(32.4, state));
    }

    @Test
    void aClearJumpChangesTheStateAtOnceEvenAcrossTwoBands() {
        assertEquals(CpuState.HIGH, withBand.classify(80, CpuState.LOW));
        assertEquals(CpuState.LOW, withBand.classify(5, CpuState.HIGH));
        // Just over the upper boundary but inside its band: only as far as MEDIUM.
        assertEquals(CpuState.MEDIUM, withBand.classify(67, CpuState.LOW));
    }

    @Test
    void badUtilisationsAndThresholdsAreRefusedWithTheValue() {
        final IllegalArgumentException nan = assertThrows(IllegalArgumentException.class, () -> withBand.classify(Double.NaN, null));
        assertTrue(nan.getMessage().contains("NaN"));
        assertThrows(IllegalArgumentException.class, () -> withBand.classify(100.5, CpuState.LOW));
        assertThrows(IllegalArgumentException.class, () -> withBand.classify(-1, CpuState.LOW));
        final IllegalArgumentException order = assertThrows(IllegalArgumentException.class, () -> new CpuThresholds(66, 33, 2));
        assertTrue(order.getMessage().contains("66"), order.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new CpuThresholds(33, 66, -1));
        assertThrows(IllegalArgumentException.class, () -> new CpuThresholds(33, 36, 5));
    }

    /** Thesis section 4.2.4: the port state changes that matter. */
    @Test
    void portStateChangesOnCrossingNinetyAndOnAnyChangeAboveIt() {
        final PortStateClassifier classifier = new PortStateClassifier(90, 0);
        PortState state = classifier.classify(50, PortState.UNKNOWN);
        assertEquals(PortState.NORMAL, state);
        assertEquals(PortState.NORMAL, classifier.classify(90, state), "90 % is not above 90 %");
        final PortState up = classifier.classify(95, state);
        assertEquals(PortState.loaded(95), up, "crossing 90 % upwards");
        final PortState changed = classifier.classify(97, up);
        assertEquals(PortState.loaded(97), changed);
        assertTrue(new ConnectionLoadState(pair(), changed).isStateChangeFrom(new ConnectionLoadState(pair(), up)),
            "any change while above 90 %");
        assertEquals(PortState.NORMAL, classifier.classify(85, changed), "crossing 90 % downwards");
        assertFalse(new ConnectionLoadState(pair(), PortState.NORMAL)
            .isStateChangeFrom(new ConnectionLoadState(pair(), classifier.classify(40, PortState.NORMAL))));
        for (int percent = 91; percent <= 100; percent++) {
            assertEquals(percent, classifier.classify(percent, PortState.NORMAL).code());
        }
        assertEquals(0, PortState.NORMAL.code());
        assertEquals(-1, PortState.UNKNOWN.code());
        assertEquals(PortState.loaded(93), PortState.fromCode(93));
        assertThrows(IllegalArgumentException.class, () -> PortState.fromCode(50));
    }

    @Test
    void portBandHoldsTheStateNearNinetyPercent() {
        final PortStateClassifier classifier = new PortStateClassifier(90, 2);
        assertEquals(PortState.NORMAL, classifier.classify(91, PortState.NORMAL), "91 < 90.5 + 1");
        assertEquals(PortState.loaded(92), classifier.classify(92, PortState.NORMAL));
        assertEquals(PortState.loaded(91), classifier.classify(90, PortState.loaded(92)), "held loaded, reads 91 %");
        assertEquals(PortState.NORMAL, classifier.classify(89, PortState.loaded(92)));
    }

    @Test
    void measurementsDueTooSoonAreDeferredToTheEarliestAllowedTime() {
        final MeasurementSchedule schedule = new MeasurementSchedule(5_000_000_000L);
        assertTrue(schedule.decide(100, MeasurementSchedule.NEVER).measureNow());
        final MeasurementSchedule.Decision tooSoon = schedule.decide(2_000_000_000L, 1_000_000_000L);
        assertFalse(tooSoon.measureNow());
        assertEquals(6_000_000_000L, tooSoon.notBeforeNanos());
        assertTrue(schedule.decide(6_000_000_000L, 1_000_000_000L).measureNow());
        // Across the wrap of a nanosecond clock.
        assertFalse(schedule.decide(Long.MIN_VALUE + 10, Long.MAX_VALUE - 10).measureNow());
        assertTrue(new MeasurementSchedule(0).decide(5, 5).measureNow());
        assertThrows(IllegalArgumentException.class, () -> new MeasurementSchedule(-1));
    }

    private static CpuStatePair pair() {
        return new CpuStatePair(CpuState.LOW, CpuState.LOW);
    }
}
