package org.latencyserver.testkit;

import org.HdrHistogram.Histogram;

/**
 * Round trips made up for tests: counts spread evenly over a range, recorded in an HdrHistogram as
 * an agent records them (ns, 1 ns to 60 s, 3 significant digits), so a test can wrap them in the
 * form it needs (e.g. {@code LatencyHistogram.fromHdr}).
 *
 * <p>Stateless; each call returns a new histogram.
 */
public final class RoundTrips {

    /** The agents' histogram range: 1 ns to 60 s. */
    public static final long HIGHEST_TRACKABLE_NANOS = 60_000_000_000L;

    private RoundTrips() {
    }

    /**
     * @param count      how many round trips, ≥ 1
     * @param lowMicros  the first one, µs
     * @param highMicros the last one, µs (equal to {@code lowMicros} for all alike)
     * @return {@code count} round trips from {@code lowMicros} to {@code highMicros}, evenly spaced, in ns
     * @throws IllegalArgumentException when {@code count < 1} or the range is reversed
     */
    public static Histogram evenlySpread(final int count, final long lowMicros, final long highMicros) {
        if (count < 1 || highMicros < lowMicros) {
            throw new IllegalArgumentException("count must be >= 1 and lowMicros <= highMicros, was " + count + ", " + lowMicros
                + ", " + highMicros);
        }
        final Histogram hdr = new Histogram(1, HIGHEST_TRACKABLE_NANOS, 3);
        for (int i = 0; i < count; i++) {
            hdr.recordValue((lowMicros + (highMicros - lowMicros) * i / Math.max(1, count - 1)) * 1000);
        }
        return hdr;
    }
}
