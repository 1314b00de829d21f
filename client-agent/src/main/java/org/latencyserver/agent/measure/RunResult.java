package org.latencyserver.agent.measure;

import org.HdrHistogram.Histogram;

/**
 * The outcome of one run of round trips.
 *
 * <p>The histogram holds round-trip times in nanoseconds; the warm-up round trips are not in it.
 *
 * @param histogramNanos      the recorded round-trip times, ns
 * @param recordedRoundTrips  how many are in the histogram
 * @param warmupRoundTrips    how many were run first and discarded
 * @param savedRoundTrips     how many of the requested round trips were not run: adaptive sampling did
 *                            not need them, or the run's time budget ended first (0 for a full run)
 * @param gcPauseOverlapNanos time this JVM's collectors reported during the recorded round trips;
 *                            non-zero means some round trips include a pause of the measurer itself
 * @param meanNanos           exact mean of the recorded values (not from the histogram's buckets)
 * @param stdDevNanos         exact sample standard deviation (n − 1), 0 for one value
 * @param batchMeansNanos     means of the run's consecutive equal batches, in order, ns (at least 2,
 *                            or none when the run was too short); not to be modified
 * @param stoppedByTime       true when the run's time budget ended it before its round trips
 */
public record RunResult(Histogram histogramNanos, long recordedRoundTrips, int warmupRoundTrips, long savedRoundTrips,
                        long gcPauseOverlapNanos, double meanNanos, double stdDevNanos, double[] batchMeansNanos,
                        boolean stoppedByTime) {

    /** @return a copy of {@link #batchMeansNanos()} in ms */
    public double[] batchMeansMillis() {
        final double[] millis = new double[batchMeansNanos.length];
        for (int i = 0; i < millis.length; i++) {
            millis[i] = batchMeansNanos[i] / 1e6;
        }
        return millis;
    }

    /** @return the mean round trip, ms */
    public double meanMillis() {
        return meanNanos / 1e6;
    }

    /** @return the sample standard deviation, ms */
    public double stdDevMillis() {
        return stdDevNanos / 1e6;
    }

    /** @return the largest recorded round trip, ms (HdrHistogram's value at that precision) */
    public double maxMillis() {
        return histogramNanos.getMaxValue() / 1e6;
    }

    /** @return the half-width of the 95 % CI of the mean (thesis Eq. 1), ms */
    public double halfWidthMillis() {
        return recordedRoundTrips < 2 ? Double.NaN : AdaptiveTarget.Z95 * stdDevMillis() / Math.sqrt(recordedRoundTrips);
    }
}
