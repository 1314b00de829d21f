package org.latencyserver.core.histogram;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Arrays;
import java.util.Random;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/**
 * Properties of the bound over hundreds of random histograms (fixed seeds): the thesis's
 * verification test of QoS 4 bounds ("the returned latency bound estimate either stayed the same
 * or increased as the user specified latency bound value increased"), and that the bound always
 * has the required count below it and is the first edge that does. Expected values are
 * recomputed here with a plain linear scan and BigDecimal, not with the code under test.
 */
class LatencyHistogramPropertyTest {

    private static final long MS = 1_000_000L;
    private static final int CASES = 600;

    /** Ascending percentages: fine steps, the usual bounds, and extremes. */
    private static final double[] PERCENT_GRID = percentGrid();

    private static double[] percentGrid() {
        final double[] special = {1e-9, 0.0001, 0.001, 0.01, 0.1, 33.333333, 66.666667, 93, 95, 96, 99, 99.5, 99.9,
            99.99, 99.999, 99.9999, 99.99999, 100};
        final double[] grid = new double[200 + special.length];
        for (int i = 0; i < 200; i++) {
            grid[i] = (i + 1) * 0.5;
        }
        System.arraycopy(special, 0, grid, 200, special.length);
        Arrays.sort(grid);
        return grid;
    }

    @Test
    void boundNeverDecreasesAsTheBoundPercentageRises() {
        final Random random = new Random(19970101L);
        int boundsChecked = 0;
        for (int trial = 0; trial < CASES; trial++) {
            final LatencyHistogram histogram = randomHistogram(random, trial);
            long previousBound = 0;
            boolean beyond = false;
            for (final double percent : PERCENT_GRID) {
                final BoundResult bound;
                try {
                    bound = histogram.boundAt(percent);
                } catch (BoundBeyondHistogramException e) {
                    beyond = true;
                    continue;
                }
                if (beyond) {
                    fail("trial " + trial + ": a bound exists at " + percent + " % after a lower percentage needed the overflow");
                }
                assertTrue(bound.boundNanos() >= previousBound,
                    "trial " + trial + ": bound fell from " + previousBound + " to " + bound.boundNanos() + " ns at "
                        + percent + " % in " + histogram);
                previousBound = bound.boundNanos();
                boundsChecked++;
            }
        }
        assertTrue(boundsChecked > CASES * 100, "too few bounds checked: " + boundsChecked);
    }

    @Test
    void boundHasTheRequiredCountBelowItAndIsTheFirstEdgeThatDoes() {
        final Random random = new Random(4_2_4L);
        for (int trial = 0; trial < CASES; trial++) {
            final LatencyHistogram histogram = randomHistogram(random, trial);
            final long n = histogram.totalCount();
            for (final double percent : PERCENT_GRID) {
                final long required = ceilPercentOf(percent, n);
                final String where = "trial " + trial + " at " + percent + " % of " + n;
                // Independent linear scan for the first edge with enough samples at or below it.
                long cumulative = 0;
                int firstBin = -1;
                for (int bin = 0; bin < histogram.binCount(); bin++) {
                    cumulative += histogram.count(bin);
                    if (cumulative >= required) {
                        firstBin = bin;
                        break;
                    }
                }
                if (firstBin < 0) {
                    assertThrows(BoundBeyondHistogramException.class, () -> histogram.boundAt(percent), where);
                    continue;
                }
                final BoundResult bound = histogram.boundAt(percent);
                assertEquals(histogram.upperEdgeNanos(firstBin), bound.boundNanos(), where);
                assertEquals(cumulative, bound.countAtOrBelow(), where);
                assertEquals(n, bound.totalCount(), where);
                assertTrue(histogram.countAtOrBelow(bound.boundNanos()) >= required, where);
                assertTrue(histogram.countAtOrBelow(bound.boundNanos() - 1) < required, where);
            }
        }
    }

    @Test
    void requiredCountIsTheExactDecimalCeilingForRandomPercentagesAndSizes() {
        final Random random = new Random(93_679L);
        for (int trial = 0; trial < 20_000; trial++) {
            final long n = switch (trial % 4) {
                case 0 -> 1 + random.nextInt(1000);
                case 1 -> 1 + random.nextInt(Integer.MAX_VALUE);
                case 2 -> 1 + (random.nextLong() >>> 2);
                default -> 100_000;
            };
            final int decimals = random.nextInt(10);
            final long unscaled = 1 + (long) (random.nextDouble() * 100 * Math.pow(10, decimals));
            final double percent = Math.min(100.0, BigDecimal.valueOf(unscaled, decimals).doubleValue());
            final LatencyHistogram histogram = LatencyHistogram.of(new long[] {MS}, new long[] {n}, 0);
            assertEquals(ceilPercentOf(percent, n), histogram.requiredCount(percent), percent + " % of " + n);
        }
    }

