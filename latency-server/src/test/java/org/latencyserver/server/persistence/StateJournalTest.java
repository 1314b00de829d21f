package org.latencyserver.server.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.latencyserver.core.estimate.Measurement;
import org.latencyserver.core.state.WorkstationType;
import org.latencyserver.server.engine.EngineSettings;
import org.latencyserver.server.engine.UpdateEngine;
import org.latencyserver.server.table.ConnectionRow;
import org.latencyserver.server.table.ConnectionSpec;
import org.latencyserver.server.table.ConnectionTable;
import org.latencyserver.server.table.MibReading;

/**
 * The journal beside the state file: changes appended after a state file come back on restart, a
 * line cut off by a kill is ignored, a bad line before the last sets its connection (or, naming none, the saved state) aside, and a
 * kill at any step of writing a new state file leaves files that restore to the last change.
 *
 * <p>The stores here are never started: every write happens in {@link StateStore#awaitSaved} or
 * {@link StateStore#write}, so the files are exactly what the test made.
 */
class StateJournalTest {

    private static final long MS = 1_000_000L;

    @TempDir
    Path directory;

    private Path file() {
        return directory.resolve("state.json");
    }

    private Path journal() {
        return directory.resolve("state.json.journal");
    }

    /** Connections 3 and 4, both QoS 3 (measured), as configured. */
    private static UpdateEngine engine() {
        final AtomicLong tickets = new AtomicLong(1);
        return new UpdateEngine(new ConnectionTable(List.of(ConnectionRow.initial(spec(3), 0), ConnectionRow.initial(spec(4), 0))),
            Map.of(), EngineSettings.DEFAULT, tickets::incrementAndGet, () -> 42L);
    }

    private static ConnectionSpec spec(final int indexRef) {
        return new ConnectionSpec((short) indexRef, "ws1", (short) 1, WorkstationType.TAC_4, "ws2", (short) 2, WorkstationType.TAC_4,
            null, 256, 3, 0, null);
    }

    private static MibReading mib(final int percent) {
        return new MibReading((short) percent, (short) percent, (short) percent);
    }

    /** An engine whose changes the store saves, as the server wires them. */
    private record Server(UpdateEngine engine, StateStore store, AtomicLong clockNanos) {

        void push(final int indexRef, final int percent) {
            engine.applyMib((short) indexRef, mib(percent), clockNanos.addAndGet(MS));
            assertTrue(store.awaitSaved(5_000), "saved");
        }
    }

    private Server server() {
        final UpdateEngine engine = engine();
        final StateStore store = new StateStore(file(), engine.table());
        engine.addListener(store);
        return new Server(engine, store, new AtomicLong());
    }

    /** A server that has written a state file, before any change: later changes go to the journal. */
    private Server serverWithAStateFile() throws Exception {
        final Server server = server();
        server.store().write();
        return server;
    }

    /** A fresh engine restored from the files as they are; the store's refusal, if any, in {@code refused}. */
    private UpdateEngine restored(final String[] refused) {
        final UpdateEngine engine = engine();
        final StateStore store = new StateStore(file(), engine.table());
        store.restoreInto(engine, 0);
        refused[0] = store.refusedBecause();
        return engine;
    }

    private MibReading restoredLatest(final int indexRef) {
        final String[] refused = new String[1];
        final MibReading latest = restored(refused).table().row((short) indexRef).latest();
        assertNull(refused[0], "not refused");
        return latest;
    }

    private List<String> journalLines() throws Exception {
        return Files.readAllLines(journal(), StandardCharsets.UTF_8);
    }

    @Test
    void changesAppendedAfterTheStateFileAreRestoredInOrderTheLastRecordWinning() throws Exception {
        final Server server = serverWithAStateFile();
        server.push(3, 10);
        server.push(4, 50);
        server.push(3, 20);

        final List<String> lines = journalLines();
        assertEquals(4, lines.size(), "a header and one line per change: " + lines);
        assertEquals("{\"format\":\"latency-server-journal/1\",\"generation\":1}", lines.get(0));
        assertTrue(Files.readString(file()).contains("\"latest\":[-1,-1,-1]"), "the state file holds none of the changes");

        final UpdateEngine after = restored(new String[1]);
        assertEquals(mib(20), after.table().row((short) 3).latest());
        assertEquals(mib(10), after.table().row((short) 3).previous());
        assertEquals(mib(50), after.table().row((short) 4).latest());
    }

