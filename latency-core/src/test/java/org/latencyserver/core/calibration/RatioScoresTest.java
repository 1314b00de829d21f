package org.latencyserver.core.calibration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.latencyserver.core.histogram.LatencyHistogram;

class RatioScoresTest {

    /** A block of round trips at 1, 2, … n ms. */
    private static LatencyHistogram block(final int n) {
        final long[] edges = new long[n];
        final long[] counts = new long[n];
        for (int i = 0; i < n; i++) {
            edges[i] = (i + 1) * 1_000_000L;
            counts[i] = 1;
        }
        return LatencyHistogram.of(edges, counts, 0);
    }

    @Test
    void belowTheMinimumThereIsNoQuantile() {
        final RatioScores scores = RatioScores.EMPTY.add(block(40), 1.0).add(block(40), 1.0);
        assertEquals(80, scores.size());
        assertTrue(Double.isNaN(scores.quantile(0.04)));
    }

    @Test
    void theQuantileIsTheConformalRankOfTheRatios() {
        // two blocks of 50 round trips at 1..50 ms, thesis 10 ms: ratios 0.1..5.0, each twice
        final RatioScores scores = RatioScores.EMPTY.add(block(50), 10.0).add(block(50), 10.0);
        assertEquals(100, scores.size());
        // rank ceil(101 * 0.96) = 97 of 100 sorted (0.1, 0.1, 0.2, 0.2, ...): the 97th is 4.9
        assertEquals(4.9, scores.quantile(0.04), 1e-9);
        // rank ceil(101 * 0.5) = 51: 2.6
        assertEquals(2.6, scores.quantile(0.5), 1e-9);
    }

    @Test
    void aLargeBlockAddsAtMostItsShareTakenEvenlyByRank() {
        final RatioScores scores = RatioScores.EMPTY.add(block(1000), 1.0);
        assertEquals(RatioScores.MAX_SCORES_PER_BLOCK, scores.size());
        // ranks 10, 30, ..., 990 of 1..1000 ms: the quantile at 0.5 is near 500 ms
        final RatioScores two = scores.add(block(1000), 1.0);
        assertEquals(510.0, two.quantile(0.5), 1e-9);
        assertEquals(990.0, two.quantile(0.01), 1e-9);
    }

    @Test
    void theOldestScoresGoBeyondTheCapacity() {
        RatioScores scores = RatioScores.EMPTY;
        for (int i = 0; i < 20; i++) {
            scores = scores.add(block(50), 1000.0); // ratios 0.001..0.05
        }
        for (int i = 0; i < 8; i++) {
            scores = scores.add(block(50), 1.0); // ratios 1..50
        }
        assertEquals(RatioScores.CAPACITY, scores.size());
        assertTrue(scores.quantile(0.99) >= 1.0, "only the newest 400, all of the second kind, remain");
        assertTrue(scores.quantile(0.01) >= 1.0);
    }

    @Test
    void overflowRoundTripsCountAtTheLastEdge() {
        final LatencyHistogram half = LatencyHistogram.of(new long[] {1_000_000L}, new long[] {50}, 50);
        final RatioScores scores = RatioScores.EMPTY.add(half, 1.0).add(half, 1.0);
        assertEquals(1.0, scores.quantile(0.04), 1e-9);
        assertEquals(1.0, scores.quantile(0.9), 1e-9);
    }

    @Test
    void aThesisBoundThatIsNotPositiveIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> RatioScores.EMPTY.add(block(3), 0.0));
        assertThrows(IllegalArgumentException.class, () -> RatioScores.EMPTY.add(block(3), Double.NaN));
    }
}
