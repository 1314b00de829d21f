package org.latencyserver.agent.client;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * How long the agent warms a path (peer and message size) before measuring it: the decision,
 * without the round trips. Time comes in as arguments on the monotonic clock (ns), so it is tested
 * with made-up instants.
 *
 * <p>Why warm at all: the request's warm-up (a few hundred round trips) covers the connection, not
 * the JIT, and a fresh pair of JVMs read paced round trips 1.3-1.5 times slower for its first
 * 10-15 s here, even after 30,000 round trips ({@code RunToRunDriftHarness}). The profiler warms
 * alike, so the two compare. Each new path gets {@value #JIT_WARMUP_ROUND_TRIPS} round trips; each
 * peer the configured time in all, never so long that the run would miss the request's deadline
 * (what is left then precedes the peer's next measurement).
 *
 * <p>Not thread-safe: the measuring thread's own.
 */
final class WarmupBudget {

    /** Round trips a new path gets whatever its peer's time spent. */
    static final int JIT_WARMUP_ROUND_TRIPS = 3_000;
    /** Kept free before a request's deadline for the run itself, beyond its estimated duration, ns. */
    static final long DEADLINE_MARGIN_NANOS = 2_000_000_000L;
    /** A paced round trip is assumed to take at least this long when the run's duration is estimated, ns. */
    private static final long SHORTEST_ROUND_TRIP_NANOS = 300_000L;

    private final long jitWarmupNanos;
    /** Warm-up time spent per peer, ns. */
    private final Map<String, Long> spentNanosByPeer = new HashMap<>();
    /** Paths (peer and size) that have had their round trips. */
    private final Set<String> warmedPaths = new HashSet<>();

    /** @param jitWarmupNanos warm-up time per peer in this JVM, ns; 0 for none beyond the round trips of a new path */
    WarmupBudget(final long jitWarmupNanos) {
        this.jitWarmupNanos = jitWarmupNanos;
    }

    /**
     * What to warm before a request's run. Counts the path as warmed from now on.
     *
     * @param peer                the peer's node name
     * @param messageSizeBytes    the request's message size
     * @param runRoundTrips       the request's warm-up and recorded round trips together
     * @param intervalNanos       the pacing of the run, ns; 0 back to back
     * @param warmupIntervalNanos the pacing the path's share allows the warm-up, ns; 0 back to back. A paced warm-up
     *                            runs no more round trips than fit before it must end
     * @param runBudgetNanos      the run's time bound (the request's time budget), ns; 0 for none: the run is then
     *                            estimated from its round trips alone
     * @param nowNanos            now, on the monotonic clock
     * @param deadlineNanos       the request's local deadline, on the same clock
     * @return the warm-up to run; {@link Plan#warms()} false when nothing is to be warmed
     */
    Plan plan(final String peer, final int messageSizeBytes, final long runRoundTrips, final long intervalNanos,
              final long warmupIntervalNanos, final long runBudgetNanos, final long nowNanos, final long deadlineNanos) {
        final boolean newPath = warmedPaths.add(peer + "@" + messageSizeBytes);
        int roundTrips = newPath ? JIT_WARMUP_ROUND_TRIPS : 0;
        final long spentNanos = spentNanosByPeer.getOrDefault(peer, 0L);
        if (spentNanos >= jitWarmupNanos) {
            // the peer's time is spent: a new path gets its round trips alone (paced: as many as a second allows)
            if (warmupIntervalNanos > 0) {
                roundTrips = (int) Math.min(roundTrips, 1_000_000_000L / warmupIntervalNanos);
            }
            return new Plan(peer, newPath, false, roundTrips, nowNanos, nowNanos, spentNanos, false);
        }
        // Twice the paced duration: a loaded path's round trips may each take longer than the interval; a run with a
        // time bound takes no longer than that.
        final long pacedNanos = 2L * runRoundTrips * Math.max(intervalNanos, SHORTEST_ROUND_TRIP_NANOS);
        final long runNanos = runBudgetNanos > 0 ? Math.min(pacedNanos, runBudgetNanos) : pacedNanos;
        final long goalNanos = nowNanos + jitWarmupNanos - spentNanos;
        final long latestNanos = deadlineNanos - runNanos - DEADLINE_MARGIN_NANOS;
        final boolean cutShort = goalNanos - latestNanos > 0;
        final long untilNanos = cutShort ? latestNanos : goalNanos;
        if (warmupIntervalNanos > 0) {
            roundTrips = (int) Math.min(roundTrips, Math.max(0, (untilNanos - nowNanos) / warmupIntervalNanos));
        }
        return new Plan(peer, true, true, roundTrips, untilNanos, nowNanos, spentNanos, cutShort);
    }

    /**
     * Records what a warm-up that {@linkplain Plan#spendsPeerTime() spends the peer's time} took.
     *
     * @param plan     the plan it ran
     * @param nowNanos when it ended, on the plan's clock
     * @return the peer's warm-up time spent in all now, ns (at most the configured time)
     */
    long warmed(final Plan plan, final long nowNanos) {
        final long totalNanos = plan.cutShort() ? plan.spentBeforeNanos() + nowNanos - plan.startNanos() : jitWarmupNanos;
        final long kept = Math.max(plan.spentBeforeNanos(), Math.min(totalNanos, jitWarmupNanos));
        spentNanosByPeer.put(plan.peer(), kept);
        return kept;
    }

    /** @return the configured warm-up time per peer, ns */
    long jitWarmupNanos() {
        return jitWarmupNanos;
    }

    /**
     * A warm-up to run.
     *
     * @param peer             whose path
     * @param warms            false when there is nothing to warm (the path is warm and its peer's time spent)
     * @param spendsPeerTime    whether it runs for a time that counts against the peer's (else its round trips alone)
     * @param roundTrips       back-to-back round trips to run at least
     * @param untilNanos       and until this instant, on the monotonic clock
     * @param startNanos       when it was planned
     * @param spentBeforeNanos the peer's warm-up time spent before it, ns
     * @param cutShort         whether the request's deadline leaves less than the peer's remaining time
     */
    record Plan(String peer, boolean warms, boolean spendsPeerTime, int roundTrips, long untilNanos, long startNanos, long spentBeforeNanos,
                boolean cutShort) {
    }
}
