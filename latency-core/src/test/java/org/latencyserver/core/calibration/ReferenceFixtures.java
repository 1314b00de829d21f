package org.latencyserver.core.calibration;

import java.util.Arrays;
import java.util.function.DoubleToLongFunction;
import org.latencyserver.core.histogram.BoundBeyondHistogramException;
import org.latencyserver.core.histogram.LatencyHistogram;

/** What the long-run tests of a served level share: exact reference histograms and misses counted as the server does. */
final class ReferenceFixtures {

    private ReferenceFixtures() {
    }

    /** As the server counts them: round trips above the bound read from the reference at a level. */
    static DoubleToLongFunction missesAt(final LatencyHistogram reference, final LatencyHistogram block) {
        return levelPercent -> {
            long boundNanos;
            try {
                boundNanos = Math.round(reference.boundAt(levelPercent).boundMillis() * 1e6);
            } catch (BoundBeyondHistogramException | IllegalArgumentException beyond) {
                boundNanos = reference.lastEdgeNanos();
            }
            return block.totalCount() - Math.min(block.totalCount(), block.countAtOrBelow(boundNanos));
        };
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
}
