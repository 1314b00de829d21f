package org.latencyserver.server.persistence;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.channels.FileChannel;
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
 * <p>Two files: the state file ({@link StateCodec}), the whole table, and beside it the journal
 * {@code <state_file>.journal} ({@link StateJournal}), the record of each connection that changed
 * since, appended one line per changed connection. Restoring reads the state file, then the
 * journal's lines in order; the last record of a connection wins.
 *
 * <p>Writing, all on one writer thread: every change marks its connection (on the update thread,
 * which never waits). The marked connections' current rows are appended to the journal in one
 * {@code write()} — when a caller waits for them ({@link #awaitSaved}), else at most every
 * {@code flushIntervalMillis}. An append is not forced: data handed to {@code write()} is in the
 * kernel's page cache and survives {@code kill -9}; the journal is forced in the background at most
 * every {@value #JOURNAL_FORCE_INTERVAL_MILLIS} ms, so a power cut loses at most about that much.
 * Now and then (the journal at {@value #SNAPSHOT_INTERVAL_MILLIS} ms old, or over
 * max({@value #SNAPSHOT_JOURNAL_MIN_BYTES} bytes, {@value #SNAPSHOT_JOURNAL_TO_STATE_FILE} × the
 * state file)) and at start the whole table is written as a new state file instead.
 *
 * <p>Writing a state file, in an order a kill at any step leaves restorable: (1) a temporary file,
 * forced; (2) renamed over the state file, the directory forced — the new file carries the next
 * generation and holds everything the old journal held; (3) the old journal deleted; (4) the next
 * append creates a new journal whose header names the new generation. A journal whose header names
 * another generation than the state file's is not replayed: after a kill between (2) and (3) it is
 * the old one, and everything in it is in the state file already.
 *
 * <p>Acknowledged writes: a caller about to tell a client that its change was taken calls
 * {@link #awaitSaved} first, which returns once its change is in the journal (or in a state file).
 * Callers waiting together share one append (group commit), and a caller whose change an earlier
 * append already holds waits for nothing more.
 *
 * <p>Reading: a state file that cannot be parsed or fails a check (a histogram over the bin limit
 * included), or a bad journal line before its last, makes the saved state damaged: both files are
 * moved aside (named with the time), every fault is logged with its place, and the server starts
 * from its configuration alone. A cut-off last line (a kill during an append) is ignored with a log
 * line.
 *
 * <p>Thread-safety: {@link #restoreInto} from the starting thread before {@link #start};
 * {@link #rowChanged} from the update thread; {@link #awaitSaved} and {@link #write} from any
 * thread; the files, the open journal and the record of what is on disk belong to the writer
 * thread, which reads only immutable published rows ({@link #close} takes them over once the
 * writer has stopped).
 */
public final class StateStore implements EngineListener, AutoCloseable {

    /** How often the journal is forced to disk, at most: what a power cut may lose. */
    static final long JOURNAL_FORCE_INTERVAL_MILLIS = 1_000;
    /** A journal this old gets a new state file instead (so the state file alone is at most this far behind). */
    static final long SNAPSHOT_INTERVAL_MILLIS = 10_000;
    /** A journal this large gets a new state file instead, whatever its age ... */
    static final long SNAPSHOT_JOURNAL_MIN_BYTES = 1L << 20;
    /** ... or this many times the state file, for a large table. */
    static final long SNAPSHOT_JOURNAL_TO_STATE_FILE = 4;
    private static final long STARTUP_SNAPSHOT_TIMEOUT_SECONDS = 10;

    private static final Logger LOG = LoggerFactory.getLogger(StateStore.class);

    private final Path file;
    private final Path journalFile;
    private final ConnectionTable table;
    private final int maxHistogramBins;
    private final ObjectMapper mapper = new ObjectMapper();
    /** Connections changed since their last record was written: added by the update thread, drained by the writer. */
    private final Set<Short> changed = ConcurrentHashMap.newKeySet();
    private final AtomicLong changesSeen = new AtomicLong();
    private final AtomicLong journalAppends = new AtomicLong();
    private final AtomicLong journalBytes = new AtomicLong();
    private final AtomicLong snapshots = new AtomicLong();
    private final AtomicLong snapshotBytes = new AtomicLong();
    private final ScheduledExecutorService writer = Executors.newSingleThreadScheduledExecutor(r -> {
        final Thread thread = new Thread(r, "latency-state-writer");
        thread.setDaemon(true);
        return thread;
    });

    /** Why the last restore set the files aside; written and read by the starting thread. */
    private volatile String refusedBecause;
    /** The generation of the state file the last restore read; 0 for none. */
    private volatile long restoredGeneration;

    // Writer thread only.
    /** The journal appends go to; null when the next save must write a state file (at first, and after a failure). */
    private StateJournal journal;
    private long generation;
    private long stateFileBytes;
    private long lastSnapshotNanos;
    private long lastForceNanos;
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
        this.file = file.toAbsolutePath();
        this.journalFile = this.file.resolveSibling(this.file.getFileName() + ".journal");
        this.table = table;
        this.maxHistogramBins = maxHistogramBins;
    }

    /** @return the journal beside the state file, {@code <state_file>.journal} */
    public Path journalFile() {
        return journalFile;
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
            if (Files.exists(journalFile)) {
                final Path aside = moveAside(journalFile, timeSuffix());
                LOG.error("the journal {} has no state file beside it: its records continue a state file that is gone; moved to {};"
                    + " starting from the configuration", journalFile, aside);
            } else {
                LOG.info("no saved state at {}: starting from the configuration", file);
            }
            return 0;
        }
        final Map<Short, StateCodec.SavedConnection> saved;
        final int replayed;
        try {
            final StateCodec.Decoded decoded = StateCodec.decode(Files.readString(file, StandardCharsets.UTF_8), file.toString(),
                maxHistogramBins);
            saved = new HashMap<>(decoded.connections());
            replayed = replayJournal(saved, decoded.generation());
            restoredGeneration = decoded.generation();
        } catch (InputFaultsException e) {
            setAside(e.getMessage());
            return 0;
        } catch (IOException | RuntimeException e) {
            setAside(file + ": cannot be read: " + e);
            return 0;
        }
        int restored = 0;
        for (final StateCodec.SavedConnection s : saved.values()) {
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
     * Applies the journal's records over the state file's, in order. Every line is checked, so a
     * damaged journal is refused with all of its faults, each at its line and column.
     *
     * @return records applied
     * @throws InputFaultsException with every fault, when a line before the last is bad
     */
    private int replayJournal(final Map<Short, StateCodec.SavedConnection> saved, final long fileGeneration)
        throws IOException, InputFaultsException {
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
                if (continues > 0 && continues != fileGeneration) {
                    notReplayed(continues, fileGeneration);
                    return 0;
                }
            } else {
                try {
                    final StateCodec.SavedConnection connection = StateCodec.decodeConnection(node, saved, maxHistogramBins);
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
    private void notReplayed(final long continues, final long fileGeneration) {
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
        if (aside != null) {
            LOG.error("saved state {} is damaged ({}); moved to {}{}; starting from the configuration", file, reason, aside,
                journalAside == null ? "" : ", its journal to " + journalAside);
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
        changed.add(after.spec().indexRef());
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
            return writer.submit(this::saveChanges).get(timeoutMillis, TimeUnit.MILLISECONDS);
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

    /** The periodic work: append what changed, write a state file when due, force the journal when due. */
    private void tick() {
        try {
            saveChanges();
            final long now = System.nanoTime();
            if (journal != null && journal.bytes() > 0 && (now - lastSnapshotNanos >= SNAPSHOT_INTERVAL_MILLIS * 1_000_000L
                || journal.bytes() >= Math.max(SNAPSHOT_JOURNAL_MIN_BYTES, SNAPSHOT_JOURNAL_TO_STATE_FILE * stateFileBytes))) {
                snapshot();
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

    /** Writer thread: appends the changed connections, or writes a state file when there is no journal to append to. */
    private boolean saveChanges() {
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
            final ConnectionRow row = table.row(indexRef);
            if (row != null) {
                rows.add(row);
            }
        }
        try {
            final List<byte[]> records = new ArrayList<>(rows.size());
            for (final ConnectionRow row : rows) {
                records.add(mapper.writeValueAsBytes(StateCodec.encodeConnection(mapper, row, onDisk.get(row.spec().indexRef()))));
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

    /** The journal may end in a cut-off line or hold appends the disk refused: never append to it again. */
    private void abandonJournal(final String why) {
        LOG.error("{}; the next save writes the whole state file", why);
        journal.close();
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
        changed.clear(); // before the rows are read: a change published after this marks its connection again
        final List<ConnectionRow> rows = table.rows();
        try {
            if (journal != null) {
                // Whatever happens now, the next append goes to a new journal after a new state file.
                journal.close();
                journal = null;
            }
            generation = Math.max(generation, restoredGeneration) + 1;
            final byte[] bytes = mapper.writeValueAsBytes(StateCodec.encode(mapper, rows, System.currentTimeMillis(), generation));
            replaceStateFile(bytes);
            try {
                Files.deleteIfExists(journalFile);
            } catch (IOException e) {
                // Harmless: it names an older generation, so it is not replayed, and the next append truncates it.
                LOG.warn("could not delete the replaced journal {}: {}", journalFile, e.toString());
            }
            journal = new StateJournal(journalFile, mapper.writeValueAsBytes(StateCodec.journalHeader(mapper, generation)));
            onDisk.clear();
            rows.forEach(row -> onDisk.put(row.spec().indexRef(), row));
            stateFileBytes = bytes.length;
            lastSnapshotNanos = System.nanoTime();
            snapshots.incrementAndGet();
            snapshotBytes.addAndGet(bytes.length);
            return null;
        } catch (IOException | RuntimeException e) {
            rows.forEach(row -> changed.add(row.spec().indexRef()));
            throw e;
        }
    }

    /** A temporary file, forced, renamed over the state file, the directory forced: the old file or the new one, never half. */
    private void replaceStateFile(final byte[] bytes) throws IOException {
        Files.createDirectories(file.getParent());
        final Path temporary = Files.createTempFile(file.getParent(), "." + file.getFileName(), ".tmp");
        try {
            try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
                final ByteBuffer buffer = ByteBuffer.wrap(bytes);
                while (buffer.hasRemaining()) {
                    channel.write(buffer);
                }
                channel.force(true);
            }
            Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            forceDirectory(file.getParent());
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

    /** Stops the writer after a last append, forced. */
    @Override
    public void close() {
        writer.shutdown();
        try {
            if (!writer.awaitTermination(2, TimeUnit.SECONDS)) {
                LOG.error("the state writer did not stop within 2 s; changes since its last save are not saved");
                return;
            }
            // The writer has stopped: its files are this thread's now.
            if (!changed.isEmpty()) {
                saveChanges();
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
