package org.latencyserver.core.estimate;

import java.util.List;
import org.latencyserver.core.stats.ConfidenceInterval;

/**
 * The probability that one message's round trip exceeds a deadline, with its 95 % interval.
 *
 * <p>Immutable and thread-safe.
 *
 * @param deadlineMillis  the deadline, ms
 * @param missProbability estimated P(latency > deadline), in [0, 1]
 * @param interval        Wilson interval of that probability
 * @param notes           how it was counted (e.g. a bin straddling the deadline counted as missing)
 */
public record DeadlineMiss(double deadlineMillis, double missProbability, ConfidenceInterval interval, List<String> notes) {

    /** Copies the notes. */
    public DeadlineMiss {
        notes = List.copyOf(notes);
    }
}
