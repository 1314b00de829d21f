package org.latencyserver.core.estimate;

/**
 * No honest estimate can be given, and the message says why — a missing profile cell, a profile
 * without histograms for a bound, an unknown CPU state. The server shows the reason instead of a
 * made-up number. A checked exception, because every caller must decide what to serve instead.
 *
 * <p>Immutable once thrown; safe to pass between threads.
 */
public class EstimateRefusedException extends Exception {
    private static final long serialVersionUID = 1L;

    /** @param reason why, in words an operator can act on */
    public EstimateRefusedException(final String reason) {
        super(reason);
    }
}
