package org.latencyserver.server.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencyserver.core.state.WorkstationType;
import org.latencyserver.server.table.CalibrationMode;
import org.latencyserver.server.table.ConnectionRow;
import org.latencyserver.server.table.ConnectionSpec;
import org.latencyserver.server.table.ConnectionTable;

/**
 * {@link StateStore#awaitSaved}: what a write's caller waits for before it is answered. The store
 * is never started here, so no periodic save can do the work instead.
 */
class StateStoreAwaitSavedTest {

    @TempDir
    Path directory;

    private static ConnectionTable table() {
        final WorkstationType type = new WorkstationType("LOCAL-2CORE", 5);
        final ConnectionSpec spec = new ConnectionSpec((short) 4, "lab1", (short) 5, type, "lab2", (short) 6, type, null, 1024, 4, 96,
            null, CalibrationMode.ADAPTIVE, 4.0);
        return new ConnectionTable(List.of(ConnectionRow.initial(spec, 0)));
    }

    @Test
    void aPendingChangeIsSavedOnceAndAnAwaitWithNothingPendingWritesNothing() throws Exception {
        final ConnectionTable table = table();
        final Path file = directory.resolve("state.json");
        final StateStore store = new StateStore(file, table);
        final ConnectionRow row = table.row((short) 4);
        store.rowChanged(row, row);
        assertFalse(Files.exists(file), "nothing saves by itself: the store is not started");

        assertTrue(store.awaitSaved(5_000));
        assertTrue(Files.exists(file));
        assertEquals(1, store.counters().saves());
        assertEquals(Files.size(file), store.counters().bytesSaved());
        assertEquals(1, store.counters().changesSeen());

        assertTrue(store.awaitSaved(5_000), "nothing pending is saved already");
        assertEquals(1, store.counters().saves(), "and costs no second write");
        store.close();
    }

    @Test
    void aSaveThatFailsIsReportedAndTheChangeStaysPending() throws Exception {
        final ConnectionTable table = table();
        final Path notADirectory = Files.writeString(directory.resolve("occupied"), "a file where the directory should be");
        final StateStore store = new StateStore(notADirectory.resolve("state.json"), table);
        final ConnectionRow row = table.row((short) 4);
        store.rowChanged(row, row);

        assertFalse(store.awaitSaved(5_000));
        assertFalse(store.awaitSaved(5_000), "still pending, tried again, failed again");
        assertEquals(0, store.counters().saves());
        store.close();
    }

    @Test
    void aClosedStoreSavesNothingMore() {
        final StateStore store = new StateStore(directory.resolve("state.json"), table());
        store.close();
        assertFalse(store.awaitSaved(5_000));
    }
}
