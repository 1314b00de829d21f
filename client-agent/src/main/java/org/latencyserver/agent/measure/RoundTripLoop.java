package org.latencyserver.agent.measure;

import org.HdrHistogram.Histogram;

/**
 * Times round trips: a discarded warm-up, then the recorded run into an HdrHistogram in
 * nanoseconds, optionally stopped early by an {@link AdaptiveTarget}.
 *
 * <p>The timing loop allocates nothing: the histogram is sized up front (1 ns to 60 s, three
 * significant digits, so recording never resizes), the running mean and variance are primitive
 * (Welford's update, exact and stable), the batch sums are an array sized before the first round
 * trip, and the round trip is a pre-built object. What the ORB
 * allocates while marshalling is the transport's and is part of what is measured, as in the
 * thesis. Not thread-safe: one loop runs on one thread.
 */
public final class RoundTripLoop {

    /** Longest round trip kept exactly; slower ones are recorded as this (and show as the max). */
    static final long HIGHEST_TRACKABLE_NANOS = 60_000_000_000L;

    /**
     * Batches a run is cut into for its batch means: enough degrees of freedom for Student's t
     * (t(19) = 2.09) while each batch stays long (50 round trips, 100 ms paced, of a 1000-round-trip run).
     */
    static final int BATCHES = 20;

    private final GcPauseMeter gcPauses = new GcPauseMeter();

    /**
     * Unrecorded round trips back to back, at least {@code minRoundTrips} and then until
     * {@code endNanos}: nothing is timed or kept.
     *
     * @param endNanos {@link System#nanoTime()} until which to go on
     * @return the round trips run
     * @throws Exception whatever the round trip throws
     */
    static long warmUntil(final RoundTrip roundTrip, final int minRoundTrips, final long endNanos) throws Exception {
        return warmUntil(roundTrip, minRoundTrips, endNanos, 0);
    }

    /**
     * As {@link #warmUntil(RoundTrip, int, long)}, one round trip started every {@code intervalNanos} at most.
     *
     * @param intervalNanos minimum time from one round trip's start to the next; 0 for back to back
     */
    static long warmUntil(final RoundTrip roundTrip, final int minRoundTrips, final long endNanos, final long intervalNanos)
        throws Exception {
        long count = 0;
        while (count < minRoundTrips || System.nanoTime() - endNanos < 0) {
            final long startNanos = System.nanoTime();
            roundTrip.once();
            count++;
            pace(startNanos, intervalNanos);
        }
        return count;
    }

    /**
     * @param roundTrip        the round trip to time
     * @param warmupRoundTrips run first and discarded (JIT, connection set-up; the thesis saw its
     *                         first two samples at 200 ms)
     * @param roundTrips       how many to record at most (&ge; 1)
     * @param adaptive         stop once its CI target is reached; null for a fixed run
     * @return the recorded run
     * @throws Exception whatever the round trip throws; nothing partial is returned
     */
    public RunResult run(final RoundTrip roundTrip, final int warmupRoundTrips, final int roundTrips,
                         final AdaptiveTarget adaptive) throws Exception {
        return run(roundTrip, warmupRoundTrips, roundTrips, adaptive, Long.MAX_VALUE);
    }

    /**
     * As {@link #run(RoundTrip, int, int, AdaptiveTarget)}, abandoned when a deadline passes: a
     * result the server would refuse as late is not worth finishing.
     *
     * @param deadlineNanos {@link System#nanoTime()} after which the run stops; {@link Long#MAX_VALUE} for none
     * @throws DeadlineExceededException when the deadline passes first (checked every 256 round trips)
     */
    public RunResult run(final RoundTrip roundTrip, final int warmupRoundTrips, final int roundTrips,
                         final AdaptiveTarget adaptive, final long deadlineNanos) throws Exception {
        return run(roundTrip, warmupRoundTrips, roundTrips, adaptive, deadlineNanos, 0);
    }

