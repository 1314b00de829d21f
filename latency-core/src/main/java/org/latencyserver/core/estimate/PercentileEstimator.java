package org.latencyserver.core.estimate;

import java.util.List;
import org.latencyserver.core.histogram.LatencyHistogram;

/**
 * Any percentile of a latency histogram (beyond the thesis, which fixed one bound per
 * connection): the same rule and intervals as QoS 2 and 4, for the percentage the caller asks.
 *
 * <p>Stateless and thread-safe.
 */
public final class PercentileEstimator {

    private PercentileEstimator() {
    }

    /**
     * @param qos        the connection's QoS level, reported back
     * @param histogram  the profile cell's or the measurement's histogram
     * @param percentile in (0, 100]
     * @param basis      where the histogram came from
     * @return the bound at {@code percentile}
     * @throws EstimateRefusedException when the bound lies beyond the histogram or it is empty
     * @throws IllegalArgumentException when {@code percentile} is outside (0, 100]
     */
    public static Estimate atPercentile(final int qos, final LatencyHistogram histogram, final double percentile,
                                        final String basis) throws EstimateRefusedException {
        if (!(percentile > 0 && percentile <= 100)) {
            throw new IllegalArgumentException("percentile must be in (0, 100], was " + percentile);
        }
        return HistogramBoundEstimate.of(qos, histogram, percentile, basis, List.of());
    }
}
