package org.latencyserver.agent.client;

/**
 * Exponential back-off between retries: 0.5 s, 1 s, 2 s, … capped, reset after a success. Not
 * thread-safe; one per retrying loop. Public for the prober ({@code org.latencyserver.agent.probe}),
 * which backs off each peer path alike.
 */
public final class Backoff {

    private final long initialMillis;
    private final long maxMillis;
    private long nextMillis;

    /**
     * @param initialMillis the first delay, ms
     * @param maxMillis     the longest delay, ms
     */
    public Backoff(final long initialMillis, final long maxMillis) {
        this.initialMillis = initialMillis;
        this.maxMillis = maxMillis;
        this.nextMillis = initialMillis;
    }

    /** @return how long to wait before the next attempt, ms; doubles the following one */
    public long nextDelayMillis() {
        final long delay = nextMillis;
        nextMillis = Math.min(maxMillis, nextMillis * 2);
        return delay;
    }

    /** Starts again from the first delay, after a success. */
    public void reset() {
        nextMillis = initialMillis;
    }
}
