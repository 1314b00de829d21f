package org.latencyserver.core.histogram;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Arrays;
import java.util.Random;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.latencyserver.core.stats.ConfidenceInterval;
import org.latencyserver.core.stats.ProportionConfidence;

class LatencyHistogramTest {

    private static final long MS = 1_000_000L;

    /**
     * The distribution of the thesis's Figure 3.2.2-2 as far as section 4.2.4 describes it:
     * 100,000 samples, 93,679 at or below 7 ms, fewer than 93,000 at or below 6 ms.
     */
    static LatencyHistogram thesisFigure322() {
        final long[] counts = new long[100];
        counts[0] = 20_000;
        counts[1] = 30_000;
        counts[2] = 20_000;
        counts[3] = 10_000;
        counts[4] = 8_000;
        counts[5] = 4_500;   // 92,500 at or below 6 ms
        counts[6] = 1_179;   // 93,679 at or below 7 ms
        counts[7] = 3_000;
        counts[10] = 2_321;
        counts[40] = 1_000;  // 100,000
        return LatencyHistogram.uniform(MS, counts, 0);
    }

    @Test
    void thesisWorkedExampleGivesSevenMillisecondsForNinetyThreePercent() {
        final BoundResult bound = thesisFigure322().boundAt(93.0);
        assertEquals(7 * MS, bound.boundNanos());
        assertEquals(93_679, bound.countAtOrBelow());
        assertEquals(100_000, bound.totalCount());
        assertEquals(0.93679, bound.proportionAtOrBelow(), 1e-12);
        final ConfidenceInterval ci = ProportionConfidence.wald(bound.countAtOrBelow(), bound.totalCount(), 0.95);
        // The thesis: "between 93.52 - 93.82 % of actual message latencies are less than the 7 ms".
        // Eq. 3 gives 93.5282-93.8298 %: the thesis cut (not rounded) to two decimals.
        assertEquals(93.52, truncate2(ci.lower() * 100));
        assertEquals(93.82, truncate2(ci.upper() * 100));
        assertEquals(0.0015082, ci.halfWidth(), 1e-7);
    }

    @Test
    void requiredCountIsExactWhereFloatingPointWouldRoundUp() {
        final LatencyHistogram histogram = thesisFigure322();
        assertEquals(93_000, histogram.requiredCount(93.0));
        final LatencyHistogram hundred = LatencyHistogram.uniform(MS, new long[] {100}, 0);
        assertTrue(7.0 / 100.0 * 100 > 7.0, "premise: binary floating point overshoots 7 % of 100");
        assertEquals(7, hundred.requiredCount(7.0));
        assertEquals(1, histogram.requiredCount(0.0001));
        assertEquals(100_000, histogram.requiredCount(100.0));
        assertEquals(99_901, histogram.requiredCount(99.9005));
    }

    @Test
    void boundIsExactlyTheEdgeWhereTheCumulativeCountFirstReachesTheRequirement() {
        // 10 samples: 3 in (0,1], 0 in (1,2], 7 in (2,3] ms.
        final LatencyHistogram histogram = LatencyHistogram.uniform(MS, new long[] {3, 0, 7}, 0);
        assertEquals(1 * MS, histogram.boundAt(30.0).boundNanos());
        assertEquals(3 * MS, histogram.boundAt(30.0001).boundNanos());
        assertEquals(3 * MS, histogram.boundAt(100.0).boundNanos());
    }

    @Test
    void hundredPercentIsTheLastNonEmptyBinAndATinyShareIsTheFirst() {
        final LatencyHistogram histogram = LatencyHistogram.uniform(MS, new long[] {0, 0, 5, 0, 2, 0, 0}, 0);
        assertEquals(5 * MS, histogram.boundAt(100.0).boundNanos());
        assertEquals(3 * MS, histogram.boundAt(1e-9).boundNanos());
    }

    @Test
    void singleSampleHasEveryBoundAtItsBin() {
        final LatencyHistogram histogram = LatencyHistogram.uniform(MS, new long[] {0, 0, 0, 1}, 0);
        for (final double percent : new double[] {0.1, 50, 96, 100}) {
            final BoundResult bound = histogram.boundAt(percent);
            assertEquals(4 * MS, bound.boundNanos());
            assertEquals(1.0, bound.proportionAtOrBelow());
        }
    }

