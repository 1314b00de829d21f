package org.latencyserver.mirror;

import static org.latencyserver.mirror.MirrorLayout.*;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.GroupPrincipal;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Writes the estimate mirror file ({@code docs/mirror-layout.md}, version 1): the one writer of
 * a host's mirror, used by the mirror process ({@code ./latency mirror}). Create it once per
 * process with {@link #create(Path, int)} and reuse it for the process's life.
 *
 * <p><b>Thread-safety: single writer.</b> Exactly one thread calls {@link #write},
 * {@link #heartbeat}, {@link #serverLink} and {@link #close} (or the caller serialises those
 * calls). The seqlock relies on it: a second concurrent writer of the same record would produce
 * sequences that readers accept while the fields are torn. Any number of readers, in this and other
 * processes, read concurrently with {@link EstimateMirror}.
 *
 * <p>Nothing here allocates after {@code create}; {@code write} is a few dozen stores. The file is
 * accessed with JDK means only (a little-endian {@link MappedByteBuffer} and byte-buffer view
 * {@link VarHandle}s for the release stores), so no JVM flag is needed.
 */
public final class EstimateMirrorWriter implements AutoCloseable {

    /** Release stores of the file's aligned little-endian int64 fields (the sequences, the heartbeat). */
    static final VarHandle LONGS = MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    /** Release stores of the file's aligned little-endian int32 fields ({@code server_link}). */
    static final VarHandle INTS = MethodHandles.byteBufferViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

    /**
     * The mirror file's mode, 0640: the owner writes, the owner's group reads, others nothing (the
     * estimates are the deployment's data). A reader in another account joins the mirror owner's group.
     */
    static final Set<PosixFilePermission> FILE_PERMISSIONS = PosixFilePermissions.fromString("rw-r-----");

    private final Path path;
    private final int heartbeatIntervalMillis;
    private final long startedEpochMillis;
    /** The mapping, little-endian; plain field stores go through it. */
    private final ByteBuffer buffer;
    private final MappedByteBuffer mapped;
    /** The file, open read-only for {@link #fileLengthBytes()} (an fstat: no lock, not interruptible). */
    private final RandomAccessFile file;
    private boolean closed;

    private EstimateMirrorWriter(final Path path, final int heartbeatIntervalMillis, final long startedEpochMillis,
        final MappedByteBuffer mapped, final RandomAccessFile file) {
        this.path = path;
        this.file = file;
        this.heartbeatIntervalMillis = heartbeatIntervalMillis;
        this.startedEpochMillis = startedEpochMillis;
        this.mapped = mapped;
        this.buffer = mapped.order(ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * Creates a new mirror file and publishes it at {@code path}: the file is created beside the
     * path (same directory, a hidden temporary name), sized to {@link MirrorLayout#FILE_LENGTH}
     * (sparse: records never written take no disk), mapped read-write, given its header (magic,
     * version, sizes, this process's pid, the start time, a first heartbeat equal to the start
     * time, server link {@link MirrorLayout#SERVER_LINK_PUSH} with contact time 0), with mode 0640
     * ({@link #FILE_PERMISSIONS}, narrowed further by the umask), then renamed
     * over {@code path} atomically. A reader that mapped an earlier file at {@code path} keeps its
     * mapping; that file's heartbeat stops, which tells the reader to open the path again.
     *
     * @param path where readers open the mirror, e.g. {@code /dev/shm/latency-mirror}; its
     *     directory must exist and be on a file system that supports an atomic rename
     * @param heartbeatIntervalMillis how often (ms, ≥ 1) the caller promises to call
     *     {@link #heartbeat}; readers treat the mirror as dead after 3 intervals without one
     * @return the writer, owning the mapping until {@link #close()}
     * @throws IOException if the file cannot be created, sized, mapped or renamed (the temporary
     *     file is then removed)
     * @throws IllegalArgumentException if {@code heartbeatIntervalMillis} is below 1
     */
    public static EstimateMirrorWriter create(final Path path, final int heartbeatIntervalMillis) throws IOException {
        return create(path, heartbeatIntervalMillis, null);
    }

    /**
     * As {@link #create(Path, int)}, and gives the file this group before it is published (so that
     * no reader ever sees it with another group); its mode stays 0640.
     *
     * @param path                    where readers open the mirror
     * @param heartbeatIntervalMillis how often (ms, ≥ 1) the caller promises to call {@link #heartbeat}
     * @param group                   the file's group, or null for the one the file system gives it
     *     (the process's group, or the directory's when the directory has the setgid bit)
     * @return the writer, owning the mapping until {@link #close()}
     * @throws GroupNotApplied naming the group and the file when the group cannot be given (the
     *     process is neither root nor a member of it); nothing is published then
     * @throws IOException if the file cannot be created, sized, mapped or renamed (the temporary
     *     file is then removed)
     * @throws IllegalArgumentException if {@code heartbeatIntervalMillis} is below 1
     */
    public static EstimateMirrorWriter create(final Path path, final int heartbeatIntervalMillis, final GroupPrincipal group)
        throws IOException {
        if (heartbeatIntervalMillis < 1) {
            throw new IllegalArgumentException("heartbeatIntervalMillis " + heartbeatIntervalMillis + " is below 1");
        }
        final Path target = path.toAbsolutePath();
        final Path directory = target.getParent();
        final long pid = ProcessHandle.current().pid();
        final Path temporary = directory.resolve("." + target.getFileName() + ".tmp-" + pid + "-"
            + Long.toHexString(ThreadLocalRandom.current().nextLong()));
        MappedByteBuffer mapped = null;
        RandomAccessFile file = null;
        try {
            try (FileChannel channel = FileChannel.open(temporary, Set.of(StandardOpenOption.CREATE_NEW,
                StandardOpenOption.READ, StandardOpenOption.WRITE), PosixFilePermissions.asFileAttribute(FILE_PERMISSIONS))) {
                // Mapping beyond the end extends the file; the new bytes read as zero and stay sparse.
                mapped = channel.map(FileChannel.MapMode.READ_WRITE, 0, FILE_LENGTH);
            }
            if (group != null) {
                giveGroup(temporary, group, target);
            }
            file = new RandomAccessFile(temporary.toFile(), "r");
            final long startedEpochMillis = System.currentTimeMillis();
            final EstimateMirrorWriter writer = new EstimateMirrorWriter(target, heartbeatIntervalMillis,
                startedEpochMillis, mapped, file);
            writer.writeHeader(pid);
            Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            return writer;
        } catch (final IOException | RuntimeException e) {
            if (mapped != null) {
                Unmapper.unmap(mapped);
            }
            if (file != null) {
                try {
                    file.close();
                } catch (final IOException suppressed) {
                    e.addSuppressed(suppressed);
                }
            }
            try {
                Files.deleteIfExists(temporary);
            } catch (final IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    private static void giveGroup(final Path temporary, final GroupPrincipal group, final Path target) throws GroupNotApplied {
        final PosixFileAttributeView view = Files.getFileAttributeView(temporary, PosixFileAttributeView.class);
        if (view == null) {
            throw new GroupNotApplied("cannot give " + target + " the group " + group.getName()
                + ": its file system has no POSIX owners and groups", null);
        }
        try {
            view.setGroup(group);
        } catch (final IOException | SecurityException e) {
            final String why = e instanceof java.nio.file.FileSystemException fs && fs.getReason() != null
                ? fs.getReason() : e.getMessage();
            throw new GroupNotApplied("cannot give " + target + " the group " + group.getName() + " (" + why
                + "): the mirror's user must be root or a member of that group", e);
        }
    }

    /** The mirror file could not be given the group asked for; the message names the group and the file. */
    public static final class GroupNotApplied extends IOException {
        private static final long serialVersionUID = 1L;

        GroupNotApplied(final String message, final Exception cause) {
            super(message, cause);
        }
    }

    private void writeHeader(final long pid) {
        buffer.putLong(MAGIC_OFFSET, MAGIC);
        buffer.putInt(VERSION_OFFSET, VERSION);
        buffer.putInt(HEADER_LENGTH_OFFSET, HEADER_LENGTH);
        buffer.putInt(RECORD_LENGTH_OFFSET, RECORD_LENGTH);
        buffer.putInt(RECORD_COUNT_OFFSET, RECORD_COUNT);
        buffer.putLong(WRITER_PID_OFFSET, pid);
        buffer.putLong(STARTED_EPOCH_MILLIS_OFFSET, startedEpochMillis);
        buffer.putInt(HEARTBEAT_INTERVAL_MILLIS_OFFSET, heartbeatIntervalMillis);
        buffer.putLong(SERVER_CONTACT_EPOCH_MILLIS_OFFSET, 0L);
        buffer.putInt(SERVER_LINK_OFFSET, SERVER_LINK_PUSH);
        // Readers can only see the file after the rename; the release store is for form's sake.
        LONGS.setRelease(buffer, HEARTBEAT_EPOCH_MILLIS_OFFSET, startedEpochMillis);
    }

    /**
     * Writes one record under its seqlock, exactly as {@code docs/mirror-layout.md} says: reads
     * the slot's current sequence {@code s} (even), stores {@code s + 1} with release ordering,
     * issues a store-store fence, stores every field (reserved bytes stay zero), and stores
     * {@code s + 2} with release ordering. {@link MirrorRecord#sequence()} is ignored.
     *
     * @param record the values; {@code indexRef} 0…32767, {@code qos} 1–4, {@code kind} 0–1,
     *     {@code staleReason} 0–3, {@code cpuState} 0 or {@code 10 × client + peer} with each
     *     1–3, {@code portState} −1, 0, 91–100 or 101
     * @throws IllegalArgumentException naming the field and value if one is out of range (nothing
     *     is written then)
     * @throws IllegalStateException after {@link #close()}
     */
    public void write(final MirrorRecord record) {
        checkOpen();
        final int indexRef = checkIndexRef(record.indexRef());
        validate(record);
        final int offset = recordOffset(indexRef);
        final long previous = buffer.getLong(offset + SEQUENCE_OFFSET); // only this thread stores it
        final long begin = (previous & 1L) == 0 ? previous + 1 : previous + 2; // odd even after a torn write
        LONGS.setRelease(buffer, offset + SEQUENCE_OFFSET, begin);
        // The release store above orders what came before it, not the field stores after it.
        VarHandle.storeStoreFence();
        buffer.putShort(offset + INDEX_REF_OFFSET, (short) indexRef);
        buffer.put(offset + QOS_OFFSET, (byte) record.qos());
        buffer.put(offset + KIND_OFFSET, (byte) record.kind());
        buffer.put(offset + FLAGS_OFFSET, (byte) flags(record));
        buffer.put(offset + STALE_REASON_OFFSET, (byte) record.staleReason());
        buffer.putShort(offset + CPU_STATE_OFFSET, (short) record.cpuState());
        buffer.putShort(offset + PORT_STATE_OFFSET, (short) record.portState());
        buffer.putDouble(offset + VALUE_MILLIS_OFFSET, record.valueMillis());
        buffer.putDouble(offset + INTERVAL_LOWER_OFFSET, record.intervalLower());
        buffer.putDouble(offset + INTERVAL_UPPER_OFFSET, record.intervalUpper());
        buffer.putDouble(offset + BOUND_PERCENT_OFFSET, record.boundPercent());
        buffer.putDouble(offset + CONFIDENCE_LEVEL_OFFSET, record.confidenceLevel());
        buffer.putLong(offset + COMPUTED_EPOCH_MILLIS_OFFSET, record.computedEpochMillis());
        buffer.putLong(offset + MIRRORED_EPOCH_MILLIS_OFFSET, record.mirroredEpochMillis());
        LONGS.setRelease(buffer, offset + SEQUENCE_OFFSET, begin + 1);
    }

    private static int flags(final MirrorRecord record) {
        return (record.hasEstimate() ? FLAG_HAS_ESTIMATE : 0)
            | (record.updatePending() ? FLAG_UPDATE_PENDING : 0)
            | (record.stale() ? FLAG_STALE : 0)
            | (record.interpolated() ? FLAG_INTERPOLATED : 0);
    }

    private static void validate(final MirrorRecord record) {
        final int qos = record.qos();
        if (qos < 1 || qos > 4) {
            throw invalid(record, "qos", qos, "1–4");
        }
        final int kind = record.kind();
        if (kind != KIND_AVERAGE && kind != KIND_BOUND) {
            throw invalid(record, "kind", kind, "0 (AVERAGE) or 1 (BOUND)");
        }
        final int staleReason = record.staleReason();
        if (staleReason < STALE_REASON_NONE || staleReason > STALE_REASON_NO_ESTIMATE) {
            throw invalid(record, "staleReason", staleReason, "0–3");
        }
        final int cpuState = record.cpuState();
        if (cpuState != CPU_STATE_UNKNOWN
            && (cpuState / 10 < 1 || cpuState / 10 > 3 || cpuState % 10 < 1 || cpuState % 10 > 3)) {
            throw invalid(record, "cpuState", cpuState, "0 (unknown) or 10 × client + peer with each 1–3");
        }
        final int portState = record.portState();
        if (portState != PORT_STATE_UNKNOWN && portState != PORT_STATE_NORMAL && (portState < 91 || portState > 101)) {
            throw invalid(record, "portState", portState, "−1 (unknown), 0 (NORMAL), 91–100 (LOADED) or 101 (SATURATED)");
        }
    }

    private static IllegalArgumentException invalid(final MirrorRecord record, final String field, final int value,
        final String legal) {
        return new IllegalArgumentException("record of indexRef " + record.indexRef() + ": " + field + " " + value
            + " is not " + legal + " (docs/mirror-layout.md)");
    }

    /**
     * Stores the heartbeat with release ordering. Call it at least every heartbeat interval;
     * readers treat the mirror as dead when the heartbeat is older than 3 intervals.
     *
     * @param epochMillis now, wall-clock ms since 1970
     * @throws IllegalStateException after {@link #close()}
     */
    public void heartbeat(final long epochMillis) {
        checkOpen();
        LONGS.setRelease(buffer, HEARTBEAT_EPOCH_MILLIS_OFFSET, epochMillis);
    }

    /**
     * Stores how the mirror reaches the server: first the contact time, then the link code, each
     * with release ordering (a reader that loads the code with acquire ordering sees a contact
     * time at least as new).
     *
     * @param linkCode {@link MirrorLayout#SERVER_LINK_PUSH}, {@link MirrorLayout#SERVER_LINK_POLLING}
     *     or {@link MirrorLayout#SERVER_LINK_LOST}
     * @param contactEpochMillis the last time the server answered or pushed, wall-clock ms since 1970
     * @throws IllegalArgumentException if {@code linkCode} is not 0–2
     * @throws IllegalStateException after {@link #close()}
     */
    public void serverLink(final int linkCode, final long contactEpochMillis) {
        checkOpen();
        if (linkCode < SERVER_LINK_PUSH || linkCode > SERVER_LINK_LOST) {
            throw new IllegalArgumentException("server link code " + linkCode
                + " is not 0 (push), 1 (polling) or 2 (lost) (docs/mirror-layout.md)");
        }
        LONGS.setRelease(buffer, SERVER_CONTACT_EPOCH_MILLIS_OFFSET, contactEpochMillis);
        INTS.setRelease(buffer, SERVER_LINK_OFFSET, linkCode);
    }

    /**
     * The file's length now: another process may truncate it under the mapping, and a store beyond
     * its end faults (the JVM reports that as an {@link InternalError}, possibly later than the
     * store). The writer's owner checks it before writing and stops writing when it is short.
     *
     * @return the length of the file this writer mapped (the one it published, even if another was
     *     renamed over the path since), bytes; one {@code fstat}
     * @throws IOException if it cannot be measured
     */
    public long fileLengthBytes() throws IOException {
        return file.length();
    }

    /**
     * @return the absolute path the file was published at
     */
    public Path path() {
        return path;
    }

    /**
     * @return the heartbeat interval written in the header, ms
     */
    public int heartbeatIntervalMillis() {
        return heartbeatIntervalMillis;
    }

    /**
     * @return the file's {@code started_epoch_millis}, wall-clock ms since 1970
     */
    public long startedEpochMillis() {
        return startedEpochMillis;
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("the mirror writer of " + path + " is closed");
        }
    }

    /**
     * Unmaps the file and leaves it in place: its heartbeat stops, so readers see the mirror as
     * dead after 3 intervals. Idempotent; called by the writer thread.
     */
    @Override
    public void close() {
        if (!closed) {
            closed = true;
            Unmapper.unmap(this.mapped);
            try {
                file.close();
            } catch (final IOException e) {
                // read-only descriptor: nothing was written through it that a failed close could lose
            }
        }
    }
}
