package org.latencyserver.core.path;

import java.util.List;
import org.latencyserver.core.histogram.BoundBeyondHistogramException;

/**
 * A path's bound or mean needs samples that lie above the last bin edge of one or more hops, so it
 * cannot honestly be given. A {@link BoundBeyondHistogramException}, so callers that refuse a
 * single hop's bound refuse a path's the same way; {@link #hopNames()} says which hops.
 *
 * <p>Immutable and thread-safe once thrown.
 */
public class HopBeyondHistogramException extends BoundBeyondHistogramException {
    private static final long serialVersionUID = 1L;

    private final List<String> hopNames;

    /**
     * @param hopNames the hops whose overflow is needed, in path order
     * @param message  what was asked, naming the hops, their last edges and overflow counts
     */
    public HopBeyondHistogramException(final List<String> hopNames, final String message) {
        super(message);
        this.hopNames = List.copyOf(hopNames);
    }

    /** @return the hops whose overflow is needed, in path order */
    public List<String> hopNames() {
        return hopNames;
    }
}
