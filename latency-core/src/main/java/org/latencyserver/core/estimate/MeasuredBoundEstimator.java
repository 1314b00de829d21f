package org.latencyserver.core.estimate;

import java.util.List;

/**
 * QoS 4: the x % bound of a fresh measurement's histogram, as QoS 2 reads a profile's.
 *
 * <p>Stateless and thread-safe.
 */
public final class MeasuredBoundEstimator {

    private MeasuredBoundEstimator() {
    }

    /**
     * @param measurement  the measured round trips
     * @param boundPercent in (0, 100]
     * @param basis        where it came from
     * @return the estimate
     * @throws EstimateRefusedException when the bound lies beyond the histogram's last edge
     */
    public static Estimate estimate(final Measurement measurement, final double boundPercent, final String basis)
        throws EstimateRefusedException {
        return HistogramBoundEstimate.of(4, measurement.histogram(), boundPercent, basis, List.of());
    }
}
