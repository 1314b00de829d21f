package org.latencyserver.orb;

/**
 * Exponential back-off between retries of a call to a remote object: the first delay, then twice
 * the one before, capped; reset after a success. The one back-off of every process that retries
 * the server or a peer (the client agent and its prober, the host-local mirror's feed, the status
 * console's feed), so they all back off alike.
 *
 * <p>Pure arithmetic: it says how long to wait, the caller waits. Not thread-safe; one per
 * retrying loop.
 */
public final class Backoff {

    private final long initialMillis;
    private final long maxMillis;
    private long nextMillis;

    /**
     * @param initialMillis the first delay, ms, positive
     * @param maxMillis     the longest delay, ms; a cap below the first delay caps that too
     */
    public Backoff(final long initialMillis, final long maxMillis) {
        if (initialMillis <= 0 || maxMillis <= 0) {
            throw new IllegalArgumentException("back-off delays must be positive, were " + initialMillis + " and " + maxMillis + " ms");
        }
        this.initialMillis = initialMillis;
        this.maxMillis = maxMillis;
        this.nextMillis = initialMillis;
    }

    /** @return how long to wait before the next attempt, ms; doubles the following one, up to the cap */
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