    /**
     * As {@link #run(RoundTrip, int, int, AdaptiveTarget, long)}, one round trip started every
     * {@code intervalNanos} at most (the pause is not timed): a paced run loads the two sides as an
     * application sending that many messages per second would, where back-to-back round trips
     * would keep both cores half busy by themselves (the profiler's LOW state could not be reached).
     *
     * @param intervalNanos minimum time from one round trip's start to the next; 0 for back to back
     */
    public RunResult run(final RoundTrip roundTrip, final int warmupRoundTrips, final int roundTrips,
                         final AdaptiveTarget adaptive, final long deadlineNanos, final long intervalNanos) throws Exception {
        return run(roundTrip, warmupRoundTrips, roundTrips, adaptive, deadlineNanos, intervalNanos, Long.MAX_VALUE, roundTrips);
    }

    /**
     * As {@link #run(RoundTrip, int, int, AdaptiveTarget, long, long)}, bounded by time as well as count: once
     * {@code stopNanos} has passed and at least {@code minRecorded} round trips are recorded, the run ends and returns
     * what it has ({@link RunResult#stoppedByTime()}); a path so slow that the deadline passes first is still abandoned.
     * The warm-up round trips are paced like the run.
     *
     * <p>The timed loop stays whole in this method on purpose: moving its steps into helper methods
     * would add calls between the two clock reads and in the recording, and the loop must not
     * allocate or add work there. Only what runs before and after it is split out.
     *
     * @param stopNanos   {@link System#nanoTime()} after which the run ends early; {@link Long#MAX_VALUE} for none
     * @param minRecorded the fewest recorded round trips an early end returns, 1..roundTrips
     */
    public RunResult run(final RoundTrip roundTrip, final int warmupRoundTrips, final int roundTrips,
                         final AdaptiveTarget adaptive, final long deadlineNanos, final long intervalNanos,
                         final long stopNanos, final int minRecorded) throws Exception {
        return run(roundTrip, warmupRoundTrips, roundTrips, adaptive, deadlineNanos, intervalNanos, stopNanos, minRecorded,
            Integer.MAX_VALUE, 0);
    }

    /**
     * As {@link #run(RoundTrip, int, int, AdaptiveTarget, long, long, long, int)}, in bursts: the recorded round trips
     * go in bursts of {@code burstRoundTrips} started {@code intervalNanos} apart, and the first of the next burst
     * starts {@code intervalNanos + pauseNanos} after the last of the previous one started (a traffic shape's cycle:
     * burst × spacing + pause). The warm-up is paced by {@code intervalNanos} alone. Neither wait is timed.
     *
     * @param burstRoundTrips round trips per burst, {@code >= 1}; {@link Integer#MAX_VALUE} for one burst
     * @param pauseNanos      the pause after each burst, ns, {@code >= 0}
     */
    public RunResult run(final RoundTrip roundTrip, final int warmupRoundTrips, final int roundTrips,
                         final AdaptiveTarget adaptive, final long deadlineNanos, final long intervalNanos,
                         final long stopNanos, final int minRecorded, final int burstRoundTrips, final long pauseNanos)
        throws Exception {
        checkCounts(warmupRoundTrips, roundTrips, minRecorded);
        if (burstRoundTrips < 1 || pauseNanos < 0) {
            throw new IllegalArgumentException("bursts must be >= 1 round trip with a pause >= 0, were " + burstRoundTrips
                + " with " + pauseNanos + " ns");
        }
        warmUp(roundTrip, warmupRoundTrips, intervalNanos);
        final Histogram histogram = new Histogram(1, HIGHEST_TRACKABLE_NANOS, 3);
        // Batches are sized for the full run; a run stopped early (adaptive) has fewer complete ones.
        final int batchSize = Math.max(1, roundTrips / BATCHES);
        final double[] batchSumsNanos = new double[BATCHES];
        final long gcBeforeNanos = gcPauses.totalCollectionNanos();
        long count = 0;
        double mean = 0;
        double sumSquares = 0; // Welford's M2: sum of squared deviations from the running mean
        final int checkEvery = adaptive == null ? Integer.MAX_VALUE : adaptive.checkEveryRoundTrips();
        boolean stoppedByTime = false;
        while (count < roundTrips) {
            final long startNanos = System.nanoTime();
            roundTrip.once();
            final long endNanos = System.nanoTime();
            final long rttNanos = Math.max(1, endNanos - startNanos);
            histogram.recordValue(Math.min(rttNanos, HIGHEST_TRACKABLE_NANOS));
            count++;
            final long batch = (count - 1) / batchSize;
            if (batch < BATCHES) {
                batchSumsNanos[(int) batch] += rttNanos;
            }
            final double delta = rttNanos - mean;
            mean += delta / count;
            sumSquares += delta * (rttNanos - mean);
            if (count % checkEvery == 0 && adaptive.reached(count, sumSquares / (count - 1))) {
                break;
            }
            if (count >= minRecorded && count < roundTrips && endNanos - stopNanos > 0) {
                if (deadlineNanos != Long.MAX_VALUE && endNanos - deadlineNanos > 0) {
                    throw new DeadlineExceededException(count, roundTrips); // too late to be accepted: not submitted
                }
                stoppedByTime = true;
                break;
            }
            if ((count & 0xFF) == 0 && deadlineNanos != Long.MAX_VALUE && System.nanoTime() - deadlineNanos > 0) {
                throw new DeadlineExceededException(count, roundTrips);
            }
            pace(startNanos, count % burstRoundTrips == 0 ? intervalNanos + pauseNanos : intervalNanos);
        }
        final long gcOverlapNanos = gcPauses.totalCollectionNanos() - gcBeforeNanos;
        final double stdDev = count > 1 ? Math.sqrt(sumSquares / (count - 1)) : 0;
        return new RunResult(histogram, count, warmupRoundTrips, roundTrips - count, gcOverlapNanos, mean, stdDev,
            batchMeansNanos(batchSumsNanos, batchSize, count), stoppedByTime);
    }

