package org.latencyserver.core.histogram;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Random;
import org.apache.commons.math3.distribution.BinomialDistribution;
import org.junit.jupiter.api.Test;
import org.latencyserver.core.stats.ConfidenceInterval;

/** The distribution-free interval of a quantile, mapped onto bin edges. */
class HistogramQuantilesTest {

    private static final long MS = 1_000_000L;

    @Test
    void intervalSpansFromTheBinOfTheLowerRankToTheBinOfTheUpperRank() {
        // 1000 samples, 100 in each of ten 1 ms bins.
        final long[] counts = new long[10];
        Arrays.fill(counts, 100);
        final LatencyHistogram histogram = LatencyHistogram.uniform(MS, counts, 0);
        // The median's 95 % ranks, recomputed here from the binomial: l is the largest rank with
        // P(B <= l - 1) < 2.5 %, u the smallest with P(B >= u) <= 2.5 %.
        final BinomialDistribution b = new BinomialDistribution(1000, 0.5);
        int lower = 1;
        while (b.cumulativeProbability(lower) < 0.025) {
            lower++;
        }
        int upper = 1000;
        while (1 - b.cumulativeProbability(upper - 2) <= 0.025) {
            upper--;
        }
        final ConfidenceInterval interval = HistogramQuantiles.quantileIntervalNanos(histogram, 0.5, 0.95);
        assertEquals(((lower - 1) / 100) * MS, (long) interval.lower(), "lower rank " + lower);
        assertEquals(((upper - 1) / 100 + 1) * MS, (long) interval.upper(), "upper rank " + upper);
        assertEquals(HistogramQuantiles.METHOD, interval.method());
        assertEquals(0.95, interval.confidenceLevel());
        assertTrue(interval.contains(histogram.boundAt(50).boundNanos()));
    }

    @Test
    void intervalMatchesTheOrderStatisticsOfTheRawSamplesWidenedToTheirBins() {
        final Random random = new Random(23);
        final long[] raw = new long[5000];
        final long[] counts = new long[60];
        for (int i = 0; i < raw.length; i++) {
            raw[i] = 1 + (long) (-4.0 * MS * Math.log(1 - random.nextDouble()));
            if (raw[i] > 60 * MS) {
                raw[i] = 60 * MS; // keep every sample inside the bins
            }
            counts[(int) ((raw[i] - 1) / MS)]++;
        }
        Arrays.sort(raw);
        final LatencyHistogram histogram = LatencyHistogram.uniform(MS, counts, 0);
        final var ranks = org.latencyserver.core.stats.QuantileConfidence.ranks(raw.length, 0.9, 0.95);
        final long lowerSample = raw[(int) ranks.lowerRank() - 1];
        final long upperSample = raw[(int) ranks.upperRank() - 1];
        final ConfidenceInterval interval = HistogramQuantiles.quantileIntervalNanos(histogram, 0.9, 0.95);
        assertEquals(((lowerSample - 1) / MS) * MS, (long) interval.lower());
        assertEquals(((upperSample - 1) / MS + 1) * MS, (long) interval.upper());
        assertTrue(interval.lower() < lowerSample && upperSample <= interval.upper());
    }

    @Test
    void intervalCoversTheTrueQuantileAtLeastAsOftenAsTheLevelPromises() {
        // Exponential latencies with a 3 ms mean: the true 90 % quantile is 3 ms * ln 10.
        final double trueQuantileNanos = 3.0 * MS * Math.log(10);
        final Random random = new Random(1997);
        final int trials = 500;
        int covered = 0;
        for (int trial = 0; trial < trials; trial++) {
            final long[] counts = new long[200];
            for (int i = 0; i < 400; i++) {
                final long nanos = 1 + (long) (-3.0 * MS * Math.log(1 - random.nextDouble()));
                counts[(int) Math.min(199, (nanos - 1) / (MS / 2))]++;
            }
            final ConfidenceInterval interval =
                HistogramQuantiles.quantileIntervalNanos(LatencyHistogram.uniform(MS / 2, counts, 0), 0.9, 0.95);
            if (interval.contains(trueQuantileNanos)) {
                covered++;
            }
        }
        // Nominal 95 %; binning only widens. With 500 trials, 93 % is about two standard errors below.
        assertTrue(covered >= 0.93 * trials, covered + " of " + trials + " covered");
    }

    @Test
    void tooFewSamplesForTheLevelIsRefusedWithTheMinimumNeeded() {
        final LatencyHistogram histogram = LatencyHistogram.uniform(MS, new long[] {5}, 0);
        final IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
            () -> HistogramQuantiles.quantileIntervalNanos(histogram, 0.96, 0.95));
        assertTrue(error.getMessage().contains("need at least 91"), error.getMessage());
    }

    @Test
    void intervalReachingIntoTheOverflowIsRefused() {
        final LatencyHistogram histogram = LatencyHistogram.uniform(MS, new long[] {900, 50}, 50);
        final BoundBeyondHistogramException error = assertThrows(BoundBeyondHistogramException.class,
            () -> HistogramQuantiles.quantileIntervalNanos(histogram, 0.95, 0.95));
        assertTrue(error.getMessage().contains("50 samples are above"), error.getMessage());
    }

    @Test
    void emptyHistogramHasNoInterval() {
        assertThrows(EmptyHistogramException.class,
            () -> HistogramQuantiles.quantileIntervalNanos(LatencyHistogram.uniform(MS, new long[3], 0), 0.5, 0.95));
    }
}
