package org.latencyserver.core.estimate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.latencyserver.core.histogram.HistogramQuantiles;
import org.latencyserver.core.histogram.LatencyHistogram;
import org.latencyserver.core.stats.ConfidenceInterval;

class PercentileEstimatorTest {

    private static final long MS = 1_000_000L;

    @Test
    void anyPercentileIsTheUpperEdgeOfTheFirstBinReachingItsShare() throws Exception {
        final LatencyHistogram histogram = LatencyHistogram.uniform(MS, new long[] {50, 30, 15, 5}, 0);
        assertEquals(1.0, PercentileEstimator.atPercentile(4, histogram, 50, "h").valueMillis());
        assertEquals(2.0, PercentileEstimator.atPercentile(4, histogram, 80, "h").valueMillis());
        assertEquals(3.0, PercentileEstimator.atPercentile(4, histogram, 80.1, "h").valueMillis(), "81 samples needed");
        assertEquals(4.0, PercentileEstimator.atPercentile(4, histogram, 100, "h").valueMillis());
    }

    @Test
    void aPercentileCarriesADistributionFreeIntervalOfItsValueLabelled() throws Exception {
        final long[] counts = new long[100];
        for (int i = 0; i < counts.length; i++) {
            counts[i] = 100 - i;
        }
        final LatencyHistogram histogram = LatencyHistogram.uniform(MS, counts, 0);
        final Estimate estimate = PercentileEstimator.atPercentile(1, histogram, 99, "fine");
        final ConfidenceInterval nanos = HistogramQuantiles.quantileIntervalNanos(histogram, 0.99, 0.95);
        final ConfidenceInterval millis = estimate.alternatives().stream()
            .filter(ci -> ci.method().startsWith(HistogramQuantiles.METHOD)).findFirst().orElseThrow();
        assertEquals(nanos.lower() / 1e6, millis.lower(), 1e-12);
        assertEquals(nanos.upper() / 1e6, millis.upper(), 1e-12);
        assertTrue(millis.method().endsWith("of the bound in ms"), millis.method());
    }

    @Test
    void tooFewSamplesForADistributionFreeIntervalIsSaidNotHidden() throws Exception {
        final LatencyHistogram histogram = LatencyHistogram.uniform(MS, new long[] {3, 2}, 0);
        final Estimate estimate = PercentileEstimator.atPercentile(4, histogram, 99, "tiny");
        assertEquals(1, estimate.alternatives().size(), "only Wilson");
        assertTrue(estimate.notes().stream().anyMatch(n -> n.startsWith("no distribution-free interval")), estimate.notes().toString());
    }

    @Test
    void percentilesOutsideZeroToOneHundredAreRefused() {
        final LatencyHistogram histogram = LatencyHistogram.uniform(MS, new long[] {1}, 0);
        assertThrows(IllegalArgumentException.class, () -> PercentileEstimator.atPercentile(4, histogram, 0, "h"));
        assertThrows(IllegalArgumentException.class, () -> PercentileEstimator.atPercentile(4, histogram, 100.5, "h"));
        assertThrows(IllegalArgumentException.class, () -> PercentileEstimator.atPercentile(4, histogram, Double.NaN, "h"));
    }
}
