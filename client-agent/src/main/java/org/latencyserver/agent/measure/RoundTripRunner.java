package org.latencyserver.agent.measure;

import org.latencyserver.core.traffic.CallKind;
import org.latencyserver.idl.latency.EchoPeer;

/**
 * Measures CORBA round trips of one message size to one peer agent: the unit of work of a QoS 3/4
 * measurement and of a profile cell. Not thread-safe; one runner per measuring thread.
 */
public final class RoundTripRunner {

    private final RoundTrip roundTrip;
    private final RoundTripLoop loop = new RoundTripLoop();

    /**
     * @param peer             the peer agent's echo object
     * @param messageSizeBytes the message size, bytes
     * @throws IllegalStateException when the peer does not echo what it is sent
     * @throws org.omg.CORBA.SystemException when the peer cannot be reached
     */
    public RoundTripRunner(final EchoPeer peer, final int messageSizeBytes) {
        this.roundTrip = CorbaRoundTrips.to(peer, messageSizeBytes);
    }

    /**
     * @param peer             the peer agent's echo object
     * @param messageSizeBytes the message size, bytes
     * @param call             the call each round trip makes (see {@link CorbaRoundTrips#to(EchoPeer, int, CallKind)})
     * @throws IllegalStateException when the peer does not echo what it is sent
     * @throws org.omg.CORBA.SystemException when the peer cannot be reached
     */
    public RoundTripRunner(final EchoPeer peer, final int messageSizeBytes, final CallKind call) {
        this.roundTrip = CorbaRoundTrips.to(peer, messageSizeBytes, call);
    }

    /**
     * Warms the path: unrecorded round trips back to back, at least {@code minRoundTrips} and then
     * until {@code endNanos}. Nothing is timed or kept (a fresh pair of JVMs reads slow for its
     * first 10-15 s, so the profiler and the agent warm by time, not by count).
     *
     * @param minRoundTrips at least this many, whatever the time
     * @param endNanos      {@link System#nanoTime()} until which to go on
     * @return the round trips run
     * @throws Exception when a round trip fails
     */
    public long warmUntil(final int minRoundTrips, final long endNanos) throws Exception {
        return RoundTripLoop.warmUntil(roundTrip, minRoundTrips, endNanos);
    }

    /**
     * As {@link #warmUntil(int, long)}, paced: one round trip started every {@code intervalNanos} at most.
     *
     * @param intervalNanos minimum time from one round trip's start to the next; 0 for back to back
     */
    public long warmUntil(final int minRoundTrips, final long endNanos, final long intervalNanos) throws Exception {
        return RoundTripLoop.warmUntil(roundTrip, minRoundTrips, endNanos, intervalNanos);
    }

    /**
     * @param warmupRoundTrips run first and discarded
     * @param roundTrips       to record at most
     * @param adaptiveOrNull   stop early once this CI target is met; null for exactly {@code roundTrips}
     * @return the run
     * @throws Exception when a round trip fails (CORBA system exceptions: the peer is gone or hung)
     */
    public RunResult run(final int warmupRoundTrips, final int roundTrips, final AdaptiveTarget adaptiveOrNull) throws Exception {
        return loop.run(roundTrip, warmupRoundTrips, roundTrips, adaptiveOrNull);
    }

    /**
     * @param deadlineNanos {@link System#nanoTime()} after which the run is abandoned
     * @return the run
     * @throws DeadlineExceededException when the deadline passes first
     * @throws Exception                 when a round trip fails
     * @see #run(int, int, AdaptiveTarget)
     */
    public RunResult run(final int warmupRoundTrips, final int roundTrips, final AdaptiveTarget adaptiveOrNull,
                         final long deadlineNanos) throws Exception {
        return loop.run(roundTrip, warmupRoundTrips, roundTrips, adaptiveOrNull, deadlineNanos);
    }

    /**
     * @param intervalNanos minimum time between round-trip starts (paced, as an application's message
     *                      rate); 0 for back to back
     * @return the run
     * @throws Exception when a round trip fails
     */
    public RunResult runPaced(final int warmupRoundTrips, final int roundTrips, final long intervalNanos) throws Exception {
        return loop.run(roundTrip, warmupRoundTrips, roundTrips, null, Long.MAX_VALUE, intervalNanos);
    }

    /**
     * Everything at once: adaptive stop, deadline and pacing.
     *
     * @return the run
     * @throws DeadlineExceededException when the deadline passes first
     * @throws Exception                 when a round trip fails
     */
    public RunResult run(final int warmupRoundTrips, final int roundTrips, final AdaptiveTarget adaptiveOrNull,
                         final long deadlineNanos, final long intervalNanos) throws Exception {
        return loop.run(roundTrip, warmupRoundTrips, roundTrips, adaptiveOrNull, deadlineNanos, intervalNanos);
    }

    /**
     * Everything at once, bounded by time as well: see {@link RoundTripLoop#run(RoundTrip, int, int, AdaptiveTarget,
     * long, long, long, int)}.
     *
     * @param stopNanos   after this the run ends once it has {@code minRecorded} round trips
     * @param minRecorded the fewest round trips an early end returns
     * @return the run
     * @throws DeadlineExceededException when the deadline passes first
     * @throws Exception                 when a round trip fails
     */
    public RunResult run(final int warmupRoundTrips, final int roundTrips, final AdaptiveTarget adaptiveOrNull,
                         final long deadlineNanos, final long intervalNanos, final long stopNanos, final int minRecorded)
        throws Exception {
        return loop.run(roundTrip, warmupRoundTrips, roundTrips, adaptiveOrNull, deadlineNanos, intervalNanos, stopNanos,
            minRecorded);
    }

    /**
     * Everything at once, in bursts: see {@link RoundTripLoop#run(RoundTrip, int, int, AdaptiveTarget, long, long, long,
     * int, int, long)}.
     *
     * @param burstRoundTrips round trips per burst; {@link Integer#MAX_VALUE} for one burst
     * @param pauseNanos      the pause after each burst, ns
     * @return the run
     * @throws DeadlineExceededException when the deadline passes first
     * @throws Exception                 when a round trip fails
     */
    public RunResult run(final int warmupRoundTrips, final int roundTrips, final AdaptiveTarget adaptiveOrNull,
                         final long deadlineNanos, final long intervalNanos, final long stopNanos, final int minRecorded,
                         final int burstRoundTrips, final long pauseNanos) throws Exception {
        return loop.run(roundTrip, warmupRoundTrips, roundTrips, adaptiveOrNull, deadlineNanos, intervalNanos, stopNanos,
            minRecorded, burstRoundTrips, pauseNanos);
    }
}
