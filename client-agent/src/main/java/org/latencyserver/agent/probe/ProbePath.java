package org.latencyserver.agent.probe;

import org.latencyserver.agent.measure.RoundTrip;
import org.latencyserver.core.traffic.CallKind;
import org.latencyserver.core.traffic.TrafficShape;
import org.latencyserver.orb.Backoff;

/**
 * The prober's state of one probed connection: its target, its open report window, its round trip
 * (built on the first send, dropped when the peer fails) with the peer's back-off, and what the
 * window's summary line counts.
 *
 * <p>Not thread-safe: the prober thread owns it; fields are read and written directly by
 * {@link PathProber}.
 */
final class ProbePath {

    /** Once a minute at most, a refused report of a connection is logged. */
    static final long REFUSAL_LOG_INTERVAL_NANOS = 60_000_000_000L;

    ProbeTarget target;
    /** The path's slot in the schedule; -1 once retired. */
    int slot;
    final ProbeWindow window;
    /** The prepared round trip to the peer per call (by {@link CallKind#ordinal()}); null until its first send and after a failure. */
    final RoundTrip[] roundTrips = new RoundTrip[CallKind.values().length];
    /** The shape of the trains whose round trips the open window holds; null before its first train. */
    TrafficShape windowShape;
    /** Between attempts after the peer failed: 0.5 s doubling to 30 s (a probe may wait; a measurement may not). */
    final Backoff peerBackoff = new Backoff(500, 30_000);
    /** Sends due before this time are skipped ({@link System#nanoTime()}); meaningful while {@link #peerDown}. */
    long pausedUntilNanos;
    /** The peer failed and has not answered since (logged once per outage). */
    boolean peerDown;

    /** This window's sends that were late, and that were skipped, for its summary line. */
    long lateSends;
    long skippedWhileMeasuring;
    long skippedWhilePeerDown;

    /** Whether a refused report was ever logged, and when last; refusals since then. */
    boolean refusalLogged;
    long lastRefusalLogNanos;
    long refusalsNotLogged;

    /**
     * @param target     the connection
     * @param slot       its schedule slot
     * @param startNanos when its first window opens, {@link System#nanoTime()}
     */
    ProbePath(final ProbeTarget target, final int slot, final long startNanos) {
        this.target = target;
        this.slot = slot;
        this.window = new ProbeWindow(startNanos);
    }

    /**
     * @param nowNanos {@link System#nanoTime()}
     * @return whether a refusal may be logged now (once per minute per connection); counts it otherwise
     */
    boolean mayLogRefusal(final long nowNanos) {
        if (refusalLogged && nowNanos - lastRefusalLogNanos < REFUSAL_LOG_INTERVAL_NANOS) {
            refusalsNotLogged++;
            return false;
        }
        refusalLogged = true;
        lastRefusalLogNanos = nowNanos;
        return true;
    }

    /** Clears the window's summary counts once it has been reported. */
    void resetWindowCounts() {
        lateSends = 0;
        skippedWhileMeasuring = 0;
        skippedWhilePeerDown = 0;
    }
}
