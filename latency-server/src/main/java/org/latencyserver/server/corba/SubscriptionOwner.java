package org.latencyserver.server.corba;

import org.latencyserver.server.engine.CallerText;
import org.latencyserver.server.security.Caller;

/**
 * Whom a subscription counts against: the subject of the certificate a TLS caller presented (the
 * same party however many connections it opens), else the connection the call came on (its remote
 * address and port). Callers the server cannot tell apart (no connection known) share one owner.
 *
 * <p>Immutable and thread-safe.
 *
 * @param key         what owners are compared by
 * @param description how the owner is named in a refusal or a log line
 */
record SubscriptionOwner(String key, String description) {

    /** Every caller whose connection is unknown (a servant without a caller capture, as in tests). */
    static final SubscriptionOwner UNKNOWN = new SubscriptionOwner("unknown", "a caller whose connection is unknown");

    /**
     * @param caller who made the subscribe call
     * @return its certificate's subject over TLS with a certificate, else its connection
     */
    static SubscriptionOwner of(final Caller caller) {
        if (caller.transport() == Caller.Transport.TLS && caller.subject() != null) {
            final String subject = caller.subject().getName();
            return new SubscriptionOwner("certificate " + subject, "certificate '" + CallerText.capped(subject) + "'");
        }
        if (caller.peer() == null) {
            return UNKNOWN;
        }
        final String transport = caller.transport() == Caller.Transport.TLS ? "TLS" : "plain IIOP";
        return new SubscriptionOwner("connection " + caller.peer(), "the " + transport + " connection from " + caller.peer());
    }
}
