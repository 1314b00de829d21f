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
import org.latencyserver.core.calibration.AdaptiveQuantileLevel;
import org.latencyserver.core.calibration.CoverageTally;
import org.latencyserver.core.calibration.DriftDetector;
import org.latencyserver.core.calibration.MeanCorrection;
import org.latencyserver.core.calibration.MeanErrorTally;
import org.latencyserver.core.calibration.RecentValues;
import org.latencyserver.core.calibration.StateKnowledge;
import org.latencyserver.core.state.ConnectionLoadState;
import org.latencyserver.core.state.PortState;
import org.latencyserver.server.table.Learning;
import org.latencyserver.server.table.ServedEstimate;
import org.latencyserver.server.table.ConnectionRow;
import org.latencyserver.server.table.MibReading;

/**
 * The server's saved state as JSON: per connection the MIB values, the served estimate, the last
 * measurement with its histogram, and calibration. Reading checks everything and throws with the
 * place of the first fault; a damaged file is set aside by the caller, never half-used. A histogram
 * with more bins than the server accepts (limits.max_histogram_bins) is such a fault, found before
 * the histogram is built.
 *
 * <p>The state file (a contract: operators read it with {@code jq}, a restarted server restores
 * it) is one compact JSON object:
 * <pre>
 * {"format":"latency-server-state/3",   -- /2 and /1 are read too (generation 0, no journal)
 *  "generation":7,                       -- the journal that continues this file carries the same number
 *  "saved_epoch_millis":1764000000000,
 *  "connections":[ CONNECTION, ... ]}
 * </pre>
 * CONNECTION is one connection's record: {@code index_ref}, {@code qos}, {@code message_size_bytes},
 * {@code latest} and {@code previous} ({@code [client, peer, port]} percent, -1 unknown),
 * {@code estimate}, {@code unavailable_reason}, {@code measurement_wanted}, {@code measurement}
 * (with its histogram), {@code source}, {@code data_epoch_millis}, {@code correction},
 * {@code thesis_estimate} (the thesis's value behind the served estimate; absent when it is
 * the served estimate) and {@code states} (per load state: last measurement, correction,
 * calibration tallies).
 *
 * <p>The journal ({@link StateJournal}) holds one CONNECTION per line, written the same way with
 * three abbreviations for what did not change since that connection's previous record (in the
 * state file or an earlier journal line) — the histograms, which are most of a record:
 * {@code "measurement_as_before":true} in place of {@code measurement};
 * {@code {"cpu_state":..,"port_state":..,"as_before":true}} for a load state whose knowledge is
 * unchanged; {@code "last_measurement_as_before":true} in place of a state's
 * {@code last_measurement}. A state file never holds them (it has no previous record).
 *
 * <p>Stateless and thread-safe.
 */
final class StateCodec {

    static final String FORMAT = "latency-server-state/3";
    /** The format before the journal: the whole state in one file, no generation; read. */
    static final String FORMAT_2 = "latency-server-state/2";
    /** The format before per-state learning was kept; read, its calibration dropped. */
    static final String FORMAT_1 = "latency-server-state/1";
    /** The first line of a journal. */
    static final String JOURNAL_FORMAT = "latency-server-journal/1";

    /** What was saved of one connection. */
    record SavedConnection(short indexRef, int qos, int messageSizeBytes, MibReading latest, MibReading previous,
                           Estimate estimate, String unavailableReason, boolean measurementWanted,
                           Measurement measurement, ServedEstimate served, Learning learning) {
    }

    private StateCodec() {
    }

    /**
     * @param rows             every connection's published row
     * @param savedEpochMillis when
     * @param generation       the state file's generation, {@code >= 1}
     * @return the whole state file
     */
    static ObjectNode encode(final ObjectMapper mapper, final List<ConnectionRow> rows, final long savedEpochMillis,
                             final long generation) {
        final ObjectNode root = mapper.createObjectNode();
        root.put("format", FORMAT);
        root.put("generation", generation);
        root.put("saved_epoch_millis", savedEpochMillis);
        final ArrayNode connections = root.putArray("connections");
        for (final ConnectionRow row : rows) {
            connections.add(encodeConnection(mapper, row, null));
        }
        return root;
    }

    /** @return the journal's first line: its format and the generation of the state file it continues */
    static ObjectNode journalHeader(final ObjectMapper mapper, final long generation) {
        final ObjectNode header = mapper.createObjectNode();
        header.put("format", JOURNAL_FORMAT);
        header.put("generation", generation);
        return header;
    }

