package org.latencyserver.core.histogram;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Building a histogram: validation, copies, accessors, and the derived counts. */
class LatencyHistogramConstructionTest {

    private static final long MS = 1_000_000L;

    @Test
    void edgesOutOfOrderAreRefusedNamingTheIndexAndValues() {
        final IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
            () -> LatencyHistogram.of(new long[] {1, 3, 2}, new long[] {1, 1, 1}, 0));
        assertTrue(error.getMessage().contains("edge[2] = 2 ns"), error.getMessage());
        assertTrue(error.getMessage().contains("edge[1] = 3 ns"), error.getMessage());
        final IllegalArgumentException repeated = assertThrows(IllegalArgumentException.class,
            () -> LatencyHistogram.of(new long[] {5, 5}, new long[] {1, 1}, 0));
        assertTrue(repeated.getMessage().contains("edge[1]"), repeated.getMessage());
    }

    @Test
    void nonPositiveEdgeIsRefusedNamingTheIndex() {
        final IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
            () -> LatencyHistogram.of(new long[] {0, 4}, new long[] {1, 1}, 0));
        assertTrue(error.getMessage().contains("edge[0]") && error.getMessage().contains("was 0"), error.getMessage());
    }

    @Test
    void negativeCountIsRefusedNamingTheIndexAndValue() {
        final IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
            () -> LatencyHistogram.of(new long[] {1, 2}, new long[] {1, -4}, 0));
        assertTrue(error.getMessage().contains("count[1]") && error.getMessage().contains("-4"), error.getMessage());
        final IllegalArgumentException overflow = assertThrows(IllegalArgumentException.class,
            () -> LatencyHistogram.of(new long[] {1}, new long[] {1}, -7));
        assertTrue(overflow.getMessage().contains("-7"), overflow.getMessage());
    }

    @Test
    void mismatchedLengthsAreRefusedNamingBothLengths() {
        final IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
            () -> LatencyHistogram.of(new long[] {1, 2}, new long[] {1}, 0));
        assertTrue(error.getMessage().contains("2 edges, 1 counts"), error.getMessage());
    }

    @Test
    void noBinsNullArraysAndBadWidthsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> LatencyHistogram.of(new long[0], new long[0], 0));
        assertThrows(IllegalArgumentException.class, () -> LatencyHistogram.of(null, new long[] {1}, 0));
        assertThrows(IllegalArgumentException.class, () -> LatencyHistogram.uniform(0, new long[] {1}, 0));
        assertThrows(IllegalArgumentException.class, () -> LatencyHistogram.uniform(MS, new long[0], 0));
        final IllegalArgumentException tooWide = assertThrows(IllegalArgumentException.class,
            () -> LatencyHistogram.uniform(Long.MAX_VALUE / 2, new long[3], 0));
        assertTrue(tooWide.getMessage().contains("overflows"), tooWide.getMessage());
    }

    @Test
    void totalCountBeyondALongIsRefused() {
        assertThrows(IllegalArgumentException.class,
            () -> LatencyHistogram.of(new long[] {1, 2}, new long[] {Long.MAX_VALUE, 1}, 0));
        assertThrows(IllegalArgumentException.class,
            () -> LatencyHistogram.of(new long[] {1}, new long[] {Long.MAX_VALUE}, 1));
    }

    @Test
    void arraysAreCopiedSoTheHistogramCannotChangeAfterwards() {
        final long[] edges = {MS, 2 * MS};
        final long[] counts = {3, 4};
        final LatencyHistogram histogram = LatencyHistogram.of(edges, counts, 1);
        edges[1] = 9 * MS;
        counts[0] = 100;
        assertEquals(2 * MS, histogram.upperEdgeNanos(1));
        assertEquals(3, histogram.count(0));
        assertEquals(8, histogram.totalCount());
    }

    @Test
    void uniformBinsRunFromZeroInEqualSteps() {
        final LatencyHistogram histogram = LatencyHistogram.uniform(MS, new long[100], 0);
        assertEquals(100, histogram.binCount());
        assertEquals(0, histogram.lowerEdgeNanos(0));
        assertEquals(MS, histogram.upperEdgeNanos(0));
        assertEquals(42 * MS, histogram.lowerEdgeNanos(42));
        assertEquals(43 * MS, histogram.upperEdgeNanos(42));
        assertEquals(100 * MS, histogram.lastEdgeNanos());
        assertThrows(IndexOutOfBoundsException.class, () -> histogram.lowerEdgeNanos(100));
    }

    @Test
    void countAtOrBelowCountsOnlyWholeBinsUpToTheValue() {
        final LatencyHistogram histogram = LatencyHistogram.uniform(MS, new long[] {2, 3, 5}, 7);
        assertEquals(0, histogram.countAtOrBelow(-5));
        assertEquals(0, histogram.countAtOrBelow(MS - 1));
        assertEquals(2, histogram.countAtOrBelow(MS));
        assertEquals(2, histogram.countAtOrBelow(2 * MS - 1));
        assertEquals(5, histogram.countAtOrBelow(2 * MS));
        assertEquals(10, histogram.countAtOrBelow(3 * MS));
        assertEquals(10, histogram.countAtOrBelow(Long.MAX_VALUE));
        assertEquals(17, histogram.totalCount());
        assertEquals(5, histogram.cumulativeCount(1));
    }

    @Test
    void binOfPlacesAValueInItsHalfOpenBin() {
        final LatencyHistogram histogram = LatencyHistogram.uniform(MS, new long[] {2, 3, 5}, 0);
        assertEquals(0, histogram.binOf(1));
        assertEquals(0, histogram.binOf(MS));
        assertEquals(1, histogram.binOf(MS + 1));
        assertEquals(2, histogram.binOf(3 * MS));
        assertEquals(-1, histogram.binOf(3 * MS + 1));
    }

    @Test
    void binOfRankFindsTheBinHoldingTheRankedSample() {
        final LatencyHistogram histogram = LatencyHistogram.uniform(MS, new long[] {2, 0, 3}, 1);
        assertEquals(0, histogram.binOfRank(1));
        assertEquals(0, histogram.binOfRank(2));
        assertEquals(2, histogram.binOfRank(3));
        assertEquals(2, histogram.binOfRank(5));
        assertEquals(-1, histogram.binOfRank(6));
        assertThrows(IllegalArgumentException.class, () -> histogram.binOfRank(0));
        assertThrows(IllegalArgumentException.class, () -> histogram.binOfRank(7));
    }

    @Test
    void midpointMeanWeighsEachBinAtItsCentreAndLeavesOutTheOverflow() {
        final LatencyHistogram histogram = LatencyHistogram.uniform(MS, new long[] {1, 0, 3}, 9);
        assertEquals((0.5 * MS + 3 * 2.5 * MS) / 4, histogram.meanNanosFromBinMidpoints(), 1e-6);
        final LatencyHistogram uneven = LatencyHistogram.of(new long[] {10, 30}, new long[] {1, 1}, 0);
        assertEquals((5 + 20) / 2.0, uneven.meanNanosFromBinMidpoints(), 1e-12);
    }

    @Test
    void equalHistogramsAreEqualAndDifferentOnesAreNot() {
        final LatencyHistogram a = LatencyHistogram.uniform(MS, new long[] {1, 2}, 3);
        final LatencyHistogram b = LatencyHistogram.of(new long[] {MS, 2 * MS}, new long[] {1, 2}, 3);
        assertEquals(a, b);
        assertEquals(a.hashCode(), b.hashCode());
        assertNotEquals(a, LatencyHistogram.uniform(MS, new long[] {1, 2}, 4));
        assertNotEquals(a, LatencyHistogram.uniform(MS, new long[] {2, 1}, 3));
        assertNotEquals(a, LatencyHistogram.uniform(2 * MS, new long[] {1, 2}, 3));
        assertTrue(a.toString().contains("n=6"), a.toString());
    }

    @Test
    void boundResultRefusesImpossibleComponents() {
        assertThrows(IllegalArgumentException.class, () -> new BoundResult(0, 1, 1, 50));
        assertThrows(IllegalArgumentException.class, () -> new BoundResult(MS, 2, 1, 50));
        assertThrows(IllegalArgumentException.class, () -> new BoundResult(MS, 1, 1, 0));
        assertEquals(0.25, new BoundResult(MS, 1, 4, 20).proportionAtOrBelow());
        assertEquals(1.5, new BoundResult(1_500_000L, 1, 4, 20).boundMillis());
    }

    @Test
    void exportedEdgesAndCountsAreCopiesInEdgeOrder() {
        final LatencyHistogram histogram = LatencyHistogram.of(new long[] {1_000, 2_000, 5_000}, new long[] {3, 0, 7}, 2);
        final long[] edges = histogram.upperEdgesNanos();
        final long[] counts = histogram.counts();
        org.junit.jupiter.api.Assertions.assertArrayEquals(new long[] {1_000, 2_000, 5_000}, edges);
        org.junit.jupiter.api.Assertions.assertArrayEquals(new long[] {3, 0, 7}, counts);
        edges[0] = 99;
        counts[2] = 99;
        org.junit.jupiter.api.Assertions.assertEquals(1_000, histogram.upperEdgeNanos(0), "the histogram stays immutable");
        org.junit.jupiter.api.Assertions.assertEquals(7, histogram.count(2));
    }
}
