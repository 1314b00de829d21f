package org.latencyserver.server.persistence;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.latencyserver.core.estimate.Estimate;
import org.latencyserver.core.estimate.EstimateKind;
import org.latencyserver.core.estimate.Measurement;
import org.latencyserver.core.histogram.LatencyHistogram;
import org.latencyserver.core.stats.ConfidenceInterval;
import org.latencyserver.server.table.Calibration;
import org.latencyserver.server.table.ConnectionRow;
import org.latencyserver.server.table.MibReading;

/**
 * The server's saved state as JSON: per connection the MIB values, the served estimate, the last
 * measurement with its histogram, and calibration. Reading checks everything and throws with the
 * place of the first fault; a damaged file is set aside by the caller, never half-used.
 *
 * <p>Stateless and thread-safe.
 */
final class StateCodec {

    static final String FORMAT = "latency-server-state/1";

    /** What was saved of one connection. */
    record SavedConnection(short indexRef, int qos, int messageSizeBytes, MibReading latest, MibReading previous,
                           Estimate estimate, String unavailableReason, boolean measurementWanted,
                           Measurement measurement, Calibration calibration) {
    }

    private StateCodec() {
    }

    static ObjectNode encode(final ObjectMapper mapper, final List<ConnectionRow> rows, final long savedEpochMillis) {
        final ObjectNode root = mapper.createObjectNode();
        root.put("format", FORMAT);
        root.put("saved_epoch_millis", savedEpochMillis);
        final ArrayNode connections = root.putArray("connections");
        for (final ConnectionRow row : rows) {
            final ObjectNode c = connections.addObject();
            c.put("index_ref", row.spec().indexRef());
            c.put("qos", row.spec().qos());
            c.put("message_size_bytes", row.spec().messageSizeBytes());
            mib(c.putArray("latest"), row.latest());
            mib(c.putArray("previous"), row.previous());
            if (row.estimate() != null) {
                estimate(c.putObject("estimate"), row.estimate());
            }
            if (row.unavailableReason() != null) {
                c.put("unavailable_reason", row.unavailableReason());
            }
            c.put("measurement_wanted", row.updateRequired());
            if (row.measurement() != null) {
                final Measurement m = row.measurement();
                final ObjectNode node = c.putObject("measurement");
                node.put("n", m.sampleCount());
                node.put("mean_ms", m.meanMillis());
                node.put("std_dev_ms", m.stdDevMillis());
                node.put("max_ms", m.maxMillis());
                final ArrayNode batchMeans = node.putArray("batch_means_ms");
                m.batchMeansMillis().forEach(batchMeans::add);
                final ObjectNode histogram = node.putObject("histogram");
                final ArrayNode edges = histogram.putArray("upper_edges_ns");
                final ArrayNode counts = histogram.putArray("counts");
                for (int i = 0; i < m.histogram().binCount(); i++) {
                    edges.add(m.histogram().upperEdgeNanos(i));
                    counts.add(m.histogram().count(i));
                }
                histogram.put("overflow", m.histogram().overflowCount());
            }
            final Calibration k = row.calibration();
            final ObjectNode calibration = c.putObject("calibration");
            calibration.put("measurements_checked", k.measurementsChecked());
            calibration.put("bound_checks", k.boundChecks());
            calibration.put("bound_held", k.boundHeld());
            calibration.put("average_checks", k.averageChecks());
            calibration.put("sum_abs_error_ms", k.sumAbsErrorMillis());
            calibration.put("sum_signed_error_ms", k.sumSignedErrorMillis());
            calibration.put("last_error_ms", k.lastErrorMillis());
        }
        return root;
    }

    private static void mib(final ArrayNode array, final MibReading reading) {
        array.add(reading.clientCpuPercent());
        array.add(reading.peerCpuPercent());
        array.add(reading.portPercent());
    }

    private static void estimate(final ObjectNode node, final Estimate e) {
        node.put("qos", e.qos());
        node.put("kind", e.kind().name());
        node.put("value_ms", e.valueMillis());
        node.put("bound_percent", e.boundPercent());
        interval(node.putObject("interval"), e.interval());
        final ArrayNode alternatives = node.putArray("alternatives");
        e.alternatives().forEach(a -> interval(alternatives.addObject(), a));
        node.put("basis", e.basis());
        final ArrayNode notes = node.putArray("notes");
        e.notes().forEach(notes::add);
        node.put("interpolated", e.interpolated());
    }

    private static void interval(final ObjectNode node, final ConfidenceInterval interval) {
        node.put("lower", interval.lower());
        node.put("upper", interval.upper());
        node.put("level", interval.confidenceLevel());
        node.put("method", interval.method());
    }

