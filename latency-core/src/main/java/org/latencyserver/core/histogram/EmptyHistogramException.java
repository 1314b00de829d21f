package org.latencyserver.core.histogram;

/**
 * A statistic (a bound, a mean, a quantile interval) was asked of a histogram that holds no
 * samples. Unchecked, like {@link IllegalStateException}: the caller should have checked
 * {@link LatencyHistogram#isEmpty()} or be ready to refuse the request with this message.
 *
 * <p>Immutable and thread-safe once thrown.
 */
public class EmptyHistogramException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    /** @param message what was asked, and of which histogram */
    public EmptyHistogramException(final String message) {
        super(message);
    }
}