    @Test
    void aMeasuredConnectionsHistogramsAreWrittenOnceAndAbbreviatedAfter() throws Exception {
        final Server server = server();
        server.push(3, 10); // the first save writes the state file; this opens a measurement request
        final Measurement measurement = TestMeasurements.oneRoundTripPerBin(150);
        assertTrue(server.engine().submitMeasurement((short) 3, server.engine().table().row((short) 3).pending().ticket(),
            measurement, "test", server.clockNanos().addAndGet(MS)).accepted());
        assertTrue(server.store().awaitSaved(5_000));
        server.push(3, 12); // still LOW: the measurement and what was learned of the state are as before

        final List<String> lines = journalLines();
        assertEquals(3, lines.size(), lines::toString);
        assertTrue(lines.get(1).contains("upper_edges_ns"), "the measurement, once");
        final String push = lines.get(2);
        assertFalse(push.contains("upper_edges_ns"), push);
        assertTrue(push.contains("\"measurement_as_before\":true") && push.contains("\"as_before\":true"), push);
        assertTrue(push.length() * 3 < lines.get(1).length(), "a push after a measurement is a fraction of its record: " + push);

        final ConnectionRow row = restored(new String[1]).table().row((short) 3);
        assertEquals(mib(12), row.latest());
        assertEquals(measurement.histogram(), row.measurement().histogram());
        assertEquals(1, row.learning().byState().size());
        assertEquals(measurement.histogram(), row.learning().byState().values().iterator().next().lastMeasurement().histogram());
    }

    static Stream<Arguments> unfinishedLastLines() {
        return Stream.of(
            Arguments.of("cut off by a kill", (UnaryOperator<String>) whole -> whole.substring(0, whole.length() / 2)),
            Arguments.of("not JSON", (UnaryOperator<String>) whole -> "{\"index_ref\":3,\"qo\n"));
    }

    @ParameterizedTest(name = "a last line {0}")
    @MethodSource("unfinishedLastLines")
    void aLastLineThatIsCutOffOrNotJsonIsIgnoredAndTheLinesBeforeItAreRestored(final String what,
                                                                            final UnaryOperator<String> lastLine)
        throws Exception {
        final Server server = server();
        server.push(3, 10);
        server.push(3, 20);
        final String whole = journalLines().get(1);
        Files.write(journal(), lastLine.apply(whole).getBytes(StandardCharsets.UTF_8), StandardOpenOption.APPEND);

        assertEquals(mib(20), restoredLatest(3));
        assertTrue(Files.exists(file()) && Files.exists(journal()), "nothing set aside");
    }

    @Test
    void aBadLineBeforeTheLastSetsTheStateFileAndItsJournalAside() throws Exception {
        final List<String> lines = journalOfTwoChanges();
        final String[] refused = new String[1];
        final UpdateEngine after = restoredWithJournal(List.of(lines.get(0), lines.get(1), "{\"index_ref\":3,\"qo", lines.get(2)),
            refused);
        assertTrue(refused[0] != null && refused[0].startsWith(journal() + ":3:19: file: malformed or truncated JSON: "),
            refused[0]);
        assertEquals(1, refused[0].lines().count(), "one fault: the lines after it are well formed");
        assertEquals(MibReading.NONE, after.table().row((short) 3).latest(), "nothing restored: the configuration serves");
        assertFalse(Files.exists(file()));
        assertFalse(Files.exists(journal()));
        final List<String> names = fileNames();
        assertTrue(names.stream().anyMatch(n -> n.startsWith("state.json.corrupt-")), names::toString);
        assertTrue(names.stream().anyMatch(n -> n.startsWith("state.json.journal.corrupt-")), names::toString);
    }

    @Test
    void everyBadLineOfTheJournalIsReportedTogether() throws Exception {
        final List<String> lines = journalOfTwoChanges();
        final String[] refused = new String[1];
        restoredWithJournal(List.of(lines.get(0), "[3]", lines.get(1), "{\"index_ref\":\"three\"}", lines.get(2)), refused);
        assertEquals(List.of(journal() + ":2:1: line: not a JSON object, was a list",
                journal() + ":4:1: record: index_ref: expected a whole number"),
            refused[0].lines().toList());
    }

