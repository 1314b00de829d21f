package org.latencyserver.server.persistence;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
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
 * <p>Writing: every change marks the table dirty (on the update thread, which never waits); a
 * writer thread saves the published rows at most every {@code flushIntervalMillis}, to a temporary
 * file that is forced to disk and then renamed over the old one (the directory forced too) — a
 * crash, even {@code kill -9}, leaves either the old or the new file, never half of one.
 *
 * <p>Acknowledged writes: a caller about to tell a client that its change was taken calls
 * {@link #awaitSaved} first, which returns once a save that began after the change has finished.
 * Saves run one at a time on the writer thread, so callers waiting together share one save (group
 * commit), and a caller whose change an earlier save already holds waits for nothing more.
 *
 * <p>Reading: a file that cannot be parsed or fails a check (a histogram over the bin limit
 * included) is moved aside (named with the time), the fault is logged with its place, and the
 * server starts from its configuration alone.
 *
 * <p>Thread-safety: {@link #rowChanged} from the update thread; {@link #awaitSaved} from any
 * thread; the writer runs on its own thread and reads only immutable published rows.
 */
public final class StateStore implements EngineListener, AutoCloseable {

    /** Why the last restore set the file aside; written and read by the starting thread. */
    private volatile String refusedBecause;
    private static final Logger LOG = LoggerFactory.getLogger(StateStore.class);

    private final Path file;
    private final ConnectionTable table;
    private final int maxHistogramBins;
    private final ObjectMapper mapper = new ObjectMapper();
    private final AtomicBoolean dirty = new AtomicBoolean();
    private final AtomicLong changesSeen = new AtomicLong();
    private final AtomicLong saves = new AtomicLong();
    private final AtomicLong bytesSaved = new AtomicLong();
    private final ScheduledExecutorService writer = Executors.newSingleThreadScheduledExecutor(r -> {
        final Thread thread = new Thread(r, "latency-state-writer");
        thread.setDaemon(true);
        return thread;
    });

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
        this.table = table;
        this.maxHistogramBins = maxHistogramBins;
    }

    /**
     * Restores what the file holds into the engine (before serving starts). Saved connections that
     * no longer match the configuration (gone, or another QoS or size) are skipped with a log line.
     *
     * @param engine   the engine to restore into
     * @param nowNanos monotonic time
     * @return how many connections were restored
     */
    public int restoreInto(final UpdateEngine engine, final long nowNanos) {
        if (!Files.exists(file)) {
            LOG.info("no saved state at {}: starting from the configuration", file);
            return 0;
        }
        final Map<Short, StateCodec.SavedConnection> saved;
        try {
            final JsonNode root = mapper.readTree(file.toFile());
            if (root == null) {
                throw new IllegalArgumentException("the file is empty");
            }
            saved = StateCodec.decode(root, maxHistogramBins);
        } catch (IOException | RuntimeException e) {
            setAside(e.getMessage());
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
        LOG.info("restored {} connections from {}", restored, file);
        return restored;
    }

    /** @return why the last restore refused the state file, or null when it did not */
    public String refusedBecause() {
        return refusedBecause;
    }

    private void setAside(final String reason) {
        refusedBecause = reason;
        final Path aside = file.resolveSibling(file.getFileName() + ".corrupt-" + Instant.now().toString().replace(':', '-'));
        try {
            Files.move(file, aside, StandardCopyOption.REPLACE_EXISTING);
            LOG.error("saved state {} is damaged ({}); moved to {}; starting from the configuration", file, reason, aside);
        } catch (IOException e) {
            LOG.error("saved state {} is damaged ({}) and could not be moved aside ({}); starting from the configuration",
                file, reason, e.getMessage());
        }
    }

    /**
     * Starts the writer.
     *
     * @param flushIntervalMillis at most this often, {@code >= 1}
     */
    public void start(final long flushIntervalMillis) {
        writer.scheduleWithFixedDelay(this::flushIfDirty, flushIntervalMillis, flushIntervalMillis, TimeUnit.MILLISECONDS);
    }

    @Override
    public void rowChanged(final ConnectionRow before, final ConnectionRow after) {
        changesSeen.incrementAndGet();
        dirty.set(true);
    }

    /**
     * Waits until every change published before this call is on disk. Call it after a change was
     * applied and before acknowledging it, so that {@code kill -9} after the acknowledgement cannot
     * lose it.
     *
     * @param timeoutMillis how long to wait at most
     * @return true when saved (or nothing was left to save); false when the save failed (logged),
     *         timed out, or the store is closed — the change then stays in memory and is retried
     */
    public boolean awaitSaved(final long timeoutMillis) {
        try {
            // Runs after any save under way (one writer thread): if the table is still dirty it saves
            // it, our change included; if not, the save that cleared the flag began after our change.
            return writer.submit(this::flushIfDirty).get(timeoutMillis, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException | ExecutionException | TimeoutException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** @return changes the engine told of since start (each marks the table for saving) */
    public long changesSeen() {
        return changesSeen.get();
    }

    /** @return state files written since start */
    public long saves() {
        return saves.get();
    }

    /** @return bytes of state files written since start */
    public long bytesSaved() {
        return bytesSaved.get();
    }

    /** @return false when a save was due and failed */
    private boolean flushIfDirty() {
        if (dirty.getAndSet(false)) {
            try {
                write();
            } catch (IOException | RuntimeException e) {
                dirty.set(true);
                LOG.error("could not save the state to {}: {}; will retry", file, e.toString());
                return false;
            }
        }
        return true;
    }

    /**
     * Saves the table now.
     *
     * @throws IOException when the file cannot be written; the previous file is then intact
     */
    public void write() throws IOException {
        // Compact: the whole table is written on every save, and indentation made it a quarter larger
        // (81 KB against 64 KB for the thesis testbed with six measurements); `jq .` shows it indented.
        final byte[] bytes = mapper.writeValueAsBytes(StateCodec.encode(mapper, table.rows(), System.currentTimeMillis()));
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
            forceDirectory();
        } finally {
            Files.deleteIfExists(temporary);
        }
        saves.incrementAndGet();
        bytesSaved.addAndGet(bytes.length);
    }

    /** Forces the rename to disk: without it a power cut could bring back the old file. */
    private void forceDirectory() {
        try (FileChannel directory = FileChannel.open(file.getParent(), StandardOpenOption.READ)) {
            directory.force(true);
        } catch (IOException notSupported) {
            // Some platforms cannot open a directory; the rename is then as durable as they make it.
        }
    }

    /** Stops the writer after a last save. */
    @Override
    public void close() {
        writer.shutdown();
        try {
            writer.awaitTermination(2, TimeUnit.SECONDS);
            if (dirty.getAndSet(false)) {
                write();
            }
        } catch (IOException | InterruptedException e) {
            LOG.error("last save of the state failed: {}", e.toString());
        }
    }
}
