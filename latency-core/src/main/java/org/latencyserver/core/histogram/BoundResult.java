package org.latencyserver.core.histogram;

/**
 * The x % latency bound of a histogram, as the thesis defines it (section 4.2.4): the upper edge
 * of the first bin at which the cumulative count reaches {@code ceil(x / 100 * n)}.
 *
 * <p>{@link #proportionAtOrBelow()} is the share of samples at or below the bound, the {@code p}
 * of the thesis's Equation 3; it is at least {@code boundPercent / 100} and usually more, since
 * a bin holds many samples (the thesis's example: 93 % asked, 93.679 % at or below 7 ms).
 *
 * <p>Immutable and thread-safe.
 *
 * @param boundNanos     the bound: the upper edge of the bin that reached the required count, ns, {@code > 0}
 * @param countAtOrBelow samples at or below {@code boundNanos}, in 1 .. {@code totalCount}
 * @param totalCount     all samples of the histogram, including any overflow, {@code >= 1}
 * @param boundPercent   the percentage asked for, in (0, 100]
 */
public record BoundResult(long boundNanos, long countAtOrBelow, long totalCount, double boundPercent) {

    /**
     * @throws IllegalArgumentException when a component is outside the range documented above
     */
    public BoundResult {
        if (boundNanos <= 0) {
            throw new IllegalArgumentException("bound must be > 0 ns, was " + boundNanos);
        }
        if (totalCount < 1 || countAtOrBelow < 1 || countAtOrBelow > totalCount) {
            throw new IllegalArgumentException("need 1 <= countAtOrBelow <= totalCount, was "
                + countAtOrBelow + " of " + totalCount);
        }
        if (!(boundPercent > 0.0 && boundPercent <= 100.0)) {
            throw new IllegalArgumentException("bound percentage must be in (0, 100], was " + boundPercent);
        }
    }

    /** @return {@code countAtOrBelow / totalCount}, a proportion in (0, 1] */
    public double proportionAtOrBelow() {
        return (double) countAtOrBelow / (double) totalCount;
    }

    /** @return the bound in milliseconds */
    public double boundMillis() {
        return boundNanos / 1_000_000.0;
    }
}
