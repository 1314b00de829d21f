package org.latencyserver.core.calibration;

import java.util.function.DoubleToLongFunction;
import org.latencyserver.core.histogram.BoundBeyondHistogramException;
import org.latencyserver.core.histogram.LatencyHistogram;

/**
 * How many of a block's round trips lie above the bound read from a reference histogram at a level: what every
 * adaptive level learns from (the level that would have been served, judged by the round trips that followed).
 * The bound at a level beyond the reference's range is its last edge.
 *
 * <p>Stateless and thread-safe; pure.
 */
public final class ReferenceMisses {

    private ReferenceMisses() {
    }

    /**
     * @param reference  the histogram the bound is read from, not null
     * @param roundTrips the block's round trips, ns, not null
     * @return for a level in percent, the block's round trips above the bound read at it
     */
    public static DoubleToLongFunction at(final LatencyHistogram reference, final LatencyHistogram roundTrips) {
        return at(reference, roundTrips, roundTrips.totalCount());
    }

    /**
     * @param reference  the histogram the bound is read from, not null
     * @param roundTrips the block's round trips, ns, not null
     * @param count      the block's round trips counted (at most {@code count} are above any bound)
     * @return for a level in percent, the block's round trips above the bound read at it
     */
    public static DoubleToLongFunction at(final LatencyHistogram reference, final LatencyHistogram roundTrips,
                                          final long count) {
        return levelPercent -> {
            long boundNanos;
            try {
                boundNanos = Math.round(reference.boundAt(levelPercent).boundMillis() * 1e6);
            } catch (BoundBeyondHistogramException | IllegalArgumentException beyond) {
                boundNanos = reference.lastEdgeNanos();
            }
            return count - Math.min(count, roundTrips.countAtOrBelow(boundNanos));
        };
    }
}
