package org.latencyserver.server.security;

import javax.security.auth.x500.X500Principal;
import org.latencyserver.server.engine.CallerText;

/**
 * Who made the call being served: how it arrived, over TLS the subject of the certificate the
 * caller presented (verified against the server's trust store by the TLS handshake), and the
 * remote end of the connection it came on.
 *
 * <p>Immutable and thread-safe.
 *
 * @param transport how the call arrived
 * @param subject   the certificate's subject; null over plain IIOP or when no certificate was presented
 * @param peer      the connection's remote address and port, e.g. {@code 10.0.0.5:50122}; null when unknown
 */
public record Caller(Transport transport, X500Principal subject, String peer) {

    /** How a call reached the server. */
    public enum Transport {
        /** Plain IIOP: anyone who can reach the port. */
        PLAIN,
        /** IIOP over TLS. */
        TLS
    }

    /** A call over plain IIOP from an unknown connection. */
    public static final Caller PLAIN = new Caller(Transport.PLAIN, null, null);

    /**
     * @param transport how the call arrived
     * @param subject   the certificate's subject, or null
     * @return a caller whose connection is unknown
     */
    public Caller(final Transport transport, final X500Principal subject) {
        this(transport, subject, null);
    }

    /** @return how the caller is named in a refusal */
    public String describe() {
        if (transport == Transport.PLAIN) {
            return "a plain IIOP caller";
        }
        return subject == null ? "a TLS caller without a certificate" : "certificate '" + CallerText.capped(subject.getName()) + "'";
    }
}
