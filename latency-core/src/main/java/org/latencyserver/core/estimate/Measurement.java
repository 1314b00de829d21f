package org.latencyserver.core.estimate;

import java.util.List;
import org.latencyserver.core.histogram.LatencyHistogram;

/**
 * A fresh measurement of a connection's round trips (QoS 3, 4), as a client agent submits it:
 * the exact moments computed from every round trip, and the histogram.
 *
 * <p>Immutable and thread-safe.
 *
 * @param histogram    the round trips, ns; its total equals {@code sampleCount}
 * @param sampleCount  round trips recorded (warm-up excluded), {@code >= 1}
 * @param meanMillis   exact mean, ms, {@code > 0}
 * @param stdDevMillis exact sample standard deviation, ms, {@code >= 0} (0 for a single sample)
 * @param maxMillis    longest round trip, ms, {@code >= meanMillis}
 * @param batchMeansMillis means of consecutive equal batches of the round trips, in order, ms:
 *                     empty when the agent gave none, else at least 2, each in {@code (0, maxMillis]};
 *                     they allow an interval for round trips correlated in time
 *                     ({@link org.latencyserver.core.stats.MeanConfidence#batchMeans})
 */
public record Measurement(LatencyHistogram histogram, long sampleCount, double meanMillis, double stdDevMillis,
                          double maxMillis, List<Double> batchMeansMillis) {

    /** A measurement without batch means. */
    public Measurement(final LatencyHistogram histogram, final long sampleCount, final double meanMillis, final double stdDevMillis,
                       final double maxMillis) {
        this(histogram, sampleCount, meanMillis, stdDevMillis, maxMillis, List.of());
    }

    /**
     * @throws IllegalArgumentException naming the inconsistent value
     */
    public Measurement {
        if (histogram == null) {
            throw new IllegalArgumentException("a measurement needs its histogram");
        }
        if (sampleCount < 1 || histogram.totalCount() != sampleCount) {
            throw new IllegalArgumentException("sample count " + sampleCount + " must be >= 1 and equal the histogram's "
                + histogram.totalCount());
        }
        if (!(meanMillis > 0) || Double.isInfinite(meanMillis)) {
            throw new IllegalArgumentException("mean must be finite and > 0 ms, was " + meanMillis);
        }
        if (!(stdDevMillis >= 0) || Double.isInfinite(stdDevMillis)) {
            throw new IllegalArgumentException("standard deviation must be finite and >= 0 ms, was " + stdDevMillis);
        }
        if (!(maxMillis >= meanMillis) || Double.isInfinite(maxMillis)) {
            throw new IllegalArgumentException("maximum " + maxMillis + " ms must be finite and >= the mean " + meanMillis + " ms");
        }
        batchMeansMillis = List.copyOf(batchMeansMillis == null ? List.of() : batchMeansMillis);
        if (batchMeansMillis.size() == 1 || batchMeansMillis.size() > sampleCount) {
            throw new IllegalArgumentException("batch means must be none or 2.." + sampleCount + ", were " + batchMeansMillis.size());
        }
        for (int i = 0; i < batchMeansMillis.size(); i++) {
            final double batchMean = batchMeansMillis.get(i);
            if (!(batchMean > 0 && batchMean <= maxMillis)) {
                throw new IllegalArgumentException("batch mean " + (i + 1) + " must be > 0 and <= the maximum " + maxMillis
                    + " ms, was " + batchMean);
            }
        }
    }
}
