package org.latencyserver.mirror;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The file a writer leaves has the bytes {@code docs/mirror-layout.md} documents at the offsets it
 * documents. The offsets are written out here as numbers, not taken from {@link MirrorLayout}, so
 * that a constant moved by mistake shows as a failure rather than moving the test with it.
 */
class MirrorFileLayoutTest {

    private static final long T0 = 1_700_000_000_000L;
    /** Where the record of {@link EstimateMirrorTest#boundRecord()}, index_ref 12345, starts. */
    private static final int RECORD_START = 128 + 12345 * 128;

    @TempDir
    static Path directory;

    private static Path path;
    private static ByteBuffer file;

    @BeforeAll
    static void writeOneMirror() throws IOException {
        path = directory.resolve("mirror");
        try (EstimateMirrorWriter writer = EstimateMirrorWriter.create(path, 250)) {
            writer.heartbeat(T0);
            writer.serverLink(MirrorLayout.SERVER_LINK_POLLING, T0 - 5);
            writer.write(EstimateMirrorTest.boundRecord());
        }
        file = ByteBuffer.wrap(Files.readAllBytes(path)).order(ByteOrder.LITTLE_ENDIAN);
    }

    @Test
    void theFileIsOneHeaderAnd32768RecordsLongStartsWithItsMagicTextAndNamesItsWriter() throws IOException {
        assertEquals(4 * 1024 * 1024 + 128, file.capacity());
        assertEquals("LTMIRROR", new String(Files.readAllBytes(path), 0, 8, StandardCharsets.US_ASCII));
        assertEquals(ProcessHandle.current().pid(), file.getLong(24));
    }

    @ParameterizedTest(name = "header {0}: {2} bytes at {1}")
    @CsvSource({
        "version, 8, 4, 1",
        "header_bytes, 12, 4, 128",
        "record_bytes, 16, 4, 128",
        "record_count, 20, 4, 32768",
        "heartbeat_epoch_millis, 64, 8, 1700000000000",
        "heartbeat_interval_millis, 72, 4, 250",
        "server_link (polling), 76, 4, 1",
        "server_contact_epoch_millis, 80, 8, 1699999999995"})
    void aHeaderIntegerIsAtItsDocumentedOffset(final String field, final int offset, final int widthBytes,
                                               final long expected) {
        assertEquals(expected, integerAt(offset, widthBytes), field);
    }

    @ParameterizedTest(name = "record {0}: {2} bytes at {1}")
    @CsvSource({
        "sequence, 0, 8, 2",
        "index_ref, 8, 2, 12345",
        "qos, 10, 1, 4",
        "kind (bound), 11, 1, 1",
        "flags (has estimate | stale | interpolated = 0b1101), 12, 1, 13",
        "stale_reason (input silent), 13, 1, 1",
        "cpu_state, 14, 2, 23",
        "port_state, 16, 2, 95",
        "computed_epoch_millis, 64, 8, 1700000000123",
        "mirrored_epoch_millis, 72, 8, 1700000000456"})
    void aRecordIntegerIsAtItsDocumentedOffsetInTheRecordOfItsIndexRef(final String field, final int offset,
                                                                       final int widthBytes, final long expected) {
        assertEquals(expected, integerAt(RECORD_START + offset, widthBytes), field);
    }

    @ParameterizedTest(name = "record {0}: 8 bytes at {1}")
    @CsvSource({
        "value_millis, 24, 12.625",
        "interval_lower, 32, 94.5",
        "interval_upper, 40, 97.25",
        "bound_percent, 48, 96.0",
        "confidence_level, 56, 0.95"})
    void aRecordDoubleIsAtItsDocumentedOffsetInTheRecordOfItsIndexRef(final String field, final int offset,
                                                                      final double expected) {
        assertEquals(expected, file.getDouble(RECORD_START + offset), field);
    }

    @Test
    void theReservedBytesAtTheEndOfARecordAreZero() {
        for (int reserved = 80; reserved < 128; reserved++) {
            assertEquals(0, file.get(RECORD_START + reserved), "reserved byte " + reserved);
        }
    }

    /** The little-endian signed integer of {@code widthBytes} bytes at {@code offset} of the file. */
    private static long integerAt(final int offset, final int widthBytes) {
        return switch (widthBytes) {
            case 1 -> file.get(offset);
            case 2 -> file.getShort(offset);
            case 4 -> file.getInt(offset);
            case 8 -> file.getLong(offset);
            default -> throw new IllegalArgumentException("no integer field is " + widthBytes + " bytes wide");
        };
    }
}
