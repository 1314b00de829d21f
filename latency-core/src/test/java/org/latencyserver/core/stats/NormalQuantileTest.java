package org.latencyserver.core.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.apache.commons.math3.distribution.NormalDistribution;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class NormalQuantileTest {

    @ParameterizedTest
    @ValueSource(doubles = {0.5, 0.8, 0.9, 0.95, 0.99, 0.999})
    void zLeavesHalfTheRemainderInEachTailOfTheStandardNormal(final double level) {
        final double z = NormalQuantile.zTwoSided(level);
        final NormalDistribution standard = new NormalDistribution();
        assertEquals(level, standard.cumulativeProbability(z) - standard.cumulativeProbability(-z), 1e-12);
    }

    @org.junit.jupiter.api.Test
    void ninetyFivePercentIsTheThesisOneNinetySix() {
        assertEquals(1.959964, NormalQuantile.zTwoSided(0.95), 1e-6);
        assertEquals(2.575829, NormalQuantile.zTwoSided(0.99), 1e-6);
    }

    @ParameterizedTest
    @ValueSource(doubles = {0.0, 1.0, -0.5, 95, Double.NaN})
    void levelsOutsideZeroToOneAreRefused(final double level) {
        assertThrows(IllegalArgumentException.class, () -> NormalQuantile.zTwoSided(level));
    }
}
