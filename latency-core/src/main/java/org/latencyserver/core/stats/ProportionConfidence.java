package org.latencyserver.core.stats;

/**
 * Confidence intervals for a proportion: the share of latencies at or below a bound (QoS 2, 4).
 *
 * <p>{@link #wald} is the thesis's Equation 3, {@code p ± z·√(p(1−p)/n)}, clamped to [0, 1]. It
 * collapses to a point when p is 0 or 1 and undercovers near them; {@link #wilson} (the Wilson
 * score interval) stays honest there and is offered beside it.
 *
 * <p>Stateless and thread-safe. Intervals are proportions in [0, 1].
 */
public final class ProportionConfidence {

    private ProportionConfidence() {
    }

    /**
     * Thesis Equation 3.
     *
     * @param successes       samples with the attribute, {@code 0 <= successes <= n}
     * @param n               samples, {@code >= 1}
     * @param confidenceLevel in (0, 1)
     * @return the interval clamped to [0, 1], method {@code "normal approximation (thesis Eq. 3)"}
     */
    public static ConfidenceInterval wald(final long successes, final long n, final double confidenceLevel) {
        requireCounts(successes, n);
        final double p = (double) successes / n;
        final double halfWidth = NormalQuantile.zTwoSided(confidenceLevel) * Math.sqrt(p * (1.0 - p) / n);
        return new ConfidenceInterval(Math.max(0.0, p - halfWidth), Math.min(1.0, p + halfWidth), confidenceLevel,
            "normal approximation (thesis Eq. 3)");
    }

    /**
     * The Wilson score interval:
     * {@code (p + z²/2n ± z·√(p(1−p)/n + z²/4n²)) / (1 + z²/n)}.
     *
     * @param successes       samples with the attribute, {@code 0 <= successes <= n}
     * @param n               samples, {@code >= 1}
     * @param confidenceLevel in (0, 1)
     * @return the interval, within [0, 1], method {@code "Wilson score"}
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
            confidenceLevel, "Wilson score");
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
