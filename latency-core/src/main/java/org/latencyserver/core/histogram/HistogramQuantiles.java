package org.latencyserver.core.histogram;

import org.latencyserver.core.stats.ConfidenceInterval;
import org.latencyserver.core.stats.OrderStatisticInterval;
import org.latencyserver.core.stats.QuantileConfidence;

/**
 * A distribution-free confidence interval for a latency quantile read off a histogram: the ranks
 * of {@link QuantileConfidence} mapped to bin edges. The lower end is the lower edge of the bin
 * holding the lower rank, the upper end the upper edge of the bin holding the upper rank, so the
 * binning can only widen the interval, never narrow it.
 *
 * <p>Stateless and thread-safe.
 */
public final class HistogramQuantiles {

    private HistogramQuantiles() {
    }

    /**
     * @param histogram       a histogram with enough samples for the level
     * @param quantile        in (0, 1)
     * @param confidenceLevel in (0, 1)
     * @return the interval in ns, method {@code "distribution-free (order statistics)"}
     * @throws IllegalArgumentException      when there are too few samples for the level
     * @throws BoundBeyondHistogramException when the upper rank falls in the overflow
     */
    public static ConfidenceInterval quantileIntervalNanos(final LatencyHistogram histogram, final double quantile,
                                                           final double confidenceLevel) {
        if (histogram.isEmpty()) {
            throw new EmptyHistogramException("the histogram is empty: no quantile interval");
        }
        final OrderStatisticInterval ranks = QuantileConfidence.ranks(histogram.totalCount(), quantile, confidenceLevel);
        final int lowerBin = histogram.binOfRank(ranks.lowerRank());
        final int upperBin = histogram.binOfRank(ranks.upperRank());
        if (lowerBin < 0 || upperBin < 0) {
            throw new BoundBeyondHistogramException("the interval of the " + quantile
                + " quantile reaches into the samples above the last edge (" + histogram.overflowCount() + " of them)");
        }
        return new ConfidenceInterval(histogram.lowerEdgeNanos(lowerBin), histogram.upperEdgeNanos(upperBin),
            confidenceLevel, "distribution-free (order statistics)");
    }
}
