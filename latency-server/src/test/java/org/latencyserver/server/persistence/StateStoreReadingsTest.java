package org.latencyserver.server.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.latencyserver.server.persistence.TestRows.HIGH_LOW;
import static org.latencyserver.server.persistence.TestRows.LOW_LOW;
import static org.latencyserver.server.persistence.TestRows.UNKNOWN_LOW;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencyserver.server.table.CalibrationMode;
import org.latencyserver.server.table.ConnectionRow;
import org.latencyserver.server.table.ConnectionTable;
import org.latencyserver.server.table.MibReading;
import org.latencyserver.server.table.StaleInputs;

/**
 * A change that leaves a connection's saved record the same but for its MIB readings (a poll's
 * jitter within one load state, an end going UNKNOWN and back) is not a journal line per poll: it
 * waits for the next change that matters, an {@code awaitSaved}, or the readings' interval; a change
 * of what is served is appended at the next tick as before.
 */
class StateStoreReadingsTest {

    @TempDir
    Path directory;

    private static ConnectionRow lowLow() {
        return ConnectionRow.initial(TestRows.spec(1, "thesis-tac4-corba", CalibrationMode.THESIS), 0).withMib(reading(20), LOW_LOW, 1);
    }

    private static MibReading reading(final int clientPercent) {
        return new MibReading((short) clientPercent, (short) 20, (short) 10);
    }

    /** What the engine does at LOW/LOW -> HIGH/LOW for a QoS 1 connection: the profile's estimate for the new state. */
    private static ConnectionRow servingHigh(final ConnectionRow row, final int clientPercent) {
        return row.withMib(reading(clientPercent), HIGH_LOW, 3).withEstimate(TestRows.average(1, 2.0, "profile, 67-100/0-33"), null);
    }

    @Test
    void aNewReadingOrAnUnknownEndKeepsTheRecordButANewEstimateDoesNot() {
        final ConnectionRow before = lowLow();
        assertTrue(ConnectionRecordCodec.sameRecordButReadings(before, before.withMib(reading(21), LOW_LOW, 2)),
            "20 % -> 21 %, still LOW/LOW");
        assertTrue(ConnectionRecordCodec.sameRecordButReadings(before, before.withMib(reading(-1), UNKNOWN_LOW, 2)
            .withStaleInputs(StaleInputs.of(StaleInputs.Input.CLIENT_CPU))), "the client unknown: the estimate is kept, marked stale");
        assertFalse(ConnectionRecordCodec.sameRecordButReadings(before, servingHigh(before, 90)),
            "LOW/LOW -> HIGH/LOW and its estimate");
    }

    @Test
    void aReadingOnlyChangeWaitsWhileAStateChangeIsAppendedAtTheNextTickAndAnAwaitSavesBoth() throws Exception {
        final ConnectionRow first = lowLow();
        final ConnectionTable table = new ConnectionTable(List.of(first));
        final StateStore store = new StateStore(directory.resolve("state.json"), table);
        try {
            store.start(10);
            final long appendsAtStart = store.counters().journalAppends();

            final ConnectionRow jitter = first.withMib(reading(21), LOW_LOW, 2);
            table.publish(jitter);
            store.rowChanged(first, jitter);
            Thread.sleep(500); // fifty ticks
            assertEquals(appendsAtStart, store.counters().journalAppends(), "a reading alone is not appended by the ticks");

            final ConnectionRow loaded = servingHigh(jitter, 90);
            table.publish(loaded);
            store.rowChanged(jitter, loaded);
            final long deadline = System.nanoTime() + 10_000_000_000L;
            while (store.counters().journalAppends() == appendsAtStart && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertEquals(appendsAtStart + 1, store.counters().journalAppends(), "a state change is appended by the next tick");

            final ConnectionRow jitterAgain = loaded.withMib(reading(89), HIGH_LOW, 4);
            table.publish(jitterAgain);
            store.rowChanged(loaded, jitterAgain);
            assertTrue(store.awaitSaved(5_000));
            assertEquals(appendsAtStart + 2, store.counters().journalAppends(), "an await (a PutMibUpdates acknowledgement) saves a reading too");
        } finally {
            store.close();
        }
    }
}