    /**
     * @param root the parsed file
     * @return saved connections by {@code index_ref}
     * @throws IllegalArgumentException naming the place and the fault
     */
    static Map<Short, SavedConnection> decode(final JsonNode root) {
        if (!FORMAT.equals(root.path("format").asText())) {
            throw new IllegalArgumentException("format: expected '" + FORMAT + "', found '" + root.path("format").asText() + "'");
        }
        final JsonNode connections = root.path("connections");
        if (!connections.isArray()) {
            throw new IllegalArgumentException("connections: expected an array");
        }
        final Map<Short, SavedConnection> saved = new HashMap<>();
        for (int i = 0; i < connections.size(); i++) {
            final JsonNode c = connections.get(i);
            final String at = "connections[" + i + "]";
            try {
                final short indexRef = (short) requiredInt(c, "index_ref");
                final Estimate estimate = c.has("estimate") ? estimate(c.get("estimate")) : null;
                final Measurement measurement = c.has("measurement") ? measurement(c.get("measurement")) : null;
                final JsonNode k = c.path("calibration");
                final Calibration calibration = new Calibration(k.path("measurements_checked").asLong(),
                    k.path("bound_checks").asLong(), k.path("bound_held").asLong(), k.path("average_checks").asLong(),
                    k.path("sum_abs_error_ms").asDouble(), k.path("sum_signed_error_ms").asDouble(),
                    k.path("last_error_ms").asDouble());
                saved.put(indexRef, new SavedConnection(indexRef, requiredInt(c, "qos"), requiredInt(c, "message_size_bytes"),
                    mib(c.path("latest")), mib(c.path("previous")), estimate,
                    c.hasNonNull("unavailable_reason") ? c.get("unavailable_reason").asText() : null,
                    c.path("measurement_wanted").asBoolean(false), measurement, calibration));
            } catch (RuntimeException e) {
                throw new IllegalArgumentException(at + ": " + e.getMessage(), e);
            }
        }
        return saved;
    }

    private static int requiredInt(final JsonNode node, final String field) {
        if (!node.path(field).isInt()) {
            throw new IllegalArgumentException(field + ": expected a whole number");
        }
        return node.get(field).asInt();
    }

    private static MibReading mib(final JsonNode array) {
        if (!array.isArray() || array.size() != 3) {
            throw new IllegalArgumentException("MIB values: expected [client, peer, port]");
        }
        return new MibReading((short) array.get(0).asInt(), (short) array.get(1).asInt(), (short) array.get(2).asInt());
    }

    private static Estimate estimate(final JsonNode node) {
        final List<ConfidenceInterval> alternatives = new ArrayList<>();
        node.path("alternatives").forEach(a -> alternatives.add(interval(a)));
        final List<String> notes = new ArrayList<>();
        node.path("notes").forEach(n -> notes.add(n.asText()));
        return new Estimate(requiredInt(node, "qos"), EstimateKind.valueOf(node.path("kind").asText()),
            number(node, "value_ms"), number(node, "bound_percent"), interval(node.path("interval")), alternatives,
            node.path("basis").asText(), notes, node.path("interpolated").asBoolean());
    }

    private static ConfidenceInterval interval(final JsonNode node) {
        return new ConfidenceInterval(number(node, "lower"), number(node, "upper"), number(node, "level"),
            node.path("method").asText());
    }

    private static Measurement measurement(final JsonNode node) {
        final JsonNode histogram = node.path("histogram");
        final long[] edges = longs(histogram.path("upper_edges_ns"));
        final long[] counts = longs(histogram.path("counts"));
        return new Measurement(LatencyHistogram.of(edges, counts, histogram.path("overflow").asLong()),
            node.path("n").asLong(), number(node, "mean_ms"), number(node, "std_dev_ms"), number(node, "max_ms"),
            batchMeans(node.path("batch_means_ms")));
    }

    /** A state file written before batch means were kept has none: an empty list. */
    private static List<Double> batchMeans(final JsonNode array) {
        final List<Double> values = new ArrayList<>();
        if (array.isMissingNode()) {
            return values;
        }
        if (!array.isArray()) {
            throw new IllegalArgumentException("batch_means_ms: expected an array of numbers");
        }
        for (final JsonNode value : array) {
            if (!value.isNumber()) {
                throw new IllegalArgumentException("batch_means_ms: expected numbers, found " + value);
            }
            values.add(value.asDouble());
        }
        return values;
    }

    private static long[] longs(final JsonNode array) {
        if (!array.isArray()) {
            throw new IllegalArgumentException("histogram: expected arrays of edges and counts");
        }
        final long[] values = new long[array.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = array.get(i).asLong();
        }
        return values;
    }

    private static double number(final JsonNode node, final String field) {
        if (!node.path(field).isNumber()) {
            throw new IllegalArgumentException(field + ": expected a number");
        }
        return node.get(field).asDouble();
    }
}
