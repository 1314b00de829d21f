package org.latencyserver.core.stats;

/**
 * How many samples a target error needs: the thesis's Equation 2, {@code n = ⌈(z·σ/E)²⌉}. With
 * σ = 5 ms at 95 %, an error of 0.1 ms needs 9,604 samples — the thesis's "about 0.1 ms for
 * 10,000 samples". Adaptive measurement stops once this many round trips have been taken.
 *
 * <p>Stateless and thread-safe.
 */
public final class SampleSize {

    private SampleSize() {
    }

    /**
     * @param stdDev          standard deviation, {@code > 0}, same unit as {@code halfWidth}
     * @param halfWidth       the wanted CI half-width E, {@code > 0}
     * @param confidenceLevel in (0, 1)
     * @return samples needed for the mean's CI half-width to be at most {@code halfWidth}, {@code >= 1}
     */
    public static long forMeanHalfWidth(final double stdDev, final double halfWidth, final double confidenceLevel) {
        requirePositive("standard deviation", stdDev);
        requirePositive("half-width", halfWidth);
        final double root = NormalQuantile.zTwoSided(confidenceLevel) * stdDev / halfWidth;
        return Math.max(1L, (long) Math.ceil(root * root));
    }

    /**
     * @param proportion      the expected proportion, in [0, 1] (0.5 is the worst case)
     * @param halfWidth       the wanted CI half-width, in (0, 1)
     * @param confidenceLevel in (0, 1)
     * @return samples needed for the thesis's Eq. 3 interval to be at most {@code halfWidth}, {@code >= 1}
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
