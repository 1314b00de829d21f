package org.latencyserver.server.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
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
 * Compaction: the journal is written into a new state file only once it holds as many
 * bytes as the state file, the appends going on meanwhile into {@code <state_file>.journal.next};
 * a kill at any step of it leaves files that restore the last change.
 */
class StateCompactionTest {

    private static final long MS = 1_000_000L;
    private static final int CONNECTIONS = 20;

    @TempDir
    Path directory;

    private final ObjectMapper mapper = new ObjectMapper();

    private Path file() {
        return directory.resolve("state.json");
    }

    private Path journal() {
        return directory.resolve("state.json.journal");
    }

    private Path nextJournal() {
        return directory.resolve("state.json.journal.next");
    }

    /** Connections 1..{@value #CONNECTIONS}, QoS 3. */
    private static UpdateEngine engine() {
        final AtomicLong tickets = new AtomicLong(1);
        final List<ConnectionRow> rows = new ArrayList<>();
        for (int ref = 1; ref <= CONNECTIONS; ref++) {
            rows.add(ConnectionRow.initial(new ConnectionSpec((short) ref, "ws1", (short) 1, WorkstationType.TAC_4, "ws2", (short) 2,
                WorkstationType.TAC_4, null, 256, 3, 0, null), 0));
        }
        return new UpdateEngine(new ConnectionTable(rows), Map.of(), EngineSettings.DEFAULT, tickets::incrementAndGet, () -> 42L);
    }

    private static MibReading mib(final int percent) {
        return new MibReading((short) percent, (short) percent, (short) percent);
    }

    private static void push(final UpdateEngine engine, final StateStore store, final int indexRef, final int percent,
                             final AtomicLong clockNanos) {
        engine.applyMib((short) indexRef, mib(percent), clockNanos.addAndGet(MS));
        assertTrue(store.awaitSaved(5_000), "saved");
    }

    private UpdateEngine restored() {
        final UpdateEngine engine = engine();
        final StateStore store = new StateStore(file(), engine.table());
        store.restoreInto(engine, 0);
        assertNull(store.refusedBecause(), "not refused");
        return engine;
    }

    @Test
    void theJournalIsCompactedOnlyOnceItHoldsAsManyBytesAsTheStateFileAndEveryChangeIsRestored() throws Exception {
        final UpdateEngine engine = engine();
        final StateStore store = new StateStore(file(), engine.table(), 150, 1);
        engine.addListener(store);
        final AtomicLong clock = new AtomicLong();
        store.start(1);
        final long stateFileBytes = Files.size(file());
        assertEquals(1, store.counters().stateFiles(), "written at start");

        // Fewer bytes of journal than the state file: no state file is written, however long one waits.
        push(engine, store, 1, 10, clock);
        Thread.sleep(300);
        assertEquals(1, store.counters().stateFiles());
        assertTrue(store.counters().journalBytes() < stateFileBytes);

        int percent = 10;
        for (int i = 0; i < 100_000 && store.counters().stateFiles() < 2; i++) {
            percent = 10 + i % 80;
            push(engine, store, 1 + i % CONNECTIONS, percent, clock);
        }
        // The compactor runs on its own thread: by the time the loop sees the first compaction, a second may have
        // followed. Each compaction after the start must have been paid for by a state file's worth of journal.
        final StateSaveCounters compacted = store.counters();
        assertTrue(compacted.stateFiles() >= 2, "compacted: " + compacted.stateFiles() + " state files");
        assertTrue(compacted.journalBytes() >= (compacted.stateFiles() - 1) * stateFileBytes,
            "each state file paid for by as many bytes of journal: " + compacted.journalBytes() + " journal bytes, "
                + (compacted.stateFiles() - 1) + " compactions of a state file of " + stateFileBytes);
        push(engine, store, 2, 95, clock); // one change after it: the journal continuing the new state file holds it
        final List<MibReading> saved = engine.table().rows().stream().map(ConnectionRow::latest).toList();
        store.close();

        // (Appends made while it ran, whole records, may have paid for another compaction before the close.)
        final long generation = store.counters().stateFiles();
        assertFalse(Files.exists(nextJournal()), "renamed to the journal once the compaction finished");
        assertTrue(Files.readString(file()).startsWith("{\"format\":\"latency-server-state/3\",\"generation\":" + generation + ","));
        assertTrue(Files.readString(journal()).startsWith("{\"format\":\"latency-server-journal/1\",\"generation\":" + generation
            + "}\n"), "the compaction's journal, continuing the new state file");
        assertEquals(saved, restored().table().rows().stream().map(ConnectionRow::latest).toList());
    }

