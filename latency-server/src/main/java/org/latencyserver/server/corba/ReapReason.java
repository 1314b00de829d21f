package org.latencyserver.server.corba;

import java.util.Locale;

/**
 * Why the server dropped a subscriber on its own (an {@code unsubscribe} is not counted here): the
 * {@code reason} label of {@code latency_server_subscribers_reaped_total}.
 */
public enum ReapReason {

    /** The listener's object no longer exists: a push or a liveness check got {@code OBJECT_NOT_EXIST}, or {@code _non_existent()} said so. */
    LISTENER_GONE,
    /** {@value Subscriber#MAX_CONSECUTIVE_FAILURES} calls in a row (pushes or liveness checks) failed: unreachable, timed out, or the listener threw. */
    FAILED_CALLS,
    /** Its queue of undelivered events was full (measurement requests only). */
    QUEUE_FULL,
    /** The server is stopping and had no delivery thread for it. */
    NO_DELIVERY_THREAD;

    /** @return the metric label, e.g. {@code listener_gone} */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
