package org.latencyserver.core.histogram;

/**
 * The required share of samples is only reached among the samples above the histogram's last
 * bin edge, so no bin edge can honestly be given as the bound.
 */
public class BoundBeyondHistogramException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    /** @param message the bound asked, the last edge and the overflow count */
    public BoundBeyondHistogramException(final String message) {
        super(message);
    }
}
