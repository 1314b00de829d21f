package org.latencyserver.mirror;

import static org.latencyserver.mirror.EstimateMirrorWriter.INTS;
import static org.latencyserver.mirror.EstimateMirrorWriter.LONGS;
import static org.latencyserver.mirror.MirrorLayout.*;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * Reads the estimate mirror file ({@code docs/mirror-layout.md}, version 1) that the host's
 * mirror process writes with {@link EstimateMirrorWriter}: an application opens it once with
 * {@link #open(Path)} and then reads any connection's latest estimate at memory speed, without a
 * call, with {@link #read(int, MirrorRecord)}.
 *
 * <p><b>Thread-safety:</b> any number of threads may read at once, each with its own
 * {@link MirrorRecord}; reads take no lock and allocate nothing. {@link #close()} unmaps the file:
 * call it once no thread reads any more (a read that races with {@code close} can touch unmapped
 * memory; a read after it throws {@link IllegalStateException}).
 *
 * <p>A mirror that restarts renames a new file over the path; this reader keeps the old mapping,
 * whose heartbeat stops, and reads then report {@link ReadStatus#MIRROR_DEAD}. Open the path
 * again then.
 */
public final class EstimateMirror implements AutoCloseable {

    /**
     * How many times {@link #read} tries to find a record stable before it returns
     * {@link ReadStatus#BUSY}; between tries it calls {@link Thread#onSpinWait()} (some hundred
     * microseconds in all on x86-64). A write takes well under a microsecond, so only a writer
     * descheduled or dead mid-write exhausts them.
     */
    public static final int READ_ATTEMPTS = 4096;

    /**
     * How far ahead of the reader's clock the heartbeat may be, ms, and the mirror still count as
     * alive: writer and reader share this host's wall clock, so only a clock step between the
     * writer's store and the reader's look makes it ahead. A heartbeat further ahead is not credible
     * and reads as dead.
     */
    public static final long HEARTBEAT_FUTURE_SLACK_MILLIS = 1000;

    /**
     * How often, at most, {@link #read} measures the file's length before it touches the mapping,
     * ns (1 ms). One {@code fstat} per read would cost several times the read itself; a file
     * truncated under the mapping is therefore reported from at most this long after the
     * truncation, and a read in that window may fault (see {@link #read(int, MirrorRecord, long)}).
     */
    public static final long LENGTH_CHECK_PERIOD_NANOS = 1_000_000;

    private final Path path;
    /** The read-only mapping, little-endian; plain field loads go through it. */
    private final ByteBuffer buffer;
    private final MappedByteBuffer mapped;
    /** The mapped file's length, measured before loads (see {@link #read(int, MirrorRecord, long)}). */
    private final MappedFileLength fileLength;
    private final long heartbeatIntervalMillis;
    private final long deadAfterMillis;
    private final long writerPid;
    private final long startedEpochMillis;
    private volatile boolean closed;

    private EstimateMirror(final Path path, final RandomAccessFile file, final MappedByteBuffer mapped,
        final int heartbeatIntervalMillis, final long writerPid, final long startedEpochMillis) {
        this.path = path;
        this.fileLength = new MappedFileLength(path, file, LENGTH_CHECK_PERIOD_NANOS);
        this.mapped = mapped;
        this.buffer = mapped.order(ByteOrder.LITTLE_ENDIAN);
        this.heartbeatIntervalMillis = heartbeatIntervalMillis;
        this.deadAfterMillis = (long) DEAD_AFTER_HEARTBEAT_INTERVALS * heartbeatIntervalMillis;
        this.writerPid = writerPid;
        this.startedEpochMillis = startedEpochMillis;
    }

    /**
     * Maps the mirror file read-only after checking its header: {@code magic}, {@code version},
     * {@code header_bytes}, {@code record_bytes}, {@code record_count}, the file length
     * ({@code header_bytes + record_count × record_bytes}) and {@code heartbeat_interval_millis}
     * (≥ 1).
     *
     * @param path the mirror's path, as given to {@link EstimateMirrorWriter#create}
     * @return the reader, owning its mapping until {@link #close()}
     * @throws MirrorFormatException naming the path, the wrong field, the value found and the one
     *     expected, if the file is not a version-1 mirror file
     * @throws IOException if the file cannot be opened or mapped
     */
    public static EstimateMirror open(final Path path) throws IOException {
        final RandomAccessFile file;
        try {
            file = new RandomAccessFile(path.toFile(), "r");
        } catch (final FileNotFoundException e) {
            // RandomAccessFile says "not found" for every failure to open; say which it was
            throw Files.notExists(path) ? new NoSuchFileException(path.toString())
                : Files.isReadable(path) ? e : new AccessDeniedException(path.toString(), null, e.getMessage());
        }
        try {
            return open(path, file, file.getChannel());
        } catch (final IOException | RuntimeException e) {
            file.close();
            throw e;
        }
    }

    private static EstimateMirror open(final Path path, final RandomAccessFile file, final FileChannel channel)
        throws IOException {
        final long length = channel.size();
        if (length < HEADER_LENGTH) {
            throw new MirrorFormatException(path, "file length", length + " bytes",
                "at least " + HEADER_LENGTH + " bytes (a header), " + FILE_LENGTH + " in all");
        }
        final ByteBuffer header = ByteBuffer.allocate(HEADER_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
        while (header.hasRemaining()) {
            if (channel.read(header, header.position()) < 0) {
                throw new MirrorFormatException(path, "file length", "shorter while reading the header",
                    "at least " + HEADER_LENGTH + " bytes");
            }
        }
        final long magic = header.getLong(MAGIC_OFFSET);
        if (magic != MAGIC) {
            throw new MirrorFormatException(path, "magic", hex(magic), hex(MAGIC) + " (the bytes LTMIRROR)"
                + (Long.reverseBytes(magic) == MAGIC ? "; the file is big-endian" : ""));
        }
        expect(path, "version", header.getInt(VERSION_OFFSET), VERSION);
        expect(path, "header_bytes", header.getInt(HEADER_LENGTH_OFFSET), HEADER_LENGTH);
        expect(path, "record_bytes", header.getInt(RECORD_LENGTH_OFFSET), RECORD_LENGTH);
        expect(path, "record_count", header.getInt(RECORD_COUNT_OFFSET), RECORD_COUNT);
        if (length != FILE_LENGTH) {
            throw new MirrorFormatException(path, "file length", length + " bytes", FILE_LENGTH
                + " bytes (header_bytes " + HEADER_LENGTH + " + record_count " + RECORD_COUNT + " × record_bytes "
                + RECORD_LENGTH + ")");
        }
        final int heartbeatIntervalMillis = header.getInt(HEARTBEAT_INTERVAL_MILLIS_OFFSET);
        if (heartbeatIntervalMillis < 1) {
            throw new MirrorFormatException(path, "heartbeat_interval_millis", Integer.toString(heartbeatIntervalMillis),
                "at least 1");
        }
        final MappedByteBuffer mapped = channel.map(FileChannel.MapMode.READ_ONLY, 0, FILE_LENGTH);
        return new EstimateMirror(path, file, mapped, heartbeatIntervalMillis, header.getLong(WRITER_PID_OFFSET),
            header.getLong(STARTED_EPOCH_MILLIS_OFFSET));
    }

    private static void expect(final Path path, final String field, final int found, final int expected)
        throws MirrorFormatException {
        if (found != expected) {
            throw new MirrorFormatException(path, field, Integer.toString(found), Integer.toString(expected));
        }
    }

    private static String hex(final long value) {
        return String.format("0x%016X", value);
    }

    /**
     * Reads one record as {@link #read(int, MirrorRecord, long)} does, judging the heartbeat
     * against {@link System#currentTimeMillis()}.
     *
     * @param indexRef the connection, 0…32767
     * @param into the caller's holder, overwritten for {@link ReadStatus#OK},
     *     {@link ReadStatus#MIRROR_DEAD} and {@link ReadStatus#BAD_RECORD} (and possibly for
     *     {@link ReadStatus#FILE_TRUNCATED}); use its values only for the first two
     * @return what was found
     * @throws IllegalArgumentException if {@code indexRef} is outside 0…32767
     * @throws IllegalStateException after {@link #close()}
     */
    public ReadStatus read(final int indexRef, final MirrorRecord into) {
        return read(indexRef, into, System.currentTimeMillis());
    }

    /**
     * Reads one record under its seqlock, without a lock or an allocation: loads
     * {@code sequence} (acquire); 0 returns {@link ReadStatus#NOT_MIRRORED}; odd retries; else
     * copies the fields, issues an acquire fence and loads {@code sequence} again, and accepts the
     * copy only if it is unchanged. After {@link #READ_ATTEMPTS} tries it returns
     * {@link ReadStatus#BUSY}. An accepted copy goes into {@code into} (with its
     * {@link MirrorRecord#sequence()}) and is {@link ReadStatus#BAD_RECORD} if it breaks the
     * layout's contract ({@link RecordCheck}), else {@link ReadStatus#MIRROR_DEAD} if the mirror is
     * not {@linkplain #alive(long) alive} at {@code nowEpochMillis}, else {@link ReadStatus#OK}.
     *
     * <p>A file truncated under the mapping reads {@link ReadStatus#FILE_TRUNCATED}. An access
     * beyond the end of a mapped file faults, and the JVM reports the fault as an
     * {@link InternalError} that may surface after the access, outside any handler; so the file's
     * length is measured (one {@code fstat}, no lock) before the record is touched whenever it was
     * last found whole more than {@link #LENGTH_CHECK_PERIOD_NANOS} ago, and again whenever a record
     * reads as never written or bad (a truncation inside the file's last page reads as zeros).
     * A read within that period after a truncation can still fault: the error is caught here
     * when it surfaces inside this method, and may otherwise reach the caller as an
     * {@link InternalError}.
     *
     * @param indexRef the connection, 0…32767
     * @param into the caller's holder, overwritten for {@link ReadStatus#OK},
     *     {@link ReadStatus#MIRROR_DEAD} and {@link ReadStatus#BAD_RECORD} (and possibly for
     *     {@link ReadStatus#FILE_TRUNCATED}); use its values only for the first two
     * @param nowEpochMillis now, wall-clock ms since 1970 (the heartbeat is judged against it)
     * @return what was found
     * @throws IllegalArgumentException if {@code indexRef} is outside 0…32767
     * @throws IllegalStateException after {@link #close()}
     */
    public ReadStatus read(final int indexRef, final MirrorRecord into, final long nowEpochMillis) {
        checkIndexRef(indexRef);
        checkOpen();
        final ReadStatus status;
        try {
            if (fileLength.shortSinceLastCheck()) {
                return ReadStatus.FILE_TRUNCATED;
            }
            status = readSeqlocked(indexRef, into);
        } catch (final InternalError faultBeyondTheFile) {
            return ReadStatus.FILE_TRUNCATED;
        }
        if (status == ReadStatus.NOT_MIRRORED) {
            return fileLength.shortNow() ? ReadStatus.FILE_TRUNCATED : status;
        }
        if (status != ReadStatus.OK) {
            return status;
        }
        if (RecordCheck.problem(into, indexRef) != null) {
            return fileLength.shortNow() ? ReadStatus.FILE_TRUNCATED : ReadStatus.BAD_RECORD;
        }
        return aliveAtAge(nowEpochMillis - (long) LONGS.getAcquire(buffer, HEARTBEAT_EPOCH_MILLIS_OFFSET))
            ? ReadStatus.OK : ReadStatus.MIRROR_DEAD;
    }

    /** @return OK with the copy in {@code into}, NOT_MIRRORED or BUSY */
    private ReadStatus readSeqlocked(final int indexRef, final MirrorRecord into) {
        final ByteBuffer buffer = this.buffer;
        final int offset = recordOffset(indexRef);
        for (int attempt = 0; attempt < READ_ATTEMPTS; attempt++) {
            final long before = (long) LONGS.getAcquire(buffer, offset + SEQUENCE_OFFSET);
            if (before == 0) {
                return ReadStatus.NOT_MIRRORED;
            }
            if ((before & 1L) == 0) {
                final short storedIndexRef = buffer.getShort(offset + INDEX_REF_OFFSET);
                final byte qos = buffer.get(offset + QOS_OFFSET);
                final byte kind = buffer.get(offset + KIND_OFFSET);
                final byte flags = buffer.get(offset + FLAGS_OFFSET);
                final byte staleReason = buffer.get(offset + STALE_REASON_OFFSET);
                final short cpuState = buffer.getShort(offset + CPU_STATE_OFFSET);
                final short portState = buffer.getShort(offset + PORT_STATE_OFFSET);
                final double valueMillis = buffer.getDouble(offset + VALUE_MILLIS_OFFSET);
                final double intervalLower = buffer.getDouble(offset + INTERVAL_LOWER_OFFSET);
                final double intervalUpper = buffer.getDouble(offset + INTERVAL_UPPER_OFFSET);
                final double boundPercent = buffer.getDouble(offset + BOUND_PERCENT_OFFSET);
                final double confidenceLevel = buffer.getDouble(offset + CONFIDENCE_LEVEL_OFFSET);
                final long computedEpochMillis = buffer.getLong(offset + COMPUTED_EPOCH_MILLIS_OFFSET);
                final long mirroredEpochMillis = buffer.getLong(offset + MIRRORED_EPOCH_MILLIS_OFFSET);
                // The field loads above must complete before the sequence is loaded again.
                VarHandle.acquireFence();
                if ((long) LONGS.getAcquire(buffer, offset + SEQUENCE_OFFSET) == before) {
                    into.indexRef(storedIndexRef)
                        .qos(qos)
                        .kind(kind)
                        .hasEstimate((flags & FLAG_HAS_ESTIMATE) != 0)
                        .updatePending((flags & FLAG_UPDATE_PENDING) != 0)
                        .stale((flags & FLAG_STALE) != 0)
                        .interpolated((flags & FLAG_INTERPOLATED) != 0)
                        .staleReason(staleReason & 0xFF)
                        .cpuState(cpuState)
                        .portState(portState)
                        .valueMillis(valueMillis)
                        .intervalLower(intervalLower)
                        .intervalUpper(intervalUpper)
                        .boundPercent(boundPercent)
                        .confidenceLevel(confidenceLevel)
                        .computedEpochMillis(computedEpochMillis)
                        .mirroredEpochMillis(mirroredEpochMillis)
                        .sequence(before);
                    return ReadStatus.OK;
                }
            }
            Thread.onSpinWait();
        }
        return ReadStatus.BUSY;
    }

    /**
     * @param nowEpochMillis now, wall-clock ms since 1970
     * @return how old the mirror's heartbeat is at {@code nowEpochMillis}, ms (negative if the
     *     heartbeat is ahead of {@code nowEpochMillis})
     * @throws MirrorFileTruncatedException if the file was truncated under the mapping
     * @throws IllegalStateException after {@link #close()}
     */
    public long heartbeatAgeMillis(final long nowEpochMillis) {
        checkOpen();
        return nowEpochMillis - loadLong(HEARTBEAT_EPOCH_MILLIS_OFFSET);
    }

    /**
     * @param nowEpochMillis now, wall-clock ms since 1970
     * @return whether the heartbeat is at most 3 heartbeat intervals old and at most
     *     {@link #HEARTBEAT_FUTURE_SLACK_MILLIS} ahead at {@code nowEpochMillis}; false if the file
     *     was truncated under the mapping
     * @throws IllegalStateException after {@link #close()}
     */
    public boolean alive(final long nowEpochMillis) {
        final long ageMillis;
        try {
            ageMillis = heartbeatAgeMillis(nowEpochMillis);
        } catch (final MirrorFileTruncatedException e) {
            return false;
        }
        return aliveAtAge(ageMillis);
    }

    private boolean aliveAtAge(final long heartbeatAgeMillis) {
        return heartbeatAgeMillis >= -HEARTBEAT_FUTURE_SLACK_MILLIS && heartbeatAgeMillis <= deadAfterMillis;
    }

    /** An acquire load of a header field; a fault beyond the file's end becomes a clear exception. */
    private long loadLong(final int offset) {
        try {
            if (fileLength.shortNow()) {
                throw fileLength.truncated();
            }
            return (long) LONGS.getAcquire(buffer, offset);
        } catch (final InternalError faultBeyondTheFile) {
            throw fileLength.truncated();
        }
    }


    /**
     * @return {@link MirrorLayout#SERVER_LINK_PUSH}, {@link MirrorLayout#SERVER_LINK_POLLING} or
     *     {@link MirrorLayout#SERVER_LINK_LOST} (acquire load)
     * @throws MirrorFileTruncatedException if the file was truncated under the mapping
     * @throws IllegalStateException after {@link #close()}
     */
    public int serverLink() {
        checkOpen();
        try {
            if (fileLength.shortNow()) {
                throw fileLength.truncated();
            }
            return (int) INTS.getAcquire(buffer, SERVER_LINK_OFFSET);
        } catch (final InternalError faultBeyondTheFile) {
            throw fileLength.truncated();
        }
    }

    /**
     * @return the last time the server answered or pushed, wall-clock ms since 1970, 0 if never
     * @throws MirrorFileTruncatedException if the file was truncated under the mapping
     * @throws IllegalStateException after {@link #close()}
     */
    public long serverContactEpochMillis() {
        checkOpen();
        return loadLong(SERVER_CONTACT_EPOCH_MILLIS_OFFSET);
    }

    /**
     * @return the mirror's promised heartbeat interval, ms (from the header)
     */
    public long heartbeatIntervalMillis() {
        return heartbeatIntervalMillis;
    }

    /**
     * @return the process id of the mirror that created the file
     */
    public long writerPid() {
        return writerPid;
    }

    /**
     * @return when the mirror created the file, wall-clock ms since 1970; a new value after
     *     reopening the path means the mirror restarted
     */
    public long startedEpochMillis() {
        return startedEpochMillis;
    }

    /**
     * @return the path this reader opened
     */
    public Path path() {
        return path;
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("the estimate mirror reader of " + path + " is closed");
        }
    }

    /**
     * Unmaps the file and closes its descriptor. Call it once, when no thread reads any more. Idempotent.
     */
    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            Unmapper.unmap(this.mapped);
            fileLength.close();
        }
    }
}
