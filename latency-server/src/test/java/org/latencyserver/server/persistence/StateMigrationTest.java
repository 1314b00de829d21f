package org.latencyserver.server.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencyserver.core.state.WorkstationType;
import org.latencyserver.server.engine.EngineSettings;
import org.latencyserver.server.engine.UpdateEngine;
import org.latencyserver.server.table.ConnectionRow;
import org.latencyserver.server.table.ConnectionSpec;
import org.latencyserver.server.table.ConnectionTable;
import org.latencyserver.server.table.MibReading;

/**
 * A state file and journal written by the server before journal compaction (state file format
 * {@code latency-server-state/3}, journal {@code latency-server-journal/1};
 * {@code src/test/resources/state-before-compaction}) are restored by today's server, and what it
 * writes from them restores the same again.
 */
class StateMigrationTest {

    private static final Path OLD = Path.of("src/test/resources/state-before-compaction");

    @TempDir
    Path directory;

    /** Connections 3, 4 and 5 as the old server had them configured. */
    private static UpdateEngine engine() {
        final AtomicLong tickets = new AtomicLong(100);
        return new UpdateEngine(new ConnectionTable(List.of(ConnectionRow.initial(spec(3), 0), ConnectionRow.initial(spec(4), 0),
            ConnectionRow.initial(spec(5), 0))), Map.of(), EngineSettings.DEFAULT, tickets::incrementAndGet, () -> 42L);
    }

    private static ConnectionSpec spec(final int indexRef) {
        return new ConnectionSpec((short) indexRef, "ws1", (short) 1, WorkstationType.TAC_4, "ws2", (short) 2, WorkstationType.TAC_4,
            null, 256, 3, 0, null);
    }

    private static MibReading mib(final int percent) {
        return new MibReading((short) percent, (short) percent, (short) percent);
    }

    private static void assertAsTheOldServerLeftThem(final UpdateEngine engine) {
        final ConnectionRow three = engine.table().row((short) 3);
        assertEquals(mib(12), three.latest());
        assertEquals(mib(10), three.previous());
        assertNotNull(three.measurement(), "measured before the state file: abbreviated in the journal line after it");
        assertEquals(150, three.measurement().histogram().binCount());
        assertEquals(0.75, three.estimate().valueMillis(), 0.0);
        final ConnectionRow four = engine.table().row((short) 4);
        assertEquals(mib(80), four.latest(), "the last of its two journal lines wins");
        assertEquals(320, four.measurement().histogram().binCount(), "measured in the journal");
        assertEquals(1, four.learning().byState().size());
        assertEquals(mib(95), engine.table().row((short) 5).latest());
        assertNull(engine.table().row((short) 5).measurement());
    }

    @Test
    void theStateFileAndJournalOfTheServerBeforeCompactionAreRestored() throws Exception {
        final Path file = directory.resolve("state.json");
        Files.copy(OLD.resolve("state.json"), file);
        Files.copy(OLD.resolve("state.json.journal"), directory.resolve("state.json.journal"));
        assertTrue(Files.readString(file).startsWith("{\"format\":\"latency-server-state/3\",\"generation\":1,"));

        final UpdateEngine engine = engine();
        final StateStore store = new StateStore(file, engine.table());
        assertEquals(3, store.restoreInto(engine, 0));
        assertNull(store.refusedBecause());
        assertAsTheOldServerLeftThem(engine);

        // Started, today's server writes the table as a state file of its own, after the old one's generation.
        store.start(100);
        store.close();
        assertFalse(Files.exists(directory.resolve("state.json.journal")), "folded into the new state file");
        assertTrue(Files.readString(file).startsWith("{\"format\":\"latency-server-state/3\",\"generation\":2,"));
        final UpdateEngine again = engine();
        assertEquals(3, new StateStore(file, again.table()).restoreInto(again, 0));
        assertAsTheOldServerLeftThem(again);
    }
}
