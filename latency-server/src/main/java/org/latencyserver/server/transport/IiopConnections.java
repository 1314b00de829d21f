package org.latencyserver.server.transport;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server's plain IIOP connections, counted by {@link GiopLimitServerSocket} and {@link GiopLimitSocket}:
 * accepted, open now; and the plain and TLS connections ({@link GiopLimitSslSocket}) closed for a GIOP
 * message over the limit or a request with response flags JacORB cannot take (each refusal logged at WARN with
 * the caller's address; the log's repeated-warning filter keeps a flood to a line per interval). The
 * sockets are made by a factory JacORB creates by name, so the counts are the process's: one server
 * per process, as {@code ./latency server} runs it.
 *
 * <p>Thread-safe: the ORB's acceptor and reader threads record, a scrape reads.
 */
public final class IiopConnections {

    private static final Logger LOG = LoggerFactory.getLogger(IiopConnections.class);
    private static final LongAdder ACCEPTED = new LongAdder();
    private static final AtomicLong OPEN = new AtomicLong();
    private static final LongAdder OVERSIZED = new LongAdder();
    private static final LongAdder BAD_RESPONSE_FLAGS = new LongAdder();

    private IiopConnections() {
    }

    static void accepted() {
        ACCEPTED.increment();
        OPEN.incrementAndGet();
    }

    static void closed() {
        OPEN.decrementAndGet();
    }

    static void refused(final String peer, final long declaredBytes, final long maxMessageBytes) {
        OVERSIZED.increment();
        LOG.warn("GIOP message refused: {} declared {} bytes, over limits.max_giop_message_bytes {}; connection closed", peer,
            declaredBytes, maxMessageBytes);
    }

    static void refusedResponseFlags(final String peer) {
        BAD_RESPONSE_FLAGS.increment();
        LOG.warn("GIOP request refused: {} sent response flags JacORB cannot take; connection closed", peer);
    }

    /** @return plain IIOP connections this process accepted */
    public static long acceptedCount() {
        return ACCEPTED.sum();
    }

    /** @return plain IIOP connections open now (accepted and not yet closed by either end's close reaching the server) */
    public static long openCount() {
        return OPEN.get();
    }

    /** @return connections closed because a GIOP message declared more than the limit */
    public static long oversizedCount() {
        return OVERSIZED.sum();
    }

    /**
     * @return connections closed because a GIOP 1.2 request's response flags were not 0, 1 or 3, a GIOP
     *         1.0 or 1.1 request's {@code response_expected} was not 0 or 1, or a fragmented request's first
     *         fragment ended before them
     */
    public static long badResponseFlagsCount() {
        return BAD_RESPONSE_FLAGS.sum();
    }
}
