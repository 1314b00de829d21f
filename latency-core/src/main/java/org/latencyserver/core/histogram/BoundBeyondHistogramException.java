package org.latencyserver.core.histogram;

/**
 * The required share of samples is only reached among the samples above the histogram's last
 * bin edge (its overflow), so no bin edge can honestly be given as the bound. The message names
 * the bound asked, the last edge in milliseconds and the overflow count.
 *
 * <p>Immutable and thread-safe once thrown.
 */
public class BoundBeyondHistogramException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    /** @param message the bound asked, the last edge (ms) and the overflow count */
    public BoundBeyondHistogramException(final String message) {
        super(message);
    }
}
