package org.latencyserver.core.calibration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
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
        assertEquals(-0.005 * 50 * 0.04, level.missFraction(), 1e-12, "one clean block of 50 below 0, no further");
        for (int i = 0; i < 10_000; i++) {
            level = level.observe(8, 0);
        }
        assertTrue(level.servedPercent() >= AdaptiveQuantileLevel.MIN_LEVEL_PERCENT);
    }

    @Test
    void refusesImpossibleCounts() {
        assertThrows(IllegalArgumentException.class, () -> AdaptiveQuantileLevel.start(96).observe(5, 6));
    }

    @Test
    void aNewLevelHitByOneFullyMissedBlockIsBackAtTheNominalLevelAfterFiveCleanBlocks() {
        AdaptiveQuantileLevel level = AdaptiveQuantileLevel.start(96).observe(50, 50, 0);
        assertEquals(100.0, level.servedPercent(), 1e-9, "a fully missed block asks for the histogram's top");
        assertEquals(level.minMissFraction(), level.missFraction(), 1e-12, "and winds no further");
        level = level.observe(50, 0, 1).observe(50, 0, 2).observe(50, 0, 3).observe(50, 0, 4);
        assertTrue(level.servedPercent() > 96.0, "four clean blocks are not yet enough: " + level.servedPercent());
        level = level.observe(50, 0, 5);
        assertTrue(level.servedPercent() <= 96.0 + 1e-9, "the fifth brings it back: " + level.servedPercent());
    }

    @Test
    void aMatureLevelRecoversFromTheTopInFiveCleanBlocksNotTwentyFive() {
        AdaptiveQuantileLevel level = AdaptiveQuantileLevel.start(96);
        for (int i = 0; i < 10; i++) {
            level = level.observe(32, 30, 100 + i);
        }
        assertEquals(level.minMissFraction(), level.missFraction(), 1e-12);
        int clean = 0;
        while (level.servedPercent() > 96.0 + 1e-9) {
            level = level.observe(50, 0, 200 + clean);
            clean++;
        }
        assertEquals(5, clean, "each clean block of 50 adds γ · 50 · α_target = 0.01 from α = −0.01");
    }

    @Test
    void aLevelKeptMissingStillRisesToServeTheTop() {
        AdaptiveQuantileLevel level = AdaptiveQuantileLevel.start(96);
        for (int block = 0; block < 40; block++) {
            level = level.observe(20, 3, block);
        }
        assertEquals(100.0, level.servedPercent(), 1e-9, "15 % misses against a 4 % target");
        assertTrue(level.atHistogramTop());
    }

    @Test
    void everyBlockStepsByGammaWhateverTheLevelHasSeen() {
        for (final long seen : new long[] {0, 1, 2, 1000}) {
            assertEquals(1.0, AdaptiveQuantileLevel.stepFactor(seen), 1e-12, "blocks seen " + seen);
        }
        final AdaptiveQuantileLevel start = AdaptiveQuantileLevel.start(96);
        assertEquals(start.observe(10, 3).missFraction(), start.observe(10, 3, 0).missFraction(), 1e-15,
            "a first block moves the level as a later one does");
        assertEquals(start.missFraction() + 0.005 * 10 * (0.04 - 0.3), start.observe(10, 3, 0).missFraction(), 1e-12);
    }

    @Test
    void anOlderRecordBelowTheFloorIsReadAtTheFloor() {
        final AdaptiveQuantileLevel older = new AdaptiveQuantileLevel(0.04, -0.2, 0.005, 50);
        assertEquals(-0.01, older.missFraction(), 1e-12);
        assertEquals(100.0, older.servedPercent(), 1e-9);
        assertEquals(100.0, older.observe(50, 0).servedPercent(), 1e-9, "one clean block back to the top's edge");
        assertTrue(older.observe(50, 0).observe(50, 0).servedPercent() < 100.0, "the second serves below it");
    }

    /**
     * Exponential round trips (mean 1) against a reference histogram that is 20 % too low, read at the served level
     * (its top at 99.99 %): blocks of 8–50 round trips with the blocks counted, as a state learns them.
     */
    @Test
    void missesAverageTheTargetOverALongStationaryRun() {
        for (long seed = 1; seed <= 3; seed++) {
            final Random random = new Random(seed);
            AdaptiveQuantileLevel level = AdaptiveQuantileLevel.start(96);
            long roundTrips = 0;
            long misses = 0;
            for (int block = 0; block < 20_000; block++) {
                final int n = 8 + random.nextInt(43);
                final double p = Math.min(0.9999, level.servedPercent() / 100.0);
                final double boundMillis = -Math.log(1.0 - p) * 0.8;
                long k = 0;
                for (int i = 0; i < n; i++) {
                    if (-Math.log(1.0 - random.nextDouble()) > boundMillis) {
                        k++;
                    }
                }
                level = level.observe(n, k, block);
                roundTrips += n;
                misses += k;
            }
            assertEquals(0.04, (double) misses / roundTrips, 0.002, "seed " + seed);
        }
    }
}
