package org.latencyserver.server.security;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import javax.security.auth.x500.X500Principal;
import org.latencyserver.server.engine.Refusal;

/**
 * Decides, per call, whether a caller may make a write and see a ticket.
 *
 * <p>Two modes: <b>open</b> ({@code security.plain_iiop: all}, and a server with no
 * {@code security} section — the thesis's legacy behaviour) lets every caller do everything;
 * <b>authenticated</b> ({@code plain_iiop: read-only}, the default once TLS is configured) grants
 * writes only to TLS callers whose certificate subject has the role in {@code security.principals}.
 * Reads are never checked here.
 *
 * <p>Immutable and thread-safe: the serving path only looks up a map.
 */
public final class AccessPolicy {

    private static final AccessPolicy OPEN = new AccessPolicy(true, List.of());

    private final boolean open;
    private final Map<String, PrincipalRule> rulesBySubject = new HashMap<>();

    private AccessPolicy(final boolean open, final List<PrincipalRule> rules) {
        this.open = open;
        for (final PrincipalRule rule : rules) {
            if (rulesBySubject.putIfAbsent(rule.canonicalSubject(), rule) != null) {
                throw new IllegalArgumentException("subject '" + rule.subject().getName() + "' is listed twice");
            }
        }
    }

    /** @return the legacy policy: every caller may do everything */
    public static AccessPolicy open() {
        return OPEN;
    }

    /**
     * @param rules who holds which roles
     * @return a policy that grants writes only to these certificates over TLS
     * @throws IllegalArgumentException when a subject is listed twice
     */
    public static AccessPolicy authenticated(final List<PrincipalRule> rules) {
        return new AccessPolicy(false, rules);
    }

    /** @return whether every caller may write (legacy open mode) */
    public boolean isOpen() {
        return open;
    }

    /**
     * @param caller     who calls
     * @param needed     the role the call needs
     * @param operation  the call, named in the reason
     * @param clientNode for {@link Role#AGENT}: the client node of the connection written to; else ignored
     * @return empty when allowed, else a {@link Refusal.Kind#NOT_PERMITTED} refusal saying why (it names the caller, the
     *         role and what to do)
     */
    public Optional<Refusal> refusal(final Caller caller, final Role needed, final String operation, final String clientNode) {
        final Optional<Refusal> byRole = refusalOfRole(caller, needed, operation);
        if (byRole.isPresent() || open || needed != Role.AGENT) {
            return byRole;
        }
        final PrincipalRule rule = rulesBySubject.get(caller.subject().getName(X500Principal.CANONICAL));
        if (clientNode == null) {
            // Fail closed: an agent's write is allowed only against a node it can be compared with.
            return notPermitted(operation + ": no client node to check " + caller.describe() + " against");
        }
        if (!clientNode.equals(rule.node())) {
            return notPermitted(operation + ": " + caller.describe() + " is the agent of node " + rule.node()
                + "; the connection's client node is " + clientNode);
        }
        return Optional.empty();
    }

    /**
     * @param caller    who calls
     * @param needed    the role the call needs, whatever connection it concerns
     * @param operation the call, named in the reason
     * @return empty when the caller holds the role (or the policy is open), else a {@link Refusal.Kind#NOT_PERMITTED}
     *         refusal saying why
     */
    public Optional<Refusal> refusalOfRole(final Caller caller, final Role needed, final String operation) {
        Objects.requireNonNull(caller, "caller");
        if (open) {
            return Optional.empty();
        }
        final String what = operation + " needs the " + needed.configName() + " role";
        if (caller.transport() == Caller.Transport.PLAIN) {
            return notPermitted(what + "; plain IIOP is read-only on this server: call over IIOP/TLS with a certificate that has the role");
        }
        if (caller.subject() == null) {
            return notPermitted(what + "; the TLS caller presented no certificate");
        }
        final PrincipalRule rule = rulesBySubject.get(caller.subject().getName(X500Principal.CANONICAL));
        if (rule == null) {
            return notPermitted(what + "; " + caller.describe() + " has no roles on this server (security.principals)");
        }
        if (!rule.roles().contains(needed)) {
            return notPermitted(what + "; " + caller.describe() + " has the roles "
                + rule.roles().stream().map(Role::configName).sorted().toList());
        }
        return Optional.empty();
    }

    /**
     * @param caller     who asks
     * @param clientNode the client node of the connection the request is for
     * @return whether the caller may see the request's ticket: in open mode anyone, else only the agent of that node
     */
    public boolean maySeeTicket(final Caller caller, final String clientNode) {
        return refusal(caller, Role.AGENT, "seeing a ticket", clientNode).isEmpty();
    }

    private static Optional<Refusal> notPermitted(final String message) {
        return Optional.of(Refusal.of(Refusal.Kind.NOT_PERMITTED, message));
    }
}
