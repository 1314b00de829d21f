package org.latencyserver.core.estimate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.HdrHistogram.Histogram;
import org.apache.commons.math3.distribution.NormalDistribution;
import org.junit.jupiter.api.Test;
import org.latencyserver.core.histogram.LatencyHistogram;

class DeadlineMissEstimatorTest {

    private static final long MS = 1_000_000L;
    private static final double Z = new NormalDistribution().inverseCumulativeProbability(0.975);

    @Test
    void missProbabilityMatchesADirectCountOfTheSamples() throws Exception {
        final Random random = new Random(1);
        final Histogram hdr = new Histogram(3_600_000_000_000L, 3);
        final List<Long> raw = new ArrayList<>();
        for (int i = 0; i < 5000; i++) {
            final long value = 100_000L + (long) (random.nextDouble() * 8 * MS);
            raw.add(value);
            hdr.recordValue(value);
        }
        final LatencyHistogram millisecondBins = LatencyHistogram.fromHdr(hdr, MS, 20);
        for (int deadline = 1; deadline <= 9; deadline++) {
            final long limit = deadline * MS;
            // As recorded: HdrHistogram keeps a value as its bucket's highest equivalent value.
            final long directMisses = raw.stream().filter(v -> hdr.highestEquivalentValue(v) > limit).count();
            final DeadlineMiss miss = DeadlineMissEstimator.estimate(millisecondBins, deadline);
            assertEquals((double) directMisses / 5000, miss.missProbability(), 1e-12, deadline + " ms");
            assertTrue(miss.interval().contains(miss.missProbability()));
            assertEquals(ProportionConfidenceOracle.wilsonLower(directMisses, 5000), miss.interval().lower(), 1e-12);
        }
    }

    @Test
    void aDeadlineInsideABinCountsTheWholeBinAsMissingAndSaysSo() throws Exception {
        final LatencyHistogram histogram = LatencyHistogram.uniform(MS, new long[] {40, 30, 20, 10}, 0);
        final DeadlineMiss atEdge = DeadlineMissEstimator.estimate(histogram, 2.0);
        assertEquals(0.30, atEdge.missProbability(), 1e-12);
        final DeadlineMiss inside = DeadlineMissEstimator.estimate(histogram, 2.9);
        assertEquals(0.30, inside.missProbability(), 1e-12, "the (2, 3] ms bin counts as missing");
        assertTrue(inside.notes().get(0).contains("counted as misses (conservative)"), inside.notes().toString());
        assertTrue(DeadlineMissEstimator.estimate(histogram, 3.0).missProbability() < inside.missProbability());
    }

    @Test
    void aDecimalDeadlineOnABinEdgeIsMetExactly() throws Exception {
        // 1.001 * 1e6 is 1000999.9999999999 in binary: the edge must still count as met.
        assertTrue(1.001 * 1e6 < 1_001_000, "the premise of this test");
        final LatencyHistogram histogram = LatencyHistogram.of(new long[] {1_001_000L, 9_000_000L}, new long[] {7, 3}, 0);
        assertEquals(0.3, DeadlineMissEstimator.estimate(histogram, 1.001).missProbability(), 1e-12);
    }

    @Test
    void samplesBeyondTheLastEdgeAreMissesAndSaidToBe() throws Exception {
        final LatencyHistogram histogram = LatencyHistogram.uniform(MS, new long[] {8, 1}, 1);
        final DeadlineMiss miss = DeadlineMissEstimator.estimate(histogram, 50);
        assertEquals(0.1, miss.missProbability(), 1e-12);
        assertTrue(miss.notes().stream().anyMatch(n -> n.contains("above the last edge")), miss.notes().toString());
    }

    @Test
    void badDeadlinesAndEmptyHistogramsAreRefused() {
        final LatencyHistogram histogram = LatencyHistogram.uniform(MS, new long[] {1}, 0);
        assertThrows(IllegalArgumentException.class, () -> DeadlineMissEstimator.estimate(histogram, -1));
        assertThrows(IllegalArgumentException.class, () -> DeadlineMissEstimator.estimate(histogram, Double.NaN));
        assertThrows(IllegalArgumentException.class, () -> DeadlineMissEstimator.estimate(histogram, Double.POSITIVE_INFINITY));
        assertThrows(EstimateRefusedException.class,
            () -> DeadlineMissEstimator.estimate(LatencyHistogram.uniform(MS, new long[] {0}, 0), 5));
    }

    /** The Wilson score interval by its closed form. */
    private static final class ProportionConfidenceOracle {
        static double wilsonLower(final long successes, final long n) {
            final double p = (double) successes / n;
            final double centre = (p + Z * Z / (2.0 * n)) / (1 + Z * Z / n);
            final double half = Z * Math.sqrt(p * (1 - p) / n + Z * Z / (4.0 * n * n)) / (1 + Z * Z / n);
            return Math.max(0, centre - half);
        }
    }
}
