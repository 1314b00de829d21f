package org.latencyserver.core.estimate;

import java.util.ArrayList;
import java.util.List;
import org.latencyserver.core.stats.ConfidenceInterval;
import org.latencyserver.core.stats.MeanConfidence;

/**
 * QoS 3: the mean of a fresh measurement, with the thesis's Eq. 1 interval from the measured
 * standard deviation (Student's t beside it, which matters only for small runs, and, when the
 * agent gave batch means, the batch-means interval, which allows for round trips correlated in
 * time and is the one to trust on a shared machine).
 *
 * <p>Stateless and thread-safe.
 */
public final class MeasuredAverageEstimator {

    private MeasuredAverageEstimator() {
    }

    /**
     * @param measurement the measured round trips
     * @param basis       where it came from, e.g. "measurement ticket 42 by agent ws1"
     * @return the estimate
     */
    public static Estimate estimate(final Measurement measurement, final String basis) {
        final long n = measurement.sampleCount();
        final ConfidenceInterval interval = MeanConfidence.normal(measurement.meanMillis(), measurement.stdDevMillis(), n,
            Estimate.CONFIDENCE_LEVEL);
        final List<ConfidenceInterval> alternatives = new ArrayList<>();
        if (n >= 2) {
            alternatives.add(MeanConfidence.studentT(measurement.meanMillis(), measurement.stdDevMillis(), n,
                Estimate.CONFIDENCE_LEVEL));
        }
        if (!measurement.batchMeansMillis().isEmpty()) {
            alternatives.add(MeanConfidence.batchMeans(measurement.meanMillis(), measurement.batchMeansMillis(),
                Estimate.CONFIDENCE_LEVEL));
        }
        return new Estimate(3, EstimateKind.AVERAGE, measurement.meanMillis(), 0.0, interval, alternatives, basis,
            List.of(n + " round trips measured, longest " + measurement.maxMillis() + " ms"), false);
    }
}