    @Test
    void countAtOrBelowMatchesALinearScanForEveryEdgeAndBetween() {
        final Random random = new Random(5L);
        for (int trial = 0; trial < 200; trial++) {
            final LatencyHistogram histogram = randomHistogram(random, trial);
            for (int bin = 0; bin < histogram.binCount(); bin++) {
                for (final long probe : new long[] {histogram.upperEdgeNanos(bin), histogram.upperEdgeNanos(bin) - 1,
                    histogram.upperEdgeNanos(bin) + 1}) {
                    long expected = 0;
                    for (int i = 0; i < histogram.binCount() && histogram.upperEdgeNanos(i) <= probe; i++) {
                        expected += histogram.count(i);
                    }
                    assertEquals(expected, histogram.countAtOrBelow(probe), "trial " + trial + " probe " + probe);
                }
            }
        }
    }

    /** {@code max(1, ceil(percent / 100 * n))} in exact decimal arithmetic. */
    static long ceilPercentOf(final double percent, final long n) {
        final long exact = new BigDecimal(Double.toString(percent)).multiply(BigDecimal.valueOf(n))
            .divide(BigDecimal.valueOf(100)).setScale(0, RoundingMode.CEILING).longValueExact();
        return Math.max(1, exact);
    }

    /**
     * A random histogram of one of five layouts: the thesis's 100 x 1 ms bins, explicit uneven
     * edges with gaps and overflow, a fine HdrHistogram export, an HdrHistogram re-binned into
     * 1 ms bins, and a handful of samples.
     */
    static LatencyHistogram randomHistogram(final Random random, final int trial) {
        switch (trial % 5) {
            case 0: {
                final long[] counts = new long[100];
                final int filled = 1 + random.nextInt(100);
                for (int i = 0; i < filled; i++) {
                    counts[random.nextInt(100)] += 1 + random.nextInt(5000);
                }
                return LatencyHistogram.uniform(MS, counts, random.nextInt(4) == 0 ? random.nextInt(200) : 0);
            }
            case 1: {
                final int bins = 1 + random.nextInt(150);
                final long[] edges = new long[bins];
                final long[] counts = new long[bins];
                long edge = 0;
                for (int i = 0; i < bins; i++) {
                    edge += 1 + random.nextInt(2_000_000);
                    edges[i] = edge;
                    counts[i] = random.nextInt(4) == 0 ? 0 : random.nextInt(1000);
                }
                counts[random.nextInt(bins)] += 1;
                return LatencyHistogram.of(edges, counts, random.nextInt(3) == 0 ? random.nextInt(50) : 0);
            }
            case 2:
                return LatencyHistogram.fromHdr(randomHdr(random));
            case 3:
                return LatencyHistogram.fromHdr(randomHdr(random), MS, 5 + random.nextInt(100));
            default: {
                final int bins = 1 + random.nextInt(10);
                final long[] counts = new long[bins];
                final int samples = 1 + random.nextInt(5);
                for (int i = 0; i < samples; i++) {
                    counts[random.nextInt(bins)]++;
                }
                return LatencyHistogram.uniform(1 + random.nextInt(5_000_000), counts, 0);
            }
        }
    }

    /** Round trips in ns: a base, a right-skewed tail, sometimes a second mode (a scheduler tick). */
    private static Histogram randomHdr(final Random random) {
        final Histogram hdr = new Histogram(3_600_000_000_000L, 1 + random.nextInt(3));
        final int samples = 1 + random.nextInt(20_000);
        final long baseNanos = 100_000L + random.nextInt(2_000_000);
        final double tailNanos = 50_000 + random.nextDouble() * 10 * MS;
        final boolean bimodal = random.nextBoolean();
        for (int i = 0; i < samples; i++) {
            long value = baseNanos + (long) (-tailNanos * Math.log(1 - random.nextDouble()));
            if (bimodal && random.nextInt(20) == 0) {
                value += 10 * MS;
            }
            hdr.recordValue(value);
        }
        return hdr;
    }
}
