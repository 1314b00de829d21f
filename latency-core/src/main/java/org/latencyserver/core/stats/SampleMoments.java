package org.latencyserver.core.stats;

/**
 * Count, mean and sample standard deviation of a set of samples: the {@code x̄} and {@code s} of
 * the thesis's Equation 1, with {@code s = √((Σx² − (Σx)²/n) / (n − 1))} (the n − 1, "sample",
 * denominator).
 *
 * <p>The unit is the samples' unit (ns or ms, the caller says which). Built from the samples
 * themselves the moments stay accurate when the spread is small against the mean (latencies of
 * 1 s ± 10 ns in nanoseconds), where the raw Σx² − (Σx)²/n form cancels catastrophically:
 * {@link #of} makes two corrected passes over an array, {@link #plus} uses Welford's update.
 * {@link #fromSums} accepts the raw sums for callers that kept only those, with that caveat.
 * {@link #combine} merges two sets exactly (Chan et al.), e.g. two measurement runs.
 *
 * <p>n = 0: mean and standard deviation are NaN. n = 1: the mean is the sample, the standard
 * deviation NaN (one sample says nothing about spread).
 *
 * <p>Immutable and thread-safe.
 */
public final class SampleMoments {

    private static final SampleMoments EMPTY = new SampleMoments(0, 0.0, 0.0);

    private final long count;
    private final double mean;
    /** Σ(x − x̄)², {@code >= 0}. */
    private final double sumOfSquaredDeviations;

    private SampleMoments(final long count, final double mean, final double sumOfSquaredDeviations) {
        this.count = count;
        this.mean = mean;
        this.sumOfSquaredDeviations = sumOfSquaredDeviations;
    }

    /** @return the moments of no samples */
    public static SampleMoments empty() {
        return EMPTY;
    }

    /**
     * Moments of an array, in two passes (the mean, corrected by the mean residual, then the
     * squared deviations from it, corrected likewise): more accurate than one pass of
     * {@link #plus}, which suits streams.
     *
     * @param values samples, all finite (may be empty)
     * @return their moments
     * @throws IllegalArgumentException naming the index of the first non-finite sample
     */
    public static SampleMoments of(final double... values) {
        final int n = values.length;
        if (n == 0) {
            return EMPTY;
        }
        double sum = 0.0;
        for (int i = 0; i < n; i++) {
            if (!Double.isFinite(values[i])) {
                throw new IllegalArgumentException("sample[" + i + "] must be finite, was " + values[i]);
            }
            sum += values[i];
        }
        double mean = sum / n;
        double residual = 0.0;
        for (final double value : values) {
            residual += value - mean;
        }
        mean += residual / n;
        double squares = 0.0;
        double deviations = 0.0;
        for (final double value : values) {
            final double deviation = value - mean;
            squares += deviation * deviation;
            deviations += deviation;
        }
        return new SampleMoments(n, mean, Math.max(0.0, squares - deviations * deviations / n));
    }

    /**
     * Moments from running sums, as the thesis computed them. A slightly negative
     * {@code Σx² − (Σx)²/n} from rounding is taken as 0. Its relative error grows like
     * {@code 1e-16 · (mean / stdDev)²}: fine for milliseconds, poor for raw nanoseconds around a
     * large offset; prefer {@link #of} or sums of {@code x − offset}.
     *
     * @param n            number of samples, {@code >= 0}
     * @param sum          Σx, finite (0 when {@code n = 0})
     * @param sumOfSquares Σx², finite and {@code >= 0} (0 when {@code n = 0})
     * @return the moments
     * @throws IllegalArgumentException when an argument is out of range
     */
    public static SampleMoments fromSums(final long n, final double sum, final double sumOfSquares) {
        if (n < 0) {
            throw new IllegalArgumentException("sample count must be >= 0, was " + n);
        }
        if (!Double.isFinite(sum) || !Double.isFinite(sumOfSquares) || sumOfSquares < 0) {
            throw new IllegalArgumentException("sums must be finite and the sum of squares >= 0, were "
                + sum + " and " + sumOfSquares);
        }
        if (n == 0) {
            if (sum != 0 || sumOfSquares != 0) {
                throw new IllegalArgumentException("no samples but non-zero sums " + sum + " and " + sumOfSquares);
            }
            return EMPTY;
        }
        final double mean = sum / n;
        final double m2 = Math.max(0.0, sumOfSquares - sum * mean);
        return new SampleMoments(n, mean, m2);
    }

    /**
     * @param value one more sample, finite
     * @return the moments with it added (Welford's update)
     * @throws IllegalArgumentException when the sample is not finite
     */
    public SampleMoments plus(final double value) {
        if (!Double.isFinite(value)) {
            throw new IllegalArgumentException("sample must be finite, was " + value);
        }
        final long n = count + 1;
        final double delta = value - mean;
        final double newMean = mean + delta / n;
        return new SampleMoments(n, newMean, sumOfSquaredDeviations + delta * (value - newMean));
    }

    /**
     * @param other moments of another set of samples, same unit
     * @return the moments of both sets together
     */
    public SampleMoments combine(final SampleMoments other) {
        if (other.count == 0) {
            return this;
        }
        if (count == 0) {
            return other;
        }
        final long n = count + other.count;
        final double delta = other.mean - mean;
        final double newMean = mean + delta * ((double) other.count / n);
        final double m2 = sumOfSquaredDeviations + other.sumOfSquaredDeviations
            + delta * delta * ((double) count * (double) other.count / n);
        return new SampleMoments(n, newMean, m2);
    }

    /** @return number of samples, {@code >= 0} */
    public long count() {
        return count;
    }

    /** @return the mean; NaN when there are no samples */
    public double mean() {
        return count == 0 ? Double.NaN : mean;
    }

    /** @return the sample variance (n − 1 denominator), {@code >= 0}; NaN for fewer than 2 samples */
    public double sampleVariance() {
        return count < 2 ? Double.NaN : sumOfSquaredDeviations / (count - 1);
    }

    /** @return the sample standard deviation (n − 1 denominator), {@code >= 0}; NaN for fewer than 2 samples */
    public double sampleStdDev() {
        return Math.sqrt(sampleVariance());
    }

    /** @return count, mean and standard deviation */
    @Override
    public String toString() {
        return "SampleMoments[n=" + count + ", mean=" + mean() + ", stdDev=" + sampleStdDev() + "]";
    }
}
