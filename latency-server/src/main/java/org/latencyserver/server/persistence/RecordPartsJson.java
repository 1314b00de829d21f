package org.latencyserver.server.persistence;

import static org.latencyserver.server.persistence.LenientJson.bool;
import static org.latencyserver.server.persistence.LenientJson.doubleOf;
import static org.latencyserver.server.persistence.LenientJson.field;
import static org.latencyserver.server.persistence.LenientJson.has;
import static org.latencyserver.server.persistence.LenientJson.items;
import static org.latencyserver.server.persistence.LenientJson.longOr;
import static org.latencyserver.server.persistence.LenientJson.number;
import static org.latencyserver.server.persistence.LenientJson.requiredInt;
import static org.latencyserver.server.persistence.LenientJson.text;
import static org.latencyserver.server.persistence.LenientJson.wholeOf;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import org.latencyserver.core.estimate.Estimate;
import org.latencyserver.core.estimate.EstimateKind;
import org.latencyserver.core.estimate.Measurement;
import org.latencyserver.core.histogram.LatencyHistogram;
import org.latencyserver.core.histogram.LatencyHistogramJson;
import org.latencyserver.core.input.InputNode;
import org.latencyserver.core.state.ConnectionLoadState;
import org.latencyserver.core.state.CpuStatePair;
import org.latencyserver.core.state.PortState;
import org.latencyserver.core.stats.ConfidenceInterval;
import org.latencyserver.server.table.ConnectionSpec;
import org.latencyserver.server.table.MibReading;
import org.latencyserver.server.table.PortPercents;

/**
 * The parts of a connection's record ({@link ConnectionRecordCodec}) that are objects or arrays of
 * their own — MIB readings, an estimate with its intervals, a measurement with its histogram, one
 * load state's key — each written and read by a pair of methods side by side, so a field added to
 * one is seen beside the other. A load state's knowledge has a field table of its own
 * ({@link StateKnowledgeJson}).
 *
 * <p>Reading throws {@link IllegalArgumentException} naming the field and what was wrong; the
 * record's codec adds the record's place. Stateless and thread-safe.
 */
final class RecordPartsJson {

    /** Suffix of the flag that stands for a measurement identical to the record before's, written instead of it. */
    private static final String AS_BEFORE = "_as_before";

    private static final String HISTOGRAM = "histogram";
    private static final String HOP_STATES = "hop_states";
    private static final String BATCH_MEANS_MS = "batch_means_ms";

    private RecordPartsJson() {
    }

    // ---- MIB readings: [client, peer, port] percent, -1 unknown; a path of k >= 2 ports: [client, peer, worst, hop 1, ..., hop k] ----

    static void writeMib(final ArrayNode array, final MibReading reading) {
        array.add(reading.clientCpuPercent());
        array.add(reading.peerCpuPercent());
        array.add(reading.portPercent());
        if (reading.ports().count() > 1) {
            for (int i = 0; i < reading.ports().count(); i++) {
                array.add(reading.ports().at(i));
            }
        }
    }

    static MibReading readMib(final InputNode array) {
        final int size = array == null || array.kind() != InputNode.Kind.LIST ? 0 : array.items().size();
        if (size != 3 && (size < 5 || size > 3 + ConnectionSpec.MAX_HOPS)) {
            throw new IllegalArgumentException("MIB values: expected [client, peer, port], or [client, peer, worst port, hop 1, ..., hop k]"
                + " for a path of 2.." + ConnectionSpec.MAX_HOPS + " ports");
        }
        final List<InputNode> values = array.items();
        if (size == 3) {
            return new MibReading((short) wholeOf(values.get(0)), (short) wholeOf(values.get(1)), (short) wholeOf(values.get(2)));
        }
        final short[] hops = new short[size - 3];
        for (int i = 0; i < hops.length; i++) {
            hops[i] = (short) wholeOf(values.get(3 + i));
        }
        final PortPercents ports = PortPercents.of(hops);
        if (ports.worst() != wholeOf(values.get(2))) {
            throw new IllegalArgumentException("MIB values: the worst port " + wholeOf(values.get(2)) + " is not the worst of the hops "
                + ports);
        }
        return new MibReading((short) wholeOf(values.get(0)), (short) wholeOf(values.get(1)), ports);
    }

