package org.latencyserver.core.estimate;

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
 */
public record Measurement(LatencyHistogram histogram, long sampleCount, double meanMillis, double stdDevMillis,
                          double maxMillis) {

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
    }
}