    /**
     * @param row     the connection's row to write
     * @param earlier the row its previous record on disk holds (for a journal line), or null to
     *                write it whole; only parts that are the very same objects are abbreviated
     * @return one connection's record
     */
    static ObjectNode encodeConnection(final ObjectMapper mapper, final ConnectionRow row, final ConnectionRow earlier) {
        final ObjectNode c = mapper.createObjectNode();
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
            if (earlier != null && earlier.measurement() == row.measurement()) {
                c.put("measurement_as_before", true);
            } else {
                measurement(c.putObject("measurement"), row.measurement());
            }
        }
        final ServedEstimate served = row.served();
        c.put("source", served.source());
        c.put("data_epoch_millis", served.dataEpochMillis());
        c.put("correction", served.correction());
        // Absent when it is the served estimate (no correction applied), as reading takes it: 40 % of a QoS 1 record.
        if (served.thesis() != null && !served.thesis().equals(row.estimate())) {
            estimate(c.putObject("thesis_estimate"), served.thesis());
        }
        final ArrayNode states = c.putArray("states");
        row.learning().byState().forEach((state, known) -> {
            final StateKnowledge before = earlier == null ? null : earlier.learning().byState().get(state);
            final ObjectNode node = states.addObject();
            if (before == known) {
                node.put("cpu_state", state.cpu().code());
                node.put("port_state", state.port().code());
                node.put("as_before", true);
            } else {
                knowledge(node, state, known, before);
            }
        });
        return c;
    }

    private static void measurement(final ObjectNode node, final Measurement m) {
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

    /**
     * One load state's knowledge: its last measurement, the correction's state and the calibration
     * tallies; the measurement abbreviated when {@code before} (the previous record's) holds the same.
     */
    private static void knowledge(final ObjectNode node, final ConnectionLoadState state, final StateKnowledge k,
                                  final StateKnowledge before) {
        node.put("cpu_state", state.cpu().code());
        node.put("port_state", state.port().code());
        if (k.lastMeasurement() != null) {
            if (before != null && before.lastMeasurement() == k.lastMeasurement()) {
                node.put("last_measurement_as_before", true);
            } else {
                measurement(node.putObject("last_measurement"), k.lastMeasurement());
            }
        }
        node.put("last_measured_epoch_millis", k.lastMeasuredEpochMillis());
        node.put("measurements", k.measurements());
        if (k.level() != null) {
            node.put("level_miss_fraction", k.level().missFraction());
        }
        node.put("mean_log_factor", k.meanCorrection().logFactor());
        node.put("mean_log_square", k.meanCorrection().logSquareMean());
        node.put("mean_windows", k.meanCorrection().windows());
        final ArrayNode logResiduals = node.putArray("mean_log_residuals");
        for (final double value : k.meanCorrection().logResiduals().toArray()) {
            logResiduals.add(value);
        }
        final CoverageTally t = k.coverage();
        final ArrayNode coverage = node.putArray("coverage");
        coverage.add(t.blocks()).add(t.roundTrips()).add(t.hits()).add(t.sumSquaredN()).add(t.sumSquaredHits()).add(t.sumHitsTimesN());
        node.put("error_windows", k.meanErrors().windows());
        node.put("error_inside_interval", k.meanErrors().insideInterval());
        final ArrayNode errors = node.putArray("relative_errors");
        for (final double value : k.meanErrors().relativeErrors().toArray()) {
            errors.add(value);
        }
        node.put("drift_alarms", k.driftAlarms());
        node.put("probe_windows", k.probeWindows());
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
     * @param root             the parsed file
     * @param maxHistogramBins the most bins (and batch means) a saved measurement may have
     * @return saved connections by {@code index_ref}
     * @throws IllegalArgumentException naming the place and the fault
     */
    static Map<Short, SavedConnection> decode(final JsonNode root, final int maxHistogramBins) {
        final String format = root.path("format").asText();
        if (!FORMAT.equals(format) && !FORMAT_2.equals(format) && !FORMAT_1.equals(format)) {
            throw new IllegalArgumentException("format: expected '" + FORMAT + "', found '" + format + "'");
        }
        generation(root);
        final JsonNode connections = root.path("connections");
        if (!connections.isArray()) {
            throw new IllegalArgumentException("connections: expected an array");
        }
        final Map<Short, SavedConnection> saved = new HashMap<>();
        for (int i = 0; i < connections.size(); i++) {
            try {
                final SavedConnection connection = decodeConnection(connections.get(i), Map.of(), maxHistogramBins);
                saved.put(connection.indexRef(), connection);
            } catch (RuntimeException e) {
                throw new IllegalArgumentException("connections[" + i + "]: " + e.getMessage(), e);
            }
        }
        return saved;
    }

    /**
     * @param root a state file whose format {@link #decode} accepted
     * @return its generation; 0 for the formats before the journal
     * @throws IllegalArgumentException when a current file has none
     */
    static long generation(final JsonNode root) {
        if (!FORMAT.equals(root.path("format").asText())) {
            return 0;
        }
        return positiveLong(root, "generation");
    }

    /**
     * @param header a journal's first line
     * @return the generation of the state file the journal continues
     * @throws IllegalArgumentException when it is no journal header of a known format
     */
    static long journalGeneration(final JsonNode header) {
        if (!JOURNAL_FORMAT.equals(header.path("format").asText())) {
            throw new IllegalArgumentException("format: expected '" + JOURNAL_FORMAT + "', found '" + header.path("format").asText()
                + "'");
        }
        return positiveLong(header, "generation");
    }

    private static long positiveLong(final JsonNode node, final String field) {
        if (!node.path(field).canConvertToExactIntegral() || !node.path(field).canConvertToLong() || node.get(field).asLong() < 1) {
            throw new IllegalArgumentException(field + ": expected a whole number of at least 1");
        }
        return node.get(field).asLong();
    }

    /**
     * @param c                one connection's record
     * @param earlier          what the records before it hold, by {@code index_ref}: where the
     *                         abbreviations of a journal line ({@code *_as_before}) are taken from
     * @param maxHistogramBins the most bins (and batch means) a saved measurement may have
     * @return the connection
     * @throws IllegalArgumentException naming the place and the fault
     */
    static SavedConnection decodeConnection(final JsonNode c, final Map<Short, SavedConnection> earlier, final int maxHistogramBins) {
        final short indexRef = (short) requiredInt(c, "index_ref");
        final SavedConnection before = earlier.get(indexRef);
        final Estimate estimate = c.has("estimate") ? estimate(c.get("estimate")) : null;
        final Measurement measurement;
        if (c.path("measurement_as_before").asBoolean(false)) {
            if (before == null || before.measurement() == null) {
                throw new IllegalArgumentException("measurement_as_before: no earlier record of connection " + indexRef
                    + " holds a measurement");
            }
            measurement = before.measurement();
        } else {
            measurement = c.has("measurement") ? measurement(c.get("measurement"), "measurement", maxHistogramBins) : null;
        }
        final int qos = requiredInt(c, "qos");
        final Estimate thesis = c.has("thesis_estimate") ? estimate(c.get("thesis_estimate")) : estimate;
        final String source = c.path("source").asText(estimate == null ? ServedEstimate.NOT_SERVED
            : qos <= 2 ? ServedEstimate.PROFILE : ServedEstimate.MEASUREMENT);
        final ServedEstimate served = new ServedEstimate(thesis, null, source, c.path("data_epoch_millis").asLong(0),
            c.path("correction").asText(""));
        Learning learning = Learning.NONE;
        final double boundPercent = estimate != null && estimate.kind() == EstimateKind.BOUND ? estimate.boundPercent()
            : thesis != null && thesis.kind() == EstimateKind.BOUND ? thesis.boundPercent() : 0.0;
        final JsonNode states = c.path("states");
        for (int s = 0; s < states.size(); s++) {
            try {
                final JsonNode state = states.get(s);
                final ConnectionLoadState load = new ConnectionLoadState(
                    org.latencyserver.core.state.CpuStatePair.fromCode(requiredInt(state, "cpu_state")),
                    PortState.fromCode(requiredInt(state, "port_state")));
                final StateKnowledge known = before == null ? null : before.learning().byState().get(load);
                if (state.path("as_before").asBoolean(false)) {
                    if (known == null) {
                        throw new IllegalArgumentException("as_before: no earlier record of connection " + indexRef
                            + " holds this load state");
                    }
                    learning = learning.with(load, known);
                } else {
                    learning = learning.with(load, knowledge(state, boundPercent, maxHistogramBins, known));
                }
            } catch (RuntimeException e) {
                throw new IllegalArgumentException("states[" + s + "]: " + e.getMessage(), e);
            }
        }
        return new SavedConnection(indexRef, qos, requiredInt(c, "message_size_bytes"),
            mib(c.path("latest")), mib(c.path("previous")), estimate,
            c.hasNonNull("unavailable_reason") ? c.get("unavailable_reason").asText() : null,
            c.path("measurement_wanted").asBoolean(false), measurement, served, learning);
    }

    /** @param before the previous record's knowledge of this state, where {@code last_measurement_as_before} points; or null */
    private static StateKnowledge knowledge(final JsonNode node, final double boundPercent, final int maxHistogramBins,
                                            final StateKnowledge before) {
        final Measurement lastMeasurement;
        if (node.path("last_measurement_as_before").asBoolean(false)) {
            if (before == null || before.lastMeasurement() == null) {
                throw new IllegalArgumentException("last_measurement_as_before: no earlier record holds a measurement of this state");
            }
            lastMeasurement = before.lastMeasurement();
        } else {
            lastMeasurement = node.has("last_measurement")
                ? measurement(node.get("last_measurement"), "last_measurement", maxHistogramBins) : null;
        }
        final StateKnowledge fresh = StateKnowledge.fresh(boundPercent);
        final AdaptiveQuantileLevel level = fresh.level() == null || !node.has("level_miss_fraction") ? fresh.level()
            : new AdaptiveQuantileLevel(fresh.level().targetMissFraction(), number(node, "level_miss_fraction"),
                fresh.level().stepPerRoundTrip(), fresh.level().maxBlockWeight());
        final JsonNode c = node.path("coverage");
        if (!c.isArray() || c.size() != 6) {
            throw new IllegalArgumentException("coverage: expected [blocks, round trips, hits, sum n^2, sum k^2, sum k n]");
        }
        final CoverageTally coverage = new CoverageTally(c.get(0).asLong(), c.get(1).asLong(), c.get(2).asLong(),
            c.get(3).asDouble(), c.get(4).asDouble(), c.get(5).asDouble());
        if (coverage.hits() < 0 || coverage.hits() > coverage.roundTrips() || coverage.blocks() < 0) {
            throw new IllegalArgumentException("coverage: hits " + coverage.hits() + " of " + coverage.roundTrips() + " round trips");
        }
        return new StateKnowledge(lastMeasurement, node.path("last_measured_epoch_millis").asLong(0), node.path("measurements").asLong(0), level,
            new MeanCorrection(number(node, "mean_log_factor"), node.path("mean_log_square").asDouble(0.0),
                node.path("mean_windows").asLong(0),
                RecentValues.of(doubles(node.path("mean_log_residuals")))),
            coverage, new MeanErrorTally(node.path("error_windows").asLong(0), node.path("error_inside_interval").asLong(0),
                RecentValues.of(doubles(node.path("relative_errors")))),
            DriftDetector.QUIET, node.path("drift_alarms").asLong(0), node.path("probe_windows").asLong(0));
    }

    private static double[] doubles(final JsonNode array) {
        if (array.isMissingNode()) {
            return new double[0];
        }
        if (!array.isArray()) {
            throw new IllegalArgumentException("expected an array of numbers, found " + array);
        }
        final double[] values = new double[array.size()];
        for (int i = 0; i < values.length; i++) {
            if (!array.get(i).isNumber()) {
                throw new IllegalArgumentException("expected numbers, found " + array.get(i));
            }
            values[i] = array.get(i).asDouble();
        }
        return values;
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

    private static Measurement measurement(final JsonNode node, final String where, final int maxHistogramBins) {
        final JsonNode histogram = node.path("histogram");
        final int bins = Math.max(histogram.path("upper_edges_ns").size(), histogram.path("counts").size());
        if (bins > maxHistogramBins) {
            throw new IllegalArgumentException(where + ".histogram: " + bins + " bins, more than the limit of " + maxHistogramBins
                + " (limits.max_histogram_bins)");
        }
        if (node.path("batch_means_ms").size() > maxHistogramBins) {
            throw new IllegalArgumentException(where + ".batch_means_ms: " + node.path("batch_means_ms").size()
                + " values, more than the limit of " + maxHistogramBins + " (limits.max_histogram_bins)");
        }
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
