package org.latencyserver.core.calibration;

import java.util.Arrays;
import java.util.function.DoubleToLongFunction;
import org.latencyserver.core.histogram.LatencyHistogram;

/** What the calibration tests share: exact reference histograms and misses counted as the server does. */
final class ReferenceFixtures {

    private ReferenceFixtures() {
    }

    /** As the server counts them: round trips above the bound read from the reference at a level. */
    static DoubleToLongFunction missesAt(final LatencyHistogram reference, final LatencyHistogram block) {
        return ReferenceMisses.at(reference, block);
    }

    /** A histogram with one bin per distinct value: an exact sorted sample. */
    static LatencyHistogram histogramOf(final long[] roundTripsNanos) {
        final long[] sorted = roundTripsNanos.clone();
        Arrays.sort(sorted);
        final long[] edges = new long[sorted.length];
        final long[] counts = new long[sorted.length];
        int bins = 0;
        for (final long value : sorted) {
            if (bins > 0 && edges[bins - 1] == value) {
                counts[bins - 1]++;
            } else {
                edges[bins] = value;
                counts[bins] = 1;
                bins++;
            }
        }
        return LatencyHistogram.of(Arrays.copyOf(edges, bins), Arrays.copyOf(counts, bins), 0);
    }

    /** Bin edges 1 % apart from 10 µs, ns: the shape model tests' round-trip histograms. */
    private static final long[] LOG_EDGES = logEdges();

    private static long[] logEdges() {
        final int count = (int) Math.ceil(Math.log(100_000.0) / Math.log(1.01));
        final long[] edges = new long[count];
        for (int i = 0; i < count; i++) {
            edges[i] = Math.round(10_000.0 * Math.pow(1.01, i + 1));
        }
        return edges;
    }

    /** @return the values, ns, in bins 1 % wide (beyond the last edge: overflow) */
    static LatencyHistogram logBinned(final double[] valuesNanos) {
        final long[] counts = new long[LOG_EDGES.length];
        long overflow = 0;
        for (final double value : valuesNanos) {
            int bin = Arrays.binarySearch(LOG_EDGES, (long) Math.ceil(value));
            bin = bin >= 0 ? bin : -bin - 1;
            if (bin >= LOG_EDGES.length) {
                overflow++;
            } else {
                counts[bin]++;
            }
        }
        return LatencyHistogram.of(LOG_EDGES, counts, overflow);
    }

    /** @return a standard normal draw (Box–Muller) */
    static double gaussian(final java.util.SplittableRandom random) {
        double u1 = random.nextDouble();
        while (u1 <= 0) {
            u1 = random.nextDouble();
        }
        return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * random.nextDouble());
    }
}
