package org.latencyserver.server.persistence;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongSupplier;
import org.latencyserver.server.table.ConnectionRow;
import org.latencyserver.server.table.ConnectionTable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The state store's writing, all on its writer thread: appends the marked connections' records to
 * the journal, writes whole state files, and runs compactions ({@link SavePolicy} says when).
 *
 * <p>Appends: the marked connections' current rows are appended in one {@code write()}; a record is
 * abbreviated against the row the connection's previous record on disk holds, except while a
 * compaction is under way (its lines may be replayed over the old state file or the new one, so
 * they are whole). Once an append or a force failed, the journal is never appended to again: the
 * next save writes the whole state file and starts a new journal.
 *
 * <p>A compaction does not stop the appends (the writer thread never writes the table): (1) the
 * writer appends what is marked, reads the rows as they are, forces and closes the journal, and
 * hands the rows to the compactor thread; (2) later appends go to {@code .journal.next}, whose
 * header names G+1, as whole records; (3) the compactor streams the rows into a temporary file,
 * forces it, renames it over the state file (generation G+1) and forces the directory; (4) the
 * writer deletes the old journal and renames {@code .journal.next} to {@code .journal}. A kill at
 * any step leaves files that restore: before (3) the old state file, its journal and the
 * compaction's journal (continuing G+1, replayed after the journal); after (3) the new state file,
 * a journal of G (older: holds nothing the file lacks; not replayed) and the compaction's journal
 * of G+1 under either name.
 *
 * <p>A whole state file written by the writer ({@link #snapshot}) takes a generation past any
 * restored one, so journals replayed at start and not yet deleted are "older", never replayed twice.
 *
 * <p>Thread-safety: confined to the writer thread (or to the closing thread once the writer has
 * stopped: {@link #closeAfterWriterStopped}). The compactor thread only writes a state file from
 * rows it is handed, which are immutable; its result is taken back on this thread.
 */
final class StateWriter {

    private static final Logger LOG = LoggerFactory.getLogger(StateWriter.class);

    private final StateFiles files;
    private final ConnectionTable table;
    private final ChangeMarks marks;
    private final SaveTally tally;
    private final SavePolicy policy;
    /** The newest generation restored at start; a new state file's must be past it. */
    private final LongSupplier restoredGeneration;
    private final Executor compactor;
    private final ObjectMapper mapper = new ObjectMapper();

    /** The journal appends go to; null when the next save must write a state file (at first, and after a failure). */
    private StateJournal journal;
    private long generation;
    private long stateFileBytes;
    private long lastForceNanos;
    /** When readings-only changes were last appended, monotonic ns. */
    private long lastReadingsSaveNanos = System.nanoTime();
    /** The state file the compactor is writing (its size when done); null when no compaction is under way. */
    private Future<Long> compaction;
    /** The generation of the state file under way; the journal appends go to ({@code .journal.next}) continues it. */
    private long compactionGeneration;
    /** Each connection's row as its last record on disk holds it: what journal lines abbreviate against. */
    private final Map<Short, ConnectionRow> onDisk = new HashMap<>();

    /**
     * @param compactor runs a compaction's state file; owned (started, shut down) by the caller
     */
    StateWriter(final StateFiles files, final ConnectionTable table, final ChangeMarks marks, final SaveTally tally,
                final SavePolicy policy, final LongSupplier restoredGeneration, final Executor compactor) {
        this.files = files;
        this.table = table;
        this.marks = marks;
        this.tally = tally;
        this.policy = policy;
        this.restoredGeneration = restoredGeneration;
        this.compactor = compactor;
    }

    /** The periodic work: append what changed, start or finish a compaction when due, force the journal when due. */
    void tick() {
        try {
            final long now = System.nanoTime();
            saveChanges(policy.readingsDue(now, lastReadingsSaveNanos));
            finishCompaction(0);
            if (journal != null && compaction == null && policy.compactionDue(journal.bytes(), stateFileBytes)) {
                startCompaction();
            }
            if (journal != null && journal.unforced() && policy.forceDue(now, lastForceNanos)) {
                lastForceNanos = now;
                try {
                    journal.force();
                } catch (IOException e) {
                    abandonJournal("could not force the journal " + files.journal() + " to disk: " + e);
                }
            }
        } catch (RuntimeException e) {
            // A periodic task that throws is never run again: log and carry on.
            LOG.error("the state writer failed: {}", e.toString());
        }
    }

    /**
     * Appends the changed connections, or writes a state file when there is no journal to append to.
     * When it returns true, every change marked before the call is in the journal's page cache (or a
     * forced state file).
     *
     * @param withReadings whether the connections whose record changed in its MIB readings alone are appended too
     * @return false when the write failed (logged; the connections stay marked)
     */
    boolean saveChanges(final boolean withReadings) {
        if (withReadings) {
            lastReadingsSaveNanos = System.nanoTime();
            marks.promoteReadings();
        }
        if (journal == null) {
            return snapshot();
        }
        if (marks.noneChanged()) {
            return true;
        }
        final List<ConnectionRow> rows = marks.takeChangedRows(table);
        try {
            final List<byte[]> records = new ArrayList<>(rows.size());
            for (final ConnectionRow row : rows) {
                final ConnectionRow earlier = compaction == null ? onDisk.get(row.spec().indexRef()) : null;
                records.add(mapper.writeValueAsBytes(ConnectionRecordCodec.encode(row, earlier)));
            }
            final long written = journal.append(records);
            rows.forEach(row -> onDisk.put(row.spec().indexRef(), row));
            tally.journalAppended(written);
            return true;
        } catch (IOException | RuntimeException e) {
            marks.markAgain(rows);
            abandonJournal("could not append to the journal " + files.journal() + ": " + e);
            return false;
        }
    }

    /** The whole table as a new state file; false when that failed (logged; retried by the next save). */
    boolean snapshot() {
        try {
            writeSnapshot();
            return true;
        } catch (IOException | RuntimeException e) {
            LOG.error("could not save the state to {}: {}; will retry", files.stateFile(), e.toString());
            return false;
        }
    }

    /**
     * Writes the whole table as a new state file (after a compaction under way), deletes the
     * journals it replaces and starts a new journal.
     *
     * @throws IOException when it could not be written; the previous files are then intact and
     *                     every connection is marked again
     */
    void writeSnapshot() throws IOException {
        finishCompaction(SavePolicy.COMPACTION_WAIT_MILLIS); // it renames over the same file
        if (compaction != null) {
            throw new IOException("a compaction of " + files.stateFile() + " is still under way");
        }
        marks.clear(); // before the rows are read: a change published after this marks its connection again
        final List<ConnectionRow> rows = table.rows();
        try {
            if (journal != null) {
                // Whatever happens now, the next append goes to a new journal after a new state file.
                journal.close();
                journal = null;
            }
            generation = Math.max(generation, restoredGeneration.getAsLong()) + 1;
            final long bytes = files.writeStateFile(mapper, rows, generation);
            StateFiles.deleteReplacedJournal(files.nextJournal());
            StateFiles.deleteReplacedJournal(files.journal());
            journal = new StateJournal(files.journal(), mapper.writeValueAsBytes(StateCodec.journalHeader(mapper, generation)));
            remember(rows);
            stateFileBytes = bytes;
            tally.stateFileWritten(bytes);
        } catch (IOException | RuntimeException e) {
            marks.markAgain(rows);
            throw e;
        }
    }

    /**
     * Starts writing the rows as they are now as a new state file on the compactor thread; appends
     * go on, whole lines, to {@code .journal.next}, which continues it. Called right after an
     * append: every change before it is in the journal.
     */
    private void startCompaction() {
        final List<ConnectionRow> rows = table.rows();
        try {
            journal.force(); // its lines are the compaction's until the new state file is on the disk
        } catch (IOException e) {
            abandonJournal("could not force the journal " + files.journal() + " to disk: " + e);
            return;
        }
        journal.close();
        final long next = Math.max(generation, restoredGeneration.getAsLong()) + 1;
        try {
            journal = new StateJournal(files.nextJournal(), mapper.writeValueAsBytes(StateCodec.journalHeader(mapper, next)));
        } catch (IOException e) {
            journal = null;
            LOG.error("could not encode the journal's header: {}; the next save writes the whole state file", e.toString());
            return;
        }
        compactionGeneration = next;
        remember(rows);
        final FutureTask<Long> stateFile = new FutureTask<>(() -> files.writeStateFile(mapper, rows, next));
        compactor.execute(stateFile);
        compaction = stateFile;
    }

    /**
     * Once the compaction's state file is in place, deletes the journal it replaces and renames the
     * compaction's journal to the journal. A compaction that failed is logged, and the next save
     * writes the whole state file.
     *
     * @param waitMillis how long to wait for a compaction under way; 0 to finish only one that is done
     */
    private void finishCompaction(final long waitMillis) {
        if (compaction == null || waitMillis == 0 && !compaction.isDone()) {
            return;
        }
        final long bytes;
        try {
            bytes = compaction.get(waitMillis, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            LOG.error("the state file {} of generation {} was not written within {} ms; its journal {} is kept", files.stateFile(),
                compactionGeneration, waitMillis, files.nextJournal());
            return;
        } catch (ExecutionException e) {
            compaction = null;
            // Its number is taken (the compaction's journal names it): the next state file gets the one after.
            generation = compactionGeneration;
            abandonJournal("could not write the state file " + files.stateFile() + ": " + e.getCause());
            return;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        compaction = null;
        generation = compactionGeneration;
        stateFileBytes = bytes;
        tally.stateFileWritten(bytes);
        StateFiles.deleteReplacedJournal(files.journal());
        try {
            if (journal != null) {
                journal.moveTo(files.journal());
            }
        } catch (IOException e) {
            // It continues the state file in place, so restoring replays it under either name.
            abandonJournal("could not rename " + files.nextJournal() + " to " + files.journal() + ": " + e);
        }
    }

    /** The rows are what is on disk now: later journal lines abbreviate against them. */
    private void remember(final List<ConnectionRow> rows) {
        onDisk.clear();
        rows.forEach(row -> onDisk.put(row.spec().indexRef(), row));
    }

    /** The journal may end in a cut-off line or hold appends the disk refused: never append to it again. */
    private void abandonJournal(final String why) {
        LOG.error("{}; the next save writes the whole state file", why);
        if (journal != null) {
            journal.close();
        }
        journal = null;
    }

    /**
     * The last work, on the closing thread once the writer thread has stopped: finishes a
     * compaction under way, appends what is still marked (readings included) and forces the journal.
     */
    void closeAfterWriterStopped() {
        try {
            finishCompaction(SavePolicy.COMPACTION_WAIT_MILLIS);
            if (!marks.isEmpty()) {
                saveChanges(true);
            }
            if (journal != null) {
                journal.force();
                journal.close();
            }
        } catch (IOException e) {
            LOG.error("could not force the journal {} at the end: {}", files.journal(), e.toString());
        }
    }
}
