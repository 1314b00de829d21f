package org.latencyserver.server.security;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The TLS callers refused at the handshake, counted by {@link HandshakeFailure} and logged at WARN
 * (the log's repeated-warning filter keeps a flood of one reason to a line per interval). The
 * trust manager that refuses them is made by JacORB from a class name, so the counts are the
 * process's: one server per process, as {@code ./latency server} runs it.
 *
 * <p>Thread-safe: the ORB's handshake threads record, a scrape reads.
 */
public final class TlsHandshakeFailures {

    private static final Logger LOG = LoggerFactory.getLogger(TlsHandshakeFailures.class);
    private static final Map<HandshakeFailure, LongAdder> COUNTS = new EnumMap<>(HandshakeFailure.class);

    static {
        for (final HandshakeFailure reason : HandshakeFailure.values()) {
            COUNTS.put(reason, new LongAdder());
        }
    }

    private TlsHandshakeFailures() {
    }

    /**
     * Counts and logs one refused handshake.
     *
     * @param reason  why
     * @param peer    the caller's address, or {@code "unknown"}
     * @param subject the refused certificate's subject (capped when shown), or {@code "none"}
     * @param detail  the trust manager's message
     */
    static void record(final HandshakeFailure reason, final String peer, final String subject, final String detail) {
        COUNTS.get(reason).increment();
        // The reason is part of the pattern, so that repeats are held back per reason.
        LOG.warn("TLS handshake refused (" + reason.label() + "): {} from {}: {}", subject, peer, detail);
    }

    /**
     * @param reason a reason
     * @return how many handshakes this process refused for it
     */
    public static long count(final HandshakeFailure reason) {
        return COUNTS.get(reason).sum();
    }
}
