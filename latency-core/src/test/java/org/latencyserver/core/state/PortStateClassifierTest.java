package org.latencyserver.core.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PortStateClassifierTest {

    private static final CpuStatePair LOW_LOW = new CpuStatePair(CpuState.LOW, CpuState.LOW);

    /** Thesis section 4.2.4: crossing 90 % either way, or any change while above 90 %. */
    private static boolean thesisStateChange(final int from, final int to) {
        return (from > 90) != (to > 90) || (from > 90 && from != to);
    }

    @Test
    void everyPortStateChangeOfTheThesisAndNoOtherIsAStateChange() {
        final PortStateClassifier classifier = new PortStateClassifier(0);
        for (int from = 0; from <= 100; from++) {
            final PortState before = classifier.classify(from, PortState.UNKNOWN);
            for (int to = 0; to <= 100; to++) {
                final PortState after = classifier.classify(to, before);
                assertEquals(thesisStateChange(from, to),
                    new ConnectionLoadState(LOW_LOW, after).isStateChangeFrom(new ConnectionLoadState(LOW_LOW, before)),
                    from + " % -> " + to + " %");
            }
        }
    }

    @Test
    void portCodesAreZeroForNormalThePercentWhenLoadedAndMinusOneWhenUnknown() {
        final PortStateClassifier classifier = new PortStateClassifier(0);
        for (int percent = 0; percent <= 100; percent++) {
            final PortState state = classifier.classify(percent, null);
            assertEquals(percent > 90 ? percent : 0, state.code(), percent + " %");
            assertEquals(state, PortState.fromCode(state.code()));
        }
        assertEquals(-1, PortState.UNKNOWN.code());
        assertEquals(PortState.UNKNOWN, PortState.fromCode(-1));
        assertEquals(PortState.loaded(95), classifier.classify(94.6, PortState.NORMAL), "rounded to whole percent");
    }

    @ParameterizedTest(name = "code {0}")
    @ValueSource(ints = {-2, 1, 50, 90, 102})
    void codesOutsideTheIdlEncodingAreRefusedWithTheCode(final int code) {
        final IllegalArgumentException error = assertThrows(IllegalArgumentException.class, () -> PortState.fromCode(code));
        assertTrue(error.getMessage().contains(Integer.toString(code)), error.getMessage());
    }

    @Test
    void loadedStatesCarryNinetyOneToOneHundredAndOthersNone() {
        assertThrows(IllegalArgumentException.class, () -> PortState.loaded(90));
        assertThrows(IllegalArgumentException.class, () -> PortState.loaded(101));
        assertThrows(IllegalArgumentException.class, () -> new PortState(PortState.Kind.NORMAL, 50));
        assertThrows(IllegalArgumentException.class, () -> new PortState(null, 0));
    }

    @Test
    void theDefaultOnePointBandHoldsTheStateNearNinetyPercent() {
        final PortStateClassifier classifier = PortStateClassifier.withDefaults();
        assertEquals(PortState.NORMAL, classifier.classify(90.9, PortState.NORMAL), "below 90.5 + 0.5");
        assertEquals(PortState.loaded(91), classifier.classify(91, PortState.NORMAL), "91 % is clear of the band");
        assertEquals(PortState.loaded(91), classifier.classify(90.2, PortState.loaded(93)), "held loaded, reads 91 %");
        assertEquals(PortState.NORMAL, classifier.classify(89.9, PortState.loaded(93)), "clear of the band below");
        assertEquals(PortState.loaded(91), classifier.classify(90.6, null), "no current state: plain threshold 90.5");
        final Random random = new Random(90);
        for (final PortState start : new PortState[] {PortState.NORMAL, PortState.loaded(91)}) {
            PortState state = start;
            for (int poll = 0; poll < 10_000; poll++) {
                state = classifier.classify(90 + random.nextDouble() * 0.999, state);
                assertEquals(start, state, "hovering in [90, 91) from " + start);
            }
        }
    }

    @Test
    void aWiderBandNeedsAClearerCrossing() {
        final PortStateClassifier classifier = new PortStateClassifier(90, 2);
        assertEquals(PortState.NORMAL, classifier.classify(91, PortState.NORMAL), "91 < 90.5 + 1");
        assertEquals(PortState.loaded(92), classifier.classify(92, PortState.NORMAL));
        assertEquals(PortState.loaded(91), classifier.classify(90, PortState.loaded(92)));
        assertEquals(PortState.NORMAL, classifier.classify(89, PortState.loaded(92)));
        assertEquals(PortState.loaded(99), classifier.classify(99, PortState.NORMAL), "a clear jump at once");
    }

    @Test
    void badUtilisationsBandsAndThresholdsAreRefusedWithTheValue() {
        final PortStateClassifier classifier = PortStateClassifier.withDefaults();
        final IllegalArgumentException nan = assertThrows(IllegalArgumentException.class,
            () -> classifier.classify(Double.NaN, PortState.NORMAL));
        assertTrue(nan.getMessage().contains("NaN"), nan.getMessage());
        assertThrows(IllegalArgumentException.class, () -> classifier.classify(100.5, PortState.NORMAL));
        assertThrows(IllegalArgumentException.class, () -> classifier.classify(-1, PortState.NORMAL));
        final IllegalArgumentException band = assertThrows(IllegalArgumentException.class, () -> new PortStateClassifier(10));
        assertTrue(band.getMessage().contains("10.0"), band.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new PortStateClassifier(-0.5));
        final IllegalArgumentException threshold = assertThrows(IllegalArgumentException.class, () -> new PortStateClassifier(80, 1));
        assertTrue(threshold.getMessage().contains("80"), threshold.getMessage());
    }

    @Test
    void withBandsALoadedPortIsItsBandNamedByTheUpperEdge() {
        final PortStateClassifier classifier = new PortStateClassifier(90, 1.0, PortBands.of(java.util.List.of(95, 98)));
        assertEquals(PortState.NORMAL, classifier.classify(90, null));
        assertEquals(PortState.loaded(95), classifier.classify(92, null));
        assertEquals(PortState.loaded(98), classifier.classify(97, null));
        assertEquals(PortState.loaded(100), classifier.classify(99.4, null));
    }

    @Test
    void withBandsAPortJitteringAPointAcrossABandEdgeStaysOneState() {
        final PortStateClassifier classifier = new PortStateClassifier(90, 1.0, PortBands.of(java.util.List.of(95, 98)));
        PortState state = classifier.classify(100, null);
        assertEquals(PortState.loaded(100), state);
        // A real port at its rate reads 98..100 from poll to poll: one state, not a new one per point.
        for (final int reading : new int[] {98, 100, 99, 98, 100, 98, 99}) {
            state = classifier.classify(reading, state);
            assertEquals(PortState.loaded(100), state, "at " + reading + " %");
        }
        assertEquals(PortState.loaded(98), classifier.classify(97, state), "a clear step down leaves the band");
        PortState middle = PortState.loaded(98);
        for (final int reading : new int[] {95, 98, 96, 95, 98}) {
            middle = classifier.classify(reading, middle);
            assertEquals(PortState.loaded(98), middle, "at " + reading + " %");
        }
        assertEquals(PortState.loaded(95), classifier.classify(94, middle));
        assertEquals(PortState.loaded(100), classifier.classify(99, PortState.loaded(95)), "a clear step up changes at once");
        assertEquals(PortState.NORMAL, classifier.classify(89, PortState.loaded(95)));
    }

    @Test
    void withBandsAStateKeptFromTheThesisSchemeIsReclassifiedPlainly() {
        final PortStateClassifier classifier = new PortStateClassifier(90, 1.0, PortBands.of(java.util.List.of(95, 98)));
        assertEquals(PortState.loaded(98), classifier.classify(97, PortState.loaded(97)));
    }

    @Test
    void withBandsNoBoundaryFlapsUnderJitterOfHalfTheHysteresisBand() {
        final PortStateClassifier classifier = new PortStateClassifier(90, 2.0, PortBands.of(java.util.List.of(95, 98)));
        final Random random = new Random(7);
        for (final double centre : new double[] {90.5, 95.5, 98.5}) {
            PortState state = classifier.classify(centre, null);
            int changes = 0;
            for (int i = 0; i < 1000; i++) {
                final PortState next = classifier.classify(centre + (random.nextDouble() - 0.5) * 1.9, state);
                changes += next.equals(state) ? 0 : 1;
                state = next;
            }
            assertTrue(changes <= 1, changes + " changes around " + centre);
        }
    }
}
