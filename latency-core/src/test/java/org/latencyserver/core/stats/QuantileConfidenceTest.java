package org.latencyserver.core.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.apache.commons.math3.distribution.BinomialDistribution;
import org.junit.jupiter.api.Test;

/** Order-statistic ranks, with coverage recomputed here from Binomial(n, q). */
class QuantileConfidenceTest {

    @Test
    void ranksReachTheirCoverageRecomputedFromTheBinomial() {
        for (final long n : new long[] {100, 1000, 10_000, 100_000}) {
            for (final double q : new double[] {0.05, 0.5, 0.9, 0.93, 0.96, 0.99, 0.999}) {
                for (final double level : new double[] {0.9, 0.95, 0.99}) {
                    final String where = "n=" + n + " q=" + q + " level=" + level;
                    if (n < QuantileConfidence.minimumSampleSize(q, level)) {
                        assertThrows(IllegalArgumentException.class, () -> QuantileConfidence.ranks(n, q, level), where);
                        continue;
                    }
                    final OrderStatisticInterval ranks = QuantileConfidence.ranks(n, q, level);
                    final BinomialDistribution b = new BinomialDistribution((int) n, q);
                    final int l = (int) ranks.lowerRank();
                    final int u = (int) ranks.upperRank();
                    assertTrue(1 <= l && l < u && u <= n, where);
                    // P(X(l) <= xi < X(u)) = P(l <= B <= u - 1).
                    final double coverage = b.cumulativeProbability(u - 1) - b.cumulativeProbability(l - 1);
                    assertEquals(coverage, ranks.achievedCoverage(), 1e-12, where);
                    assertTrue(coverage >= level, where + " coverage " + coverage);
                    // Equal tails, each within (1 - level) / 2 ...
                    final double tail = (1 - level) / 2;
                    assertTrue(b.cumulativeProbability(l - 1) < tail, where);
                    assertTrue(1 - b.cumulativeProbability(u - 1) <= tail, where);
                    // ... and the narrowest: moving either rank inward breaks its tail.
                    assertTrue(b.cumulativeProbability(l) >= tail, where);
                    assertTrue(1 - b.cumulativeProbability(u - 2) > tail, where);
                }
            }
        }
    }

    @Test
    void ranksOfTheMedianOfAHundredAreTheTextbookFortyAndSixtyOne() {
        // The classic table: for n = 100 the 95 % interval of the median is [X(40), X(61)].
        final OrderStatisticInterval ranks = QuantileConfidence.ranks(100, 0.5, 0.95);
        assertEquals(40, ranks.lowerRank());
        assertEquals(61, ranks.upperRank());
    }

    @Test
    void minimumSampleSizeIsTheClosedFormForTheExtremeOrderStatistics() {
        // n such that max(q, 1 - q)^n <= (1 - level) / 2.
        assertEquals(6, QuantileConfidence.minimumSampleSize(0.5, 0.95));
        assertEquals((long) Math.ceil(Math.log(0.025) / Math.log(0.96)), QuantileConfidence.minimumSampleSize(0.96, 0.95));
        assertEquals(91, QuantileConfidence.minimumSampleSize(0.96, 0.95));
        assertEquals(3688, QuantileConfidence.minimumSampleSize(0.999, 0.95));
        assertEquals(QuantileConfidence.minimumSampleSize(0.999, 0.95), QuantileConfidence.minimumSampleSize(0.001, 0.95));
    }

    @Test
    void minimumSampleSizeIsExactlyWhereRanksStartToSucceed() {
        final Random random = new Random(31);
        for (int trial = 0; trial < 200; trial++) {
            final double q = 0.01 + 0.98 * random.nextDouble();
            final double level = 0.5 + 0.49 * random.nextDouble();
            final long minimum = QuantileConfidence.minimumSampleSize(q, level);
            QuantileConfidence.ranks(minimum, q, level);
            if (minimum > 1) {
                final IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
                    () -> QuantileConfidence.ranks(minimum - 1, q, level), "q=" + q + " level=" + level);
                assertTrue(error.getMessage().contains("need at least " + minimum), error.getMessage());
            }
        }
    }

    @Test
    void argumentsOutOfRangeAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> QuantileConfidence.ranks(0, 0.5, 0.95));
        assertThrows(IllegalArgumentException.class, () -> QuantileConfidence.ranks(100, 1.0, 0.95));
        assertThrows(IllegalArgumentException.class, () -> QuantileConfidence.ranks(100, 0.0, 0.95));
        assertThrows(IllegalArgumentException.class, () -> QuantileConfidence.ranks(100, 0.5, 1.0));
        assertThrows(IllegalArgumentException.class, () -> QuantileConfidence.ranks(1L << 32, 0.5, 0.95));
        assertThrows(IllegalArgumentException.class, () -> new OrderStatisticInterval(5, 5, 0.95));
    }
}
