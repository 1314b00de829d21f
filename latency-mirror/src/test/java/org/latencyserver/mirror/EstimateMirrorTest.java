package org.latencyserver.mirror;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EstimateMirrorTest {

    private static final long T0 = 1_700_000_000_000L;

    @TempDir
    Path directory;

    private Path path;
    private EstimateMirrorWriter writer;
    private EstimateMirror reader;

    /** Every test starts from a fresh mirror beating every 100 ms and a reader of it. */
    @BeforeEach
    void createMirrorAndOpenReader() throws IOException {
        path = directory.resolve("mirror");
        writer = EstimateMirrorWriter.create(path, 100);
        reader = EstimateMirror.open(path);
    }

    /** Both closes are idempotent, so a test may close them itself. */
    @AfterEach
    void closeReaderAndMirror() {
        reader.close();
        writer.close();
    }

    static MirrorRecord boundRecord() {
        return new MirrorRecord().indexRef(12345).qos(4).kind(MirrorLayout.KIND_BOUND)
            .hasEstimate(true).updatePending(false).stale(true).interpolated(true)
            .staleReason(MirrorLayout.STALE_REASON_INPUT_SILENT).cpuState(23).portState(95)
            .valueMillis(12.625).intervalLower(94.5).intervalUpper(97.25).boundPercent(96.0).confidenceLevel(0.95)
            .computedEpochMillis(1_700_000_000_123L).mirroredEpochMillis(1_700_000_000_456L);
    }

    static MirrorRecord averageRecord() {
        return new MirrorRecord().indexRef(MirrorLayout.MAX_INDEX_REF).qos(1).kind(MirrorLayout.KIND_AVERAGE)
            .hasEstimate(false).updatePending(true).stale(false).interpolated(false)
            .staleReason(MirrorLayout.STALE_REASON_NO_ESTIMATE).cpuState(MirrorLayout.CPU_STATE_UNKNOWN)
            .portState(MirrorLayout.PORT_STATE_UNKNOWN)
            .valueMillis(-0.5).intervalLower(-1.25).intervalUpper(Double.MAX_VALUE).boundPercent(0).confidenceLevel(0.99)
            .computedEpochMillis(-7L).mirroredEpochMillis(Long.MAX_VALUE);
    }

    @Test
    void everyFieldWrittenIsReadBackEqualWithAnEvenSequence() throws IOException {
        writer.heartbeat(T0);
        final MirrorRecord read = new MirrorRecord();
        for (final MirrorRecord written : List.of(boundRecord(), averageRecord(), new MirrorRecord().indexRef(0).qos(2)
            .cpuState(11).portState(100).hasEstimate(true).intervalUpper(10).staleReason(MirrorLayout.STALE_REASON_SERVER_LOST))) {
            writer.write(written);
            assertEquals(ReadStatus.OK, reader.read(written.indexRef(), read, T0));
            assertTrue(written.sameValues(read), () -> "wrote " + written + ", read " + read);
            assertEquals(2, read.sequence());
            writer.write(written.valueMillis(written.valueMillis() + 1));
            assertEquals(ReadStatus.OK, reader.read(written.indexRef(), read, T0));
            assertTrue(written.sameValues(read), () -> "wrote " + written + ", read " + read);
            assertEquals(4, read.sequence());
        }
        assertEquals(ProcessHandle.current().pid(), reader.writerPid());
        assertEquals(100, reader.heartbeatIntervalMillis());
        assertEquals(writer.startedEpochMillis(), reader.startedEpochMillis());
    }

    @Test
    void aNeverWrittenSlotIsNotMirroredAndLeavesTheHolderUnchanged() throws IOException {
        writer.write(boundRecord());
        final MirrorRecord holder = averageRecord().sequence(99);
        assertEquals(ReadStatus.NOT_MIRRORED, reader.read(0, holder));
        assertEquals(ReadStatus.NOT_MIRRORED, reader.read(12344, holder));
        assertTrue(averageRecord().sameValues(holder));
        assertEquals(99, holder.sequence());
    }

    @Test
    void aHeartbeatOlderThanThreeIntervalsReadsMirrorDeadWithTheLastValuesCopied() throws IOException {
        writer.write(boundRecord());
        writer.heartbeat(T0);
        final MirrorRecord read = new MirrorRecord();
        assertEquals(ReadStatus.OK, reader.read(12345, read, T0 + 300));
        assertTrue(reader.alive(T0 + 300));
        assertEquals(ReadStatus.MIRROR_DEAD, reader.read(12345, read.clear(), T0 + 301));
        assertTrue(boundRecord().sameValues(read), () -> "read " + read);
        assertFalse(reader.alive(T0 + 301));
        assertEquals(301, reader.heartbeatAgeMillis(T0 + 301));
        writer.heartbeat(T0 + 301);
        assertEquals(ReadStatus.OK, reader.read(12345, read, T0 + 301));
    }

    @Test
    void theServerLinkAndItsContactTimeAreReadAsWritten() throws IOException {
        assertEquals(MirrorLayout.SERVER_LINK_PUSH, reader.serverLink());
        assertEquals(0, reader.serverContactEpochMillis());
        writer.serverLink(MirrorLayout.SERVER_LINK_LOST, T0);
        assertEquals(MirrorLayout.SERVER_LINK_LOST, reader.serverLink());
        assertEquals(T0, reader.serverContactEpochMillis());
        final IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
            () -> writer.serverLink(3, T0));
        assertTrue(refused.getMessage().contains("3"), refused.getMessage());
    }

    @Test
    void anIndexRefOutside0To32767IsRefusedByWriterAndReaderNamingTheValue() throws IOException {
        for (final int bad : new int[] {-1, 32768, Integer.MIN_VALUE}) {
            final IllegalArgumentException onWrite = assertThrows(IllegalArgumentException.class,
                () -> writer.write(boundRecord().indexRef(bad)));
            assertTrue(onWrite.getMessage().contains("indexRef " + bad + " is outside 0…32767"), onWrite.getMessage());
            final IllegalArgumentException onRead = assertThrows(IllegalArgumentException.class,
                () -> reader.read(bad, new MirrorRecord()));
            assertTrue(onRead.getMessage().contains("indexRef " + bad), onRead.getMessage());
        }
    }

    @Test
    void aRecordOutsideTheLayoutsCodesIsRefusedBeforeAnythingIsWritten() throws IOException {
        final List<String> messages = Stream.of(boundRecord().qos(5), boundRecord().kind(2), boundRecord().staleReason(4),
                boundRecord().cpuState(14), boundRecord().portState(90))
            .map(record -> assertThrows(IllegalArgumentException.class, () -> writer.write(record)).getMessage())
            .collect(Collectors.toList());
        assertTrue(messages.get(0).contains("qos 5"), messages.get(0));
        assertTrue(messages.get(1).contains("kind 2"), messages.get(1));
        assertTrue(messages.get(2).contains("staleReason 4"), messages.get(2));
        assertTrue(messages.get(3).contains("cpuState 14"), messages.get(3));
        assertTrue(messages.get(4).contains("portState 90"), messages.get(4));
        assertEquals(ReadStatus.NOT_MIRRORED, reader.read(12345, new MirrorRecord()));
    }

    @Test
    void aRecordLeftMidWriteReadsBusyInsteadOfSpinningForever() throws IOException {
        writer.write(boundRecord());
        // A writer that died between its odd and its even store of the sequence.
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.WRITE)) {
            channel.write(ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(0, 3L),
                MirrorLayout.recordOffset(12345));
        }
        final MirrorRecord holder = new MirrorRecord();
        final long startNanos = System.nanoTime();
        assertEquals(ReadStatus.BUSY, reader.read(12345, holder));
        final long tookMicros = (System.nanoTime() - startNanos) / 1000;
        assertTrue(tookMicros < 1_000_000, "a BUSY read took " + tookMicros + " µs");
        assertEquals(0, holder.sequence(), "the holder is left unchanged");
        writer.write(boundRecord());
        assertEquals(ReadStatus.OK, reader.read(12345, holder));
        assertEquals(6, holder.sequence(), "the writer continues after the odd sequence 3 with 5, then 6");
    }

    @Test
    void aClosedReaderOrWriterRefusesToTouchItsUnmappedFile() throws IOException {
        writer.close();
        reader.close();
        writer.close();
        reader.close();
        assertThrows(IllegalStateException.class, () -> writer.write(boundRecord()));
        assertThrows(IllegalStateException.class, () -> writer.heartbeat(T0));
        assertThrows(IllegalStateException.class, () -> reader.read(12345, new MirrorRecord()));
        assertThrows(IllegalStateException.class, () -> reader.heartbeatAgeMillis(T0));
        assertTrue(Files.size(path) == MirrorLayout.FILE_LENGTH, "close leaves the file");
    }

    @Test
    void aMirrorRenamedOverThePathLeavesAnOldReadersMappingValidAndItsHeartbeatReadsDead() throws IOException {
        final MirrorRecord read = new MirrorRecord();
        final EstimateMirrorWriter first = writer;
        final EstimateMirror oldReader = reader;
        first.write(boundRecord());
        first.heartbeat(T0);
        assertEquals(ReadStatus.OK, oldReader.read(12345, read, T0 + 50));

        // The mirror restarts: its new file replaces the path; the first one stops beating.
        try (EstimateMirrorWriter second = EstimateMirrorWriter.create(path, 100)) {
            first.close();
            second.heartbeat(T0 + 1000);
            second.write(boundRecord().valueMillis(99.0));

            assertEquals(ReadStatus.MIRROR_DEAD, oldReader.read(12345, read, T0 + 1000));
            assertEquals(12.625, read.valueMillis(), "the old mapping still holds the first mirror's values");
            assertFalse(oldReader.alive(T0 + 1000));

            try (EstimateMirror newReader = EstimateMirror.open(path)) {
                assertEquals(ReadStatus.OK, newReader.read(12345, read, T0 + 1000));
                assertEquals(99.0, read.valueMillis());
                assertEquals(2, read.sequence());
                assertSame(ReadStatus.NOT_MIRRORED, newReader.read(0, read, T0 + 1000));
            }
        }
        try (Stream<Path> files = Files.list(directory)) {
            assertEquals(List.of(path), files.collect(Collectors.toList()), "no temporary file is left beside the path");
        }
    }
}
