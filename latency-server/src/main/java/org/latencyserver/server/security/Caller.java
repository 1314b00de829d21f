package org.latencyserver.server.security;

import javax.security.auth.x500.X500Principal;

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
        TLS,
        /** Not through the ORB (the server's own components, tests of the servant). */
        IN_PROCESS
    }

    /** A call over plain IIOP. */
    public static final Caller PLAIN = new Caller(Transport.PLAIN, null);
    /** A call made inside the server process. */
    public static final Caller IN_PROCESS = new Caller(Transport.IN_PROCESS, null);

    /** @return how the caller is named in a refusal */
    public String describe() {
        switch (transport) {
            case PLAIN:
                return "a plain IIOP caller";
            case IN_PROCESS:
                return "an in-process caller";
            default:
                return subject == null ? "a TLS caller without a certificate" : "certificate '" + subject.getName() + "'";
        }
    }
}
