package org.latencyserver.core.histogram;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * A {@link LatencyHistogram} as JSON, the one layout profiles and the server's saved state share:
 * <pre>
 * {"upper_edges_ns":[1000000, 2000000, ...], "counts":[3, 0, ...], "overflow":0}
 * </pre>
 * {@code upper_edges_ns[i]} is bin {@code i}'s upper edge in nanoseconds, {@code counts[i]} its
 * samples, {@code overflow} the samples above the last edge. Readers differ in what they accept
 * (a profile is checked element by element, a saved state is read as the server wrote it), so
 * they read these fields themselves, by the names here.
 *
 * <p>Stateless and thread-safe.
 */
public final class LatencyHistogramJson {

    /** The field of the bins' upper edges, in nanoseconds. */
    public static final String UPPER_EDGES_NS = "upper_edges_ns";
    /** The field of the bins' sample counts. */
    public static final String COUNTS = "counts";
    /** The field of the samples above the last edge. */
    public static final String OVERFLOW = "overflow";

    private LatencyHistogramJson() {
    }

    /**
     * Writes the histogram's fields into {@code node}, in the order above.
     *
     * @param node      an empty object that becomes the histogram
     * @param histogram the histogram to write
     */
    public static void write(final ObjectNode node, final LatencyHistogram histogram) {
        final ArrayNode edges = node.putArray(UPPER_EDGES_NS);
        final ArrayNode counts = node.putArray(COUNTS);
        for (int i = 0; i < histogram.binCount(); i++) {
            edges.add(histogram.upperEdgeNanos(i));
            counts.add(histogram.count(i));
        }
        node.put(OVERFLOW, histogram.overflowCount());
    }
}
