package org.latencyserver.agent.client;

/**
 * Exponential back-off between retries: 0.5 s, 1 s, 2 s, … capped, reset after a success. Not
 * thread-safe; one per retrying loop.
 */
final class Backoff {

    private final long initialMillis;
    private final long maxMillis;
    private long nextMillis;

    Backoff(final long initialMillis, final long maxMillis) {
        this.initialMillis = initialMillis;
        this.maxMillis = maxMillis;
        this.nextMillis = initialMillis;
    }

    /** @return how long to wait before the next attempt, ms; doubles the following one */
    long nextDelayMillis() {
        final long delay = nextMillis;
        nextMillis = Math.min(maxMillis, nextMillis * 2);
        return delay;
    }

    void reset() {
        nextMillis = initialMillis;
    }
}
