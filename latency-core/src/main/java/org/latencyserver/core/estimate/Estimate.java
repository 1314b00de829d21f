package org.latencyserver.core.estimate;

import java.util.List;
import org.latencyserver.core.stats.ConfidenceInterval;

/**
 * One latency estimate with its confidence, and what it rests on.
 *
 * <p>For {@link EstimateKind#AVERAGE} the {@code interval} is the 95 % CI of the mean in ms
 * (thesis Eq. 1). For {@link EstimateKind#BOUND} it is the 95 % CI of the share of latencies at
 * or below {@code valueMillis}, as a proportion in [0, 1] (thesis Eq. 3; the IDL shows it in
 * percent). {@code alternatives} holds the other intervals offered beside the thesis's — Wilson for
 * a share, a distribution-free interval of the bound itself in ms, Student's t for a mean — each
 * named by its {@link ConfidenceInterval#method()}.
 *
 * <p>Immutable and thread-safe.
 *
 * @param qos          the QoS level it serves, 1..4
 * @param kind         AVERAGE or BOUND
 * @param valueMillis  the mean or the bound, ms
 * @param boundPercent for BOUND the percentage asked, in (0, 100]; 0 for AVERAGE
 * @param interval     the thesis's interval (see above)
 * @param alternatives further intervals, possibly empty
 * @param basis        where it came from, e.g. "profile thesis-tac4-corba, cell 0-33/0-33, 256 B"
 * @param notes        what a reader must know: assumptions used, port contribution, coverage gaps
 * @param interpolated true when the value comes from the latency-vs-size model, not a measured size
 */
public record Estimate(int qos, EstimateKind kind, double valueMillis, double boundPercent, ConfidenceInterval interval,
                       List<ConfidenceInterval> alternatives, String basis, List<String> notes, boolean interpolated) {

    /** The confidence level of every interval the estimators give. */
    public static final double CONFIDENCE_LEVEL = 0.95;

    /**
     * @throws IllegalArgumentException when the value is not finite and positive, or the kind and
     *                                  bound percentage disagree
     */
    public Estimate {
        if (!(valueMillis > 0) || Double.isInfinite(valueMillis)) {
            throw new IllegalArgumentException("an estimate must be finite and > 0 ms, was " + valueMillis);
        }
        if (kind == EstimateKind.BOUND ? !(boundPercent > 0 && boundPercent <= 100) : boundPercent != 0) {
            throw new IllegalArgumentException(kind + " estimate with bound percentage " + boundPercent);
        }
        alternatives = List.copyOf(alternatives);
        notes = List.copyOf(notes);
    }
}