    @Test
    void aLineThatRefersToAMeasurementNoEarlierRecordHoldsIsAFault() throws Exception {
        final List<String> lines = journalOfTwoChanges();
        final String[] refused = new String[1];
        restoredWithJournal(List.of(lines.get(0), lines.get(1).replace("\"source\"", "\"measurement_as_before\":true,\"source\""),
            lines.get(2)), refused);
        assertEquals(journal() + ":2:1: record: measurement_as_before: no earlier record of connection 3 holds a measurement",
            refused[0]);
    }

    @Test
    void aJournalWithoutItsStateFileIsSetAsideAndNothingIsRestored() throws Exception {
        final Server server = server();
        server.push(3, 10);
        server.push(3, 20);
        Files.delete(file());

        final String[] refused = new String[1];
        assertEquals(MibReading.NONE, restored(refused).table().row((short) 3).latest());
        assertFalse(Files.exists(journal()));
        assertTrue(fileNames().stream().anyMatch(n -> n.startsWith("state.json.journal.corrupt-")), fileNames()::toString);
    }

    static Stream<Arguments> poisonedRecords() {
        return Stream.of(
            Arguments.of("bad JSON", (UnaryOperator<String>) line -> line.substring(0, line.indexOf("\"latest\"")) + "\"latest\":[2"),
            Arguments.of("a number of 2^62", (UnaryOperator<String>) line -> line.replaceFirst("\"qos\":\\d+",
                "\"qos\":4611686018427387904")));
    }

    @ParameterizedTest(name = "a journal line of connection 3 with {0}")
    @MethodSource("poisonedRecords")
    void aPoisonedJournalRecordSetsItsConnectionAsideAndEveryOtherConnectionIsRestored(final String what,
                                                                                     final UnaryOperator<String> poison)
        throws Exception {
        final Server server = serverWithAStateFile();
        server.push(3, 10);
        server.push(4, 50);
        server.push(3, 20);
        server.push(4, 60);
        server.push(3, 30);
        final List<String> lines = journalLines();
        assertEquals(6, lines.size(), lines::toString);
        final String[] refused = new String[1];
        final UpdateEngine after = restoredWithJournal(List.of(lines.get(0), lines.get(1), lines.get(2), poison.apply(lines.get(3)),
            lines.get(4), lines.get(5)), refused);
        assertEquals(mib(60), after.table().row((short) 4).latest(), "connection 4 restored");
        assertEquals(mib(50), after.table().row((short) 4).previous());
        assertEquals(MibReading.NONE, after.table().row((short) 3).latest(),
            "connection 3 set aside, its later lines too: its configuration serves");
        assertTrue(refused[0] != null && refused[0].startsWith(journal() + ":4:"), refused[0]);
        assertEquals(1, refused[0].lines().count(), refused[0]);
        assertTrue(fileNames().stream().anyMatch(n -> n.startsWith("state.json.journal.corrupt-")), "kept for inspection");
    }

    @Test
    void aPoisonedStateFileRecordSetsOnlyItsConnectionAside() throws Exception {
        final Server server = server();
        server.push(3, 10);
        server.push(4, 50);
        server.store().write();
        final String text = Files.readString(file());
        final String poisoned = text.replaceFirst("\\{\"index_ref\":3,\"qos\":\\d+", "{\"index_ref\":3,\"qos\":4611686018427387904");
        assertTrue(!poisoned.equals(text), "connection 3's record poisoned");
        Files.writeString(file(), poisoned);
        Files.deleteIfExists(journal());
        final String[] refused = new String[1];
        final UpdateEngine after = restored(refused);
        assertEquals(mib(50), after.table().row((short) 4).latest(), "connection 4 restored");
        assertEquals(MibReading.NONE, after.table().row((short) 3).latest(), "connection 3 set aside");
        assertTrue(refused[0] != null && refused[0].startsWith(file() + ":1:") && refused[0].contains("qos: expected a whole number"),
            refused[0]);
        assertTrue(fileNames().stream().anyMatch(n -> n.startsWith("state.json.corrupt-")), "kept for inspection");
    }

