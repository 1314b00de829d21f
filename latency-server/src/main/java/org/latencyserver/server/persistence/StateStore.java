package org.latencyserver.server.persistence;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.latencyserver.core.input.InputFault;
import org.latencyserver.core.input.InputFaults;
import org.latencyserver.core.input.InputFaultsException;
import org.latencyserver.core.input.InputFormat;
import org.latencyserver.core.input.InputNode;
import org.latencyserver.server.engine.EngineListener;
import org.latencyserver.server.engine.UpdateEngine;
import org.latencyserver.server.table.ConnectionRow;
import org.latencyserver.server.table.ConnectionTable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the connection table on disk so that a restarted server serves what it served before:
 * MIB values, estimates, measured histograms and calibration.
 *
 * <p>Files, all beside the configured state file:
 * <pre>
 * &lt;state_file&gt;                the whole table as of its generation G ({@link StateCodec})
 * &lt;state_file&gt;.journal        header "continues G", then one line per changed connection ({@link StateJournal})
 * &lt;state_file&gt;.journal.next   only while a compaction runs: header "continues G+1", then whole records
 * </pre>
 * Restoring reads the state file, then the journal's lines in order, then the compaction's
 * journal's; the last record of a connection wins.
 *
 * <p>Writing, on one writer thread: every change marks its connection (on the update thread, which
 * never waits). The marked connections' current rows are appended to the journal in one
 * {@code write()} — when a caller waits for them ({@link #awaitSaved}), else at most every
 * {@code flushIntervalMillis}. An append is not forced: data handed to {@code write()} is in the
 * kernel's page cache and survives {@code kill -9}; the journal is forced in the background at most
 * every {@value #JOURNAL_FORCE_INTERVAL_MILLIS} ms, so a power cut loses at most about that much.
 *
 * <p>What a save costs follows what changed: a change costs its connection's journal line. The
 * journal is <em>compacted</em> — the table written as a new state file — only once it holds
 * max({@value #COMPACT_JOURNAL_MIN_BYTES} bytes, {@value #COMPACT_JOURNAL_TO_STATE_FILE} × the state
 * file): every byte of a state file is paid for by a byte of journal, so the bytes written per change
 * are at most twice its line, at 100 connections or 25,000 (an earlier version also rewrote the whole
 * file every 10 s while changes came in, so at 25,000 connections a storm of 7,500 changes cost
 * 4,700 bytes per change). Restoring reads at most the state file and as much journal again.
 *
 * <p>A change that leaves a connection's record the same but for its MIB readings
 * ({@link ConnectionRecordCodec#sameRecordButReadings}) is not worth a line per poll: a value that moved by a
 * point or two within one load state, as tick counters do at every poll, or an end that turned
 * UNKNOWN and back (the estimate is kept, marked stale; neither the load state nor the stale reason
 * is saved — a restart classifies the saved readings afresh). Such a connection is marked apart and
 * appended with its next change that matters, with any {@link #awaitSaved} (so a
 * {@code PutMibUpdates} acknowledgement still covers its values), at close, or at the latest
 * {@value #READINGS_SAVE_INTERVAL_MILLIS} ms later. A restart may then show readings that old; the
 * poller replaces them within a poll. (At 25,000 polled connections the jitter of a loaded
 * workstation's counters was thousands of lines a second, and on an overloaded machine sources
 * turning UNKNOWN and back were tens of thousands a minute, each a line, which fed the overload.)
 *
 * <p>A compaction does not stop the appends (the writer thread never writes the table): (1) the
 * writer appends what is marked, reads the rows as they are, forces and closes the journal, and
 * hands the rows to the compactor thread; (2) later appends go to {@code .journal.next}, whose
 * header names G+1, as whole records (they may be replayed over the old state file or the new
 * one); (3) the compactor streams the rows into a temporary file, forces it, renames it over the
 * state file (generation G+1) and forces the directory; (4) the writer deletes the old journal and
 * renames {@code .journal.next} to {@code .journal}. A kill at any step leaves files that restore:
 * before (3) the old state file, its journal and the compaction's journal (continuing G+1, the
 * generation after the file's: replayed after the journal); after (3) the new state file, and a
 * journal of G (older: holds nothing the file lacks; not replayed) and the compaction's journal of
 * G+1 under either name.
 *
 * <p>At start, and on {@link #write}, the whole table is written as a state file on the writer
 * thread (at start: so nothing is ever appended after a cut-off line of the journal before); the
 * journals then start again. Its generation is past any journal's that was replayed, so a kill
 * before the replayed journals are deleted leaves them "older", never replayed twice.
 *
 * <p>Acknowledged writes: a caller about to tell a client that its change was taken calls
 * {@link #awaitSaved} first, which returns once its change is in the journal (or in a state file).
 * Callers waiting together share one append (group commit), and a caller whose change an earlier
 * append already holds waits for nothing more.
 *
 * <p>Reading: a state file that cannot be parsed or fails a check (a histogram over the bin limit
 * included), or a bad journal line before its last, makes the saved state damaged: all the files
 * are moved aside (named with the time), every fault is logged with its place, and the server starts
 * from its configuration alone. A cut-off last line (a kill during an append) is ignored with a log
 * line. State files of the formats before (one file, {@code latency-server-state/2} and {@code /1};
 * the journal of {@code /3} as the server wrote it before compaction) are read as they are.
 *
 * <p>Thread-safety: {@link #restoreInto} from the starting thread before {@link #start};
 * {@link #rowChanged} from the update thread; {@link #awaitSaved} and {@link #write} from any
 * thread; the journals and the record of what is on disk belong to the writer thread, which reads
 * only immutable published rows; the compactor thread writes only the state file, from rows it was
 * handed ({@link #close} takes all of it over once the writer has stopped).
 */
public final class StateStore implements EngineListener, AutoCloseable {

    /** How often the journal is forced to disk, at most: what a power cut may lose. */
    static final long JOURNAL_FORCE_INTERVAL_MILLIS = 1_000;
    /** How long a change of a connection's record in its MIB readings alone may wait to be appended, in ms (see the class comment). */
    static final long READINGS_SAVE_INTERVAL_MILLIS = 30_000;
    /** A journal is compacted into a new state file once it holds this many bytes ... */
    static final long COMPACT_JOURNAL_MIN_BYTES = 1L << 20;
    /**
     * ... and as many as the state file: a state file is then paid for by as many bytes of journal,
     * so a change costs at most twice its journal line, whatever the table's size.
     */
    static final long COMPACT_JOURNAL_TO_STATE_FILE = 1;
    private static final long STARTUP_SNAPSHOT_TIMEOUT_SECONDS = 10;
    /** How long writing a whole state file, or closing, waits for a compaction under way. */
    private static final long COMPACTION_WAIT_MILLIS = 30_000;
    private static final int STATE_FILE_BUFFER_BYTES = 1 << 16;

    private static final Logger LOG = LoggerFactory.getLogger(StateStore.class);

    private final Path file;
    private final Path journalFile;
    private final Path nextJournalFile;
    private final ConnectionTable table;
    private final int maxHistogramBins;
    private final long compactJournalMinBytes;
    private final ObjectMapper mapper = new ObjectMapper();
    /** Connections changed since their last record was written: added by the update thread, drained by the writer. */
    private final Set<Short> changed = ConcurrentHashMap.newKeySet();
    /** Connections whose record changed since it was last written in its MIB readings alone (see the class comment); same owners. */
    private final Set<Short> readingsChanged = ConcurrentHashMap.newKeySet();
    /** When the readings were last appended (writer thread). */
    private long lastReadingsSaveNanos = System.nanoTime();
    private final AtomicLong changesSeen = new AtomicLong();
    private final AtomicLong journalAppends = new AtomicLong();
    private final AtomicLong journalBytes = new AtomicLong();
    private final AtomicLong snapshots = new AtomicLong();
    private final AtomicLong snapshotBytes = new AtomicLong();
    private final ScheduledExecutorService writer = Executors.newSingleThreadScheduledExecutor(r -> daemon(r, "latency-state-writer"));
    /** Writes the state file of a compaction from rows it is handed, while the writer keeps appending. */
    private final ExecutorService compactor = Executors.newSingleThreadExecutor(r -> daemon(r, "latency-state-compactor"));

    /** Why the last restore set the files aside; written and read by the starting thread. */
    private volatile String refusedBecause;
    /** The generation of the state file the last restore read; 0 for none. */
    private volatile long restoredGeneration;

    // Writer thread only.
    /** The journal appends go to; null when the next save must write a state file (at first, and after a failure). */
    private StateJournal journal;
    private long generation;
    private long stateFileBytes;
    private long lastForceNanos;
    /** The state file the compactor is writing (its size when done); null when no compaction is under way. */
    private Future<Long> compaction;
    /** The generation of the state file under way; the journal appends go to ({@link #nextJournalFile}) continues it. */
    private long compactionGeneration;
    /** Each connection's row as its last record on disk holds it: what journal lines abbreviate against. */
    private final Map<Short, ConnectionRow> onDisk = new HashMap<>();

    /**
     * @param file  the state file
     * @param table the table to save
     */
    public StateStore(final Path file, final ConnectionTable table) {
        this(file, table, org.latencyserver.server.engine.InputLimits.DEFAULT.maxHistogramBins());
    }

    /**
     * @param file             the state file
     * @param table            the table to save
     * @param maxHistogramBins the most bins a saved histogram may have when the file is read
     */
    public StateStore(final Path file, final ConnectionTable table, final int maxHistogramBins) {
        this(file, table, maxHistogramBins, COMPACT_JOURNAL_MIN_BYTES);
    }

    /**
     * @param compactJournalMinBytes the least journal a compaction waits for (tests make it small)
     */
    StateStore(final Path file, final ConnectionTable table, final int maxHistogramBins, final long compactJournalMinBytes) {
        this.compactJournalMinBytes = compactJournalMinBytes;
        this.file = file.toAbsolutePath();
        this.journalFile = this.file.resolveSibling(this.file.getFileName() + ".journal");
        this.nextJournalFile = this.file.resolveSibling(this.file.getFileName() + ".journal.next");
        this.table = table;
        this.maxHistogramBins = maxHistogramBins;
    }

    private static Thread daemon(final Runnable task, final String name) {
        final Thread thread = new Thread(task, name);
        thread.setDaemon(true);
        return thread;
    }

    /** @return the journal beside the state file, {@code <state_file>.journal} */
    public Path journalFile() {
        return journalFile;
    }

    /** @return the journal of a compaction under way, {@code <state_file>.journal.next} (renamed to the journal once it is done) */
    public Path nextJournalFile() {
        return nextJournalFile;
    }

    /**
     * Restores what the state file and its journal hold into the engine (before serving starts).
     * Saved connections that no longer match the configuration (gone, or another QoS or size) are
     * skipped with a log line.
     *
     * @param engine   the engine to restore into
     * @param nowNanos monotonic time
     * @return how many connections were restored
     */
    public int restoreInto(final UpdateEngine engine, final long nowNanos) {
        if (!Files.exists(file)) {
            boolean journals = false;
            for (final Path journal : List.of(journalFile, nextJournalFile)) {
                if (Files.exists(journal)) {
                    journals = true;
                    final Path aside = moveAside(journal, timeSuffix());
                    LOG.error("the journal {} has no state file beside it: its records continue a state file that is gone; moved to"
                        + " {}; starting from the configuration", journal, aside);
                }
            }
            if (!journals) {
                LOG.info("no saved state at {}: starting from the configuration", file);
            }
            return 0;
        }
        final Map<Short, ConnectionRecordCodec.SavedConnection> saved;
        final int replayed;
        try {
            final StateCodec.Decoded decoded = StateCodec.decode(Files.readString(file, StandardCharsets.UTF_8), file.toString(),
                maxHistogramBins);
            saved = new HashMap<>(decoded.connections());
            // A compaction's journal carries on from the journal: a kill before its state file was in place leaves both.
            restoredGeneration = decoded.generation();
            replayed = replayJournal(journalFile, saved, decoded.generation(), false)
                + replayJournal(nextJournalFile, saved, decoded.generation(), true);
        } catch (InputFaultsException e) {
            setAside(e.getMessage());
            return 0;
        } catch (IOException | RuntimeException e) {
            setAside(file + ": cannot be read: " + e);
            return 0;
        }
        int restored = 0;
        for (final ConnectionRecordCodec.SavedConnection s : saved.values()) {
            final ConnectionRow row = table.row(s.indexRef());
            if (row == null || row.spec().qos() != s.qos() || row.spec().messageSizeBytes() != s.messageSizeBytes()) {
                LOG.warn("saved state of connection {} does not match the configuration any more; not restored", s.indexRef());
                continue;
            }
            engine.restore(s.indexRef(), s.latest(), s.previous(), s.estimate(), s.unavailableReason(), s.measurementWanted(),
                s.measurement(), s.served(), s.learning(), nowNanos);
            restored++;
        }
        LOG.info("restored {} connections from {} and {} journal records after it", restored, file, replayed);
        return restored;
    }

    /**
     * Applies a journal's records over the state file's, in order. Every line is checked, so a
     * damaged journal is refused with all of its faults, each at its line and column.
     *
     * @param journalFile    the journal or the compaction's journal
     * @param fileGeneration the state file's generation
     * @param next           whether it is the compaction's journal: it continues either the state
     *                       file (the compaction's state file is in place) or the one after it (it is
     *                       not: its lines, written whole, follow the journal's)
     * @return records applied
     * @throws InputFaultsException with every fault, when a line before the last is bad
     */
    private int replayJournal(final Path journalFile, final Map<Short, ConnectionRecordCodec.SavedConnection> saved, final long fileGeneration,
                              final boolean next)
        throws IOException, InputFaultsException {
        // (the compaction's journal, replayed, takes the generation it names: the state file written at start gets a later one,
        // so that this journal, should a kill leave it beside that file, is seen as older and not replayed again)
        if (!Files.exists(journalFile)) {
            return 0;
        }
        final List<String> lines = StateJournal.read(journalFile).all();
        final InputFaults faults = new InputFaults(journalFile.toString());
        int applied = 0;
        for (int i = 0; i < lines.size(); i++) {
            final InputFaults lineFaults = new InputFaults(journalFile.toString());
            final InputNode node = InputNode.parse(lines.get(i), InputFormat.JSON, lineFaults);
            if (node.kind() != InputNode.Kind.MAP) {
                if (i == lines.size() - 1) {
                    LOG.warn("the last line of the journal {} (line {}, {} characters) is cut off, written when the server was"
                        + " killed: ignored; {} records before it restored", journalFile, i + 1, lines.get(i).length(), applied);
                    break;
                }
                if (lineFaults.isEmpty()) {
                    lineFaults.at(node, "line", "not a JSON object, was " + node.describe());
                }
            } else if (i == 0) {
                final long continues = StateCodec.journalGeneration(node, lineFaults);
                if (continues > 0 && continues != fileGeneration && !(next && continues == fileGeneration + 1)) {
                    notReplayed(journalFile, continues, fileGeneration);
                    return 0;
                }
                restoredGeneration = Math.max(restoredGeneration, continues);
            } else {
                try {
                    final ConnectionRecordCodec.SavedConnection connection = ConnectionRecordCodec.decode(node, saved, maxHistogramBins);
                    saved.put(connection.indexRef(), connection);
                    applied++;
                } catch (RuntimeException e) {
                    lineFaults.at(node, "record", e.getMessage());
                }
            }
            // Each line is parsed alone: its faults say line 1; the journal's line is i + 1.
            for (final InputFault fault : lineFaults.inOrderFound()) {
                faults.add(i + 1, fault.column(), fault.path(), fault.reason());
            }
        }
        faults.throwIfAny();
        return applied;
    }

    /** A journal that does not continue this state file. */
    private static void notReplayed(final Path journalFile, final long continues, final long fileGeneration) {
        if (continues < fileGeneration) {
            // A kill between writing a state file and deleting the journal before it: the file holds all of it.
            LOG.info("the journal {} continues the state file of generation {}, which the state file (generation {}) replaced and"
                + " holds: not replayed", journalFile, continues, fileGeneration);
        } else {
            final Path aside = moveAside(journalFile, timeSuffix());
            LOG.error("the journal {} continues the state file of generation {}, but the state file is generation {} (an older"
                + " copy?): its records cannot be applied to it; moved to {}", journalFile, continues, fileGeneration, aside);
        }
    }

    /** @return why the last restore refused the state file, or null when it did not */
    public String refusedBecause() {
        return refusedBecause;
    }

    private void setAside(final String reason) {
        refusedBecause = reason;
        final String time = timeSuffix();
        final Path aside = moveAside(file, time);
        final Path journalAside = Files.exists(journalFile) ? moveAside(journalFile, time) : null;
        final Path nextAside = Files.exists(nextJournalFile) ? moveAside(nextJournalFile, time) : null;
        if (aside != null) {
            LOG.error("saved state {} is damaged ({}); moved to {}{}{}; starting from the configuration", file, reason, aside,
                journalAside == null ? "" : ", its journal to " + journalAside,
                nextAside == null ? "" : ", the compaction's journal to " + nextAside);
        } else {
            LOG.error("saved state {} is damaged ({}) and could not be moved aside; starting from the configuration", file, reason);
        }
    }

    private static String timeSuffix() {
        return Instant.now().toString().replace(':', '-');
    }

    /** @return where it went, or null when it could not be moved (logged) */
    private static Path moveAside(final Path damaged, final String timeSuffix) {
        final Path aside = damaged.resolveSibling(damaged.getFileName() + ".corrupt-" + timeSuffix);
        try {
            Files.move(damaged, aside, StandardCopyOption.REPLACE_EXISTING);
            return aside;
        } catch (IOException e) {
            LOG.error("could not move {} aside: {}", damaged, e.getMessage());
            return null;
        }
    }

    /**
     * Starts the writer: writes the table as restored (journal folded in) as a new state file first
     * — so nothing is ever appended after a cut-off line of the journal before — and waits for that.
     *
     * @param flushIntervalMillis changes nobody waits for are appended at most this often, {@code >= 1}
     */
    public void start(final long flushIntervalMillis) {
        final Future<Boolean> first = writer.submit(this::snapshot);
        writer.scheduleWithFixedDelay(this::tick, flushIntervalMillis, flushIntervalMillis, TimeUnit.MILLISECONDS);
        try {
            first.get(STARTUP_SNAPSHOT_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            LOG.error("the state file was not written at start within {} s; the writer keeps trying", STARTUP_SNAPSHOT_TIMEOUT_SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void rowChanged(final ConnectionRow before, final ConnectionRow after) {
        changesSeen.incrementAndGet();
        final short indexRef = after.spec().indexRef();
        if (before != null && ConnectionRecordCodec.sameRecordButReadings(before, after)) {
            readingsChanged.add(indexRef);
        } else {
            changed.add(indexRef);
        }
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
            return writer.submit(() -> saveChanges(true)).get(timeoutMillis, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException | ExecutionException | TimeoutException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** @return changes the engine told of since start (each marks its connection for saving) */
    public long changesSeen() {
        return changesSeen.get();
    }

    /** @return writes since start: journal appends and state files */
    public long saves() {
        return journalAppends.get() + snapshots.get();
    }

    /** @return bytes written since start: journal appends and state files */
    public long bytesSaved() {
        return journalBytes.get() + snapshotBytes.get();
    }

    /** @return appends to the journal since start (each one {@code write()}, for any number of connections) */
    public long journalAppends() {
        return journalAppends.get();
    }

    /** @return bytes appended to the journal since start, headers included */
    public long journalBytes() {
        return journalBytes.get();
    }

    /** @return state files written since start (the whole table each, forced to disk) */
    public long snapshots() {
        return snapshots.get();
    }

    /** @return bytes of state files written since start */
    public long snapshotBytes() {
        return snapshotBytes.get();
    }

    /** The periodic work: append what changed, start or finish a compaction when due, force the journal when due. */
    private void tick() {
        try {
            final long now = System.nanoTime();
            final boolean readingsDue = now - lastReadingsSaveNanos >= READINGS_SAVE_INTERVAL_MILLIS * 1_000_000L;
            saveChanges(readingsDue);
            finishCompaction(0);
            if (journal != null && compaction == null
                && journal.bytes() >= Math.max(compactJournalMinBytes, COMPACT_JOURNAL_TO_STATE_FILE * stateFileBytes)) {
                startCompaction();
            }
            if (journal != null && journal.unforced() && now - lastForceNanos >= JOURNAL_FORCE_INTERVAL_MILLIS * 1_000_000L) {
                lastForceNanos = now;
                try {
                    journal.force();
                } catch (IOException e) {
                    abandonJournal("could not force the journal " + journalFile + " to disk: " + e);
                }
            }
        } catch (RuntimeException e) {
            // A periodic task that throws is never run again: log and carry on.
            LOG.error("the state writer failed: {}", e.toString());
        }
    }

    /**
     * Writer thread: appends the changed connections, or writes a state file when there is no journal to append to.
     *
     * @param withReadings whether the connections whose record changed in its MIB readings alone are appended too
     */
    private boolean saveChanges(final boolean withReadings) {
        if (withReadings) {
            lastReadingsSaveNanos = System.nanoTime();
            for (final Iterator<Short> marked = readingsChanged.iterator(); marked.hasNext();) {
                final short indexRef = marked.next();
                marked.remove(); // before it is marked as changed: a reading published after this marks it again
                changed.add(indexRef);
            }
        }
        if (journal == null) {
            return snapshot();
        }
        if (changed.isEmpty()) {
            return true;
        }
        final List<ConnectionRow> rows = new ArrayList<>();
        for (final Iterator<Short> marked = changed.iterator(); marked.hasNext();) {
            final short indexRef = marked.next();
            marked.remove(); // before the row is read: a change published after this marks it again
            readingsChanged.remove(indexRef); // its readings go in this line too: no second line for them later
            final ConnectionRow row = table.row(indexRef);
            if (row != null) {
                rows.add(row);
            }
        }
        try {
            final List<byte[]> records = new ArrayList<>(rows.size());
            for (final ConnectionRow row : rows) {
                // While a compaction is under way a line may be replayed over the old state file or the new one: written whole.
                final ConnectionRow earlier = compaction == null ? onDisk.get(row.spec().indexRef()) : null;
                records.add(mapper.writeValueAsBytes(ConnectionRecordCodec.encode(row, earlier)));
            }
            final long written = journal.append(records);
            rows.forEach(row -> onDisk.put(row.spec().indexRef(), row));
            journalAppends.incrementAndGet();
            journalBytes.addAndGet(written);
            return true;
        } catch (IOException | RuntimeException e) {
            rows.forEach(row -> changed.add(row.spec().indexRef()));
            abandonJournal("could not append to the journal " + journalFile + ": " + e);
            return false;
        }
    }

    /**
     * Writer thread: starts writing the rows as they are now as a new state file on the compactor
     * thread; appends go on, whole lines, to {@link #nextJournalFile}, which continues it. Called
     * right after an append: every change before it is in the journal.
     */
    private void startCompaction() {
        final List<ConnectionRow> rows = table.rows();
        try {
            journal.force(); // its lines are the compaction's until the new state file is on the disk
        } catch (IOException e) {
            abandonJournal("could not force the journal " + journalFile + " to disk: " + e);
            return;
        }
        journal.close();
        final long next = Math.max(generation, restoredGeneration) + 1;
        try {
            journal = new StateJournal(nextJournalFile, mapper.writeValueAsBytes(StateCodec.journalHeader(mapper, next)));
        } catch (IOException e) {
            journal = null;
            LOG.error("could not encode the journal's header: {}; the next save writes the whole state file", e.toString());
            return;
        }
        compactionGeneration = next;
        onDisk.clear();
        rows.forEach(row -> onDisk.put(row.spec().indexRef(), row));
        compaction = compactor.submit(() -> writeStateFile(rows, next));
    }

    /**
     * Writer thread (or {@link #close} once the writer stopped): once the compaction's state file
     * is in place, deletes the journal it replaces and renames the compaction's journal to the
     * journal. A compaction that failed is logged, and the next save writes the whole state file.
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
            LOG.error("the state file {} of generation {} was not written within {} ms; its journal {} is kept", file,
                compactionGeneration, waitMillis, nextJournalFile);
            return;
        } catch (ExecutionException e) {
            compaction = null;
            // Its number is taken (the compaction's journal names it): the next state file gets the one after.
            generation = compactionGeneration;
            abandonJournal("could not write the state file " + file + ": " + e.getCause());
            return;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        compaction = null;
        generation = compactionGeneration;
        stateFileBytes = bytes;
        snapshots.incrementAndGet();
        snapshotBytes.addAndGet(bytes);
        deleteReplacedJournal(journalFile);
        try {
            if (journal != null) {
                journal.moveTo(journalFile);
            }
        } catch (IOException e) {
            // It continues the state file in place, so restoring replays it under either name.
            abandonJournal("could not rename " + nextJournalFile + " to " + journalFile + ": " + e);
        }
    }

    private static void deleteReplacedJournal(final Path replaced) {
        try {
            Files.deleteIfExists(replaced);
        } catch (IOException e) {
            // Harmless: it names an older generation, so it is not replayed, and the next append truncates it.
            LOG.warn("could not delete the replaced journal {}: {}", replaced, e.toString());
        }
    }

    /** The journal may end in a cut-off line or hold appends the disk refused: never append to it again. */
    private void abandonJournal(final String why) {
        LOG.error("{}; the next save writes the whole state file", why);
        if (journal != null) {
            journal.close();
        }
        journal = null;
    }

    /** Writer thread: the whole table as a new state file; false when that failed (logged; retried by the next save). */
    private boolean snapshot() {
        try {
            writeSnapshot();
            return true;
        } catch (IOException | RuntimeException e) {
            LOG.error("could not save the state to {}: {}; will retry", file, e.toString());
            return false;
        }
    }

    private Void writeSnapshot() throws IOException {
        finishCompaction(COMPACTION_WAIT_MILLIS); // it renames over the same file
        if (compaction != null) {
            throw new IOException("a compaction of " + file + " is still under way");
        }
        changed.clear(); // before the rows are read: a change published after this marks its connection again
        readingsChanged.clear();
        final List<ConnectionRow> rows = table.rows();
        try {
            if (journal != null) {
                // Whatever happens now, the next append goes to a new journal after a new state file.
                journal.close();
                journal = null;
            }
            generation = Math.max(generation, restoredGeneration) + 1;
            final long bytes = writeStateFile(rows, generation);
            deleteReplacedJournal(nextJournalFile);
            deleteReplacedJournal(journalFile);
            journal = new StateJournal(journalFile, mapper.writeValueAsBytes(StateCodec.journalHeader(mapper, generation)));
            onDisk.clear();
            rows.forEach(row -> onDisk.put(row.spec().indexRef(), row));
            stateFileBytes = bytes;
            snapshots.incrementAndGet();
            snapshotBytes.addAndGet(bytes);
            return null;
        } catch (IOException | RuntimeException e) {
            rows.forEach(row -> changed.add(row.spec().indexRef()));
            throw e;
        }
    }

    /**
     * Writes {@code rows} as the state file of {@code generation}: a temporary file, streamed one
     * record at a time (never the whole file in memory), forced, renamed over the state file, the
     * directory forced: the old file or the new one, never half. Any thread: it reads only
     * immutable rows and touches only the state file.
     *
     * @return the file's size in bytes
     */
    private long writeStateFile(final List<ConnectionRow> rows, final long generation) throws IOException {
        Files.createDirectories(file.getParent());
        final Path temporary = Files.createTempFile(file.getParent(), "." + file.getFileName(), ".tmp");
        try {
            final long bytes;
            try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
                final OutputStream out = new BufferedOutputStream(Channels.newOutputStream(channel), STATE_FILE_BUFFER_BYTES);
                StateCodec.write(mapper, rows, System.currentTimeMillis(), generation, out);
                out.flush();
                bytes = channel.size();
                channel.force(true);
            }
            Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            forceDirectory(file.getParent());
            return bytes;
        } finally {
            Files.deleteIfExists(temporary);
        }
    }

    /**
     * Writes the whole table as a new state file now, on the writer thread, and waits for it.
     *
     * @throws IOException when the file cannot be written; the previous files are then intact
     */
    public void write() throws IOException {
        try {
            writer.submit(this::writeSnapshot).get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof IOException io) {
                throw io;
            }
            throw new IOException("could not write the state file " + file, e.getCause());
        } catch (RejectedExecutionException e) {
            throw new IOException("the state store is closed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while writing the state file " + file, e);
        }
    }

    /** Forces a rename or a new file's name to disk: without it a power cut could bring back the old one. */
    static void forceDirectory(final Path directory) {
        try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
            channel.force(true);
        } catch (IOException notSupported) {
            // Some platforms cannot open a directory; the rename is then as durable as they make it.
        }
    }

    /** Stops the writer after a last append, forced, and a compaction under way finished. */
    @Override
    public void close() {
        writer.shutdown();
        try {
            if (!writer.awaitTermination(2, TimeUnit.SECONDS)) {
                LOG.error("the state writer did not stop within 2 s; changes since its last save are not saved");
                compactor.shutdown();
                return;
            }
            // The writer has stopped: its files are this thread's now.
            finishCompaction(COMPACTION_WAIT_MILLIS);
            compactor.shutdown();
            if (!changed.isEmpty() || !readingsChanged.isEmpty()) {
                saveChanges(true);
            }
            if (journal != null) {
                journal.force();
                journal.close();
            }
        } catch (IOException e) {
            LOG.error("could not force the journal {} at the end: {}", journalFile, e.toString());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
