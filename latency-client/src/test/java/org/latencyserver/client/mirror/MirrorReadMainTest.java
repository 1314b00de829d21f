package org.latencyserver.client.mirror;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencyserver.mirror.EstimateMirror;
import org.latencyserver.mirror.EstimateMirrorWriter;
import org.latencyserver.mirror.MirrorFileTruncatedException;
import org.latencyserver.mirror.MirrorLayout;
import org.latencyserver.mirror.MirrorRecord;

/** {@code ./latency mirror-read} on a file it cannot trust. */
class MirrorReadMainTest {

    private static final long T0 = 1_700_000_000_000L;

    @TempDir
    Path directory;

    private static String print(final EstimateMirror mirror, final boolean[] alive) {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        alive[0] = MirrorReadMain.print(mirror, new PrintStream(bytes, true, StandardCharsets.UTF_8), T0);
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void aGarbageRecordIsPrintedAsBadNamingTheBrokenRuleNotAsAnEstimate() throws Exception {
        final Path file = directory.resolve("m");
        try (EstimateMirrorWriter writer = EstimateMirrorWriter.create(file, 100)) {
            writer.heartbeat(T0);
            writer.write(new MirrorRecord().indexRef(1).qos(1).hasEstimate(true).valueMillis(3).intervalUpper(4));
            final ByteBuffer garbage = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putShort(0, (short) 999)
                .put(2, (byte) 77).put(3, (byte) 9);
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
                channel.write(garbage, MirrorLayout.recordOffset(1) + MirrorLayout.INDEX_REF_OFFSET);
            }
            try (EstimateMirror mirror = EstimateMirror.open(file)) {
                final boolean[] alive = new boolean[1];
                final String out = print(mirror, alive);
                assertTrue(out.contains("    1 BAD RECORD: record in slot 1: index_ref 999 is not the slot"), out);
                assertFalse(out.contains("3.000 ms"), out);
                assertFalse(alive[0], "a mirror with a bad record is not reported healthy");
            }
        }
    }

    @Test
    void aFileTruncatedUnderTheReaderIsAClearErrorNamingTheFile() throws Exception {
        final Path file = directory.resolve("m");
        try (EstimateMirrorWriter writer = EstimateMirrorWriter.create(file, 100);
             EstimateMirror mirror = EstimateMirror.open(file)) {
            writer.heartbeat(T0);
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
                channel.truncate(0);
            }
            final MirrorFileTruncatedException refused = assertThrows(MirrorFileTruncatedException.class,
                () -> print(mirror, new boolean[1]));
            assertTrue(refused.getMessage().startsWith(file.toString()), refused.getMessage());
        }
    }
}
