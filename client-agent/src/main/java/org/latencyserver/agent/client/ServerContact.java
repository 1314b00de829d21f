package org.latencyserver.agent.client;

import org.latencyserver.orb.Backoff;

/**
 * The agent's control thread's decisions about the server, without the calls: whether to
 * subscribe, which old subscription to cancel, what to say, and how long to wait before the next
 * contact. The thread makes the calls and reports each outcome here.
 *
 * <p>Rules: after each answer, poll again in the poll interval, with the back-off reset; after each
 * failure (the server could not be reached), retry after the next back-off delay and subscribe
 * again, cancelling the old subscription once a new one is made (a server that kept the old one
 * would push every request twice); say that the server is unreachable once per outage and that it
 * answers again once; say a refused subscription once (polling still works).
 *
 * <p>Not thread-safe: the control thread's own.
 */
final class ServerContact {

    private final long pollIntervalMillis;
    private final Backoff backoff;
    private boolean subscribed;
    private long subscriptionId;
    private boolean refusalSaid;
    private boolean down;

    /**
     * @param pollIntervalMillis how often the open requests are polled while the server answers, ms
     * @param backoff            the delays between tries while it does not
     */
    ServerContact(final long pollIntervalMillis, final Backoff backoff) {
        this.pollIntervalMillis = pollIntervalMillis;
        this.backoff = backoff;
    }

    /** @return whether to call {@code subscribe_measurements} at this contact */
    boolean needsSubscribing() {
        return !subscribed;
    }

    /**
     * The server accepted a subscription.
     *
     * @param newSubscriptionId its id
     * @return the earlier subscription's id, to cancel; 0 when there is none
     */
    long subscribed(final long newSubscriptionId) {
        final long earlier = subscriptionId;
        subscriptionId = newSubscriptionId;
        subscribed = true;
        return earlier;
    }

    /**
     * The server refused the subscription (not this server's agent, or its subscriptions are
     * full); it is asked again at the next contact.
     *
     * @return whether to say so: the first refusal only
     */
    boolean subscriptionRefused() {
        final boolean say = !refusalSaid;
        refusalSaid = true;
        return say;
    }

    /**
     * The server answered the poll.
     *
     * @return how long to wait before the next contact, and whether it answers after an outage
     */
    Next answered() {
        backoff.reset();
        final boolean back = down;
        down = false;
        return new Next(pollIntervalMillis, back, false);
    }

    /**
     * The server could not be reached: it is looked up and subscribed to again.
     *
     * @return how long to wait before the next try, and whether this outage is new
     */
    Next unreachable() {
        subscribed = false;
        final boolean outageBegins = !down;
        down = true;
        return new Next(backoff.nextDelayMillis(), false, outageBegins);
    }

    /**
     * What follows a contact.
     *
     * @param waitMillis    how long to wait before the next contact, ms
     * @param answersAgain  the server answered after an outage (say so)
     * @param outageBegins  the server could not be reached after it had answered, or at the first try (say so)
     */
    record Next(long waitMillis, boolean answersAgain, boolean outageBegins) {
    }
}