    /** Three changes of connection 3: the first save writes the state file, the next two the journal; its lines. */
    private List<String> journalOfTwoChanges() throws Exception {
        final Server server = server();
        server.push(3, 10);
        server.push(3, 20);
        server.push(3, 30);
        return journalLines();
    }

    /** Replaces the journal with {@code lines} and restores from the files; see {@link #restored}. */
    private UpdateEngine restoredWithJournal(final List<String> lines, final String[] refused) throws Exception {
        Files.write(journal(), lines, StandardCharsets.UTF_8);
        return restored(refused);
    }

    /** @return the names of the files in the test's directory */
    private List<String> fileNames() throws Exception {
        try (Stream<Path> files = Files.list(directory)) {
            return files.map(p -> p.getFileName().toString()).toList();
        }
    }

    /**
     * A kill at each step of writing a new state file, the files left as the step leaves them: (1)
     * the temporary file half written; (2) renamed, the old journal not yet deleted; (3) deleted,
     * nothing appended since; (4) the new journal's header cut off; (5) appended to.
     */
    @Test
    void aKillAtAnyStepOfWritingANewStateFileLeavesFilesThatRestoreTheLastChange() throws Exception {
        final Server server = serverWithAStateFile();
        server.push(3, 10);
        server.push(3, 20);
        final byte[] oldStateFile = Files.readAllBytes(file());
        final byte[] oldJournal = Files.readAllBytes(journal());
        final byte[] oldJournalFirstChangeOnly = Arrays.copyOf(oldJournal, String.join("\n", journalLines().subList(0, 2)).length() + 1);
        server.store().write();
        assertFalse(Files.exists(journal()), "deleted once the new state file is in place");
        final byte[] newStateFile = Files.readAllBytes(file());
        server.push(3, 30);
        final byte[] newJournal = Files.readAllBytes(journal());
        assertTrue(new String(newJournal, StandardCharsets.UTF_8).startsWith("{\"format\":\"latency-server-journal/1\",\"generation\":2}\n"));

        leave(oldStateFile, oldJournal);
        Files.write(directory.resolve(".state.json123.tmp"), Arrays.copyOf(newStateFile, newStateFile.length / 2));
        assertEquals(mib(20), restoredLatest(3), "(1) the old state file and its journal");

        leave(newStateFile, oldJournalFirstChangeOnly);
        assertEquals(mib(20), restoredLatest(3), "(2) the old journal's 10 % is older than the new state file: not replayed");

        leave(newStateFile, null);
        assertEquals(mib(20), restoredLatest(3), "(3) the new state file alone");

        leave(newStateFile, Arrays.copyOf(newJournal, 20));
        assertEquals(mib(20), restoredLatest(3), "(4) a cut-off header is ignored");

        leave(newStateFile, newJournal);
        assertEquals(mib(30), restoredLatest(3), "(5) the new state file and its journal");
    }

    private void leave(final byte[] stateFile, final byte[] journal) throws Exception {
        Files.write(file(), stateFile);
        if (journal == null) {
            Files.deleteIfExists(journal());
        } else {
            Files.write(journal(), journal);
        }
    }

    @Test
    void theCountersHoldTheJournalsBytesAndTheStateFiles() throws Exception {
        final Server server = server();
        server.push(3, 10); // the first save: a state file
        server.push(3, 20);
        server.push(4, 30);

        assertEquals(1, server.store().counters().stateFiles());
        assertEquals(2, server.store().counters().journalAppends());
        assertEquals(3, server.store().counters().saves());
        assertEquals(Files.size(file()), server.store().counters().stateFileBytes());
        assertEquals(Files.size(journal()), server.store().counters().journalBytes());
        assertEquals(Files.size(file()) + Files.size(journal()), server.store().counters().bytesSaved());
        assertEquals(3, server.store().counters().changesSeen());
    }

    @Test
    void aStateFileOfTheFormatBeforeTheJournalIsRestored() throws Exception {
        final Server server = server();
        server.push(3, 10);
        server.store().write();
        Files.writeString(file(), Files.readString(file()).replace("\"format\":\"latency-server-state/3\",\"generation\":2",
            "\"format\":\"latency-server-state/2\""));
        assertTrue(Files.readString(file()).startsWith("{\"format\":\"latency-server-state/2\",\"saved_epoch_millis\""));

        assertEquals(mib(10), restoredLatest(3));
    }
}
