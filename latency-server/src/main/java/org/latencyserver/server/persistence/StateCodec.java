package org.latencyserver.server.persistence;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.latencyserver.core.estimate.Estimate;
import org.latencyserver.core.estimate.EstimateKind;
import org.latencyserver.core.estimate.Measurement;
import org.latencyserver.core.histogram.LatencyHistogram;
import org.latencyserver.core.input.InputFaults;
import org.latencyserver.core.input.InputFaultsException;
import org.latencyserver.core.input.InputFormat;
import org.latencyserver.core.input.InputNode;
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
 * measurement with its histogram, and calibration. Reading checks every record and reports every
 * fault, each with its line, column and place in the record; a damaged file is set aside by the
 * caller, never half-used. A histogram
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
     * Writes the whole state file, one connection's record at a time (only one record's tree is
     * ever in memory: a table of 25,000 connections is about 15 MB of JSON).
     *
     * @param rows             every connection's published row
     * @param savedEpochMillis when
     * @param generation       the state file's generation, {@code >= 1}
     * @param out              where; flushed, not closed
     * @throws IOException when {@code out} refuses
     */
    static void write(final ObjectMapper mapper, final List<ConnectionRow> rows, final long savedEpochMillis, final long generation,
                      final OutputStream out) throws IOException {
        try (JsonGenerator json = mapper.getFactory().createGenerator(out)) {
            json.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
            json.writeStartObject();
            json.writeStringField("format", FORMAT);
            json.writeNumberField("generation", generation);
            json.writeNumberField("saved_epoch_millis", savedEpochMillis);
            json.writeArrayFieldStart("connections");
            for (final ConnectionRow row : rows) {
                mapper.writeTree(json, encodeConnection(mapper, row, null));
            }
            json.writeEndArray();
            json.writeEndObject();
        }
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

    /**
     * Whether the records {@link #encodeConnection} writes for the two rows differ in their MIB
     * readings ({@code latest}, {@code previous}) alone. What a row holds but a record does not —
     * the load state (a restart classifies it afresh from {@code latest}), the stale reason, when
     * the state was entered, an open request's ticket — does not count. Kept beside the encoder:
     * a field added to the record must be added here too ({@code StateCodecSameRecordTest} checks
     * the two agree, change by change).
     *
     * @return true when only the readings would be written differently
     */
    static boolean sameRecordButReadings(final ConnectionRow before, final ConnectionRow after) {
        final ServedEstimate was = before.served();
        final ServedEstimate is = after.served();
        return before.spec().indexRef() == after.spec().indexRef() && before.spec().qos() == after.spec().qos()
            && before.spec().messageSizeBytes() == after.spec().messageSizeBytes()
            && Objects.equals(before.estimate(), after.estimate())
            && Objects.equals(before.unavailableReason(), after.unavailableReason())
            && before.updateRequired() == after.updateRequired()
            && Objects.equals(before.measurement(), after.measurement())
            && Objects.equals(was.source(), is.source())
            && was.dataEpochMillis() == is.dataEpochMillis()
            && Objects.equals(was.correction(), is.correction())
            && Objects.equals(was.thesis(), is.thesis())
            // the same map when nothing was learned (a change of state keeps it): equals returns at once
            && before.learning().byState().equals(after.learning().byState());
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
     * Reads a state file, checking every connection's record; a record with a fault does not stop
     * the others from being checked, so every fault is reported.
     *
     * @param text             the state file's text
     * @param source           its name, for the faults
     * @param maxHistogramBins the most bins (and batch means) a saved measurement may have
     * @return the file's generation (0 for the formats before the journal) and its saved connections
     * @throws InputFaultsException with every fault, each with its place, when the file is not a
     *                              state file or any record is bad: such a file is set aside whole
     */
    static Decoded decode(final String text, final String source, final int maxHistogramBins) throws InputFaultsException {
        final InputFaults faults = new InputFaults(source);
        final InputNode root = InputNode.parse(text, InputFormat.JSON, faults);
        if (root.kind() == InputNode.Kind.NULL) {
            faults.whole("the file is empty; a state file is a JSON object of format '" + FORMAT + "'");
        } else if (root.kind() != InputNode.Kind.MAP && root.kind() != InputNode.Kind.INVALID) {
            faults.at(root, "file", "expected a JSON object of format '" + FORMAT + "', found " + root.describe());
        }
        if (root.kind() != InputNode.Kind.MAP) {
            throw new InputFaultsException(faults.inFileOrder());
        }
        final String format = text(root, "format", "");
        long generation = 0;
        if (!FORMAT.equals(format) && !FORMAT_2.equals(format) && !FORMAT_1.equals(format)) {
            faults.at(placeOf(root, "format"), "format", "expected '" + FORMAT + "', found '" + format + "'");
        } else if (FORMAT.equals(format)) {
            generation = positiveLong(root, "generation", faults);
        }
        final InputNode connections = root.fields().get("connections");
        final Map<Short, SavedConnection> saved = new HashMap<>();
        if (connections == null || connections.kind() != InputNode.Kind.LIST) {
            faults.at(placeOf(root, "connections"), "connections", "expected an array, found "
                + (connections == null ? "none" : connections.describe()));
        } else {
            for (int i = 0; i < connections.items().size(); i++) {
                final InputNode record = connections.items().get(i);
                try {
                    final SavedConnection connection = decodeConnection(record, Map.of(), maxHistogramBins);
                    saved.put(connection.indexRef(), connection);
                } catch (RuntimeException e) {
                    faults.at(record, "connections[" + i + "]", e.getMessage());
                }
            }
        }
        if (!faults.isEmpty()) {
            throw new InputFaultsException(faults.inFileOrder());
        }
        return new Decoded(generation, saved);
    }

    /** What a state file holds: its generation (0 before the journal) and the connections by {@code index_ref}. */
    record Decoded(long generation, Map<Short, SavedConnection> connections) {
    }

    /**
     * @param header a journal's first line
     * @param faults where a fault is reported
     * @return the generation of the state file the journal continues, or -1 when the header is bad (reported)
     */
    static long journalGeneration(final InputNode header, final InputFaults faults) {
        final String format = text(header, "format", "");
        if (!JOURNAL_FORMAT.equals(format)) {
            faults.at(placeOf(header, "format"), "format", "expected '" + JOURNAL_FORMAT + "', found '" + format + "'");
            return -1;
        }
        final long generation = positiveLong(header, "generation", faults);
        return generation < 1 ? -1 : generation;
    }

    /** @return the whole number of at least 1 at {@code field}, or 0 when it is not one (reported) */
    private static long positiveLong(final InputNode node, final String field, final InputFaults faults) {
        final InputNode value = node.fields().get(field);
        final Double number = value == null ? null : numberOf(value);
        if (number == null || number != Math.rint(number) || number < 1 || number >= 0x1p63) {
            faults.at(placeOf(node, field), field, "expected a whole number of at least 1");
            return 0;
        }
        return wholeOf(value);
    }

    /** @return the field's value, or the mapping itself (for a fault) when the field is absent */
    private static InputNode placeOf(final InputNode map, final String field) {
        final InputNode value = map.fields().get(field);
        return value == null ? map : value;
    }

    /**
     * @param c                one connection's record
     * @param earlier          what the records before it hold, by {@code index_ref}: where the
     *                         abbreviations of a journal line ({@code *_as_before}) are taken from
     * @param maxHistogramBins the most bins (and batch means) a saved measurement may have
     * @return the connection
     * @throws IllegalArgumentException naming the place in the record and the fault
     */
    static SavedConnection decodeConnection(final InputNode c, final Map<Short, SavedConnection> earlier,
                                            final int maxHistogramBins) {
        if (c.kind() != InputNode.Kind.MAP) {
            throw new IllegalArgumentException("expected a connection's record (a JSON object), found " + c.describe());
        }
        final short indexRef = (short) requiredInt(c, "index_ref");
        final SavedConnection before = earlier.get(indexRef);
        final Estimate estimate = has(c, "estimate") ? estimate(field(c, "estimate")) : null;
        final Measurement measurement;
        if (bool(c, "measurement_as_before")) {
            if (before == null || before.measurement() == null) {
                throw new IllegalArgumentException("measurement_as_before: no earlier record of connection " + indexRef
                    + " holds a measurement");
            }
            measurement = before.measurement();
        } else {
            measurement = has(c, "measurement") ? measurement(field(c, "measurement"), "measurement", maxHistogramBins) : null;
        }
        final int qos = requiredInt(c, "qos");
        final Estimate thesis = has(c, "thesis_estimate") ? estimate(field(c, "thesis_estimate")) : estimate;
        final String source = text(c, "source", estimate == null ? ServedEstimate.NOT_SERVED
            : qos <= 2 ? ServedEstimate.PROFILE : ServedEstimate.MEASUREMENT);
        final ServedEstimate served = new ServedEstimate(thesis, null, source, longOr(c, "data_epoch_millis", 0),
            text(c, "correction", ""));
        Learning learning = Learning.NONE;
        final double boundPercent = estimate != null && estimate.kind() == EstimateKind.BOUND ? estimate.boundPercent()
            : thesis != null && thesis.kind() == EstimateKind.BOUND ? thesis.boundPercent() : 0.0;
        final List<InputNode> states = items(c, "states");
        for (int s = 0; s < states.size(); s++) {
            try {
                final InputNode state = states.get(s);
                final ConnectionLoadState load = new ConnectionLoadState(
                    org.latencyserver.core.state.CpuStatePair.fromCode(requiredInt(state, "cpu_state")),
                    PortState.fromCode(requiredInt(state, "port_state")));
                final StateKnowledge known = before == null ? null : before.learning().byState().get(load);
                if (bool(state, "as_before")) {
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
            mib(field(c, "latest")), mib(field(c, "previous")), estimate,
            has(c, "unavailable_reason") ? text(c, "unavailable_reason", null) : null,
            bool(c, "measurement_wanted"), measurement, served, learning);
    }

    /** @param before the previous record's knowledge of this state, where {@code last_measurement_as_before} points; or null */
    private static StateKnowledge knowledge(final InputNode node, final double boundPercent, final int maxHistogramBins,
                                            final StateKnowledge before) {
        final Measurement lastMeasurement;
        if (bool(node, "last_measurement_as_before")) {
            if (before == null || before.lastMeasurement() == null) {
                throw new IllegalArgumentException("last_measurement_as_before: no earlier record holds a measurement of this state");
            }
            lastMeasurement = before.lastMeasurement();
        } else {
            lastMeasurement = has(node, "last_measurement")
                ? measurement(field(node, "last_measurement"), "last_measurement", maxHistogramBins) : null;
        }
        final StateKnowledge fresh = StateKnowledge.fresh(boundPercent);
        final AdaptiveQuantileLevel level = fresh.level() == null || !has(node, "level_miss_fraction") ? fresh.level()
            : new AdaptiveQuantileLevel(fresh.level().targetMissFraction(), number(node, "level_miss_fraction"),
                fresh.level().stepPerRoundTrip(), fresh.level().maxBlockWeight());
        final InputNode c = field(node, "coverage");
        if (c == null || c.kind() != InputNode.Kind.LIST || c.items().size() != 6) {
            throw new IllegalArgumentException("coverage: expected [blocks, round trips, hits, sum n^2, sum k^2, sum k n]");
        }
        final List<InputNode> tally = c.items();
        final CoverageTally coverage = new CoverageTally(wholeOf(tally.get(0)), wholeOf(tally.get(1)), wholeOf(tally.get(2)),
            doubleOf(tally.get(3)), doubleOf(tally.get(4)), doubleOf(tally.get(5)));
        if (coverage.hits() < 0 || coverage.hits() > coverage.roundTrips() || coverage.blocks() < 0) {
            throw new IllegalArgumentException("coverage: hits " + coverage.hits() + " of " + coverage.roundTrips() + " round trips");
        }
        return new StateKnowledge(lastMeasurement, longOr(node, "last_measured_epoch_millis", 0), longOr(node, "measurements", 0),
            level,
            new MeanCorrection(number(node, "mean_log_factor"), doubleOr(node, "mean_log_square", 0.0),
                longOr(node, "mean_windows", 0),
                RecentValues.of(doubles(field(node, "mean_log_residuals")))),
            coverage, new MeanErrorTally(longOr(node, "error_windows", 0), longOr(node, "error_inside_interval", 0),
                RecentValues.of(doubles(field(node, "relative_errors")))),
            DriftDetector.QUIET, longOr(node, "drift_alarms", 0), longOr(node, "probe_windows", 0));
    }

    private static double[] doubles(final InputNode array) {
        if (array == null) {
            return new double[0];
        }
        if (array.kind() != InputNode.Kind.LIST) {
            throw new IllegalArgumentException("expected an array of numbers, found " + array.describe());
        }
        final double[] values = new double[array.items().size()];
        for (int i = 0; i < values.length; i++) {
            final InputNode value = array.items().get(i);
            if (!value.isNumber()) {
                throw new IllegalArgumentException("expected numbers, found " + value.describe());
            }
            values[i] = doubleOf(value);
        }
        return values;
    }

    private static int requiredInt(final InputNode node, final String field) {
        final InputNode value = field(node, field);
        final Double number = value == null || !value.isIntegral() ? null : numberOf(value);
        if (number == null || number < Integer.MIN_VALUE || number > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(field + ": expected a whole number");
        }
        return number.intValue();
    }

    private static MibReading mib(final InputNode array) {
        if (array == null || array.kind() != InputNode.Kind.LIST || array.items().size() != 3) {
            throw new IllegalArgumentException("MIB values: expected [client, peer, port]");
        }
        final List<InputNode> values = array.items();
        return new MibReading((short) wholeOf(values.get(0)), (short) wholeOf(values.get(1)), (short) wholeOf(values.get(2)));
    }

    private static Estimate estimate(final InputNode node) {
        if (node == null || node.kind() != InputNode.Kind.MAP) {
            throw new IllegalArgumentException("estimate: expected an object, found " + (node == null ? "null" : node.describe()));
        }
        final List<ConfidenceInterval> alternatives = new ArrayList<>();
        items(node, "alternatives").forEach(a -> alternatives.add(interval(a)));
        final List<String> notes = new ArrayList<>();
        items(node, "notes").forEach(n -> notes.add(n.kind() == InputNode.Kind.SCALAR ? n.text() : ""));
        return new Estimate(requiredInt(node, "qos"), EstimateKind.valueOf(text(node, "kind", "")),
            number(node, "value_ms"), number(node, "bound_percent"), interval(field(node, "interval")), alternatives,
            text(node, "basis", ""), notes, bool(node, "interpolated"));
    }

    private static ConfidenceInterval interval(final InputNode node) {
        if (node == null || node.kind() != InputNode.Kind.MAP) {
            throw new IllegalArgumentException("interval: expected an object with lower, upper, level and method");
        }
        return new ConfidenceInterval(number(node, "lower"), number(node, "upper"), number(node, "level"),
            text(node, "method", ""));
    }

    private static Measurement measurement(final InputNode node, final String where, final int maxHistogramBins) {
        if (node == null || node.kind() != InputNode.Kind.MAP) {
            throw new IllegalArgumentException(where + ": expected an object, found " + (node == null ? "null" : node.describe()));
        }
        final InputNode histogram = field(node, "histogram");
        final int bins = histogram == null ? 0
            : Math.max(items(histogram, "upper_edges_ns").size(), items(histogram, "counts").size());
        if (bins > maxHistogramBins) {
            throw new IllegalArgumentException(where + ".histogram: " + bins + " bins, more than the limit of " + maxHistogramBins
                + " (limits.max_histogram_bins)");
        }
        if (items(node, "batch_means_ms").size() > maxHistogramBins) {
            throw new IllegalArgumentException(where + ".batch_means_ms: " + items(node, "batch_means_ms").size()
                + " values, more than the limit of " + maxHistogramBins + " (limits.max_histogram_bins)");
        }
        if (histogram == null || histogram.kind() != InputNode.Kind.MAP) {
            throw new IllegalArgumentException("histogram: expected arrays of edges and counts");
        }
        final long[] edges = longs(field(histogram, "upper_edges_ns"));
        final long[] counts = longs(field(histogram, "counts"));
        return new Measurement(LatencyHistogram.of(edges, counts, longOr(histogram, "overflow", 0)),
            longOr(node, "n", 0), number(node, "mean_ms"), number(node, "std_dev_ms"), number(node, "max_ms"),
            batchMeans(field(node, "batch_means_ms")));
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

    private static long[] longs(final InputNode array) {
        if (array == null || array.kind() != InputNode.Kind.LIST) {
            throw new IllegalArgumentException("histogram: expected arrays of edges and counts");
        }
        final long[] values = new long[array.items().size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = wholeOf(array.items().get(i));
        }
        return values;
    }

    private static double number(final InputNode node, final String field) {
        final InputNode value = field(node, field);
        if (value == null || !value.isNumber()) {
            throw new IllegalArgumentException(field + ": expected a number");
        }
        return doubleOf(value);
    }

    // ---- lenient access: what the writer leaves out reads as its default (the format has grown field by field) ----

    /** @return the field's node, or null when absent or an explicit null */
    private static InputNode field(final InputNode node, final String field) {
        final InputNode value = node.fields().get(field);
        return value == null || value.kind() == InputNode.Kind.NULL ? null : value;
    }

    private static boolean has(final InputNode node, final String field) {
        return node.fields().containsKey(field);
    }

    /** @return the items of the array at {@code field}; none when absent or not an array */
    private static List<InputNode> items(final InputNode node, final String field) {
        final InputNode value = field(node, field);
        return value == null ? List.of() : value.items();
    }

    /** @return a scalar's text, or {@code fallback} when absent, null or not a scalar */
    private static String text(final InputNode node, final String field, final String fallback) {
        final InputNode value = field(node, field);
        return value == null || value.kind() != InputNode.Kind.SCALAR ? fallback : value.text();
    }

    /** @return true for {@code true} (or the text "true"), false otherwise */
    private static boolean bool(final InputNode node, final String field) {
        final InputNode value = field(node, field);
        return value != null && (value.scalarType() == InputNode.ScalarType.BOOLEAN ? value.booleanValue()
            : value.isText() && "true".equals(value.text()));
    }

    private static long longOr(final InputNode node, final String field, final long fallback) {
        final InputNode value = field(node, field);
        return value == null || !value.isNumber() ? fallback : wholeOf(value);
    }

    private static double doubleOr(final InputNode node, final String field, final double fallback) {
        final InputNode value = field(node, field);
        return value == null || !value.isNumber() ? fallback : doubleOf(value);
    }

    /** @return a number's value, or null when the node is no number */
    private static Double numberOf(final InputNode value) {
        return value.isNumber() ? doubleOf(value) : null;
    }

    /** @return a number's value (NaN and the infinities included), 0 for what is no number */
    private static double doubleOf(final InputNode value) {
        return value.isNumber() ? value.doubleValue() : 0.0;
    }

    /** A number as a long: exact for an integer, truncated for a decimal; 0 for what is no number. */
    private static long wholeOf(final InputNode value) {
        if (!value.isNumber()) {
            return 0;
        }
        if (value.isIntegral()) {
            try {
                return Long.parseLong(value.text());
            } catch (NumberFormatException tooLarge) {
                return value.text().startsWith("-") ? Long.MIN_VALUE : Long.MAX_VALUE;
            }
        }
        return (long) doubleOf(value);
    }
}
