package org.latencyserver.server.security;

import javax.security.auth.x500.X500Principal;
import org.latencyserver.server.engine.CallerText;

/**
 * Who made the call being served: how it arrived and, over TLS, the subject of the certificate
 * the caller presented (verified against the server's trust store by the TLS handshake).
 *
 * <p>Immutable and thread-safe.
 *
 * @param transport how the call arrived
 * @param subject   the certificate's subject; null over plain IIOP or when no certificate was presented
 */
public record Caller(Transport transport, X500Principal subject) {

    /** How a call reached the server. */
    public enum Transport {
        /** Plain IIOP: anyone who can reach the port. */
        PLAIN,
        /** IIOP over TLS. */
        TLS
    }

    /** A call over plain IIOP. */
    public static final Caller PLAIN = new Caller(Transport.PLAIN, null);

    /** @return how the caller is named in a refusal */
    public String describe() {
        if (transport == Transport.PLAIN) {
            return "a plain IIOP caller";
        }
        return subject == null ? "a TLS caller without a certificate" : "certificate '" + CallerText.capped(subject.getName()) + "'";
    }
}
