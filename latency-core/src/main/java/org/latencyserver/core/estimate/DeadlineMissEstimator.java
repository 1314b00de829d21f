package org.latencyserver.core.estimate;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.latencyserver.core.histogram.LatencyHistogram;
import org.latencyserver.core.stats.ProportionConfidence;

/**
 * P(latency > deadline) from a histogram, with the Wilson interval (the thesis's Eq. 3 would
 * collapse to a point for the small miss rates that matter).
 *
 * <p>Conservative by construction: a bin that the deadline falls inside cannot be split, so its
 * samples count as misses, and so do samples above the last edge; the notes say when either
 * happened. Stateless and thread-safe.
 */
public final class DeadlineMissEstimator {

    private DeadlineMissEstimator() {
    }

    /**
     * @param histogram      a non-empty histogram of round trips, ns
     * @param deadlineMillis the deadline, ms, finite and {@code > 0}; a latency equal to it is met
     * @return the miss probability and its interval
     * @throws IllegalArgumentException when the deadline is not finite and positive
     * @throws EstimateRefusedException when the histogram is empty
     */
    public static DeadlineMiss estimate(final LatencyHistogram histogram, final double deadlineMillis)
        throws EstimateRefusedException {
        if (!(deadlineMillis > 0) || Double.isInfinite(deadlineMillis)) {
            throw new IllegalArgumentException("deadline must be finite and > 0 ms, was " + deadlineMillis);
        }
        if (histogram.isEmpty()) {
            throw new EstimateRefusedException("no samples: no deadline-miss probability");
        }
        final long deadlineNanos = deadlineNanos(deadlineMillis);
        final long n = histogram.totalCount();
        final long met = histogram.countAtOrBelow(deadlineNanos);
        final long missed = n - met;
        final List<String> notes = new ArrayList<>();
        for (int bin = 0; bin < histogram.binCount(); bin++) {
            if (histogram.lowerEdgeNanos(bin) < deadlineNanos && deadlineNanos < histogram.upperEdgeNanos(bin)) {
                if (histogram.count(bin) > 0) {
                    notes.add(String.format(Locale.ROOT,
                        "the deadline falls inside the bin (%.3f, %.3f] ms; its %d samples are counted as misses (conservative)",
                        histogram.lowerEdgeNanos(bin) / 1e6, histogram.upperEdgeNanos(bin) / 1e6, histogram.count(bin)));
                }
                break;
            }
        }
        if (histogram.overflowCount() > 0) {
            notes.add(histogram.overflowCount() + " samples above the last edge are counted as misses");
        }
        notes.add(missed + " of " + n + " samples above the deadline");
        return new DeadlineMiss(deadlineMillis, (double) missed / n,
            ProportionConfidence.wilson(missed, n, Estimate.CONFIDENCE_LEVEL), notes);
    }

    /**
     * As {@link #estimate(LatencyHistogram, double)} for a histogram whose counts are a scale rather than samples (a
     * composed path): the probability is the histogram's, its Wilson interval that of the same share of
     * {@code effectiveSamples} samples, and a note says so.
     *
     * @param effectiveSamples the samples the histogram rests on, {@code >= 1}; its own count or more changes nothing
     * @return the miss probability and its interval
     * @throws EstimateRefusedException as the other form
     */
    public static DeadlineMiss estimate(final LatencyHistogram histogram, final double deadlineMillis, final long effectiveSamples)
        throws EstimateRefusedException {
        final DeadlineMiss fine = estimate(histogram, deadlineMillis);
        if (effectiveSamples >= histogram.totalCount()) {
            return fine;
        }
        if (effectiveSamples < 1) {
            throw new IllegalArgumentException("effective samples must be >= 1, was " + effectiveSamples);
        }
        final long missed = Math.round(fine.missProbability() * effectiveSamples);
        final List<String> notes = new ArrayList<>(fine.notes());
        notes.add("interval over " + effectiveSamples + " effective samples (the histogram's counts are a scale, not samples)");
        return new DeadlineMiss(deadlineMillis, fine.missProbability(),
            ProportionConfidence.wilson(missed, effectiveSamples, Estimate.CONFIDENCE_LEVEL), notes);
    }

    /**
     * The deadline in whole ns, rounded down, from its decimal form: 1.001 ms is 1,001,000 ns, where
     * {@code 1.001 * 1e6} in binary floating point is 1,000,999.999… and would floor one ns short
     * (counting the bin ending at 1.001 ms as a miss for no reason).
     */
    private static long deadlineNanos(final double deadlineMillis) {
        final BigDecimal nanos = new BigDecimal(Double.toString(deadlineMillis)).movePointRight(6)
            .setScale(0, RoundingMode.FLOOR);
        return nanos.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) >= 0 ? Long.MAX_VALUE : nanos.longValueExact();
    }
}
