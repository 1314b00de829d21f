package org.latencyserver.agent.measure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * The timing loop on round trips of known cost (a busy wait), so what it counts, discards and
 * stops on can be checked exactly.
 */
class RoundTripLoopTest {

    private static final class CountingRoundTrip implements RoundTrip {
        int calls;
        final long spinNanos;

        CountingRoundTrip(final long spinNanos) {
            this.spinNanos = spinNanos;
        }

        @Override
        public void once() {
            calls++;
            final long end = System.nanoTime() + spinNanos;
            while (System.nanoTime() < end) {
                Thread.onSpinWait();
            }
        }
    }

    @Test
    void warmupRoundTripsRunButAreNotRecorded() throws Exception {
        final CountingRoundTrip roundTrip = new CountingRoundTrip(1_000);
        final RunResult result = new RoundTripLoop().run(roundTrip, 25, 100, null);
        assertEquals(125, roundTrip.calls);
        assertEquals(100, result.recordedRoundTrips());
        assertEquals(100, result.histogramNanos().getTotalCount());
        assertEquals(25, result.warmupRoundTrips());
        assertEquals(0, result.savedRoundTrips());
    }

    @Test
    void everyRecordedRoundTripTakesAtLeastItsBusyWaitAndTheMeanIsExact() throws Exception {
        final RunResult result = new RoundTripLoop().run(new CountingRoundTrip(200_000), 0, 50, null);
        // HdrHistogram reports the minimum as the lowest value of its bucket (3 digits: 199,936 ns holds 200,000..200,063).
        assertTrue(result.histogramNanos().getMinValue() >= result.histogramNanos().lowestEquivalentValue(200_000),
            "min " + result.histogramNanos().getMinValue());
        assertTrue(result.meanMillis() >= 0.2, "mean " + result.meanMillis());
        // The exact mean lies within the histogram's resolution (3 digits) of HdrHistogram's mean.
        assertEquals(result.histogramNanos().getMean(), result.meanNanos(), result.meanNanos() * 2e-3);
    }

    @Test
    void warmingRunsAtLeastTheMinimumAndThenUntilTheEndTime() throws Exception {
        final CountingRoundTrip roundTrip = new CountingRoundTrip(1_000);
        assertEquals(300, RoundTripLoop.warmUntil(roundTrip, 300, System.nanoTime()), "an end already past: just the minimum");
        assertEquals(300, roundTrip.calls);
        final long endNanos = System.nanoTime() + 20_000_000L;
        final long count = RoundTripLoop.warmUntil(roundTrip, 0, endNanos);
        assertTrue(System.nanoTime() - endNanos >= 0, "went on until the end time");
        assertEquals(300 + count, roundTrip.calls);
        assertTrue(count >= 1, "20 ms of 1 us round trips");
    }

    @Test
    void aRunPastItsTimeBudgetEndsWithWhatItRecordedOnceItHasTheMinimum() throws Exception {
        final CountingRoundTrip roundTrip = new CountingRoundTrip(1_000);
        final RunResult result = new RoundTripLoop().run(roundTrip, 5, 1_000_000, null, Long.MAX_VALUE, 0,
            System.nanoTime() + 20_000_000L, 50);
        assertTrue(result.stoppedByTime());
        assertTrue(result.recordedRoundTrips() >= 50 && result.recordedRoundTrips() < 1_000_000, result.toString());
        assertEquals(1_000_000 - result.recordedRoundTrips(), result.savedRoundTrips());
        assertEquals(result.recordedRoundTrips(), result.histogramNanos().getTotalCount());
    }

    @Test
    void aRunThatReachesItsMinimumOnlyAfterTheDeadlineIsAbandonedNotSubmittedLate() {
        final long now = System.nanoTime();
        assertThrows(DeadlineExceededException.class, () -> new RoundTripLoop().run(new CountingRoundTrip(1_000), 0, 1_000, null,
            now - 1, 0, now - 1, 100));
    }

    @Test
    void aTimeBudgetAlreadyPastStillRecordsTheMinimum() throws Exception {
        final RunResult result = new RoundTripLoop().run(new CountingRoundTrip(1_000), 0, 1_000, null, Long.MAX_VALUE, 0,
            System.nanoTime() - 1, 100);
        assertEquals(100, result.recordedRoundTrips());
        assertTrue(result.stoppedByTime());
    }

    @Test
    void aRunThatFinishesWithinItsTimeBudgetIsNotStoppedByTime() throws Exception {
        final RunResult result = new RoundTripLoop().run(new CountingRoundTrip(1_000), 0, 100, null, Long.MAX_VALUE, 0,
            System.nanoTime() + 60_000_000_000L, 10);
        assertEquals(100, result.recordedRoundTrips());
        assertFalse(result.stoppedByTime());
    }

    @Test
    void pacedWarmUpRoundTripsStartNoCloserThanTheInterval() throws Exception {
        final CountingRoundTrip roundTrip = new CountingRoundTrip(1_000);
        final long start = System.nanoTime();
        RoundTripLoop.warmUntil(roundTrip, 10, start, 2_000_000L);
        assertTrue(System.nanoTime() - start >= 9 * 2_000_000L, "ten round trips 2 ms apart take at least 18 ms");
        final long runStart = System.nanoTime();
        new RoundTripLoop().run(roundTrip, 10, 1, null, Long.MAX_VALUE, 2_000_000L);
        assertTrue(System.nanoTime() - runStart >= 10 * 2_000_000L, "the run's warm-up is paced too");
    }