    @Test
    void allSamplesInOneBinGiveThatBinForEveryPercentage() {
        final LatencyHistogram histogram = LatencyHistogram.uniform(MS, new long[] {0, 1000, 0}, 0);
        assertEquals(2 * MS, histogram.boundAt(1).boundNanos());
        assertEquals(2 * MS, histogram.boundAt(99.99).boundNanos());
    }

    @Test
    void emptyHistogramHasNoBound() {
        final LatencyHistogram empty = LatencyHistogram.uniform(MS, new long[100], 0);
        assertTrue(empty.isEmpty());
        final EmptyHistogramException error = assertThrows(EmptyHistogramException.class, () -> empty.boundAt(93));
        assertTrue(error.getMessage().contains("empty"), error.getMessage());
    }

    @Test
    void boundNeededFromTheOverflowIsRefusedNamingTheLastEdge() {
        final LatencyHistogram histogram = LatencyHistogram.uniform(MS, new long[] {90, 5}, 5);
        assertEquals(2 * MS, histogram.boundAt(95).boundNanos());
        final BoundBeyondHistogramException error =
            assertThrows(BoundBeyondHistogramException.class, () -> histogram.boundAt(96));
        assertTrue(error.getMessage().contains("2.000 ms"), error.getMessage());
        assertTrue(error.getMessage().contains("5 are above"), error.getMessage());
    }

    @ParameterizedTest
    @ValueSource(doubles = {0.0, -1.0, 100.0001, Double.NaN})
    void boundPercentOutsideZeroToHundredIsRefused(final double percent) {
        final LatencyHistogram histogram = LatencyHistogram.uniform(MS, new long[] {1}, 0);
        assertThrows(IllegalArgumentException.class, () -> histogram.boundAt(percent));
    }

    @Test
    void invalidConstructionsNameTheOffendingIndex() {
        final IllegalArgumentException order = assertThrows(IllegalArgumentException.class,
            () -> LatencyHistogram.of(new long[] {1, 3, 2}, new long[] {1, 1, 1}, 0));
        assertTrue(order.getMessage().contains("edge[2]"), order.getMessage());
        final IllegalArgumentException negative = assertThrows(IllegalArgumentException.class,
            () -> LatencyHistogram.of(new long[] {1, 2}, new long[] {1, -4}, 0));
        assertTrue(negative.getMessage().contains("count[1]") && negative.getMessage().contains("-4"), negative.getMessage());
        final IllegalArgumentException lengths = assertThrows(IllegalArgumentException.class,
            () -> LatencyHistogram.of(new long[] {1, 2}, new long[] {1}, 0));
        assertTrue(lengths.getMessage().contains("2 edges, 1 counts"), lengths.getMessage());
        assertThrows(IllegalArgumentException.class, () -> LatencyHistogram.of(new long[] {0}, new long[] {1}, 0));
        assertThrows(IllegalArgumentException.class, () -> LatencyHistogram.of(new long[] {1}, new long[] {1}, -1));
    }

    /** Thesis verification test 5: a higher bound percentage never gives a lower bound. */
    @Test
    void boundNeverDecreasesAsTheBoundPercentageRises() {
        final Random random = new Random(20261122L);
        for (int trial = 0; trial < 500; trial++) {
            final LatencyHistogram histogram = randomHistogram(random);
            long previousBound = 0;
            for (double percent = 0.5; percent <= 100.0; percent += 0.5) {
                final BoundResult bound;
                try {
                    bound = histogram.boundAt(percent);
                } catch (BoundBeyondHistogramException beyond) {
                    break; // every higher percentage also needs the overflow
                }
                assertTrue(bound.boundNanos() >= previousBound,
                    "trial " + trial + ": bound fell at " + percent + " % in " + histogram);
                final long required = BigDecimal.valueOf(percent).multiply(BigDecimal.valueOf(histogram.totalCount()))
                    .divide(BigDecimal.valueOf(100)).setScale(0, RoundingMode.CEILING).longValue();
                assertTrue(bound.countAtOrBelow() >= required);
                assertEquals(bound.countAtOrBelow(), histogram.countAtOrBelow(bound.boundNanos()));
                previousBound = bound.boundNanos();
            }
        }
    }

