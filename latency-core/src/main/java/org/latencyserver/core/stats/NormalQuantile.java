package org.latencyserver.core.stats;

import org.apache.commons.math3.distribution.NormalDistribution;

/**
 * The z-value of a two-sided confidence level under the standard normal curve: 1.959964 for 95 %
 * (the thesis rounds it to 1.96), computed with Commons Math.
 *
 * <p>Stateless and thread-safe.
 */
public final class NormalQuantile {

    private static final NormalDistribution STANDARD_NORMAL = new NormalDistribution(null, 0.0, 1.0);

    private NormalQuantile() {
    }

    /**
     * @param confidenceLevel in (0, 1), e.g. 0.95
     * @return {@code z > 0} with {@code P(-z < Z < z) = confidenceLevel} for a standard normal Z
     * @throws IllegalArgumentException when the level is NaN or outside (0, 1)
     */
    public static double zTwoSided(final double confidenceLevel) {
        requireLevel(confidenceLevel);
        return STANDARD_NORMAL.inverseCumulativeProbability(0.5 + confidenceLevel / 2.0);
    }

    /**
     * @param probability in (0, 1), e.g. 0.96
     * @return {@code z} with {@code P(Z < z) = probability} for a standard normal Z
     * @throws IllegalArgumentException when the probability is NaN or outside (0, 1)
     */
    public static double oneSided(final double probability) {
        requireLevel(probability);
        return STANDARD_NORMAL.inverseCumulativeProbability(probability);
    }

    /** @throws IllegalArgumentException when the level is NaN or outside (0, 1) */
    static void requireLevel(final double confidenceLevel) {
        if (!(confidenceLevel > 0.0 && confidenceLevel < 1.0)) {
            throw new IllegalArgumentException("confidence level must be in (0, 1), was " + confidenceLevel);
        }
    }
}
