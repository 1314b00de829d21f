package org.latencyserver.core.stats;

/**
 * Confidence intervals for a proportion: the share of latencies at or below a bound (QoS 2, 4).
 *
 * <p>{@link #wald} is the thesis's Equation 3, {@code p ± z·√(p(1−p)/n)}, clamped to [0, 1]. It
 * collapses to a point when p is 0 or 1 and undercovers near them; {@link #wilson} (the Wilson
 * score interval) stays honest there and is offered beside it.
 *
 * <p>Units: counts of samples in, proportions in [0, 1] out (multiply by 100 for percent).
 *
 * <p>Stateless and thread-safe.
 */
public final class ProportionConfidence {

    /** The {@link ConfidenceInterval#method()} of {@link #wald}. */
    public static final String WALD_METHOD = "normal approximation (thesis Eq. 3)";
    /** The {@link ConfidenceInterval#method()} of {@link #wilson}. */
    public static final String WILSON_METHOD = "Wilson score";

    private ProportionConfidence() {
    }

    /**
     * Thesis Equation 3.
     *
     * @param successes       samples with the attribute, {@code 0 <= successes <= n}
     * @param n               samples, {@code >= 1}
     * @param confidenceLevel in (0, 1)
     * @return the interval clamped to [0, 1], method {@value #WALD_METHOD}; {@code [p, p]} when p is 0 or 1
     * @throws IllegalArgumentException when an argument is out of range
     */
    public static ConfidenceInterval wald(final long successes, final long n, final double confidenceLevel) {
        requireCounts(successes, n);
        final double p = (double) successes / n;
        final double halfWidth = NormalQuantile.zTwoSided(confidenceLevel) * Math.sqrt(p * (1.0 - p) / n);
        return new ConfidenceInterval(Math.max(0.0, p - halfWidth), Math.min(1.0, p + halfWidth), confidenceLevel,
            WALD_METHOD);
    }

    /**
     * The Wilson score interval:
     * {@code (p + z²/2n ± z·√(p(1−p)/n + z²/4n²)) / (1 + z²/n)}.
     *
     * @param successes       samples with the attribute, {@code 0 <= successes <= n}
     * @param n               samples, {@code >= 1}
     * @param confidenceLevel in (0, 1)
     * @return the interval, within [0, 1], method {@value #WILSON_METHOD}; its lower end stays
     *         below 1 even when every sample succeeded
     * @throws IllegalArgumentException when an argument is out of range
     */
    public static ConfidenceInterval wilson(final long successes, final long n, final double confidenceLevel) {
        requireCounts(successes, n);
        final double z = NormalQuantile.zTwoSided(confidenceLevel);
        final double p = (double) successes / n;
        final double z2 = z * z;
        final double denominator = 1.0 + z2 / n;
        final double centre = (p + z2 / (2.0 * n)) / denominator;
        final double halfWidth = z * Math.sqrt(p * (1.0 - p) / n + z2 / (4.0 * n * (double) n)) / denominator;
        return new ConfidenceInterval(Math.max(0.0, centre - halfWidth), Math.min(1.0, centre + halfWidth),
            confidenceLevel, WILSON_METHOD);
    }

    private static void requireCounts(final long successes, final long n) {
        if (n < 1) {
            throw new IllegalArgumentException("need at least 1 sample, had " + n);
        }
        if (successes < 0 || successes > n) {
            throw new IllegalArgumentException("successes must be in 0.." + n + ", was " + successes);
        }
    }
}
