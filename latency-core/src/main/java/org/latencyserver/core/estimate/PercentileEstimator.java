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

    /**
     * As {@link #atPercentile(int, LatencyHistogram, double, String)} for a histogram whose counts are a scale rather
     * than samples (a composed path): the value is read from the histogram itself, the intervals from it held as
     * {@code effectiveSamples} samples ({@link EffectiveSample#scaledTo}), and a note says so.
     *
     * @param effectiveSamples the samples the histogram rests on, {@code >= 1}; its own count or more changes nothing
     * @return the bound at {@code percentile}
     * @throws EstimateRefusedException as the other form
     */
    public static Estimate atPercentile(final int qos, final LatencyHistogram histogram, final double percentile,
                                        final String basis, final long effectiveSamples) throws EstimateRefusedException {
        final Estimate fine = atPercentile(qos, histogram, percentile, basis);
        if (effectiveSamples >= histogram.totalCount()) {
            return fine;
        }
        final Estimate coarse = HistogramBoundEstimate.of(qos, EffectiveSample.scaledTo(histogram, effectiveSamples), percentile,
            basis, List.of());
        final List<String> notes = new java.util.ArrayList<>(fine.notes());
        notes.add("intervals over " + effectiveSamples + " effective samples (the histogram's counts are a scale, not samples)");
        return new Estimate(fine.qos(), fine.kind(), fine.valueMillis(), fine.boundPercent(), coarse.interval(),
            coarse.alternatives(), fine.basis(), notes, fine.interpolated());
    }
}
