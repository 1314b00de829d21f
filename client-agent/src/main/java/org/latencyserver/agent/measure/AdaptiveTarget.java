package org.latencyserver.agent.measure;

/**
 * When adaptive sampling may stop: once the 95 % confidence interval of the mean is narrow enough
 * (the thesis's Equation 2 read backwards: n = (1.96·s / h)², so stop when 1.96·s/√n ≤ h).
 *
 * <p>The check runs every {@code checkEveryRoundTrips} round trips, never before
 * {@code minRoundTrips}: a standard deviation from a handful of samples underestimates the spread,
 * and a run stopped on it would report a falsely tight interval.
 *
 * @param halfWidthMillis      the target half-width of the 95 % CI of the mean, in ms (&gt; 0)
 * @param minRoundTrips        never stop before this many recorded round trips (&ge; 30)
 * @param checkEveryRoundTrips how often to test the target (&ge; 1)
 */
public record AdaptiveTarget(double halfWidthMillis, int minRoundTrips, int checkEveryRoundTrips) {

    /** z for a two-sided 95 % interval, as the thesis's Equations 1 and 2 use it. */
    static final double Z95 = 1.96;

    /**
     * @throws IllegalArgumentException on a non-positive half-width, fewer than 30 minimum round
     *                                  trips or a non-positive check interval
     */
    public AdaptiveTarget {
        if (!(halfWidthMillis > 0) || Double.isInfinite(halfWidthMillis)) {
            throw new IllegalArgumentException("the adaptive half-width must be a positive number of ms, was " + halfWidthMillis);
        }
        if (minRoundTrips < 30) {
            throw new IllegalArgumentException("adaptive sampling needs at least 30 round trips before it may stop, was " + minRoundTrips);
        }
        if (checkEveryRoundTrips < 1) {
            throw new IllegalArgumentException("the adaptive check interval must be >= 1, was " + checkEveryRoundTrips);
        }
    }

    /**
     * @param halfWidthMillis the target half-width in ms
     * @return a target checked every 50 round trips, from 100 on
     */
    public static AdaptiveTarget halfWidth(final double halfWidthMillis) {
        return new AdaptiveTarget(halfWidthMillis, 100, 50);
    }

    /**
     * @param count           recorded round trips
     * @param varianceNanos2  their sample variance, in ns²
     * @return whether the CI half-width has reached the target
     */
    boolean reached(final long count, final double varianceNanos2) {
        if (count < minRoundTrips) {
            return false;
        }
        final double halfWidthNanos = Z95 * Math.sqrt(varianceNanos2 / count);
        return halfWidthNanos <= halfWidthMillis * 1e6;
    }
}
