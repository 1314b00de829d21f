package org.latencyserver.server.persistence;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.latencyserver.launch.agent.AgentRunner;
import org.latencyserver.launch.agent.DistinctErrorLog;
import org.latencyserver.launch.agent.NoIdleStrategy;
import org.latencyserver.launch.agent.PeriodicDeadline;
import org.latencyserver.launch.agent.TaskQueueAgent;
import org.latencyserver.server.engine.EngineListener;
import org.latencyserver.server.engine.InputLimits;
import org.latencyserver.server.engine.UpdateEngine;
import org.latencyserver.server.table.ConnectionRow;
import org.latencyserver.server.table.ConnectionTable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the connection table on disk so that a restarted server serves what it served before:
 * MIB values, estimates, measured histograms and calibration. The files and their layouts:
 * {@link StateFiles}, {@link StateCodec}, {@link ConnectionRecordCodec}, {@link StateJournal}.
 *
 * <p>Lifecycle: {@link #restoreInto} (reads the saved files into the engine: {@link StateRestorer}),
 * then {@link #start}, which first writes the table as restored as a new state file, so nothing is
 * ever appended after a cut-off line of an earlier journal; then the engine reports each change to
 * {@link #rowChanged}; {@link #close} saves what is left.
 *
 * <p>Durability contract:
 * <ol>
 * <li>When {@link #awaitSaved} returns true, every change published before the call is in the
 *     journal, handed to the kernel by {@code write()} (or in a forced state file): it survives
 *     {@code kill -9}. Callers waiting together share one append (group commit); a caller whose
 *     change an earlier append already holds waits for nothing more.</li>
 * <li>The journal is forced to the disk at most {@value SavePolicy#JOURNAL_FORCE_INTERVAL_MILLIS} ms
 *     after an append: a power cut loses at most about that much.</li>
 * <li>A change nobody waits for is appended by the writer's next tick, one flush interval (given to
 *     {@link #start}) after the last; a change of a record's MIB readings alone may wait longer
 *     ({@link SavePolicy}).</li>
 * <li>When {@link #write} returns, the whole table is in a forced state file.</li>
 * <li>A kill at any moment leaves files that restore to a table no older than the last
 *     acknowledged save ({@link StateWriter} for the compaction's steps).</li>
 * </ol>
 *
 * <p>Thread-safety: {@link #restoreInto} from the starting thread before {@link #start};
 * {@link #rowChanged} from the update thread, which never waits (it only marks the connection);
 * {@link #awaitSaved}, {@link #write}, {@link #counters} and {@link #close} from any thread. The
 * journals and the record of what is on disk belong to the writer thread ({@link StateWriter}),
 * which reads only immutable published rows; the compactor thread writes only the state file, from
 * rows it was handed. Both threads are {@link TaskQueueAgent}s on their own {@link AgentRunner}s: the
 * writer runs the tasks of {@link #awaitSaved} and {@link #write} in order and its tick with a fixed
 * delay between them; at {@link #close} it runs the tasks still queued and then, on its own thread,
 * its last append, forced.
 */
public final class StateStore implements EngineListener, AutoCloseable {

    private static final long STARTUP_SNAPSHOT_TIMEOUT_SECONDS = 10;
    private static final Duration WRITER_STOP_WAIT = Duration.ofSeconds(2);
    /** The compactor's close waits for a compaction under way as long as the writer's last one may. */
    private static final Duration COMPACTOR_STOP_WAIT = Duration.ofMillis(SavePolicy.COMPACTION_WAIT_MILLIS);

    private static final Logger LOG = LoggerFactory.getLogger(StateStore.class);

    private final StateFiles files;
    private final StateRestorer restorer;
    private final ChangeMarks marks = new ChangeMarks();
    private final SaveTally tally = new SaveTally();
    /** Writes the state file of a compaction from rows it is handed, while the writer keeps appending. */
    private final LazyAgent compactorThread;
    /** The writer thread: the tasks of {@link #awaitSaved} and {@link #write}, and from {@link #start} its tick. */
    private final LazyAgent writerThread;
    private final StateWriter writer;

    /**
     * @param file  the state file
     * @param table the table to save
     */
    public StateStore(final Path file, final ConnectionTable table) {
        this(file, table, InputLimits.DEFAULT.maxHistogramBins());
    }

    /**
     * @param file             the state file
     * @param table            the table to save
     * @param maxHistogramBins the most bins a saved histogram may have when the file is read
     */
    public StateStore(final Path file, final ConnectionTable table, final int maxHistogramBins) {
        this(file, table, maxHistogramBins, SavePolicy.COMPACT_JOURNAL_MIN_BYTES);
    }

    /**
     * @param compactJournalMinBytes the least journal a compaction waits for (tests make it small)
     */
    StateStore(final Path file, final ConnectionTable table, final int maxHistogramBins, final long compactJournalMinBytes) {
        this.files = StateFiles.beside(file);
        this.restorer = new StateRestorer(files, table, maxHistogramBins);
        this.writer = new StateWriter(files, table, marks, tally, new SavePolicy(compactJournalMinBytes),
            restorer::restoredGeneration, task -> compactorThread().execute(task));
        this.compactorThread = new LazyAgent(TaskQueueAgent.named("latency-state-compactor").build(), COMPACTOR_STOP_WAIT);
        this.writerThread = new LazyAgent(TaskQueueAgent.named("latency-state-writer")
                .lastAction(writer::closeAfterWriterStopped).build(), WRITER_STOP_WAIT);
    }

    private TaskQueueAgent compactorThread() {
        return compactorThread.started();
    }

    private TaskQueueAgent writerTasks() {
        return writerThread.started();
    }

    /** @return the journal beside the state file, {@code <state_file>.journal} */
    public Path journalFile() {
        return files.journal();
    }

    /** @return the journal of a compaction under way, {@code <state_file>.journal.next} (renamed to the journal once it is done) */
    public Path nextJournalFile() {
        return files.nextJournal();
    }

    /**
     * Restores what the state file and its journal hold into the engine (before serving starts).
     * Saved connections that no longer match the configuration (gone, or another QoS or size) are
     * skipped with a log line; a damaged record sets its connection aside (it starts from the
     * configuration, every other connection is restored), a saved state damaged whole is set aside
     * whole ({@link #refusedBecause}).
     *
     * @param engine   the engine to restore into
     * @param nowNanos monotonic time
     * @return how many connections were restored
     */
    public int restoreInto(final UpdateEngine engine, final long nowNanos) {
        return restorer.restoreInto(engine, nowNanos);
    }

    /** @return why the last restore set the saved files aside, whole or some connections' records, or null when it did not */
    public String refusedBecause() {
        return restorer.refusedBecause();
    }

    /**
     * Starts the writer: writes the table as restored (journal folded in) as a new state file first
     * — so nothing is ever appended after a cut-off line of the journal before — and waits for that.
     *
     * @param flushIntervalMillis changes nobody waits for are appended at most this often, {@code >= 1}
     */
    public void start(final long flushIntervalMillis) {
        final Future<Boolean> first = writerTasks().submit(writer::snapshot);
        writerTasks().scheduleDuty(PeriodicDeadline.Kind.FIXED_DELAY, TimeUnit.MILLISECONDS.toNanos(flushIntervalMillis), writer::tick);
        try {
            first.get(STARTUP_SNAPSHOT_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            LOG.error("the state file was not written at start within {} s; the writer keeps trying", STARTUP_SNAPSHOT_TIMEOUT_SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Update thread: marks the connection for saving; never waits. */
    @Override
    public void rowChanged(final ConnectionRow before, final ConnectionRow after) {
        tally.changeSeen();
        marks.mark(before, after);
    }

    /**
     * Waits until every change published before this call is in the journal (or a state file).
     * Call it after a change was applied and before acknowledging it, so that {@code kill -9} after
     * the acknowledgement cannot lose it.
     *
     * @param timeoutMillis how long to wait at most
     * @return true when saved (or nothing was left to save); false when the save failed (logged),
     *         timed out, or the store is closed — the change then stays in memory and is retried
     */
    public boolean awaitSaved(final long timeoutMillis) {
        try {
            // Runs after any append under way (one writer thread): a connection still marked is
            // appended now, our change included; one no longer marked was appended by an append
            // that read its row after our change was published.
            return writerTasks().submit(() -> writer.saveChanges(true)).get(timeoutMillis, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException | ExecutionException | TimeoutException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** @return what was written since start, read now */
    public StateSaveCounters counters() {
        return tally.snapshot();
    }

    /**
     * Writes the whole table as a new state file now, on the writer thread, and waits for it.
     *
     * @throws IOException when the file cannot be written; the previous files are then intact
     */
    public void write() throws IOException {
        try {
            writerTasks().submit(() -> {
                writer.writeSnapshot();
                return null;
            }).get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof IOException io) {
                throw io;
            }
            throw new IOException("could not write the state file " + files.stateFile(), e.getCause());
        } catch (RejectedExecutionException e) {
            throw new IOException("the state store is closed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while writing the state file " + files.stateFile(), e);
        }
    }

    /**
     * Stops the writer after a last append, forced, and a compaction under way finished (all on the
     * writer's thread, within {@link #WRITER_STOP_WAIT} of the tasks still queued), then the compactor.
     */
    @Override
    public void close() {
        if (!writerThread.close()) {
            LOG.error("the state writer did not stop within {} ms; changes since its last save may not be saved",
                    WRITER_STOP_WAIT.toMillis());
        }
        compactorThread.close();
    }
}
