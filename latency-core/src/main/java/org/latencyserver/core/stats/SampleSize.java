package org.latencyserver.core.stats;

/**
 * How many samples a target error needs: the thesis's Equation 2, {@code n = ⌈(z·σ/E)²⌉}, and its
 * counterpart for a proportion. With σ = 5 ms at 95 %, an error of 0.1 ms needs 9,604 samples —
 * the thesis's "about .1 ms for 10000 samples"; 1,000 samples give 0.31 ms (the thesis: "less
 * then .3 ms", which holds only with z rounded down). Adaptive measurement stops once this many
 * round trips have been taken.
 *
 * <p>Units: {@code stdDev} and {@code halfWidth} share one unit (ms in the thesis); proportions
 * are in [0, 1].
 *
 * <p>Stateless and thread-safe.
 */
public final class SampleSize {

    private SampleSize() {
    }

    /**
     * Thesis Equation 2.
     *
     * @param stdDev          standard deviation σ, finite and {@code > 0}, same unit as {@code halfWidth}
     * @param halfWidth       the wanted CI half-width E, finite and {@code > 0}
     * @param confidenceLevel in (0, 1)
     * @return samples needed for the mean's CI half-width to be at most {@code halfWidth}, {@code >= 1}
     *         (saturates at {@link Long#MAX_VALUE})
     * @throws IllegalArgumentException when an argument is out of range
     */
    public static long forMeanHalfWidth(final double stdDev, final double halfWidth, final double confidenceLevel) {
        requirePositive("standard deviation", stdDev);
        requirePositive("half-width", halfWidth);
        final double root = NormalQuantile.zTwoSided(confidenceLevel) * stdDev / halfWidth;
        return Math.max(1L, (long) Math.ceil(root * root));
    }

    /**
     * The inverse of Equation 2: the half-width E = z·σ/√n that n samples give.
     *
     * @param stdDev          standard deviation σ, finite and {@code >= 0}
     * @param n               samples, {@code >= 1}
     * @param confidenceLevel in (0, 1)
     * @return the half-width, in the unit of {@code stdDev}
     * @throws IllegalArgumentException when an argument is out of range
     */
    public static double meanHalfWidth(final double stdDev, final long n, final double confidenceLevel) {
        if (!Double.isFinite(stdDev) || stdDev < 0) {
            throw new IllegalArgumentException("standard deviation must be finite and >= 0, was " + stdDev);
        }
        if (n < 1) {
            throw new IllegalArgumentException("need at least 1 sample, had " + n);
        }
        return NormalQuantile.zTwoSided(confidenceLevel) * stdDev / Math.sqrt(n);
    }

    /**
     * Samples needed for the thesis's Eq. 3 interval of a proportion: {@code ⌈z²·p(1−p)/E²⌉}.
     *
     * @param proportion      the expected proportion, in [0, 1] (0.5 is the worst case)
     * @param halfWidth       the wanted CI half-width, a proportion, finite and {@code > 0}
     * @param confidenceLevel in (0, 1)
     * @return samples needed, {@code >= 1}
     * @throws IllegalArgumentException when an argument is out of range
     */
    public static long forProportionHalfWidth(final double proportion, final double halfWidth, final double confidenceLevel) {
        if (!(proportion >= 0.0 && proportion <= 1.0)) {
            throw new IllegalArgumentException("proportion must be in [0, 1], was " + proportion);
        }
        requirePositive("half-width", halfWidth);
        final double z = NormalQuantile.zTwoSided(confidenceLevel);
        return Math.max(1L, (long) Math.ceil(z * z * proportion * (1.0 - proportion) / (halfWidth * halfWidth)));
    }

    private static void requirePositive(final String what, final double value) {
        if (!(value > 0.0) || Double.isInfinite(value)) {
            throw new IllegalArgumentException(what + " must be finite and > 0, was " + value);
        }
    }
}
