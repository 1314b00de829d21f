package org.latencyserver.core.estimate;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.latencyserver.core.histogram.BoundBeyondHistogramException;
import org.latencyserver.core.histogram.BoundResult;
import org.latencyserver.core.histogram.EmptyHistogramException;
import org.latencyserver.core.histogram.HistogramQuantiles;
import org.latencyserver.core.histogram.LatencyHistogram;
import org.latencyserver.core.stats.ConfidenceInterval;
import org.latencyserver.core.stats.ProportionConfidence;

/**
 * The bound at x % of a histogram as an {@link Estimate}: the thesis's bound and Eq. 3 interval,
 * with the Wilson interval and, where the sample is large enough, a distribution-free interval of
 * the bound itself beside them. Shared by QoS 2, QoS 4 and any percentile. Stateless.
 */
final class HistogramBoundEstimate {

    private HistogramBoundEstimate() {
    }

    static Estimate of(final int qos, final LatencyHistogram histogram, final double boundPercent, final String basis,
                       final List<String> notes) throws EstimateRefusedException {
        final BoundResult bound;
        try {
            bound = histogram.boundAt(boundPercent);
        } catch (EmptyHistogramException | BoundBeyondHistogramException e) {
            throw new EstimateRefusedException(basis + ": " + e.getMessage());
        }
        final ConfidenceInterval share = ProportionConfidence.wald(bound.countAtOrBelow(), bound.totalCount(),
            Estimate.CONFIDENCE_LEVEL);
        final List<ConfidenceInterval> alternatives = new ArrayList<>();
        alternatives.add(ProportionConfidence.wilson(bound.countAtOrBelow(), bound.totalCount(), Estimate.CONFIDENCE_LEVEL));
        final List<String> allNotes = new ArrayList<>(notes);
        if (boundPercent < 100.0) {
            try {
                final ConfidenceInterval nanos = HistogramQuantiles.quantileIntervalNanos(histogram, boundPercent / 100.0,
                    Estimate.CONFIDENCE_LEVEL);
                alternatives.add(new ConfidenceInterval(nanos.lower() / 1e6, nanos.upper() / 1e6, nanos.confidenceLevel(),
                    nanos.method() + ", of the bound in ms"));
            } catch (IllegalArgumentException | BoundBeyondHistogramException e) {
                allNotes.add("no distribution-free interval of the bound: " + e.getMessage());
            }
        }
        allNotes.add(String.format(Locale.ROOT, "%.3f %% of %d samples at or below %.3f ms",
            bound.proportionAtOrBelow() * 100, bound.totalCount(), bound.boundMillis()));
        return new Estimate(qos, EstimateKind.BOUND, bound.boundMillis(), boundPercent, share, alternatives, basis,
            allNotes, false);
    }
}
