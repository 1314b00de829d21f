package org.latencyserver.agent.client;

import java.util.HashMap;
import java.util.Map;

/**
 * Counts the measurements refused because a peer was not the pinned one ({@code --pin-peers}) and decides which
 * refusals are logged: a peer node's first, then at most one per {@link #LOG_INTERVAL_NANOS} with the count of
 * those not logged since. No clock of its own: callers pass the time.
 *
 * <p>Thread-safe (synchronized; refusals are rare, and never on a round trip's path).
 */
final class PinRefusals {

    /** At most one log line per peer node this often, ns (one minute). */
    static final long LOG_INTERVAL_NANOS = 60_000_000_000L;

    private final Map<String, long[]> byPeer = new HashMap<>();
    private long total;

    /**
     * Counts one refusal.
     *
     * @param peerNode the peer node that was refused
     * @param nowNanos the monotonic clock, ns
     * @return -1 when it is not to be logged; otherwise how many refusals of this peer went unlogged before it
     */
    synchronized long refused(final String peerNode, final long nowNanos) {
        total++;
        final long[] state = byPeer.get(peerNode); // {last logged at, unlogged since}
        if (state == null) {
            byPeer.put(peerNode, new long[] {nowNanos, 0});
            return 0;
        }
        if (nowNanos - state[0] < LOG_INTERVAL_NANOS) {
            state[1]++;
            return -1;
        }
        final long unlogged = state[1];
        state[0] = nowNanos;
        state[1] = 0;
        return unlogged;
    }

    /** @return refusals counted since start, every peer */
    synchronized long total() {
        return total;
    }
}