    /**
     * A kill at each step of a compaction, the files left as the step leaves them: (1) before the
     * new state file is in place: the old state file, its journal and the compaction's journal; (2)
     * the new state file in place, the old journal not yet deleted; (3) deleted; (4) the compaction's
     * journal renamed to the journal; and (1) with the compaction's last line cut off.
     */
    /** An engine whose changes a store (not started) saves, and the state file it wrote before any change. */
    private record Saved(UpdateEngine engine, StateStore store) {
    }

    private Saved withAStateFile() throws Exception {
        final UpdateEngine engine = engine();
        final StateStore store = new StateStore(file(), engine.table());
        engine.addListener(store);
        store.write();
        return new Saved(engine, store);
    }

    /** @return a compaction's journal continuing {@code generation}, holding {@code row} whole */
    private byte[] compactionJournal(final long generation, final ConnectionRow row) throws Exception {
        return ("{\"format\":\"latency-server-journal/1\",\"generation\":" + generation + "}\n"
            + mapper.writeValueAsString(ConnectionRecordCodec.encode(row, null)) + "\n").getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aKillAtAnyStepOfACompactionLeavesFilesThatRestoreTheLastChange() throws Exception {
        final Saved saved = withAStateFile();
        final UpdateEngine engine = saved.engine();
        final StateStore store = saved.store();
        final AtomicLong clock = new AtomicLong();
        push(engine, store, 3, 10, clock);
        final byte[] oldStateFile = Files.readAllBytes(file());
        final byte[] oldJournal = Files.readAllBytes(journal());
        // The compaction's state file holds the rows as they were when it began; the change after it is in its journal, whole.
        store.write();
        final byte[] newStateFile = Files.readAllBytes(file());
        engine.applyMib((short) 3, mib(20), clock.addAndGet(MS));
        final byte[] nextJournal = compactionJournal(2, engine.table().row((short) 3));
        store.close();

        leave(oldStateFile, oldJournal, nextJournal);
        assertEquals(mib(20), restored().table().row((short) 3).latest(), "(1) the state file, its journal, then the compaction's");

        leave(oldStateFile, oldJournal, Arrays.copyOf(nextJournal, nextJournal.length - 10));
        assertEquals(mib(10), restored().table().row((short) 3).latest(), "(1) the compaction's last line cut off by the kill");

        leave(newStateFile, oldJournal, nextJournal);
        assertEquals(mib(20), restored().table().row((short) 3).latest(), "(2) the old journal is older than the state file");

        leave(newStateFile, null, nextJournal);
        assertEquals(mib(20), restored().table().row((short) 3).latest(), "(3)");

        leave(newStateFile, nextJournal, null);
        assertEquals(mib(20), restored().table().row((short) 3).latest(), "(4)");
    }

    @Test
    void aCompactionsJournalLeftBesideTheStateFileWrittenAfterRestoringItIsNotReplayedAgain() throws Exception {
        final Saved first = withAStateFile();
        final AtomicLong clock = new AtomicLong();
        first.engine().applyMib((short) 3, mib(20), clock.addAndGet(MS));
        final byte[] nextJournal = compactionJournal(2, first.engine().table().row((short) 3));
        first.store().close();
        leave(Files.readAllBytes(file()), null, nextJournal);

        // Restored (generation 1 and the compaction's journal of 2), started: the state file written at start is generation 3.
        final UpdateEngine engine = engine();
        final StateStore store = new StateStore(file(), engine.table());
        engine.addListener(store);
        store.restoreInto(engine, 0);
        assertEquals(mib(20), engine.table().row((short) 3).latest());
        store.start(100);
        push(engine, store, 3, 30, clock);
        store.close();
        assertTrue(Files.readString(file()).startsWith("{\"format\":\"latency-server-state/3\",\"generation\":3,"));

        // A kill had left the compaction's journal beside that state file: it holds an older change, not replayed.
        Files.write(nextJournal(), nextJournal);
        assertEquals(mib(30), restored().table().row((short) 3).latest());
    }

    private void leave(final byte[] stateFile, final byte[] journal, final byte[] nextJournal) throws Exception {
        Files.write(file(), stateFile);
        write(journal(), journal);
        write(nextJournal(), nextJournal);
    }

    private static void write(final Path path, final byte[] content) throws Exception {
        if (content == null) {
            Files.deleteIfExists(path);
        } else {
            Files.write(path, content);
        }
    }
}
