package org.latencyserver.server.security;

import java.security.cert.CertPathValidatorException;
import java.security.cert.CertificateExpiredException;
import java.security.cert.CertificateNotYetValidException;
import java.util.Locale;

/**
 * Why a TLS caller's certificate was refused at the handshake, as a bounded label of
 * {@code latency_server_tls_handshake_failures_total}.
 */
public enum HandshakeFailure {
    /** Signed by an authority the trust store does not hold (one of the same name with another key included). */
    UNKNOWN_CA,
    /** Its validity ended. */
    EXPIRED,
    /** Its validity has not begun. */
    NOT_YET_VALID,
    /** Not for TLS client authentication (say, the server's own certificate). */
    BAD_USAGE,
    /** Its serial is in the server's revoked list ({@code security.tls.revoked_serials_file}). */
    REVOKED,
    /** Any other reason the trust manager gave. */
    OTHER;

    /** @return the metric's {@code reason} label, e.g. {@code unknown_ca} */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * Classifies the JDK trust manager's refusal. Its exceptions are the JDK's own (a validator
     * exception around the cause), so the cause chain decides, then the message of the JDK's
     * validator for the kinds it has no exception type for.
     *
     * @param refusal what the trust manager threw
     * @return the reason
     */
    public static HandshakeFailure of(final Throwable refusal) {
        for (Throwable cause = refusal; cause != null; cause = cause.getCause()) {
            if (cause instanceof CertificateExpiredException) {
                return EXPIRED;
            }
            if (cause instanceof CertificateNotYetValidException) {
                return NOT_YET_VALID;
            }
            if (cause instanceof CertPathValidatorException pathRefusal) {
                if (pathRefusal.getReason() == CertPathValidatorException.BasicReason.EXPIRED) {
                    return EXPIRED;
                }
                if (pathRefusal.getReason() == CertPathValidatorException.BasicReason.NOT_YET_VALID) {
                    return NOT_YET_VALID;
                }
            }
        }
        for (Throwable cause = refusal; cause != null; cause = cause.getCause()) {
            final String message = String.valueOf(cause.getMessage()).toLowerCase(Locale.ROOT);
            if (message.contains("key usage")) {
                return BAD_USAGE;
            }
            // No anchor of that name, or one of that name whose key did not sign it (another CA of the same name).
            if (message.contains("no trusted certificate") || message.contains("unable to find valid certification path")
                || message.contains("signature validation failed") || message.contains("signature check failed")) {
                return UNKNOWN_CA;
            }
        }
        return OTHER;
    }
}
