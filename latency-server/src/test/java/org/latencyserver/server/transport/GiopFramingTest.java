package org.latencyserver.server.transport;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * {@link GiopFraming}'s check of a request's response flags, read as JacORB reads (header, then
 * body), from byte arrays: where the flag is in each GIOP version and byte order, across reads of
 * any size.
 */
class GiopFramingTest {

    private static final int REQUEST = 0;
    private static final int MORE_FRAGMENTS = 0x02;
    private static final int LITTLE_ENDIAN = 0x01;

    private final AtomicInteger badFlags = new AtomicInteger();

    @Test
    void aGiop11LittleEndianRequestWithServiceContextsPassesWhenItsResponseExpectedIsABooleanReadOneByteAtATime()
        throws IOException {
        final byte[] message = giop11Request(ByteOrder.LITTLE_ENDIAN, (byte) 1);
        assertArrayEquals(message, readAll(message, 1), "passed on unchanged");
        assertEquals(0, badFlags.get());
    }

    @Test
    void aGiop11LittleEndianRequestWhoseResponseExpectedIsNoBooleanIsRefusedWhateverTheReadSize() {
        for (final int readBytes : new int[] {1, 3, 7, 4096}) {
            final byte[] message = giop11Request(ByteOrder.LITTLE_ENDIAN, (byte) 5);
            final IOException refused = assertThrows(IOException.class, () -> readAll(message, readBytes));
            assertTrue(refused.getMessage().startsWith("GIOP 1.1 request with response flags 5 refused (0 or 1 are valid)"),
                refused.getMessage());
        }
        assertEquals(4, badFlags.get());
    }

    @Test
    void aGiop10BigEndianRequestWhoseResponseExpectedIsNoBooleanIsRefused() {
        final byte[] message = giop11Request(ByteOrder.BIG_ENDIAN, (byte) 0x22);
        message[5] = 0;
        assertThrows(IOException.class, () -> readAll(message, 5));
        assertEquals(1, badFlags.get());
    }

    @Test
    void aGiop12RequestWithSyncScopeThreePassesAndWithTwoIsRefused() throws IOException {
        final byte[] body = new byte[16];
        body[4] = 3;
        readAll(giop12(REQUEST, 0, body), 2);
        assertEquals(0, badFlags.get());
        body[4] = 2;
        assertThrows(IOException.class, () -> readAll(giop12(REQUEST, 0, body), 2));
        assertEquals(1, badFlags.get());
    }

    @Test
    void aGiop12RequestWhoseFirstFragmentEndsBeforeItsResponseFlagsIsRefused() {
        final IOException refused = assertThrows(IOException.class,
            () -> readAll(giop12(REQUEST, MORE_FRAGMENTS | LITTLE_ENDIAN, new byte[4]), 4096));
        assertTrue(refused.getMessage().contains("first fragment ends before its response flags"), refused.getMessage());
        assertEquals(1, badFlags.get());
    }

    @Test
    void aReplyIsNotScanned() throws IOException {
        final byte[] body = new byte[16];
        body[4] = 0x55;
        readAll(giop12(1, 0, body), 4096);
        assertEquals(0, badFlags.get());
    }

    /** Reads the message through a framing as JacORB does, at most {@code readBytes} a read; returns what was read. */
    private byte[] readAll(final byte[] message, final int readBytes) throws IOException {
        final InputStream framing = new GiopFraming(new ByteArrayInputStream(message), Long.MAX_VALUE, declared -> {
            throw new AssertionError("no message is over the limit here");
        }, badFlags::incrementAndGet);
        final ByteArrayOutputStream read = new ByteArrayOutputStream();
        final byte[] buffer = new byte[readBytes];
        int n;
        while ((n = framing.read(buffer, 0, buffer.length)) >= 0) {
            read.write(buffer, 0, n);
        }
        return read.toByteArray();
    }

    /**
     * A GIOP 1.1 request's start: two service contexts (3 and 0 bytes of data, so padding follows
     * the first), the request id, {@code response_expected}, three reserved bytes and a few more.
     */
    private static byte[] giop11Request(final ByteOrder order, final byte responseExpected) {
        final ByteBuffer body = ByteBuffer.allocate(40).order(order);
        body.putInt(2);
        body.putInt(17).putInt(3).put(new byte[] {9, 9, 9, 0});
        body.putInt(0x4c530001).putInt(0);
        body.putInt(42);
        body.put(responseExpected).put(new byte[3]);
        body.putInt(0);
        final byte[] header = {'G', 'I', 'O', 'P', 1, 1, (byte) (order == ByteOrder.LITTLE_ENDIAN ? LITTLE_ENDIAN : 0), REQUEST};
        return ByteBuffer.allocate(12 + body.position()).order(order).put(header).putInt(body.position())
            .put(body.array(), 0, body.position()).array();
    }

    private static byte[] giop12(final int type, final int flags, final byte[] body) {
        final ByteOrder order = (flags & LITTLE_ENDIAN) != 0 ? ByteOrder.LITTLE_ENDIAN : ByteOrder.BIG_ENDIAN;
        return ByteBuffer.allocate(12 + body.length).order(order).put(new byte[] {'G', 'I', 'O', 'P', 1, 2, (byte) flags,
            (byte) type}).putInt(body.length).put(body).array();
    }
}