    private static LatencyHistogram randomHistogram(final Random random) {
        if (random.nextBoolean()) {
            final Histogram hdr = new Histogram(3_600_000_000_000L, 1 + random.nextInt(3));
            final int samples = 1 + random.nextInt(5000);
            final double tailMillis = 0.1 + random.nextDouble() * 10;
            for (int i = 0; i < samples; i++) {
                hdr.recordValue(200_000L + (long) (-tailMillis * MS * Math.log(1 - random.nextDouble())));
            }
            return random.nextBoolean() ? LatencyHistogram.fromHdr(hdr) : LatencyHistogram.fromHdr(hdr, MS, 20);
        }
        final int bins = 1 + random.nextInt(120);
        final long[] edges = new long[bins];
        final long[] counts = new long[bins];
        long edge = 0;
        for (int i = 0; i < bins; i++) {
            edge += 1 + random.nextInt(2_000_000);
            edges[i] = edge;
            counts[i] = random.nextInt(4) == 0 ? 0 : random.nextInt(1000);
        }
        counts[random.nextInt(bins)] += 1; // never empty
        return LatencyHistogram.of(edges, counts, random.nextInt(3) == 0 ? random.nextInt(50) : 0);
    }

    @Test
    void fineHdrExportKeepsEverySampleAtOrAboveItsValue() {
        final Random random = new Random(7);
        final Histogram hdr = new Histogram(3_600_000_000_000L, 3);
        final long[] raw = new long[20_000];
        for (int i = 0; i < raw.length; i++) {
            raw[i] = 50_000L + (long) (random.nextDouble() * 20 * MS);
            hdr.recordValue(raw[i]);
        }
        final LatencyHistogram histogram = LatencyHistogram.fromHdr(hdr);
        assertEquals(raw.length, histogram.totalCount());
        // Every raw sample counted at or below an edge lies at or below that edge's bucket top.
        Arrays.sort(raw);
        for (int bin = 0; bin < histogram.binCount(); bin += 97) {
            final long edge = histogram.upperEdgeNanos(bin);
            final long rawAtOrBelowEdge = Arrays.stream(raw).filter(v -> v <= edge).count();
            assertEquals(rawAtOrBelowEdge, histogram.countAtOrBelow(edge), "edge " + edge);
        }
    }

    @Test
    void rebinningIntoMillisecondBinsMatchesADirectCountOfTheRawValues() {
        final Random random = new Random(11);
        final Histogram hdr = new Histogram(3_600_000_000_000L, 3);
        final long[] direct = new long[10];
        long overflow = 0;
        for (int i = 0; i < 10_000; i++) {
            // Keep values 50 µs away from any 1 ms edge, beyond the 3-digit resolution (< 16 µs here).
            final int bin = random.nextInt(12);
            final long value = bin * MS + 50_000L + random.nextInt(900_000);
            hdr.recordValue(value);
            if (bin < 10) {
                direct[bin]++;
            } else {
                overflow++;
            }
        }
        final LatencyHistogram histogram = LatencyHistogram.fromHdr(hdr, MS, 10);
        for (int bin = 0; bin < 10; bin++) {
            assertEquals(direct[bin], histogram.count(bin), "bin " + bin);
        }
        assertEquals(overflow, histogram.overflowCount());
    }

    @Test
    void exportToHdrPreservesTotalsAndPutsSamplesAtTheirBinEdges() {
        final LatencyHistogram histogram = LatencyHistogram.uniform(MS, new long[] {4, 0, 6}, 0);
        final Histogram hdr = histogram.toHdr(3);
        assertEquals(10, hdr.getTotalCount());
        assertEquals(4, hdr.getCountBetweenValues(0, MS));
        assertEquals(6, hdr.getCountBetweenValues(2 * MS + 1, 3 * MS + 5_000));
        assertEquals(10, LatencyHistogram.fromHdr(hdr).totalCount());
        assertThrows(IllegalStateException.class, () -> LatencyHistogram.uniform(MS, new long[] {1}, 2).toHdr(3));
    }

    @Test
    void midpointMeanWeighsEachBinAtItsCentre() {
        final LatencyHistogram histogram = LatencyHistogram.uniform(MS, new long[] {1, 0, 3}, 9);
        assertEquals((0.5 * MS + 3 * 2.5 * MS) / 4, histogram.meanNanosFromBinMidpoints(), 1e-6);
    }

    private static double truncate2(final double value) {
        return BigDecimal.valueOf(value).setScale(2, RoundingMode.DOWN).doubleValue();
    }
}
