package org.latencyserver.mirror;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The reader refuses a file that is not a version-1 mirror, naming the field, both values and the path. */
class MirrorFormatRefusalTest {

    @TempDir
    Path directory;

    private Path path;

    @BeforeEach
    void writeAGoodMirror() throws IOException {
        path = directory.resolve("mirror");
        EstimateMirrorWriter.create(path, 100).close();
    }

    private void putInt(final int offset, final int value) throws IOException {
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.WRITE)) {
            channel.write(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(0, value), offset);
        }
    }

    private void putLong(final int offset, final long value) throws IOException {
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.WRITE)) {
            channel.write(ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(0, value), offset);
        }
    }

    private void truncate(final long length) throws IOException {
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.WRITE)) {
            channel.truncate(length);
        }
    }

    private MirrorFormatException refusal(final String field, final String... inMessage) {
        final MirrorFormatException refused = assertThrows(MirrorFormatException.class, () -> EstimateMirror.open(path));
        assertEquals(field, refused.field());
        assertEquals(path, refused.path());
        assertTrue(refused.getMessage().startsWith(path.toString()), refused.getMessage());
        for (final String part : inMessage) {
            assertTrue(refused.getMessage().contains(part), () -> "'" + part + "' missing from: " + refused.getMessage());
        }
        return refused;
    }

    @Test
    void aGoodFileOpens() throws IOException {
        EstimateMirror.open(path).close();
    }

    @Test
    void aBadMagicIsRefusedNamingBothValues() throws IOException {
        putLong(MirrorLayout.MAGIC_OFFSET, 0x1234L);
        refusal("magic", "magic is 0x0000000000001234, expected 0x524F5252494D544C");
    }

    @Test
    void aByteSwappedMagicIsRefusedAsBigEndian() throws IOException {
        putLong(MirrorLayout.MAGIC_OFFSET, Long.reverseBytes(MirrorLayout.MAGIC));
        refusal("magic", "big-endian");
    }

    /** The int fields of the header a version-1 reader checks, each with a value it must refuse. */
    static Stream<Arguments> wrongIntHeaderFields() {
        return Stream.of(
            Arguments.of(MirrorLayout.VERSION_OFFSET, 2, "version", "version is 2, expected 1"),
            Arguments.of(MirrorLayout.HEADER_LENGTH_OFFSET, 256, "header_bytes", "header_bytes is 256, expected 128"),
            Arguments.of(MirrorLayout.RECORD_LENGTH_OFFSET, 64, "record_bytes", "record_bytes is 64, expected 128"),
            Arguments.of(MirrorLayout.RECORD_COUNT_OFFSET, 1024, "record_count", "record_count is 1024, expected 32768"),
            Arguments.of(MirrorLayout.HEARTBEAT_INTERVAL_MILLIS_OFFSET, 0, "heartbeat_interval_millis",
                "heartbeat_interval_millis is 0, expected at least 1"));
    }

    @ParameterizedTest(name = "{2} = {1}")
    @MethodSource("wrongIntHeaderFields")
    void aWrongIntHeaderFieldIsRefusedNamingBothValues(final int offset, final int value, final String field,
                                                       final String message) throws IOException {
        putInt(offset, value);
        refusal(field, message);
    }

    @Test
    void aShortFileIsRefusedNamingItsLength() throws IOException {
        truncate(128 + 1000 * 128);
        refusal("file length", "file length is 128128 bytes, expected 4194432 bytes");
    }

    @Test
    void aFileShorterThanTheHeaderIsRefusedNamingItsLength() throws IOException {
        truncate(100);
        refusal("file length", "file length is 100 bytes, expected at least 128 bytes");
    }
}
