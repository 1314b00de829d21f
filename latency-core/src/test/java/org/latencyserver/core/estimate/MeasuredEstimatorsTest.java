package org.latencyserver.core.estimate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Random;
import org.HdrHistogram.Histogram;
import org.apache.commons.math3.distribution.NormalDistribution;
import org.apache.commons.math3.distribution.TDistribution;
import org.junit.jupiter.api.Test;
import org.latencyserver.core.histogram.LatencyHistogram;
import org.latencyserver.core.stats.ProportionConfidence;

class MeasuredEstimatorsTest {

    private static final double Z = new NormalDistribution().inverseCumulativeProbability(0.975);
    private static final long MS = 1_000_000L;

    /** The thesis's QoS 3 example values (section 4.2.1): 1.46 ms over 1000 round trips. */
    @Test
    void qos3IsTheMeasuredMeanWithTheThesisIntervalAndStudentsTBesideIt() {
        final Measurement measurement = new Measurement(LatencyHistogram.uniform(MS, new long[] {600, 400}, 0), 1000, 1.46, 1.6, 1.99);
        final Estimate estimate = MeasuredAverageEstimator.estimate(measurement, "ticket 7");
        assertEquals(3, estimate.qos());
        assertEquals(EstimateKind.AVERAGE, estimate.kind());
        assertEquals(1.46, estimate.valueMillis());
        assertEquals(1.46 - Z * 1.6 / Math.sqrt(1000), estimate.interval().lower(), 1e-12);
        assertEquals(1.46 + Z * 1.6 / Math.sqrt(1000), estimate.interval().upper(), 1e-12);
        final double t = new TDistribution(999).inverseCumulativeProbability(0.975);
        assertEquals(1.46 + t * 1.6 / Math.sqrt(1000), estimate.alternatives().get(0).upper(), 1e-12);
        assertEquals("ticket 7", estimate.basis());
    }

    @Test
    void qos3OffersTheBatchMeansIntervalWhenTheAgentGaveBatchMeans() {
        final LatencyHistogram histogram = LatencyHistogram.uniform(MS, new long[] {600, 400}, 0);
        final Measurement withBatches = new Measurement(histogram, 1000, 1.46, 1.6, 1.99, List.of(1.2, 1.3, 1.6, 1.74));
        final Estimate estimate = MeasuredAverageEstimator.estimate(withBatches, "ticket 8");
        assertEquals(2, estimate.alternatives().size());
        final var batches = estimate.alternatives().get(1);
        assertTrue(batches.method().startsWith("batch means (4 batches"), batches.method());
        assertTrue(batches.contains(1.46) && batches.halfWidth() > estimate.interval().halfWidth(), batches.toString());
        assertEquals(1, MeasuredAverageEstimator.estimate(new Measurement(histogram, 1000, 1.46, 1.6, 1.99), "t").alternatives().size());
    }

    private static Measurement randomMeasurement(final Random random) {
        final Histogram hdr = new Histogram(3_600_000_000_000L, 3);
        final int samples = 200 + random.nextInt(3000);
        for (int i = 0; i < samples; i++) {
            hdr.recordValue(300_000L + (long) (-random.nextDouble(0.2, 4) * MS * Math.log(1 - random.nextDouble())));
        }
        return new Measurement(LatencyHistogram.fromHdr(hdr), samples, hdr.getMean() / 1e6, hdr.getStdDeviation() / 1e6,
            hdr.getMaxValue() / 1e6);
    }

    /** Thesis verification test 5 for QoS 4: the bound never falls as the percentage rises. */
    @Test
    void qos4BoundNeverDecreasesAsTheBoundPercentageRises() throws Exception {
        final Random random = new Random(96);
        for (int trial = 0; trial < 100; trial++) {
            final Measurement measurement = randomMeasurement(random);
            final long n = measurement.sampleCount();
            double previous = 0;
            for (double percent = 50; percent <= 100; percent += 0.5) {
                final Estimate estimate = MeasuredBoundEstimator.estimate(measurement, percent, "trial " + trial);
                assertEquals(4, estimate.qos());
                assertTrue(estimate.valueMillis() >= previous, "trial " + trial + " fell at " + percent + " %");
                final long boundNanos = Math.round(estimate.valueMillis() * 1e6);
                final long atOrBelow = measurement.histogram().countAtOrBelow(boundNanos);
                assertTrue(atOrBelow >= Math.ceil(percent / 100.0 * n - 1e-9), "share at or below reaches the percentage");
                final double p = (double) atOrBelow / n;
                assertEquals(Math.max(0, p - Z * Math.sqrt(p * (1 - p) / n)), estimate.interval().lower(), 1e-12);
                assertEquals(ProportionConfidence.wilson(atOrBelow, n, 0.95), estimate.alternatives().get(0));
                previous = estimate.valueMillis();
            }
        }
    }

    @Test
    void qos4RefusesABoundThatLiesBeyondTheHistogram() {
        final Measurement measurement = new Measurement(LatencyHistogram.uniform(MS, new long[] {90, 5}, 5), 100, 1.0, 1.0, 150.0);
        final EstimateRefusedException error = assertThrows(EstimateRefusedException.class,
            () -> MeasuredBoundEstimator.estimate(measurement, 99, "ticket 9"));
        assertTrue(error.getMessage().startsWith("ticket 9"), error.getMessage());
    }

    @Test
    void inconsistentMeasurementsAreRefusedWithTheValue() {
        final LatencyHistogram histogram = LatencyHistogram.uniform(MS, new long[] {10}, 0);
        final IllegalArgumentException count = assertThrows(IllegalArgumentException.class,
            () -> new Measurement(histogram, 11, 0.5, 0.1, 0.9));
        assertTrue(count.getMessage().contains("11"), count.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new Measurement(histogram, 10, -1, 0.1, 0.9));
        assertThrows(IllegalArgumentException.class, () -> new Measurement(histogram, 10, 0.5, Double.NaN, 0.9));
        assertThrows(IllegalArgumentException.class, () -> new Measurement(histogram, 10, 0.5, 0.1, 0.4));
        assertThrows(IllegalArgumentException.class, () -> new Measurement(null, 10, 0.5, 0.1, 0.9));
        assertThrows(IllegalArgumentException.class, () -> new Measurement(histogram, 10, 0.5, 0.1, 0.9, List.of(0.5)));
        final IllegalArgumentException batch = assertThrows(IllegalArgumentException.class,
            () -> new Measurement(histogram, 10, 0.5, 0.1, 0.9, List.of(0.4, 1.5)));
        assertTrue(batch.getMessage().contains("batch mean 2"), batch.getMessage());
    }
}
