package org.latencyserver.core.calibration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class AdaptiveQuantileLevelTest {

    @Test
    void startsAtTheNominalLevel() {
        assertEquals(96.0, AdaptiveQuantileLevel.start(96).servedPercent(), 1e-9);
    }

    @Test
    void missesRaiseTheLevelAndHitsLowerIt() {
        final AdaptiveQuantileLevel start = AdaptiveQuantileLevel.start(96);
        assertTrue(start.observe(8, 4).servedPercent() > 96.0);
        assertTrue(start.observe(8, 0).servedPercent() < 96.0);
        // Nominal misses leave it where it is.
        assertEquals(96.0, start.observe(100, 4).servedPercent(), 1e-9);
    }

    @Test
    void aMeasurementWeighsNoMoreThanTheBlockCap() {
        final AdaptiveQuantileLevel start = AdaptiveQuantileLevel.start(96);
        final double big = start.observe(1000, 1000).missFraction();
        final double capped = start.observe(AdaptiveQuantileLevel.DEFAULT_MAX_BLOCK_WEIGHT,
            AdaptiveQuantileLevel.DEFAULT_MAX_BLOCK_WEIGHT).missFraction();
        assertEquals(capped, big, 1e-12);
    }

    @Test
    void theLevelStaysWithinItsLimitsHoweverLongTheOutage() {
        AdaptiveQuantileLevel level = AdaptiveQuantileLevel.start(96);
        for (int i = 0; i < 10_000; i++) {
            level = level.observe(8, 8);
        }
        assertEquals(100.0, level.servedPercent(), 1e-9);
        assertEquals(AdaptiveQuantileLevel.MIN_MISS_FRACTION, level.missFraction(), 1e-12);
        for (int i = 0; i < 10_000; i++) {
            level = level.observe(8, 0);
        }
        assertTrue(level.servedPercent() >= AdaptiveQuantileLevel.MIN_LEVEL_PERCENT);
    }

    @Test
    void refusesImpossibleCounts() {
        assertThrows(IllegalArgumentException.class, () -> AdaptiveQuantileLevel.start(96).observe(5, 6));
    }
}