    @Test
    void aRunIsCutIntoTwentyConsecutiveBatchesWhoseMeansAverageToTheRunsMean() throws Exception {
        final RunResult result = new RoundTripLoop().run(new CountingRoundTrip(20_000), 0, 100, null);
        final double[] batchMeansNanos = result.batchMeansNanos();
        assertEquals(20, batchMeansNanos.length);
        double sum = 0;
        for (final double batchMean : batchMeansNanos) {
            assertTrue(batchMean >= 20_000, "a batch of round trips of at least 20 us has a mean of " + batchMean + " ns");
            sum += batchMean;
        }
        // equal batches of 5 that cover the run: the mean of their means is the run's mean
        assertEquals(result.meanNanos(), sum / 20, result.meanNanos() * 1e-9);
        assertEquals(batchMeansNanos[3] / 1e6, result.batchMeansMillis()[3], 1e-15);
    }

    @Test
    void aRunStoppedBeforeTwoBatchesWereCompleteHasNoBatchMeans() throws Exception {
        // batches are sized for 10,000 round trips (500 each); adaptive sampling stops at 100. The target
        // (a 1 s half-width) is met at the first check even when a busy machine preempts a round trip for
        // tens of milliseconds: the check under test is the batch means, not the stopping rule.
        final RunResult result = new RoundTripLoop().run(new CountingRoundTrip(50_000), 0, 10_000, new AdaptiveTarget(1_000.0, 100, 50));
        assertEquals(100, result.recordedRoundTrips());
        assertEquals(0, result.batchMeansNanos().length);
    }

    @Test
    void adaptiveSamplingStopsOnceTheIntervalIsNarrowEnoughAndReportsTheSavedRoundTrips() throws Exception {
        // A steady round trip of ~50 us has a tiny spread: a 100 ms half-width is met at the first check,
        // even when a busy machine preempts a few round trips for tens of milliseconds.
        final RunResult result = new RoundTripLoop().run(new CountingRoundTrip(50_000), 0, 10_000,
            new AdaptiveTarget(100.0, 100, 50));
        assertEquals(100, result.recordedRoundTrips());
        assertEquals(9_900, result.savedRoundTrips());
        assertTrue(result.halfWidthMillis() <= 100.0);
    }

    @Test
    void anUnreachableTargetRunsEveryRoundTrip() throws Exception {
        final RunResult result = new RoundTripLoop().run(new CountingRoundTrip(1_000), 0, 300,
            new AdaptiveTarget(1e-9, 100, 50));
        assertEquals(300, result.recordedRoundTrips());
        assertEquals(0, result.savedRoundTrips());
    }

    @Test
    void aRunPastItsDeadlineIsAbandonedNotReturnedHalfDone() {
        final CountingRoundTrip roundTrip = new CountingRoundTrip(100_000);
        final long deadlineNanos = System.nanoTime() + 30_000_000L; // ~300 of the 10,000 fit
        final DeadlineExceededException error = assertThrows(DeadlineExceededException.class,
            () -> new RoundTripLoop().run(roundTrip, 0, 10_000, null, deadlineNanos));
        assertTrue(error.getMessage().contains("of 10000 round trips"), error.getMessage());
        assertTrue(roundTrip.calls < 10_000);
    }

    @Test
    void aFailingRoundTripFailsTheRun() {
        final RoundTrip failing = () -> {
            LockSupport.parkNanos(1_000);
            throw new java.io.IOException("peer gone");
        };
        assertThrows(java.io.IOException.class, () -> new RoundTripLoop().run(failing, 0, 10, null));
    }

    @Test
    void adaptiveTargetsRefuseNonsense() {
        assertThrows(IllegalArgumentException.class, () -> new AdaptiveTarget(0, 100, 50));
        assertThrows(IllegalArgumentException.class, () -> new AdaptiveTarget(Double.NaN, 100, 50));
        assertThrows(IllegalArgumentException.class, () -> new AdaptiveTarget(0.1, 10, 50));
        assertThrows(IllegalArgumentException.class, () -> new AdaptiveTarget(0.1, 100, 0));
    }

    @Test
    void aRunInBurstsStartsItsRoundTripsAtLeastOneSpacingApartAndItsBurstsAtLeastTheSpacingAndPauseApart() throws Exception {
        final long[] startsNanos = new long[3 + 12];
        final int[] calls = new int[1];
        final RoundTrip timed = () -> startsNanos[calls[0]++] = System.nanoTime();
        final long spacingNanos = 2_000_000L;
        final long pauseNanos = 30_000_000L;
        final RunResult result = new RoundTripLoop().run(timed, 3, 12, null, Long.MAX_VALUE, spacingNanos, Long.MAX_VALUE, 12, 4,
            pauseNanos);
        assertEquals(12, result.recordedRoundTrips());
        assertEquals(15, calls[0]);
        for (int i = 1; i < 12; i++) {
            final long gapNanos = startsNanos[3 + i] - startsNanos[3 + i - 1];
            // A wait ends at its time or later (never sooner): these are lower bounds, whatever the machine's load.
            final long leastNanos = i % 4 == 0 ? spacingNanos + pauseNanos : spacingNanos;
            assertTrue(gapNanos >= leastNanos, "round trip " + i + " started " + gapNanos + " ns after the one before, at least "
                + leastNanos + " expected");
        }
        assertThrows(IllegalArgumentException.class,
            () -> new RoundTripLoop().run(timed, 0, 1, null, Long.MAX_VALUE, 0, Long.MAX_VALUE, 1, 0, 0));
    }
}
