package org.latencyserver.core.histogram;

import org.latencyserver.core.stats.ConfidenceInterval;
import org.latencyserver.core.stats.OrderStatisticInterval;
import org.latencyserver.core.stats.QuantileConfidence;

/**
 * A distribution-free confidence interval for a latency quantile read off a histogram: the ranks
 * of {@link QuantileConfidence} mapped to bin edges. The lower end is the lower edge of the bin
 * holding the lower rank, the upper end the upper edge of the bin holding the upper rank, so the
 * binning can only widen the interval, never narrow it: its coverage is at least the
 * {@linkplain OrderStatisticInterval#achievedCoverage() ranks' coverage}.
 *
 * <p>This is an interval for the bound itself (in ns), beside the thesis's interval for the
 * share below the bound (Eq. 3, a proportion).
 *
 * <p>Stateless and thread-safe.
 */
public final class HistogramQuantiles {

    /** The {@link ConfidenceInterval#method()} of every interval made here. */
    public static final String METHOD = "distribution-free (order statistics)";

    private HistogramQuantiles() {
    }

    /**
     * @param histogram       a non-empty histogram with enough samples for the level
     * @param quantile        the quantile as a proportion, in (0, 1) (0.93 for the 93 % bound)
     * @param confidenceLevel in (0, 1), e.g. 0.95
     * @return the interval in ns, method {@value #METHOD}
     * @throws EmptyHistogramException       when the histogram has no samples
     * @throws IllegalArgumentException      when the quantile or level is out of range, or there are
     *                                       too few samples for the level (the message says how many would do)
     * @throws BoundBeyondHistogramException when the upper rank falls in the overflow
     */
    public static ConfidenceInterval quantileIntervalNanos(final LatencyHistogram histogram, final double quantile,
                                                           final double confidenceLevel) {
        if (histogram.isEmpty()) {
            throw new EmptyHistogramException("the histogram is empty: no interval for the " + quantile + " quantile");
        }
        final OrderStatisticInterval ranks = QuantileConfidence.ranks(histogram.totalCount(), quantile, confidenceLevel);
        final int lowerBin = histogram.binOfRank(ranks.lowerRank());
        final int upperBin = histogram.binOfRank(ranks.upperRank());
        if (lowerBin < 0 || upperBin < 0) {
            throw new BoundBeyondHistogramException(String.format(java.util.Locale.ROOT,
                "the interval of the %s quantile needs the sample of rank %d, which lies above the last edge "
                    + "(%.3f ms; %d samples are above it)",
                quantile, lowerBin < 0 ? ranks.lowerRank() : ranks.upperRank(), histogram.lastEdgeNanos() / 1e6,
                histogram.overflowCount()));
        }
        return new ConfidenceInterval(histogram.lowerEdgeNanos(lowerBin), histogram.upperEdgeNanos(upperBin),
            confidenceLevel, METHOD);
    }
}
