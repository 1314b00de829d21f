package org.latencyserver.server.corba;

import org.latencyserver.server.engine.Refusal;

/**
 * A subscription the server will not take: the hub of its kind is full, or its owner holds as
 * many as one caller may. Carries the {@link Refusal} the caller is told and that is counted.
 */
final class SubscriptionRefused extends Exception {

    private static final long serialVersionUID = 1L;

    private final transient Refusal refusal;

    /** @param refusal why */
    SubscriptionRefused(final Refusal refusal) {
        super(refusal.message());
        this.refusal = refusal;
    }

    /** @return why */
    Refusal refusal() {
        return refusal;
    }
}
