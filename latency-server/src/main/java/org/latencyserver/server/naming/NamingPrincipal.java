package org.latencyserver.server.naming;

import java.util.Objects;
import javax.security.auth.x500.X500Principal;

/**
 * One writer the naming service knows: the subject of its certificate and what it may bind —
 * the Latency Server ({@link Kind#SERVER}: the configured server names and everything under them)
 * or one node's peer agent ({@link Kind#PEER}: {@code peers/<node>}).
 *
 * <p>Immutable and thread-safe.
 *
 * @param subject the certificate subject, compared in X.500 canonical form
 * @param kind    what the holder is
 * @param node    the peer agent's node; required for {@link Kind#PEER}, null for {@link Kind#SERVER}
 */
public record NamingPrincipal(X500Principal subject, Kind kind, String node) {

    /** What a naming-service writer is; its name in a principals file is {@link #configName()}. */
    public enum Kind {
        /** The Latency Server (any of its partitions): binds the server names. */
        SERVER,
        /** A peer agent: binds {@code peers/<its node>}. */
        PEER;

        /** @return the role's name in a principals file and a certificate's OU: {@code server} or {@code peer} */
        public String configName() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /**
     * @throws IllegalArgumentException when a peer has no node, or a server has one
     */
    public NamingPrincipal {
        Objects.requireNonNull(subject, "subject");
        Objects.requireNonNull(kind, "kind");
        if (kind == Kind.PEER && (node == null || node.isBlank() || node.contains("/"))) {
            throw new IllegalArgumentException("a peer principal needs its node (one name component, no '/'), was '" + node + "'");
        }
        if (kind == Kind.SERVER && node != null) {
            throw new IllegalArgumentException("a server principal has no node");
        }
    }

    /** @return the subject in canonical form, the key principals are looked up by */
    public String canonicalSubject() {
        return subject.getName(X500Principal.CANONICAL);
    }
}
