package org.latencyserver.core.path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.latencyserver.core.histogram.BoundBeyondHistogramException;
import org.latencyserver.core.histogram.EmptyHistogramException;
import org.latencyserver.core.histogram.LatencyHistogram;

/** What cannot be composed is refused with the hop named, as a single hop's bound is refused. */
class PathCompositionRefusalsTest {

    private static final long MS = 1_000_000L;
    private static final LatencyHistogram GOOD = LatencyHistogram.uniform(MS, new long[] {60, 30, 10}, 0);

    @Test
    void aUnionBoundWhoseHopQuantileLiesInTheOverflowNamesTheHop() {
        // 10 of 100 above the last edge: fine for the hop's own 90 % bound, not for 98 % (2 hops at 96 %).
        final LatencyHistogram overflowing = LatencyHistogram.uniform(MS, new long[] {90}, 10);
        final PathComposition path = PathComposition.of(List.of(new PathHop("sw1-p3", GOOD),
            new PathHop("sw2-p1", overflowing)));
        final HopBeyondHistogramException refused = assertThrows(HopBeyondHistogramException.class,
            () -> path.unionBound(96));
        assertEquals(List.of("sw2-p1"), refused.hopNames());
        assertTrue(refused.getMessage().contains("hop sw2-p1") && refused.getMessage().contains("98 %")
            && refused.getMessage().contains("10 are above it"), refused.getMessage());
        assertTrue(refused instanceof BoundBeyondHistogramException, "caught where a hop's own bound is");
        assertEquals(2 * MS + MS, path.unionBound(80).boundNanos(), "at 80 % each hop is read at 90 %: 2 ms + 1 ms");
    }

    @Test
    void anIndependentBoundCountsOverflowAsLongAndRefusesOnlyWhenTooMuchIsThere() {
        final LatencyHistogram someOverflow = LatencyHistogram.uniform(MS, new long[] {99}, 1);
        final LatencyHistogram muchOverflow = LatencyHistogram.uniform(MS, new long[] {90}, 10);
        final PathComposition tolerable = PathComposition.of(List.of(new PathHop("a", GOOD), new PathHop("b", someOverflow)));
        // The path: 2 ms (59.4 %), 3 ms (29.7 %), 4 ms (9.9 %), and 1 % with b above its last edge.
        assertEquals(4 * MS, tolerable.independentBound(96, 2).boundNanos(), "4 % allowed above: 1 % is overflow");
        assertEquals(3 * MS, tolerable.independentBound(85, 2).boundNanos(), "15 % allowed above: 9.9 % + 1 %");
        final PathComposition tooMuch = PathComposition.of(List.of(new PathHop("a", muchOverflow), new PathHop("b", GOOD),
            new PathHop("c", someOverflow)));
        final HopBeyondHistogramException refused = assertThrows(HopBeyondHistogramException.class,
            () -> tooMuch.independentBound(96));
        assertEquals(List.of("a", "c"), refused.hopNames());
        assertTrue(refused.getMessage().contains("hop a has 10 of 100"), refused.getMessage());
    }

    @Test
    void aHopWithOnlyOverflowIsRefusedByTheIndependentBound() {
        final LatencyHistogram allAbove = LatencyHistogram.uniform(MS, new long[] {0, 0}, 5);
        final PathComposition path = PathComposition.of(List.of(new PathHop("a", GOOD), new PathHop("far", allAbove)));
        final HopBeyondHistogramException refused = assertThrows(HopBeyondHistogramException.class,
            () -> path.independentBound(1e-9));
        assertEquals(List.of("far"), refused.hopNames());
    }

    @Test
    void anEmptyHopIsNamedByEveryMethodAndTheMean() {
        final PathComposition path = PathComposition.of(List.of(new PathHop("sw1-p3", GOOD),
            new PathHop("sw2-p7", LatencyHistogram.uniform(MS, new long[3], 0))));
        for (final Runnable asked : List.<Runnable>of(() -> path.unionBound(96), () -> path.independentBound(96),
            path::mean)) {
            final EmptyHistogramException refused = assertThrows(EmptyHistogramException.class, asked::run);
            assertTrue(refused.getMessage().contains("hop sw2-p7 has no samples"), refused.getMessage());
        }
    }

    @Test
    void theMeanIsRefusedWhenAHopHasSamplesOfUnknownValue() {
        final PathComposition path = PathComposition.of(List.of(new PathHop("sw1-p3", GOOD),
            new PathHop("sw2-p1", LatencyHistogram.uniform(MS, new long[] {99}, 1))));
        final HopBeyondHistogramException refused = assertThrows(HopBeyondHistogramException.class, path::mean);
        assertEquals(List.of("sw2-p1"), refused.hopNames());
        assertTrue(refused.getMessage().contains("1 of 100 samples above its last edge"), refused.getMessage());
    }

    @Test
    void aHopWithTooFewSamplesForItsShareIsNoted() {
        // 3 hops at 96 %: each at 98.67 %, which 50 samples cannot tell from their maximum.
        final LatencyHistogram fifty = LatencyHistogram.uniform(MS, new long[] {40, 9, 1}, 0);
        final PathComposition path = PathComposition.of(List.of(new PathHop("a", GOOD), new PathHop("b", GOOD),
            new PathHop("thin", fifty)));
        final PathBound union = path.unionBound(96);
        assertEquals(1, union.notes().size(), union.notes().toString());
        assertTrue(union.notes().get(0).startsWith("hop thin: 50 samples are too few"), union.notes().get(0));
        assertEquals(3 * MS + 3 * MS + 3 * MS, union.boundNanos(), "100 samples: 99 needed, the 3 ms bin; 50: all 50");
    }

    @Test
    void badArgumentsAreRefusedSayingWhichAndWhat() {
        final PathComposition path = PathComposition.of(List.of(new PathHop("a", GOOD)));
        for (final double percent : new double[] {0, -1, 100.5, Double.NaN}) {
            final IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> path.unionBound(percent));
            assertTrue(refused.getMessage().contains("bound percentage must be in (0, 100], was " + percent),
                refused.getMessage());
            assertThrows(IllegalArgumentException.class, () -> path.independentBound(percent));
        }
        assertTrue(assertThrows(IllegalArgumentException.class, () -> path.independentBound(96, 0)).getMessage()
            .contains("grid cells must be in 1..65536, was 0"));
        assertThrows(IllegalArgumentException.class, () -> path.independentBound(96, PathComposition.MAX_GRID_CELLS + 1));
        assertThrows(IllegalArgumentException.class, () -> path.bound(null, 96));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> PathComposition.of(List.of())).getMessage()
            .contains("at least one hop"));
        assertTrue(assertThrows(IllegalArgumentException.class,
            () -> PathComposition.of(Arrays.asList(new PathHop("a", GOOD), null))).getMessage().contains("hop 1"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new PathHop(" ", GOOD)).getMessage()
            .contains("a hop needs a name"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new PathHop("sw1-p3", null)).getMessage()
            .contains("hop sw1-p3 has no histogram"));
    }

    @Test
    void boundDispatchesToTheNamedMethod() {
        final PathComposition path = PathComposition.of(List.of(new PathHop("a", GOOD), new PathHop("b", GOOD)));
        assertEquals(path.unionBound(90), path.bound(BoundMethod.UNION, 90));
        assertEquals(path.independentBound(90), path.bound(BoundMethod.INDEPENDENT, 90));
    }
}