    // ---- an estimate and its confidence intervals ----

    static void writeEstimate(final ObjectNode node, final Estimate e) {
        node.put("qos", e.qos());
        node.put("kind", e.kind().name());
        node.put("value_ms", e.valueMillis());
        node.put("bound_percent", e.boundPercent());
        writeInterval(node.putObject("interval"), e.interval());
        final ArrayNode alternatives = node.putArray("alternatives");
        e.alternatives().forEach(a -> writeInterval(alternatives.addObject(), a));
        node.put("basis", e.basis());
        final ArrayNode notes = node.putArray("notes");
        e.notes().forEach(notes::add);
        node.put("interpolated", e.interpolated());
    }

    static Estimate readEstimate(final InputNode node) {
        if (node == null || node.kind() != InputNode.Kind.MAP) {
            throw new IllegalArgumentException("estimate: expected an object, found " + (node == null ? "null" : node.describe()));
        }
        final List<ConfidenceInterval> alternatives = new ArrayList<>();
        items(node, "alternatives").forEach(a -> alternatives.add(readInterval(a)));
        final List<String> notes = new ArrayList<>();
        items(node, "notes").forEach(n -> notes.add(n.kind() == InputNode.Kind.SCALAR ? n.text() : ""));
        return new Estimate(requiredInt(node, "qos"), EstimateKind.valueOf(text(node, "kind", "")),
            number(node, "value_ms"), number(node, "bound_percent"), readInterval(field(node, "interval")), alternatives,
            text(node, "basis", ""), notes, bool(node, "interpolated"));
    }

    private static void writeInterval(final ObjectNode node, final ConfidenceInterval interval) {
        node.put("lower", interval.lower());
        node.put("upper", interval.upper());
        node.put("level", interval.confidenceLevel());
        node.put("method", interval.method());
    }

    private static ConfidenceInterval readInterval(final InputNode node) {
        if (node == null || node.kind() != InputNode.Kind.MAP) {
            throw new IllegalArgumentException("interval: expected an object with lower, upper, level and method");
        }
        return new ConfidenceInterval(number(node, "lower"), number(node, "upper"), number(node, "level"),
            text(node, "method", ""));
    }

    // ---- a measurement and its histogram ----

    /**
     * Writes a measurement under {@code name}, or only {@code name_as_before: true} when it is the very measurement the
     * record written before this one holds; nothing for none.
     *
     * @param measurement the measurement, or null for none
     * @param earlier     the measurement in the same place of the record written before, or null
     */
    static void writeMeasurementAgainst(final ObjectNode node, final String name, final Measurement measurement,
                                        final Measurement earlier) {
        if (measurement == null) {
            return;
        }
        if (earlier == measurement) {
            node.put(name + AS_BEFORE, true);
        } else {
            writeMeasurement(node.putObject(name), measurement);
        }
    }

    /**
     * Reads what {@link #writeMeasurementAgainst} wrote.
     *
     * @param earlier        the measurement in the same place of the record before, or null
     * @param noEarlierFault the fault's text when the record says "as before" and there is no earlier measurement
     * @return the measurement, or null for none
     */
    static Measurement readMeasurementAgainst(final InputNode node, final String name, final Measurement earlier,
                                              final String noEarlierFault, final int maxHistogramBins) {
        if (bool(node, name + AS_BEFORE)) {
            if (earlier == null) {
                throw new IllegalArgumentException(name + AS_BEFORE + ": " + noEarlierFault);
            }
            return earlier;
        }
        return has(node, name) ? readMeasurement(field(node, name), name, maxHistogramBins) : null;
    }

    static void writeMeasurement(final ObjectNode node, final Measurement m) {
        node.put("n", m.sampleCount());
        node.put("mean_ms", m.meanMillis());
        node.put("std_dev_ms", m.stdDevMillis());
        node.put("max_ms", m.maxMillis());
        final ArrayNode batchMeans = node.putArray(BATCH_MEANS_MS);
        m.batchMeansMillis().forEach(batchMeans::add);
        LatencyHistogramJson.write(node.putObject(HISTOGRAM), m.histogram());
    }

