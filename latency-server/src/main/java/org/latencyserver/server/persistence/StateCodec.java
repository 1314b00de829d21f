package org.latencyserver.server.persistence;

import static org.latencyserver.server.persistence.LenientJson.placeOf;
import static org.latencyserver.server.persistence.LenientJson.positiveLong;
import static org.latencyserver.server.persistence.LenientJson.text;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.OutputStream;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.latencyserver.core.input.InputFault;
import org.latencyserver.core.input.InputFaults;
import org.latencyserver.core.input.InputFaultsException;
import org.latencyserver.core.input.InputFormat;
import org.latencyserver.core.input.InputNode;
import org.latencyserver.server.persistence.ConnectionRecordCodec.SavedConnection;
import org.latencyserver.server.table.ConnectionRow;

/**
 * The state file's and the journal header's JSON around the connections' records
 * ({@link ConnectionRecordCodec}). Reading checks every record and reports every fault, each with
 * its line, column and place in the record; a damaged file is set aside by the caller, never
 * half-used. A histogram with more bins than the server accepts (limits.max_histogram_bins) is such
 * a fault, found before the histogram is built.
 *
 * <p>The state file (a contract: operators read it with {@code jq}, a restarted server restores
 * it) is one compact JSON object:
 * <pre>
 * {"format":"latency-server-state/3",   -- /2 and /1 are read too (generation 0, no journal)
 *  "generation":7,                       -- the journal that continues this file carries the same number
 *  "saved_epoch_millis":1764000000000,
 *  "connections":[ CONNECTION, ... ]}    -- each record whole
 * </pre>
 * The journal ({@link StateJournal}) starts with the header
 * {@code {"format":"latency-server-journal/1","generation":7}} and holds one CONNECTION per line,
 * abbreviated against that connection's previous record.
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

    private static final String FORMAT_FIELD = "format";
    private static final String GENERATION = "generation";
    private static final String SAVED_EPOCH_MILLIS = "saved_epoch_millis";
    private static final String CONNECTIONS = "connections";

    /** What a state file holds: its generation (0 before the journal) and the connections by {@code index_ref}. */
    record Decoded(long generation, Map<Short, SavedConnection> connections) {
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
            json.writeStringField(FORMAT_FIELD, FORMAT);
            json.writeNumberField(GENERATION, generation);
            json.writeNumberField(SAVED_EPOCH_MILLIS, savedEpochMillis);
            json.writeArrayFieldStart(CONNECTIONS);
            for (final ConnectionRow row : rows) {
                mapper.writeTree(json, ConnectionRecordCodec.encode(row, null));
            }
            json.writeEndArray();
            json.writeEndObject();
        }
    }

    /** @return the journal's first line: its format and the generation of the state file it continues */
    static ObjectNode journalHeader(final ObjectMapper mapper, final long generation) {
        final ObjectNode header = mapper.createObjectNode();
        header.put(FORMAT_FIELD, JOURNAL_FORMAT);
        header.put(GENERATION, generation);
        return header;
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
        return decode(text, source, maxHistogramBins, null);
    }

    /**
     * Reads a state file as {@link #decode(String, String, int)} does, but a damaged record that names its
     * connection is set aside alone, into {@code damaged}, and the others are read.
     *
     * @param damaged where a damaged record naming its connection goes; null to refuse the file for it
     * @throws InputFaultsException with every fault, when the file is not a state file or a damaged
     *                              record names no connection (or {@code damaged} is null)
     */
    static Decoded decode(final String text, final String source, final int maxHistogramBins, final DamagedRecords damaged)
        throws InputFaultsException {
        return decode(text, source, maxHistogramBins, damaged, indexRef -> 0);
    }

    /**
     * As {@link #decode(String, String, int, DamagedRecords)}, each record's port patterns checked against its
     * connection's path.
     *
     * @param hopCountOf the hops of the configured connection of an {@code index_ref}, or 0 when it is not configured
     */
    static Decoded decode(final String text, final String source, final int maxHistogramBins, final DamagedRecords damaged,
                          final java.util.function.IntUnaryOperator hopCountOf) throws InputFaultsException {
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
        final String format = text(root, FORMAT_FIELD, "");
        long generation = 0;
        if (!FORMAT.equals(format) && !FORMAT_2.equals(format) && !FORMAT_1.equals(format)) {
            faults.at(placeOf(root, FORMAT_FIELD), FORMAT_FIELD, "expected '" + FORMAT + "', found '" + format + "'");
        } else if (FORMAT.equals(format)) {
            generation = positiveLong(root, GENERATION, faults);
        }
        final InputNode connections = root.fields().get(CONNECTIONS);
        final Map<Short, SavedConnection> saved = new HashMap<>();
        if (connections == null || connections.kind() != InputNode.Kind.LIST) {
            faults.at(placeOf(root, CONNECTIONS), CONNECTIONS, "expected an array, found "
                + (connections == null ? "none" : connections.describe()));
        } else {
            for (int i = 0; i < connections.items().size(); i++) {
                final InputNode record = connections.items().get(i);
                try {
                    final SavedConnection connection = ConnectionRecordCodec.decode(record, Map.of(), maxHistogramBins, hopCountOf);
                    saved.put(connection.indexRef(), connection);
                } catch (RuntimeException e) {
                    final Optional<Short> indexRef = damaged == null ? Optional.empty() : DamagedRecords.indexRefOf(record);
                    if (indexRef.isPresent()) {
                        damaged.setAside(indexRef.get(), new InputFault(source, record.line(), record.column(),
                            CONNECTIONS + "[" + i + "]", e.getMessage()));
                    } else {
                        faults.at(record, CONNECTIONS + "[" + i + "]", e.getMessage());
                    }
                }
            }
        }
        if (!faults.isEmpty()) {
            throw new InputFaultsException(faults.inFileOrder());
        }
        return new Decoded(generation, saved);
    }

    /**
     * @param header a journal's first line
     * @param faults where a fault is reported
     * @return the generation of the state file the journal continues, or -1 when the header is bad (reported)
     */
    static long journalGeneration(final InputNode header, final InputFaults faults) {
        final String format = text(header, FORMAT_FIELD, "");
        if (!JOURNAL_FORMAT.equals(format)) {
            faults.at(placeOf(header, FORMAT_FIELD), FORMAT_FIELD, "expected '" + JOURNAL_FORMAT + "', found '" + format + "'");
            return -1;
        }
        final long generation = positiveLong(header, GENERATION, faults);
        return generation < 1 ? -1 : generation;
    }
}
