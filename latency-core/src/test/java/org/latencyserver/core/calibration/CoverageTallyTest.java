package org.latencyserver.core.calibration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;
import org.latencyserver.core.stats.ConfidenceInterval;

class CoverageTallyTest {

    /** Blocks of round trips whose hit probability wanders from block to block (correlated in time). */
    private static CoverageTally tally(final double meanHitProbability, final double blockSpread, final int blocks, final long seed) {
        final Random random = new Random(seed);
        CoverageTally tally = CoverageTally.EMPTY;
        for (int b = 0; b < blocks; b++) {
            final double p = meanHitProbability + blockSpread * (2 * random.nextDouble() - 1); // never clipped: unbiased
            final int n = 8;
            int hits = 0;
            for (int i = 0; i < n; i++) {
                hits += random.nextDouble() < p ? 1 : 0;
            }
            tally = tally.add(n, hits);
        }
        return tally;
    }

    @Test
    void aPerfectBoundReadsItsNominalShareWithAnIntervalAroundIt() {
        int covered = 0;
        for (int run = 0; run < 200; run++) {
            final CoverageTally tally = tally(0.96, 0.03, 300, run);
            assertEquals(0.96, tally.coverage(), 0.015);
            covered += tally.interval(0.95).contains(0.96) ? 1 : 0;
        }
        // The interval is over blocks, so correlation inside a block does not make it too narrow.
        assertTrue(covered >= 180, "the 95 % interval held the true coverage in " + covered + " of 200 runs");
    }

    @Test
    void aLowBoundReadsClearlyLessThanItsNominalShare() {
        final CoverageTally tally = tally(0.90, 0.03, 300, 42);
        final ConfidenceInterval interval = tally.interval(0.95);
        assertTrue(interval.upper() < 0.96, "a 90 % bound served as 96 %: interval " + interval);
    }

    @Test
    void theIntervalAllowsForCorrelationThatWaldOnRoundTripsIgnores() {
        // Blocks that are either all hits or mostly misses: a few blocks decide the share.
        CoverageTally tally = CoverageTally.EMPTY;
        for (int b = 0; b < 100; b++) {
            tally = tally.add(50, b % 10 == 0 ? 10 : 50);
        }
        final double p = tally.coverage();
        final double waldHalfWidth = 1.96 * Math.sqrt(p * (1 - p) / tally.roundTrips());
        assertTrue(tally.interval(0.95).halfWidth() > 2 * waldHalfWidth);
    }

    @Test
    void fewerThanTwoBlocksGiveNoInterval() {
        assertNull(CoverageTally.EMPTY.add(10, 9).interval(0.95));
        assertTrue(Double.isNaN(CoverageTally.EMPTY.coverage()));
    }

    @Test
    void countsSaturateInsteadOfWrappingNegative() {
        final long huge = 1L << 62;
        final CoverageTally tally = CoverageTally.EMPTY.add(huge, huge).add(huge, huge).add(huge, 0);
        assertEquals(Long.MAX_VALUE, tally.roundTrips(), "three blocks of 2^62 round trips");
        assertEquals(Long.MAX_VALUE, tally.hits());
        assertEquals(3, tally.blocks());
        assertTrue(tally.coverage() >= 0 && tally.coverage() <= 1, "coverage " + tally.coverage());
        final CoverageTally pooled = tally.plus(tally);
        assertEquals(Long.MAX_VALUE, pooled.roundTrips());
        assertEquals(6, pooled.blocks());
    }
}