    /**
     * @param where            the measurement's field, for the faults
     * @param maxHistogramBins the most bins (and batch means) it may have; checked before anything is built
     */
    static Measurement readMeasurement(final InputNode node, final String where, final int maxHistogramBins) {
        if (node == null || node.kind() != InputNode.Kind.MAP) {
            throw new IllegalArgumentException(where + ": expected an object, found " + (node == null ? "null" : node.describe()));
        }
        final InputNode histogram = field(node, HISTOGRAM);
        final int bins = histogram == null ? 0
            : Math.max(items(histogram, LatencyHistogramJson.UPPER_EDGES_NS).size(), items(histogram, LatencyHistogramJson.COUNTS).size());
        if (bins > maxHistogramBins) {
            throw new IllegalArgumentException(where + ".histogram: " + bins + " bins, more than the limit of " + maxHistogramBins
                + " (limits.max_histogram_bins)");
        }
        if (items(node, BATCH_MEANS_MS).size() > maxHistogramBins) {
            throw new IllegalArgumentException(where + ".batch_means_ms: " + items(node, BATCH_MEANS_MS).size()
                + " values, more than the limit of " + maxHistogramBins + " (limits.max_histogram_bins)");
        }
        if (histogram == null || histogram.kind() != InputNode.Kind.MAP) {
            throw new IllegalArgumentException("histogram: expected arrays of edges and counts");
        }
        final long[] edges = histogramLongs(field(histogram, LatencyHistogramJson.UPPER_EDGES_NS));
        final long[] counts = histogramLongs(field(histogram, LatencyHistogramJson.COUNTS));
        return new Measurement(LatencyHistogram.of(edges, counts, longOr(histogram, LatencyHistogramJson.OVERFLOW, 0)),
            longOr(node, "n", 0), number(node, "mean_ms"), number(node, "std_dev_ms"), number(node, "max_ms"),
            batchMeans(field(node, BATCH_MEANS_MS)));
    }

    /** A state file written before batch means were kept has none: an empty list. */
    private static List<Double> batchMeans(final InputNode array) {
        final List<Double> values = new ArrayList<>();
        if (array == null) {
            return values;
        }
        if (array.kind() != InputNode.Kind.LIST) {
            throw new IllegalArgumentException("batch_means_ms: expected an array of numbers");
        }
        for (final InputNode value : array.items()) {
            if (!value.isNumber()) {
                throw new IllegalArgumentException("batch_means_ms: expected numbers, found " + value.describe());
            }
            values.add(doubleOf(value));
        }
        return values;
    }

    private static long[] histogramLongs(final InputNode array) {
        if (array == null || array.kind() != InputNode.Kind.LIST) {
            throw new IllegalArgumentException("histogram: expected arrays of edges and counts");
        }
        final long[] values = new long[array.items().size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = wholeOf(array.items().get(i));
        }
        return values;
    }

    // ---- a load state: the first fields of each element of a record's states ({@link StateKnowledgeJson} writes the rest) ----

    /** The load state's own fields, written first in each element of {@code states}; {@code hop_states} for a path of several ports. */
    static void writeLoadState(final ObjectNode node, final ConnectionLoadState state) {
        node.put("cpu_state", state.cpu().code());
        node.put("port_state", state.port().code());
        if (state.isMultiHop()) {
            final ArrayNode hops = node.putArray(HOP_STATES);
            state.hops().forEach(hop -> hops.add(hop.code()));
        }
    }

    static ConnectionLoadState readLoadState(final InputNode node) {
        final CpuStatePair cpu = CpuStatePair.fromCode(requiredInt(node, "cpu_state"));
        final PortState port = PortState.fromCode(requiredInt(node, "port_state"));
        if (!has(node, HOP_STATES)) {
            return new ConnectionLoadState(cpu, port);
        }
        final List<InputNode> codes = items(node, HOP_STATES);
        if (codes.size() < 2 || codes.size() > ConnectionSpec.MAX_HOPS) {
            throw new IllegalArgumentException(HOP_STATES + ": expected 2.." + ConnectionSpec.MAX_HOPS + " port states, found "
                + codes.size());
        }
        final List<PortState> hops = new ArrayList<>(codes.size());
        for (final InputNode code : codes) {
            hops.add(PortState.fromCode((int) wholeOf(code)));
        }
        return new ConnectionLoadState(cpu, port, hops);
    }

}
