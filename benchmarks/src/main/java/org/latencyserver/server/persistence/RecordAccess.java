package org.latencyserver.server.persistence;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import org.latencyserver.core.input.InputFaults;
import org.latencyserver.core.input.InputFormat;
import org.latencyserver.core.input.InputNode;
import org.latencyserver.server.engine.UpdateEngine;
import org.latencyserver.server.persistence.ConnectionRecordCodec.SavedConnection;
import org.latencyserver.server.table.ConnectionRow;

/**
 * The server's own connection record ({@link ConnectionRecordCodec}) for the benchmarks' state
 * store comparison: the very bytes a state file holds for a row, and a restore of such records into
 * an engine as {@link StateRestorer} does it. It lives in the persistence package (in the benchmarks
 * module, not the server) because the codec is package-private there.
 *
 * <p>Thread-safety: {@link #wholeRecord} and {@link #restoreInto} are stateless apart from the
 * mapper, which is thread-safe; an engine is the caller's thread's.
 */
public final class RecordAccess {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private RecordAccess() {
    }

    /**
     * @param row a published row
     * @return its record as a state file holds it (compact JSON, UTF-8, whole: nothing abbreviated)
     */
    public static byte[] wholeRecord(final ConnectionRow row) {
        try {
            return MAPPER.writeValueAsBytes(ConnectionRecordCodec.encode(row, null));
        } catch (java.io.IOException e) {
            throw new IllegalStateException("cannot encode connection " + row.spec().indexRef(), e);
        }
    }

    /**
     * Decodes whole records and restores them into the engine, as a restart does with a state file.
     *
     * @param engine           an engine over the same configuration, not yet serving
     * @param records          whole records ({@link #wholeRecord}), any order, one per connection
     * @param maxHistogramBins the most bins a saved histogram may have
     * @param nowNanos         monotonic time
     * @return how many connections were restored
     * @throws IllegalArgumentException at a record's first fault
     */
    public static int restoreInto(final UpdateEngine engine, final Iterable<byte[]> records, final int maxHistogramBins,
                                  final long nowNanos) {
        final Map<Short, SavedConnection> none = new HashMap<>();
        int restored = 0;
        for (final byte[] record : records) {
            final InputFaults faults = new InputFaults("record");
            final InputNode node = InputNode.parse(new String(record, StandardCharsets.UTF_8), InputFormat.JSON, faults);
            final SavedConnection s = ConnectionRecordCodec.decode(node, none, maxHistogramBins);
            engine.restore(s.indexRef(), s.latest(), s.previous(), s.estimate(), s.unavailableReason(), s.measurementWanted(),
                s.measurement(), s.served(), s.learning(), nowNanos);
            restored++;
        }
        return restored;
    }
}
