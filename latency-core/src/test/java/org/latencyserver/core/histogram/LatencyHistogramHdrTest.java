package org.latencyserver.core.histogram;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Random;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Conversions to and from HdrHistogram. The reference is always a direct count of the raw
 * values; HdrHistogram's resolution enters only as a tolerance: a value v is recorded within
 * {@code v / 10^digits} of itself (its bucket is at most that wide).
 */
class LatencyHistogramHdrTest {

    private static final long MS = 1_000_000L;

    private static long[] randomLatencies(final Random random, final int count) {
        final long[] raw = new long[count];
        for (int i = 0; i < raw.length; i++) {
            // 50 us .. about 40 ms, right-skewed, and a few exact small values.
            raw[i] = i % 500 == 0 ? random.nextInt(3000) : 50_000L + (long) (-3.0 * MS * Math.log(1 - random.nextDouble()));
        }
        return raw;
    }

    private static Histogram record(final long[] raw, final int digits) {
        final Histogram hdr = new Histogram(3_600_000_000_000L, digits);
        for (final long value : raw) {
            hdr.recordValue(value);
        }
        return hdr;
    }

    private static long countAtOrBelow(final long[] sortedRaw, final long nanos) {
        int low = 0;
        int high = sortedRaw.length;
        while (low < high) {
            final int middle = (low + high) >>> 1;
            if (sortedRaw[middle] <= nanos) {
                low = middle + 1;
            } else {
                high = middle;
            }
        }
        return low;
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4})
    void fineExportKeepsEverySampleAndPutsItInABinWhoseEdgeIsAtOrAboveIt(final int digits) {
        final long[] raw = randomLatencies(new Random(7 + digits), 20_000);
        final LatencyHistogram histogram = LatencyHistogram.fromHdr(record(raw, digits));
        assertEquals(raw.length, histogram.totalCount());
        assertEquals(0, histogram.overflowCount());
        final double resolution = Math.pow(10, -digits);
        for (final long value : raw) {
            final int bin = histogram.binOf(value);
            assertTrue(bin >= 0, "value " + value + " has no bin");
            assertTrue(histogram.count(bin) > 0, "value " + value + " fell in an empty bin");
            final long edge = histogram.upperEdgeNanos(bin);
            assertTrue(edge >= value, "edge " + edge + " below value " + value);
            assertTrue(edge - value <= Math.max(1, value * resolution), "edge " + edge + " too far above " + value);
        }
        // Each edge is a bucket top, so the count at or below it is exact.
        Arrays.sort(raw);
        for (int bin = 0; bin < histogram.binCount(); bin++) {
            final long edge = histogram.upperEdgeNanos(bin);
            assertEquals(countAtOrBelow(raw, edge), histogram.countAtOrBelow(edge), "edge " + edge);
        }
    }

    @Test
    void zeroNanosecondSamplesGoToAOneNanosecondFirstBin() {
        final Histogram hdr = new Histogram(3);
        hdr.recordValueWithCount(0, 4);
        hdr.recordValue(10);
        final LatencyHistogram histogram = LatencyHistogram.fromHdr(hdr);
        assertEquals(1, histogram.upperEdgeNanos(0));
        assertEquals(4, histogram.count(0));
        assertEquals(5, histogram.totalCount());
    }

    @Test
    void emptyHdrHistogramHasNoFineExportButRebinsToAnEmptyHistogram() {
        assertThrows(IllegalArgumentException.class, () -> LatencyHistogram.fromHdr(new Histogram(3)));
        final LatencyHistogram rebinned = LatencyHistogram.fromHdr(new Histogram(3), MS, 100);
        assertTrue(rebinned.isEmpty());
        assertEquals(100, rebinned.binCount());
    }

    @Test
    void rebinningIntoMillisecondBinsMatchesADirectCountOfTheRawValues() {
        final Random random = new Random(11);
        final Histogram hdr = new Histogram(3_600_000_000_000L, 3);
        final long[] direct = new long[100];
        long overflow = 0;
        for (int i = 0; i < 100_000; i++) {
            // Stay more than one HdrHistogram bucket (< 0.1 %, under 130 us here) from every 1 ms edge.
            final int bin = random.nextInt(120);
            final long value = bin * MS + 150_000L + random.nextInt(700_000);
            hdr.recordValue(value);
            if (bin < 100) {
                direct[(int) ((value - 1) / MS)]++;
            } else {
                overflow++;
            }
        }
        final LatencyHistogram histogram = LatencyHistogram.fromHdr(hdr, MS, 100);
        for (int bin = 0; bin < 100; bin++) {
            assertEquals(direct[bin], histogram.count(bin), "bin " + bin);
        }
        assertEquals(overflow, histogram.overflowCount());
        assertEquals(100_000, histogram.totalCount());
    }

    @Test
    void rebinningErrsOnlyTowardsHigherLatencyAndOnlyWithinTheResolutionOfAnEdge() {
        final long[] raw = randomLatencies(new Random(13), 50_000);
        final LatencyHistogram histogram = LatencyHistogram.fromHdr(record(raw, 2), MS, 30);
        assertEquals(raw.length, histogram.totalCount());
        Arrays.sort(raw);
        for (int bin = 0; bin < histogram.binCount(); bin++) {
            final long edge = histogram.upperEdgeNanos(bin);
            final long exact = countAtOrBelow(raw, edge);
            final long surelyBelow = countAtOrBelow(raw, edge - edge / 100);
            final long counted = histogram.countAtOrBelow(edge);
            assertTrue(counted <= exact, "edge " + edge + ": " + counted + " counted, only " + exact + " really at or below");
            assertTrue(counted >= surelyBelow, "edge " + edge + ": " + counted + " counted, " + surelyBelow + " lie far below");
        }
        final long lastEdge = histogram.lastEdgeNanos();
        assertTrue(histogram.overflowCount() >= raw.length - countAtOrBelow(raw, lastEdge));
        assertTrue(histogram.overflowCount() <= raw.length - countAtOrBelow(raw, lastEdge - lastEdge / 100));
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3, 5})
    void exportToHdrAndBackPreservesTotalsAndNeverLowersALatency(final int digits) {
        final Random random = new Random(17 + digits);
        final long[] counts = new long[100];
        for (int i = 0; i < 3000; i++) {
            counts[Math.min(99, (int) (-4 * Math.log(1 - random.nextDouble())))] += 1 + random.nextInt(30);
        }
        final LatencyHistogram original = LatencyHistogram.uniform(MS, counts, 0);
        final Histogram hdr = original.toHdr(digits);
        assertEquals(original.totalCount(), hdr.getTotalCount());
        final LatencyHistogram back = LatencyHistogram.fromHdr(hdr);
        assertEquals(original.totalCount(), back.totalCount());
        final double resolution = Math.pow(10, -digits);
        for (int bin = 0; bin < original.binCount(); bin++) {
            final long edge = original.upperEdgeNanos(bin);
            // Never fewer samples above an edge than there were: no latency got lower.
            assertTrue(back.countAtOrBelow(edge - 1) <= original.countAtOrBelow(edge - 1), "below edge " + edge);
            // And every sample stays within the resolution of its edge.
            assertTrue(back.countAtOrBelow(edge + (long) (edge * resolution)) >= original.countAtOrBelow(edge),
                "within resolution of edge " + edge);
        }
        for (final double percent : new double[] {50, 90, 93, 99, 100}) {
            final long bound = original.boundAt(percent).boundNanos();
            final long roundTripBound = back.boundAt(percent).boundNanos();
            assertTrue(roundTripBound >= bound && roundTripBound <= bound + bound * resolution,
                percent + " %: " + roundTripBound + " vs " + bound);
        }
    }

    @Test
    void exportRecordsEachBinAtItsUpperEdge() {
        final LatencyHistogram histogram = LatencyHistogram.of(new long[] {1_000, 2_000, 3_000}, new long[] {4, 0, 6}, 0);
        final Histogram hdr = histogram.toHdr(3);
        // Edges below 2048 ns are exact at 3 digits.
        assertEquals(4, hdr.getCountAtValue(1_000));
        assertEquals(0, hdr.getCountAtValue(999));
        assertEquals(6, hdr.getCountBetweenValues(2_001, 3_000));
        assertEquals(6, hdr.getCountAtValue(3_000));
        assertEquals(10, hdr.getTotalCount());
        // Read back: the empty bin disappears, each edge becomes its HdrHistogram bucket's top.
        final LatencyHistogram back = LatencyHistogram.fromHdr(hdr);
        assertEquals(2, back.binCount());
        assertEquals(1_000, back.upperEdgeNanos(0));
        assertTrue(back.upperEdgeNanos(1) >= 3_000 && back.upperEdgeNanos(1) <= 3_003, "edge " + back.upperEdgeNanos(1));
        assertEquals(6, back.count(1));
    }

    @Test
    void exportRefusesOverflowSamplesWhoseValuesAreUnknown() {
        final LatencyHistogram histogram = LatencyHistogram.uniform(MS, new long[] {1}, 2);
        final IllegalStateException error = assertThrows(IllegalStateException.class, () -> histogram.toHdr(3));
        assertTrue(error.getMessage().contains("2 samples"), error.getMessage());
        assertThrows(IllegalArgumentException.class, () -> LatencyHistogram.uniform(MS, new long[] {1}, 0).toHdr(6));
    }
}