    private static void checkCounts(final int warmupRoundTrips, final int roundTrips, final int minRecorded) {
        if (minRecorded < 1 || minRecorded > roundTrips) {
            throw new IllegalArgumentException("the fewest round trips of an early end must be 1.." + roundTrips + ", was "
                + minRecorded);
        }
        if (roundTrips < 1) {
            throw new IllegalArgumentException("round trips must be >= 1, was " + roundTrips);
        }
        if (warmupRoundTrips < 0) {
            throw new IllegalArgumentException("warm-up round trips must be >= 0, was " + warmupRoundTrips);
        }
    }

    /** The discarded warm-up round trips, paced like the run. */
    private static void warmUp(final RoundTrip roundTrip, final int warmupRoundTrips, final long intervalNanos) throws Exception {
        for (int i = 0; i < warmupRoundTrips; i++) {
            final long startNanos = System.nanoTime();
            roundTrip.once();
            pace(startNanos, intervalNanos);
        }
    }

    /**
     * The means of the complete batches, ns; empty when fewer than two are complete (a run stopped
     * early has fewer complete batches than {@link #BATCHES}).
     */
    private static double[] batchMeansNanos(final double[] batchSumsNanos, final int batchSize, final long count) {
        final int completeBatches = (int) Math.min(BATCHES, count / batchSize);
        final double[] batchMeansNanos = new double[completeBatches >= 2 ? completeBatches : 0];
        for (int b = 0; b < batchMeansNanos.length; b++) {
            batchMeansNanos[b] = batchSumsNanos[b] / batchSize;
        }
        return batchMeansNanos;
    }

    /** Waits until {@code intervalNanos} after {@code startNanos} (nothing for 0); allocates nothing. */
    private static void pace(final long startNanos, final long intervalNanos) {
        if (intervalNanos <= 0) {
            return;
        }
        final long nextStartNanos = startNanos + intervalNanos;
        long waitNanos;
        while ((waitNanos = nextStartNanos - System.nanoTime()) > 0) {
            java.util.concurrent.locks.LockSupport.parkNanos(waitNanos);
        }
    }
}
