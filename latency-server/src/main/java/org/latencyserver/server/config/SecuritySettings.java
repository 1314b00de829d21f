package org.latencyserver.server.config;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import org.latencyserver.server.security.AccessPolicy;
import org.latencyserver.server.security.PrincipalRule;

/**
 * The {@code security:} section: IIOP over TLS, what plain IIOP may do, and the roles of each
 * client certificate.
 *
 * <pre>
 * security:
 *   plain_iiop: read-only          # read-only (default with tls) | all (legacy open mode)
 *   tls:
 *     port: 0                      # TLS port, 0 = any free port
 *     keystore: certs/server.p12   # the server's certificate and key (PKCS#12)
 *     truststore: certs/trust.p12  # the certificate authorities of its clients
 *     password_env: LATENCY_TLS_PASSWORD
 *     revoked_serials_file: certs/revoked-serials   # optional: revoked client certificates
 *   principals:
 *     - subject: "CN=ws1,OU=agent,O=Latency Server"
 *       roles: [agent]
 *       node: ws1                  # an agent's own workstation
 * </pre>
 *
 * <p>Without the section the server is in the legacy open mode ({@code plain_iiop: all}, no TLS)
 * and says so at start.
 *
 * <p>Immutable and thread-safe.
 *
 * @param plainIiop  what callers over plain IIOP may do
 * @param tls        the TLS listener; null for none
 * @param principals the roles of client certificates, in file order
 */
public record SecuritySettings(PlainIiop plainIiop, Tls tls, List<PrincipalRule> principals) {

    /** No section: everything open on plain IIOP, as the thesis had it. */
    public static final SecuritySettings LEGACY_OPEN = new SecuritySettings(PlainIiop.ALL, null, List.of());

    /** Normalises the list. */
    public SecuritySettings {
        Objects.requireNonNull(plainIiop, "plainIiop");
        principals = List.copyOf(principals);
    }

    /** @return the per-call decisions this section asks for */
    public AccessPolicy policy() {
        return plainIiop == PlainIiop.ALL ? AccessPolicy.open() : AccessPolicy.authenticated(principals);
    }

    /** {@code security.plain_iiop}. */
    public enum PlainIiop implements ConfigWord {
        /** Reads only; writes need TLS and a role (the default once TLS is configured). */
        READ_ONLY,
        /** Every call from anyone: the legacy open mode, warned about at start. */
        ALL
    }

    /**
     * {@code security.tls}.
     *
     * @param port        TLS port, 0 for any free port
     * @param keystore    the server's certificate and key, absolute
     * @param truststore  the authorities whose client certificates are accepted, absolute
     * @param passwordEnv the environment variable holding both stores' password
     * @param revokedSerials the revoked client serials' file, absolute; null for none
     */
    public record Tls(int port, Path keystore, Path truststore, String passwordEnv, Path revokedSerials) {
    }
}
