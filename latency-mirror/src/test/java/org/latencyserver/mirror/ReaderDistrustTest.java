package org.latencyserver.mirror;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Java reader distrusts the file it maps: a file truncated under it, a record with values
 * outside the layout and a heartbeat far in the future are reported as such, never as OK.
 */
class ReaderDistrustTest {

    private static final long T0 = 1_700_000_000_000L;
    private static final int SLOT = 1;

    @TempDir
    Path directory;

    private Path path;
    private EstimateMirrorWriter writer;
    private EstimateMirror reader;

    @BeforeEach
    void createMirrorWithOneRecordAndOpenReader() throws IOException {
        path = directory.resolve("mirror");
        writer = EstimateMirrorWriter.create(path, 100);
        writer.write(EstimateMirrorTest.boundRecord().indexRef(SLOT));
        writer.heartbeat(T0);
        reader = EstimateMirror.open(path);
    }

    @AfterEach
    void closeReaderAndWriter() {
        reader.close();
        writer.close();
    }

    /** Truncates the file, then lets the reader's length-check period pass. */
    private void truncate(final long length) throws IOException, InterruptedException {
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.WRITE)) {
            channel.truncate(length);
        }
        Thread.sleep(TimeUnit.NANOSECONDS.toMillis(EstimateMirror.LENGTH_CHECK_PERIOD_NANOS) + 1);
    }

    @Test
    void aFileTruncatedToZeroUnderTheReaderReadsFileTruncatedAndNotAlive() throws Exception {
        final MirrorRecord read = new MirrorRecord();
        assertEquals(ReadStatus.OK, reader.read(SLOT, read, T0));
        truncate(0);
        assertEquals(ReadStatus.FILE_TRUNCATED, reader.read(SLOT, read.clear(), T0));
        assertEquals(ReadStatus.FILE_TRUNCATED, reader.read(MirrorLayout.MAX_INDEX_REF, read, T0));
        assertFalse(reader.alive(T0));
        final MirrorFileTruncatedException refused = assertThrows(MirrorFileTruncatedException.class,
            () -> reader.heartbeatAgeMillis(T0));
        assertTrue(refused.getMessage().contains(path.toString()) && refused.getMessage().contains("0 bytes"),
            refused.getMessage());
        assertThrows(MirrorFileTruncatedException.class, reader::serverLink);
    }

    @Test
    void aFileTruncatedInsideTheRecordReadsFileTruncated() throws Exception {
        truncate(MirrorLayout.HEADER_LENGTH + SLOT * MirrorLayout.RECORD_LENGTH + MirrorLayout.INTERVAL_UPPER_OFFSET);
        assertEquals(ReadStatus.FILE_TRUNCATED, reader.read(SLOT, new MirrorRecord(), T0));
    }

    @Test
    void aGarbageRecordReadsBadRecordNamingWhatIsWrong() throws IOException {
        final ByteBuffer record = ByteBuffer.allocate(MirrorLayout.RECORD_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
        record.putLong(MirrorLayout.SEQUENCE_OFFSET, 2).putShort(MirrorLayout.INDEX_REF_OFFSET, (short) 999)
            .put(MirrorLayout.QOS_OFFSET, (byte) 77).put(MirrorLayout.KIND_OFFSET, (byte) 9)
            .put(MirrorLayout.FLAGS_OFFSET, (byte) MirrorLayout.FLAG_HAS_ESTIMATE)
            .putDouble(MirrorLayout.VALUE_MILLIS_OFFSET, Double.NaN).putDouble(MirrorLayout.BOUND_PERCENT_OFFSET, 250);
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.WRITE)) {
            channel.write(record, MirrorLayout.recordOffset(SLOT));
        }
        final MirrorRecord read = new MirrorRecord();
        assertEquals(ReadStatus.BAD_RECORD, reader.read(SLOT, read, T0));
        final String problem = RecordCheck.problem(read, SLOT);
        assertNotNull(problem);
        assertTrue(problem.contains("index_ref 999") && problem.contains("slot 1"), problem);
    }

    @Test
    void eachFieldOutsideItsRangeAloneMakesTheRecordBad() {
        final MirrorRecord good = EstimateMirrorTest.boundRecord().indexRef(SLOT);
        assertEquals(null, RecordCheck.problem(good, SLOT));
        assertEquals(null, RecordCheck.problem(EstimateMirrorTest.averageRecord(), MirrorLayout.MAX_INDEX_REF));
        final MirrorRecord[] bad = {
            new MirrorRecord().copyFrom(good).indexRef(2),
            new MirrorRecord().copyFrom(good).qos(0),
            new MirrorRecord().copyFrom(good).qos(5),
            new MirrorRecord().copyFrom(good).kind(2),
            new MirrorRecord().copyFrom(good).staleReason(4),
            new MirrorRecord().copyFrom(good).cpuState(44),
            new MirrorRecord().copyFrom(good).portState(50),
            new MirrorRecord().copyFrom(good).valueMillis(Double.POSITIVE_INFINITY),
            new MirrorRecord().copyFrom(good).intervalLower(Double.NaN),
            new MirrorRecord().copyFrom(good).boundPercent(0),
            new MirrorRecord().copyFrom(good).boundPercent(100.5),
            new MirrorRecord().copyFrom(good).intervalLower(98).intervalUpper(97),
            new MirrorRecord().copyFrom(good).confidenceLevel(1.5),
            new MirrorRecord().copyFrom(good).kind(MirrorLayout.KIND_AVERAGE).boundPercent(0).valueMillis(200),
        };
        for (final MirrorRecord record : bad) {
            assertNotNull(RecordCheck.problem(record, SLOT), () -> "accepted " + record);
        }
    }

    @Test
    void aHeartbeatFarInTheFutureReadsDeadNotAlive() {
        writer.heartbeat(T0 + (1L << 62));
        assertFalse(reader.alive(T0));
        assertEquals(ReadStatus.MIRROR_DEAD, reader.read(SLOT, new MirrorRecord(), T0));
        writer.heartbeat(T0 + EstimateMirror.HEARTBEAT_FUTURE_SLACK_MILLIS);
        assertTrue(reader.alive(T0), "a heartbeat within the slack ahead is alive");
        writer.heartbeat(T0 + EstimateMirror.HEARTBEAT_FUTURE_SLACK_MILLIS + 1);
        assertFalse(reader.alive(T0));
    }

    @Test
    void theMirrorFileIsCreatedReadableByOwnerAndGroupOnly() throws IOException {
        // Created rw-r----- (the umask may narrow it further, never widen it).
        final java.util.Set<java.nio.file.attribute.PosixFilePermission> mode = Files.getPosixFilePermissions(path);
        assertTrue(mode.contains(java.nio.file.attribute.PosixFilePermission.OWNER_READ), mode::toString);
        assertFalse(mode.contains(java.nio.file.attribute.PosixFilePermission.GROUP_WRITE), mode::toString);
        assertFalse(mode.stream().anyMatch(p -> p.name().startsWith("OTHERS_")), () -> "others may not touch it: "
            + PosixFilePermissions.toString(mode));
    }
}
