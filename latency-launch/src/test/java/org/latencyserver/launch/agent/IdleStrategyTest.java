package org.latencyserver.launch.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class IdleStrategyTest {

    /** Records what the back-off did instead of doing it. */
    private static final class RecordingParker implements BackoffIdleStrategy.Parker {
        final List<Long> parks = new ArrayList<>();
        int yields;

        @Override
        public void park(final long nanos) {
            parks.add(nanos);
        }

        @Override
        public void yieldNow() {
            yields++;
        }
    }

    @Test
    void theBackoffSpinsThenYieldsThenParksDoublingUpToItsLongestPark() {
        final RecordingParker parker = new RecordingParker();
        final BackoffIdleStrategy idle = new BackoffIdleStrategy(2, 3, Duration.ofNanos(100), Duration.ofNanos(350), parker);

        assertEquals(BackoffIdleStrategy.Phase.SPINNING, idle.phase());
        idle.idle(0);
        idle.idle(0);
        assertEquals(BackoffIdleStrategy.Phase.YIELDING, idle.phase());
        assertEquals(0, parker.yields);
        idle.idle(0);
        idle.idle(0);
        idle.idle(0);
        assertEquals(3, parker.yields);
        assertEquals(BackoffIdleStrategy.Phase.PARKING, idle.phase());
        for (int i = 0; i < 4; i++) {
            idle.idle(0);
        }
        assertEquals(List.of(100L, 200L, 350L, 350L), parker.parks);
    }

    @Test
    void aRoundWithWorkStartsTheBackoffOver() {
        final RecordingParker parker = new RecordingParker();
        final BackoffIdleStrategy idle = new BackoffIdleStrategy(0, 0, Duration.ofNanos(100), Duration.ofNanos(1000), parker);
        idle.idle(0);
        idle.idle(0);
        idle.idle(5);
        idle.idle(0);
        assertEquals(List.of(100L, 200L, 100L), parker.parks);
        assertEquals(0, parker.yields);
    }

    @Test
    void theBackoffRefusesAMaxParkBelowItsMinPark() {
        assertThrows(IllegalArgumentException.class,
                () -> new BackoffIdleStrategy(0, 0, Duration.ofMillis(2), Duration.ofMillis(1)));
    }

    @Test
    void theSleepingStrategyParksAtLeastMostOfItsPeriodWhenIdle() {
        final SleepingIdleStrategy idle = new SleepingIdleStrategy(Duration.ofMillis(20));
        assertEquals(20_000_000L, idle.periodNanos());

        final long idleStart = System.nanoTime();
        idle.idle(0);
        final long idleNanos = System.nanoTime() - idleStart;
        assertTrue(idleNanos >= 15_000_000L, "an idle round parked " + idleNanos + " ns");
    }

    @Test
    void theSleepingStrategyRefusesAZeroPeriod() {
        assertThrows(IllegalArgumentException.class, () -> new SleepingIdleStrategy(Duration.ZERO));
    }

}
