package org.latencyserver.core.histogram;

/** A statistic was asked of a histogram that holds no samples. */
public class EmptyHistogramException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    /** @param message what was asked, and of which histogram */
    public EmptyHistogramException(final String message) {
        super(message);
    }
}
