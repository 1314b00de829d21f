package org.latencyserver.core.stats;

import org.apache.commons.math3.distribution.TDistribution;

/**
 * Confidence intervals for a mean latency.
 *
 * <p>{@link #normal} is the thesis's Equation 1, {@code x̄ ± z·s/√n}, used for QoS 1 and 3 (with n
 * = 10,000 and 1,000 samples the normal approximation is sound). {@link #studentT} is offered for
 * small samples, where Student's t widens the interval honestly.
 *
 * <p>Stateless and thread-safe. The interval has the unit of {@code mean} and {@code stdDev}.
 */
public final class MeanConfidence {

    private MeanConfidence() {
    }

    /**
     * Thesis Equation 1.
     *
     * @param mean            sample mean, finite
     * @param stdDev          sample standard deviation, finite and {@code >= 0}
     * @param n               number of samples, {@code >= 1}
     * @param confidenceLevel in (0, 1)
     * @return {@code [mean - z·s/√n, mean + z·s/√n]}, method {@code "normal (thesis Eq. 1)"}
     */
    public static ConfidenceInterval normal(final double mean, final double stdDev, final long n, final double confidenceLevel) {
        requireArguments(mean, stdDev, n, 1);
        final double halfWidth = NormalQuantile.zTwoSided(confidenceLevel) * stdDev / Math.sqrt(n);
        return new ConfidenceInterval(mean - halfWidth, mean + halfWidth, confidenceLevel, "normal (thesis Eq. 1)");
    }

    /**
     * Student's t interval, {@code x̄ ± t(n-1)·s/√n}.
     *
     * @param mean            sample mean, finite
     * @param stdDev          sample standard deviation, finite and {@code >= 0}
     * @param n               number of samples, {@code >= 2}
     * @param confidenceLevel in (0, 1)
     * @return the interval, method {@code "Student's t"}
     */
    public static ConfidenceInterval studentT(final double mean, final double stdDev, final long n, final double confidenceLevel) {
        requireArguments(mean, stdDev, n, 2);
        NormalQuantile.requireLevel(confidenceLevel);
        final double t = new TDistribution(null, n - 1.0).inverseCumulativeProbability(0.5 + confidenceLevel / 2.0);
        final double halfWidth = t * stdDev / Math.sqrt(n);
        return new ConfidenceInterval(mean - halfWidth, mean + halfWidth, confidenceLevel, "Student's t");
    }

    private static void requireArguments(final double mean, final double stdDev, final long n, final long minimumN) {
        if (!Double.isFinite(mean)) {
            throw new IllegalArgumentException("mean must be finite, was " + mean);
        }
        if (!Double.isFinite(stdDev) || stdDev < 0) {
            throw new IllegalArgumentException("standard deviation must be finite and >= 0, was " + stdDev);
        }
        if (n < minimumN) {
            throw new IllegalArgumentException("need at least " + minimumN + " sample(s), had " + n);
        }
    }
}
