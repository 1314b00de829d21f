package org.latencyserver.server.standby;

/**
 * The standby's reception of the primary's messages: each is handed by its kind byte
 * ({@link ReplicaMessages}) to the {@link ReplicaApplier} — records, a loaded profile, the learned
 * profile cells — and refused while this server takes none (it serves as primary, or it stepped
 * down and does not yet look for the other server): the primary's send then fails and it sends
 * again.
 *
 * <p>Thread-safety: {@link #deliver} from JGroups' delivery threads; its only state is the last
 * refusal logged (volatile, so that a refusal repeated every flush is logged once).
 */
final class ReplicaDispatch {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(ReplicaDispatch.class);

    private final PairRole role;
    /** The reason of the last refusal logged, null after a message was taken; written by the delivering thread. */
    private volatile String lastRefusal;
    private final ReplicaApplier applier;
    private final long applyTimeoutMillis;

    /**
     * @param role               this server's role in the pair, asked before each message
     * @param applier            applies what is taken
     * @param applyTimeoutMillis how long one message may take to be applied
     */
    ReplicaDispatch(final PairRole role, final ReplicaApplier applier, final long applyTimeoutMillis) {
        this.role = role;
        this.applier = applier;
        this.applyTimeoutMillis = applyTimeoutMillis;
    }

    /**
     * Applies one message of the primary's; returns once it is applied.
     *
     * @throws IllegalStateException    when this server takes no records now
     * @throws IllegalArgumentException for a message of unknown kind, or damaged
     */
    void deliver(final byte[] message) {
        try {
            take(message);
        } catch (RuntimeException e) {
            final String reason = e.getMessage();
            if (!java.util.Objects.equals(reason, lastRefusal)) {
                lastRefusal = reason; // logged once per distinct reason: the primary sends again every flush interval
                LOG.warn("the primary's message is refused (it counts its writes unprotected and sends again): {}", reason);
            }
            throw e;
        }
        lastRefusal = null;
    }

    private void take(final byte[] message) {
        if (role.primary() || role.steppedDown() && !role.rejoining()) {
            throw new IllegalStateException(role.steppedDown() ? "this server is stepping down: it stands by again by itself"
                : "this server is the primary: it takes no records");
        }
        final byte kind = ReplicaMessages.kindOf(message);
        if (kind == ReplicaMessages.RECORDS) {
            applier.apply(ReplicaMessages.bodyOf(message), applyTimeoutMillis);
        } else if (kind == ReplicaMessages.PROFILE) {
            applier.applyProfile(ReplicaMessages.bodyOf(message), applyTimeoutMillis);
        } else if (kind == ReplicaMessages.LEARNED) {
            applier.applyLearned(ReplicaMessages.bodyOf(message), applyTimeoutMillis);
        } else {
            throw new IllegalArgumentException("a message of unknown kind " + kind + " from the primary");
        }
    }
}
