package org.latencyserver.server.persistence;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.latencyserver.core.input.InputFaults;
import org.latencyserver.core.input.InputFormat;
import org.latencyserver.core.input.InputNode;
import org.latencyserver.server.engine.Command;
import org.latencyserver.server.persistence.ConnectionRecordCodec.SavedConnection;
import org.latencyserver.server.table.ConnectionRow;
import org.latencyserver.server.table.ConnectionTable;

/**
 * The records a primary sends its standby: the connections' journal records, written whole (never
 * abbreviated against an earlier one, so each stands alone), one JSON object a line, UTF-8 — the
 * same records a journal line or the state file holds ({@link ConnectionRecordCodec}).
 *
 * <p>Stateless and thread-safe.
 */
public final class ReplicaRecords {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private ReplicaRecords() {
    }

    /**
     * @param rows the connections' rows as published
     * @return their whole records, one a line
     */
    public static byte[] encode(final List<ConnectionRow> rows) {
        final ByteArrayOutputStream out = new ByteArrayOutputStream(rows.size() * 512);
        try {
            for (final ConnectionRow row : rows) {
                out.writeBytes(MAPPER.writeValueAsBytes(ConnectionRecordCodec.encode(row, null)));
                out.write('\n');
            }
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a connection's record could not be written as JSON: " + e.getMessage(), e);
        }
        return out.toByteArray();
    }

    /**
     * @return true when the two rows' records differ in their MIB readings alone (a polled reading within its load
     *         state): such a change may wait for the next one that matters, as the journal's does
     */
    public static boolean sameRecordButReadings(final ConnectionRow before, final ConnectionRow after) {
        return ConnectionRecordCodec.sameRecordButReadings(before, after);
    }

    /**
     * Reads records {@link #encode} wrote into one restore command each, for the connections the
     * table has with the same QoS and message size.
     *
     * @param records          the records, one a line
     * @param table            the configured connections
     * @param maxHistogramBins the most bins a record's histogram may have
     * @return the commands, in the records' order
     * @throws IllegalArgumentException naming the record's line and its first fault, or a connection that does not match
     */
    public static List<Command.RestoreConnection> decode(final byte[] records, final ConnectionTable table, final int maxHistogramBins) {
        final String text = new String(records, StandardCharsets.UTF_8);
        final List<Command.RestoreConnection> commands = new ArrayList<>();
        int line = 0;
        for (final String record : text.split("\n")) {
            line++;
            if (record.isEmpty()) {
                continue;
            }
            final InputFaults faults = new InputFaults("replicated record");
            final InputNode node = InputNode.parse(record, InputFormat.JSON, faults);
            if (!faults.isEmpty()) {
                throw new IllegalArgumentException("replicated record " + line + ": " + faults.inOrderFound().get(0).reason());
            }
            final SavedConnection s;
            try {
                s = ConnectionRecordCodec.decode(node, Map.of(), maxHistogramBins, indexRef -> {
                    final ConnectionRow configured = table.row((short) indexRef);
                    return configured == null ? 0 : configured.spec().hopCount();
                });
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("replicated record " + line + ": " + e.getMessage(), e);
            }
            final ConnectionRow row = table.row(s.indexRef());
            if (row == null || row.spec().qos() != s.qos() || row.spec().messageSizeBytes() != s.messageSizeBytes()) {
                throw new IllegalArgumentException("replicated record " + line + ": connection " + s.indexRef()
                    + " is not configured here with QoS " + s.qos() + " and " + s.messageSizeBytes()
                    + " bytes: do both servers of the pair have the same configuration?");
            }
            commands.add(new Command.RestoreConnection(s.indexRef(), s.latest(), s.previous(), s.estimate(), s.unavailableReason(),
                s.measurementWanted(), s.measurement(), s.served(), s.learning()));
        }
        return commands;
    }
}
