package org.latencyserver.server.transport;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.function.LongConsumer;

/**
 * Reads a connection's GIOP messages as JacORB asks for them, and refuses one whose declared size
 * is too large before its body is read: JacORB allocates a buffer of the declared size as soon as
 * it has the 12-byte header ("GIOP", version, flags, type, size: bit 0 of the flags says the size
 * is little-endian). A read never goes past the end of the header or body it is in, so the framing
 * stays exact. The messages of an unfinished fragment chain (flag bit 1, GIOP 1.1 and later) count
 * together against the limit. A header without the GIOP magic is passed on untouched: JacORB
 * closes the connection for it.
 *
 * <p>A GIOP 1.2 request's {@code response_flags} (the body's fifth byte) must be 0, 1 or 3: JacORB
 * 3.9 throws {@code BAD_PARAM} ("Illegal SYNC_SCOPE") for any other value on the POA request thread
 * that takes the call, which kills the thread and shrinks the request pool for good (and a shutdown
 * then waits for it for ever); such a request closes its connection before JacORB sees it. A GIOP
 * 1.0 or 1.1 request's {@code response_expected} (a CDR boolean after its service contexts and request
 * id, found by {@link RequestFlagsScan}) must be 0 or 1: JacORB fails such a request on the
 * connection's reader with a {@code MARSHAL} that it logs as a lost message; it is refused here alike,
 * counted and logged with the caller's address. The byte must arrive in the request's first message: a
 * fragmented request whose first fragment ends before it is refused the same way, since letting it pass
 * would skip the check (GIOP allows so early a split; a legitimate caller is not expected to send one).
 *
 * <p>Not thread-safe: one connection, read by one thread (JacORB's reader of that connection).
 */
final class GiopFraming extends FilterInputStream {

    private static final int REQUEST = 0;
    private static final int FRAGMENT = 7;

    private final long maxMessageBytes;
    /** {@link #read()}'s one byte, kept: the stream has one reader. */
    private final byte[] one = new byte[1];
    private final LongConsumer refusal;
    private final Runnable badResponseFlags;
    private final byte[] header = new byte[ConnectionLimits.GIOP_HEADER_BYTES];
    private int headerRead;
    private long bodyLeft;
    /** The request whose response flags have not passed yet; null otherwise. */
    private RequestFlagsScan scan;
    private long fragmentChainBytes;
    private boolean unframed;
    /** Whether the message being read says more fragments follow it. */
    private boolean moreFragments;

    /**
     * @param in              the connection's input
     * @param maxMessageBytes the largest message, header included (a fragment chain counts as one)
     * @param refusal         told the declared size (header included) of a message over the limit; closes the connection
     * @param badResponseFlags told of a request with response flags JacORB cannot take; closes the connection
     */
    GiopFraming(final InputStream in, final long maxMessageBytes, final LongConsumer refusal, final Runnable badResponseFlags) {
        super(in);
        this.maxMessageBytes = maxMessageBytes;
        this.refusal = refusal;
        this.badResponseFlags = badResponseFlags;
    }

    @Override
    public int read() throws IOException {
        final int n = read(one, 0, 1);
        return n < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(final byte[] buffer, final int offset, final int length) throws IOException {
        if (unframed || length == 0) {
            return in.read(buffer, offset, length);
        }
        if (bodyLeft > 0) {
            final int n = in.read(buffer, offset, (int) Math.min(length, bodyLeft));
            if (n > 0) {
                bodyLeft -= n;
                checkResponseFlags(buffer, offset, n);
            }
            return n;
        }
        final int n = in.read(buffer, offset, Math.min(length, header.length - headerRead));
        if (n > 0) {
            System.arraycopy(buffer, offset, header, headerRead, n);
            headerRead += n;
            if (headerRead == header.length) {
                headerRead = 0;
                checkHeader();
            }
        }
        return n;
    }

    private void checkHeader() throws IOException {
        if (header[0] != 'G' || header[1] != 'I' || header[2] != 'O' || header[3] != 'P') {
            unframed = true;
            return;
        }
        final boolean littleEndian = (header[6] & 0x01) != 0;
        final boolean moreFragments = header[5] >= 1 && (header[6] & 0x02) != 0;
        final long bodyBytes = littleEndian
            ? (header[8] & 0xffL) | (header[9] & 0xffL) << 8 | (header[10] & 0xffL) << 16 | (header[11] & 0xffL) << 24
            : (header[8] & 0xffL) << 24 | (header[9] & 0xffL) << 16 | (header[10] & 0xffL) << 8 | (header[11] & 0xffL);
        final long messageBytes = ConnectionLimits.GIOP_HEADER_BYTES + bodyBytes;
        final long counted = (header[7] == FRAGMENT ? fragmentChainBytes : 0) + messageBytes;
        if (counted > maxMessageBytes) {
            unframed = true;
            refusal.accept(counted);
            throw new IOException("GIOP message of " + counted + " bytes refused: over the limit of " + maxMessageBytes
                + " (limits.max_giop_message_bytes); connection closed");
        }
        fragmentChainBytes = moreFragments ? counted : 0;
        scan = header[4] == 1 && header[5] >= 0 && header[5] <= 2 && header[7] == REQUEST
            ? new RequestFlagsScan(header[5], littleEndian) : null;
        this.moreFragments = moreFragments;
        bodyLeft = bodyBytes;
        if (bodyLeft == 0) {
            checkResponseFlags(header, 0, 0);
        }
    }

    /**
     * Passes this read's body bytes to the scan of a request; refuses the request when its response
     * flags are not valid, or when its first fragment ends without them.
     */
    private void checkResponseFlags(final byte[] buffer, final int offset, final int n) throws IOException {
        if (scan == null) {
            return;
        }
        final int flags = scan.feed(buffer, offset, n);
        if (flags != RequestFlagsScan.NOT_YET && !scan.valid(flags)) {
            refuseResponseFlags(requestWords() + " with response flags " + flags + " refused (" + scan.validValues() + " are valid)");
        }
        if (scan.found()) {
            scan = null;
        } else if (bodyLeft == 0 && moreFragments) {
            refuseResponseFlags(requestWords() + " refused: its first fragment ends before its response flags");
        } else if (bodyLeft == 0) {
            scan = null; // Too short to hold them: JacORB fails to read its header on the reader and closes the connection.
        }
    }

    /** @return e.g. "GIOP 1.2 request": built only when one is refused, never on the way of an accepted one */
    private String requestWords() {
        return "GIOP 1." + scan.minorVersion() + " request";
    }

    private void refuseResponseFlags(final String what) throws IOException {
        unframed = true;
        scan = null;
        badResponseFlags.run();
        throw new IOException(what + "; connection closed");
    }

    @Override
    public long skip(final long n) throws IOException {
        // JacORB never skips; a skip would lose the framing.
        throw new IOException("skip is not supported on a GIOP connection");
    }

    @Override
    public boolean markSupported() {
        return false;
    }
}
