package org.latencyserver.core.histogram;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.latencyserver.core.stats.ConfidenceInterval;
import org.latencyserver.core.stats.OrderStatisticInterval;
import org.latencyserver.core.stats.QuantileConfidence;

class HistogramQuantilesTest {

    private static final long MS = 1_000_000L;

    @Test
    void intervalSpansTheBinsHoldingTheTwoRanks() {
        // 1000 samples, 100 in each of ten 1 ms bins: the median's ranks lie near 469 and 532.
        final long[] counts = new long[10];
        java.util.Arrays.fill(counts, 100);
        final LatencyHistogram histogram = LatencyHistogram.uniform(MS, counts, 0);
        final OrderStatisticInterval ranks = QuantileConfidence.ranks(1000, 0.5, 0.95);
        final ConfidenceInterval interval = HistogramQuantiles.quantileIntervalNanos(histogram, 0.5, 0.95);
        assertEquals(((ranks.lowerRank() - 1) / 100) * MS, (long) interval.lower());
        assertEquals(((ranks.upperRank() - 1) / 100 + 1) * MS, (long) interval.upper());
        assertTrue(interval.contains(histogram.boundAt(50).boundNanos()));
    }

    @Test
    void tooFewSamplesForTheLevelIsRefusedWithTheMinimumNeeded() {
        final LatencyHistogram histogram = LatencyHistogram.uniform(MS, new long[] {5}, 0);
        final IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
            () -> HistogramQuantiles.quantileIntervalNanos(histogram, 0.96, 0.95));
        assertTrue(error.getMessage().contains("need at least"), error.getMessage());
    }
}
