package org.latencyserver.benchmarks.accuracy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class BlockCoverageTest {

    @Test
    void theShareIsPooledOverBurstsAndItsIntervalIsWiderThanIndependentRoundTripsWouldGive() {
        // Ten bursts of 50: nine all at or below the bound, one all above: a slow spell, not scattered misses.
        final long[] atOrBelow = {50, 50, 50, 50, 50, 50, 50, 50, 50, 0};
        final long[] sent = {50, 50, 50, 50, 50, 50, 50, 50, 50, 50};
        final BlockCoverage coverage = BlockCoverage.of(atOrBelow, sent, 10);
        assertEquals(0.9, coverage.share(), 1e-12);
        final double waldHalfWidth = 1.96 * Math.sqrt(0.9 * 0.1 / 500);
        assertTrue(coverage.upper() - coverage.share() > 3 * waldHalfWidth, coverage.toString());
        assertTrue(coverage.lower() >= 0 && coverage.upper() <= 1);
    }

    @Test
    void oneBurstHasAShareButNoInterval() {
        final BlockCoverage coverage = BlockCoverage.of(new long[] {48}, new long[] {50}, 1);
        assertEquals(0.96, coverage.share(), 1e-12);
        assertTrue(Double.isNaN(coverage.lower()) && Double.isNaN(coverage.upper()));
    }
}
