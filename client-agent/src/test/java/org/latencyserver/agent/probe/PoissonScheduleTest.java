package org.latencyserver.agent.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The schedule on a simulated clock (it never reads one): its gaps are exponential of the path's
 * rate, and merging paths keeps each one's rate. Seeded, so every run draws the same numbers; the
 * tolerances are still chosen at 4 standard errors or more, so that another seed passes too.
 */
class PoissonScheduleTest {

    private static final int DRAWS = 200_000;

    @Test
    void gapsOfOnePathHaveMeanOneOverTheRateAndCoefficientOfVariationOne() {
        final PoissonSchedule schedule = new PoissonSchedule(new Random(20_261_124L));
        final double ratePerSecond = 20;
        final double expectedMeanNanos = 1e9 / ratePerSecond;
        final int slot = schedule.add(ratePerSecond, 0);
        long previousNanos = schedule.dueNanos(slot);
        double sum = 0;
        double sumSquares = 0;
        long aboveMean = 0;
        for (int i = 0; i < DRAWS; i++) {
            schedule.advance(slot);
            final long gapNanos = schedule.dueNanos(slot) - previousNanos;
            previousNanos = schedule.dueNanos(slot);
            assertTrue(gapNanos >= 1, "a gap is at least 1 ns");
            sum += gapNanos;
            sumSquares += (double) gapNanos * gapNanos;
            if (gapNanos > expectedMeanNanos) {
                aboveMean++;
            }
        }
        final double meanNanos = sum / DRAWS;
        final double stdDevNanos = Math.sqrt((sumSquares - DRAWS * meanNanos * meanNanos) / (DRAWS - 1));
        // Standard errors at 200,000 draws: mean 0.22 %, coefficient of variation 0.0032, share 0.0011.
        assertEquals(expectedMeanNanos, meanNanos, expectedMeanNanos * 0.01, "mean gap = 1 / rate");
        assertEquals(1.0, stdDevNanos / meanNanos, 0.015, "coefficient of variation of an exponential = 1");
        assertEquals(Math.exp(-1), (double) aboveMean / DRAWS, 0.005, "P(gap > mean) = 1/e: exponential, not merely of CV 1");
    }

    @Test
    void aMergedScheduleOfSeveralPathsKeepsEachPathsRateAndComesInTimeOrder() {
        final PoissonSchedule schedule = new PoissonSchedule(new Random(7L));
        final double[] ratesPerSecond = {2, 20, 200};
        for (final double rate : ratesPerSecond) {
            schedule.add(rate, 0);
        }
        final long horizonNanos = 2_000L * 1_000_000_000L; // 2000 s simulated: 4,000, 40,000 and 400,000 sends
        final long[] sends = new long[ratesPerSecond.length];
        long previousNanos = Long.MIN_VALUE;
        while (true) {
            final int slot = schedule.earliestSlot();
            final long dueNanos = schedule.dueNanos(slot);
            if (dueNanos > horizonNanos) {
                break;
            }
            assertTrue(dueNanos >= previousNanos, "the merged schedule is ordered by send time");
            previousNanos = dueNanos;
            sends[slot]++;
            schedule.advance(slot);
        }
        for (int slot = 0; slot < ratesPerSecond.length; slot++) {
            final double expected = ratesPerSecond[slot] * 2_000;
            // A Poisson count's standard deviation is its square root (63 of 4,000): allow 4 of them.
            assertEquals(expected, sends[slot], Math.max(4 * Math.sqrt(expected), expected * 0.02),
                "sends of the path at " + ratesPerSecond[slot] + " per second");
        }
    }

    @Test
    void aChangedRateTakesEffectAndARemovedPathsSlotIsReused() {
        final PoissonSchedule schedule = new PoissonSchedule(new Random(3L));
        final int first = schedule.add(10, 0);
        final int second = schedule.add(10, 0);
        schedule.setRate(second, 1000, 0);
        assertEquals(1000, schedule.ratePerSecond(second), 1e-9);
        schedule.remove(first);
        assertEquals(second, schedule.earliestSlot(), "a removed path is never due");
        assertEquals(first, schedule.add(5, 0), "the free slot is taken again");
        schedule.remove(first);
        schedule.remove(second);
        assertEquals(-1, schedule.earliestSlot(), "nothing scheduled");
        assertThrows(IllegalArgumentException.class, () -> schedule.advance(second));
    }

    @Test
    void ratesThatAreNotFiniteAndPositiveAreRefused() {
        final PoissonSchedule schedule = new PoissonSchedule(new Random(1L));
        for (final double rate : new double[] {0, -1, Double.NaN, Double.POSITIVE_INFINITY}) {
            assertThrows(IllegalArgumentException.class, () -> schedule.add(rate, 0), "rate " + rate);
        }
    }
}
