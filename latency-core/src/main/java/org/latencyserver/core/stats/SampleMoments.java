package org.latencyserver.core.stats;

/**
 * Mean and sample standard deviation from running sums, as the thesis computes s (Eq. 1):
 * {@code s = √((Σx² − (Σx)²/n) / (n − 1))}.
 *
 * <p>The sums are accumulated with Welford's update, not as raw Σx and Σx², because the raw form
 * cancels catastrophically when the spread is small against the mean (latencies of 1 ms ± 10 µs
 * in nanoseconds). Not thread-safe: one writer; {@link #mean()} and {@link #sampleStdDev()} read
 * a consistent state only from that writer's thread.
 */
public final class SampleMoments {

    private long count;
    private double mean;
    private double sumOfSquaredDeviations;

    /** @param value a sample, finite */
    public void add(final double value) {
        if (!Double.isFinite(value)) {
            throw new IllegalArgumentException("sample must be finite, was " + value);
        }
        count++;
        final double delta = value - mean;
        mean += delta / count;
        sumOfSquaredDeviations += delta * (value - mean);
    }

    /**
     * @param values samples, all finite
     * @return their moments
     */
    public static SampleMoments of(final double... values) {
        final SampleMoments moments = new SampleMoments();
        for (final double value : values) {
            moments.add(value);
        }
        return moments;
    }

    /** @return number of samples */
    public long count() {
        return count;
    }

    /** @return the mean; NaN when there are no samples */
    public double mean() {
        return count == 0 ? Double.NaN : mean;
    }

    /** @return the sample standard deviation (n − 1 denominator); NaN for fewer than 2 samples */
    public double sampleStdDev() {
        return count < 2 ? Double.NaN : Math.sqrt(sumOfSquaredDeviations / (count - 1));
    }
}
