package org.latencyserver.server.naming;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import javax.security.auth.x500.X500Principal;
import org.latencyserver.server.security.Caller;

/**
 * Decides whether a caller may change a name in the naming service. Reads are never checked. A
 * change is granted only to a TLS caller whose certificate subject is a known
 * {@link NamingPrincipal}, and only for the names it owns:
 * <ul>
 *   <li>a {@link NamingPrincipal.Kind#SERVER server}: each configured server name (e.g.
 *       {@code LatencyServer}) and every name under it ({@code LatencyServer/by-client/ws1});</li>
 *   <li>a {@link NamingPrincipal.Kind#PEER peer} of node N: {@code peers/N} and every name under it.</li>
 * </ul>
 * Creating a context ({@code bind_new_context}, {@code bind_context}) is also granted on the names
 * above one's own (a peer creates {@code peers}), but replacing or removing them is not. A naming
 * context bound nowhere (just made by {@code new_context}) may be changed by any known principal,
 * and so may {@code new_context} itself.
 *
 * <p>Immutable and thread-safe.
 */
public final class NamingWritePolicy {

    /** The context under which peer agents bind their node's name. */
    public static final String PEERS = "peers";

    /**
     * Why a change was refused; its {@link #minor} is the {@code NO_PERMISSION} exception's minor code,
     * its {@link #word} the metrics' {@code reason} label. Both are a contract: they never change.
     */
    public enum RefusalKind {
        /** The call came over plain IIOP. */
        PLAIN_IIOP(1, "plain_iiop", "binds need IIOP/TLS with a writer's certificate; this call came over plain IIOP"),
        /** Over TLS, but without a client certificate. */
        NO_CERTIFICATE(2, "no_certificate", "binds need a writer's certificate; this TLS caller presented none"),
        /** A certificate whose subject is no known writer. */
        UNKNOWN_SUBJECT(3, "unknown_subject", "the certificate's subject is not in the naming service's principals"),
        /** A known writer, but not this name's. */
        NOT_ITS_NAME(4, "not_its_name", "the certificate's role does not own this name");

        private final int minor;
        private final String word;
        private final String reason;

        RefusalKind(final int minor, final String word, final String reason) {
            this.minor = minor;
            this.word = word;
            this.reason = reason;
        }

        /** @return the {@code NO_PERMISSION} minor code of this refusal */
        public int minor() {
            return minor;
        }

        /** @return the refusal's stable word, lower case with underscores: the metrics' {@code reason} label */
        public String word() {
            return word;
        }

        /** @return the refusal's reason, one sentence without a final stop */
        public String reason() {
            return reason;
        }
    }

    /**
     * A refused change.
     *
     * @param kind    why
     * @param message what was refused and why, for the log and the exception
     */
    public record Refusal(RefusalKind kind, String message) {
    }

    private final List<List<String>> serverNames;
    private final Map<String, NamingPrincipal> principalsBySubject = new HashMap<>();

    /**
     * @param serverNames the server's names, each as its components (e.g. {@code [LatencyServer]}); at least one
     * @param principals  the known writers
     * @throws IllegalArgumentException when there is no server name, a server name is empty, or a subject is listed twice
     */
    public NamingWritePolicy(final List<List<String>> serverNames, final List<NamingPrincipal> principals) {
        if (serverNames.isEmpty() || serverNames.stream().anyMatch(List::isEmpty)) {
            throw new IllegalArgumentException("at least one server name, none empty, is needed");
        }
        this.serverNames = serverNames.stream().map(List::copyOf).toList();
        for (final NamingPrincipal principal : principals) {
            if (principalsBySubject.putIfAbsent(principal.canonicalSubject(), principal) != null) {
                throw new IllegalArgumentException("subject '" + principal.subject().getName() + "' is listed twice");
            }
        }
    }

    /**
     * @param caller    who calls
     * @param operation the naming operation, e.g. {@code rebind}
     * @param names     every absolute name the call changes, as components: the name a binding
     *                  operation names, under each path its context is bound at; a context's own
     *                  paths for {@code destroy}; empty when the context is bound nowhere or the
     *                  operation names nothing ({@code new_context})
     * @return the refusal, or empty when the caller may
     */
    public Optional<Refusal> refusal(final Caller caller, final String operation, final List<List<String>> names) {
        if (caller.transport() == Caller.Transport.PLAIN) {
            return refused(RefusalKind.PLAIN_IIOP, operation, names, caller);
        }
        if (caller.subject() == null) {
            return refused(RefusalKind.NO_CERTIFICATE, operation, names, caller);
        }
        final NamingPrincipal principal = principalsBySubject.get(caller.subject().getName(X500Principal.CANONICAL));
        if (principal == null) {
            return refused(RefusalKind.UNKNOWN_SUBJECT, operation, names, caller);
        }
        // A context found under no name (deeper than the search, its lookup failed, or bound nowhere)
        // cannot be judged: refused, never let through (only new_context names nothing by design).
        if (names.isEmpty() && !operation.equals("new_context")) {
            return refused(RefusalKind.NOT_ITS_NAME, operation, names, caller);
        }
        final boolean createsContext = operation.equals("bind_new_context") || operation.equals("bind_context");
        for (final List<String> name : names) {
            if (!owns(principal, name) && !(createsContext && isAboveOwn(principal, name))) {
                return refused(RefusalKind.NOT_ITS_NAME, operation, List.of(name), caller);
            }
        }
        return Optional.empty();
    }

    private List<List<String>> ownRoots(final NamingPrincipal principal) {
        return principal.kind() == NamingPrincipal.Kind.SERVER ? serverNames : List.of(List.of(PEERS, principal.node()));
    }

    private boolean owns(final NamingPrincipal principal, final List<String> name) {
        return ownRoots(principal).stream().anyMatch(root -> name.size() >= root.size() && name.subList(0, root.size()).equals(root));
    }

    private boolean isAboveOwn(final NamingPrincipal principal, final List<String> name) {
        return !name.isEmpty() && ownRoots(principal).stream()
            .anyMatch(root -> name.size() < root.size() && root.subList(0, name.size()).equals(name));
    }

    private static Optional<Refusal> refused(final RefusalKind kind, final String operation, final List<List<String>> names,
                                             final Caller caller) {
        final String what = names.isEmpty() ? operation : operation + " '" + String.join("/", names.get(0)) + "'";
        return Optional.of(new Refusal(kind, what + " refused for " + caller.describe() + ": " + kind.reason()));
    }
}
