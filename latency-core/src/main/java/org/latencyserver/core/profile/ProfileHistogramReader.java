package org.latencyserver.core.profile;

import static org.latencyserver.core.profile.ProfileFields.found;
import static org.latencyserver.core.profile.ProfileFields.path;
import static org.latencyserver.core.profile.ProfileFields.wholeNumber;

import java.util.Set;
import org.latencyserver.core.histogram.LatencyHistogram;
import org.latencyserver.core.histogram.LatencyHistogramJson;
import org.latencyserver.core.input.InputNode;

/**
 * Reads a cell's {@code histogram} object: upper edges in nanoseconds, strictly ascending, with a
 * count per bin and an overflow count, whose samples add up to the cell's {@code n}. A histogram
 * with more bins than the limit is refused before its values are read. Faults go to the
 * document's {@link ProfileFields}; not thread-safe.
 */
final class ProfileHistogramReader {

    private static final Set<String> HISTOGRAM_FIELDS = Set.of(LatencyHistogramJson.UPPER_EDGES_NS, LatencyHistogramJson.COUNTS,
        LatencyHistogramJson.OVERFLOW);

    private final ProfileFields fields;
    private final int maxHistogramBins;

    /**
     * @param fields           the document's field reader, which reports faults
     * @param maxHistogramBins the most bins one histogram may have
     */
    ProfileHistogramReader(final ProfileFields fields, final int maxHistogramBins) {
        this.fields = fields;
        this.maxHistogramBins = maxHistogramBins;
    }

    /**
     * @param cell      the cell object holding the histogram
     * @param cellWhere the cell's key path
     * @param n         the cell's sample count, or null when it was faulty
     * @return the histogram, or null when it is absent or faulty (each fault reported)
     */
    LatencyHistogram read(final InputNode cell, final String cellWhere, final Long n) {
        final InputNode node = fields.knownObject(cell, cellWhere, "histogram", false, HISTOGRAM_FIELDS);
        if (node == null) {
            return null;
        }
        final String where = path(cellWhere, "histogram");
        final InputNode edges = fields.array(node, where, LatencyHistogramJson.UPPER_EDGES_NS, true);
        final InputNode counts = fields.array(node, where, LatencyHistogramJson.COUNTS, true);
        final Long overflow = node.fields().containsKey(LatencyHistogramJson.OVERFLOW)
            ? fields.integer(node, where, LatencyHistogramJson.OVERFLOW, 0, Long.MAX_VALUE) : Long.valueOf(0);
        if (edges == null || counts == null || overflow == null) {
            return null;
        }
        if (oversized(edges, counts, where)) {
            return null;
        }
        final int before = fields.faultCount();
        if (edges.items().isEmpty()) {
            fields.fault(where + ".upper_edges_ns", "a histogram needs at least one bin");
        }
        if (edges.items().size() != counts.items().size()) {
            fields.fault(where, "upper_edges_ns has " + edges.items().size() + " entries but counts has " + counts.items().size());
        }
        final long[] edgeValues = edgeValues(edges, where);
        final long[] countValues = countValues(counts, where);
        final long total = totalSamples(countValues, overflow, where);
        if (fields.faultCount() > before) {
            return null;
        }
        if (n != null && total != n) {
            fields.fault(where, "counts plus overflow add up to " + total + " samples, but n is " + n);
            return null;
        }
        return LatencyHistogram.of(edgeValues, countValues, overflow);
    }

    /**
     * Refuses a histogram with more bins than the limit before its values are read, so that an
     * oversized histogram costs nothing more.
     *
     * @return true when it is over the limit (the fault is recorded)
     */
    private boolean oversized(final InputNode edges, final InputNode counts, final String where) {
        if (edges.items().size() <= maxHistogramBins && counts.items().size() <= maxHistogramBins) {
            return false;
        }
        final String location = where + (edges.items().size() > maxHistogramBins ? ".upper_edges_ns" : ".counts");
        fields.overSizeLimit(location, "has "
            + Math.max(edges.items().size(), counts.items().size()) + " bins, more than the limit of " + maxHistogramBins
            + " bins per histogram");
        return true;
    }

    /** The upper edges in nanoseconds; a faulty edge is left 0 and each edge must be above the one before. */
    private long[] edgeValues(final InputNode edges, final String where) {
        final long[] edgeValues = new long[edges.items().size()];
        for (int i = 0; i < edges.items().size(); i++) {
            final Long edge = element(edges.items().get(i), where + ".upper_edges_ns[" + i + "]", 1);
            if (edge == null) {
                continue;
            }
            edgeValues[i] = edge;
            if (i > 0 && edgeValues[i - 1] > 0 && edge <= edgeValues[i - 1]) {
                fields.fault(where + ".upper_edges_ns[" + i + "]", "bins out of order: edge " + edge
                    + " ns is not above the previous edge " + edgeValues[i - 1] + " ns");
            }
        }
        return edgeValues;
    }

    /** The bin counts; a faulty count is left 0. */
    private long[] countValues(final InputNode counts, final String where) {
        final long[] countValues = new long[counts.items().size()];
        for (int i = 0; i < counts.items().size(); i++) {
            final Long count = element(counts.items().get(i), where + ".counts[" + i + "]", 0);
            if (count != null) {
                countValues[i] = count;
            }
        }
        return countValues;
    }

    /**
     * The samples in the bins plus the overflow; a sum past {@link Long#MAX_VALUE} is a fault (the
     * returned value is then meaningless).
     */
    private long totalSamples(final long[] countValues, final long overflow, final String where) {
        long total = overflow;
        boolean totalOverflows = false;
        for (final long count : countValues) {
            try {
                total = Math.addExact(total, count);
            } catch (ArithmeticException e) {
                totalOverflows = true;
            }
        }
        if (totalOverflows) {
            fields.fault(where + ".counts", "counts plus overflow add up to more than " + Long.MAX_VALUE + " samples");
        }
        return total;
    }

    private Long element(final InputNode value, final String where, final long minimum) {
        final Long v = wholeNumber(value);
        if (v == null) {
            fields.fault(where, "expected a whole number, found " + found(value));
            return null;
        }
        if (v < minimum) {
            fields.fault(where, (minimum == 0 ? "count must be >= 0" : "edge must be >= " + minimum + " ns") + ", was " + v);
            return null;
        }
        return v;
    }
}
