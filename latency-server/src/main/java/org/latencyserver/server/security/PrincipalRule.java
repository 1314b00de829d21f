package org.latencyserver.server.security;

import java.util.Objects;
import java.util.Set;
import javax.security.auth.x500.X500Principal;

/**
 * One entry of {@code security.principals}: the roles granted to the holder of a certificate with
 * this subject, and for an agent the workstation it measures from.
 *
 * <p>Immutable and thread-safe.
 *
 * @param subject the certificate subject, compared in X.500 canonical form (case and spacing of
 *                attribute values do not matter)
 * @param roles   at least one role
 * @param node    the agent's own workstation (a configured node); required with {@link Role#AGENT}, else null
 */
public record PrincipalRule(X500Principal subject, Set<Role> roles, String node) {

    /**
     * @throws IllegalArgumentException when there is no role, or an agent without a node
     */
    public PrincipalRule {
        Objects.requireNonNull(subject, "subject");
        roles = Set.copyOf(roles);
        if (roles.isEmpty()) {
            throw new IllegalArgumentException("a principal needs at least one role");
        }
        if (roles.contains(Role.AGENT) && (node == null || node.isBlank())) {
            throw new IllegalArgumentException("an agent principal needs its node");
        }
    }

    /** @return the subject in canonical form, the key rules are looked up by */
    public String canonicalSubject() {
        return subject.getName(X500Principal.CANONICAL);
    }
}
