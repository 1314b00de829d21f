package org.latencyserver.agent.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.latencyserver.core.traffic.CallKind;
import org.latencyserver.core.traffic.TrafficFamily;
import org.latencyserver.core.traffic.TrafficShape;

/**
 * The probes' train schedule, driven by a simulated clock: sends of a train one spacing apart, trains one spacing and
 * the pause apart, the pause the longer of the declared one and the one the probe rate needs, drawn shapes new per train.
 */
class TrainScheduleTest {

    private static final long MS = 1_000_000L;
    /** An arbitrary origin, negative like nanoTime may be. */
    private static final long T0 = -7_000_000_000L;

    @Test
    void aDeclaredShapesSendsAreOneSpacingApartWithinATrainAndTheBudgetsPauseBetweenTrains() {
        final TrafficShape declared = new TrafficShape(2_000, 5, 0, CallKind.OCTETS);
        final TrainSchedule schedule = new TrainSchedule(new Random(1));
        final int slot = schedule.add(declared, 10.0, T0);
        // 5 round trips at 10 per second: a cycle of 500 ms, 5 × 2 ms of it the train, the rest the pause.
        assertEquals(490 * MS, TrainSchedule.pauseNanos(declared, 10.0));
        long previousNanos = schedule.dueNanos(slot);
        assertTrue(previousNanos - T0 >= 0 && previousNanos - T0 < 500 * MS, "the first train within one cycle");
        final long firstNanos = previousNanos;
        for (int train = 0; train < 40; train++) {
            for (int i = 0; i < 5; i++) {
                assertEquals(i, schedule.sentInTrain(slot));
                assertEquals(new TrafficShape(2_000, 5, 490, CallKind.OCTETS), schedule.trainShape(slot), "the pause used, in ms");
                final boolean ended = schedule.advance(slot);
                assertEquals(i == 4, ended, "train " + train + " send " + i);
                final long gapNanos = schedule.dueNanos(slot) - previousNanos;
                assertEquals(i == 4 ? 2 * MS + 490 * MS : 2 * MS, gapNanos, "train " + train + " send " + i);
                previousNanos = schedule.dueNanos(slot);
            }
        }
        assertEquals(40 * 500 * MS, previousNanos - firstNanos, "200 round trips in 20 s: the rate, exactly");
    }

    @Test
    void aDeclaredPauseLongerThanTheBudgetNeedsIsKeptAndTheRateIsThenLower() {
        final TrafficShape declared = new TrafficShape(1_000, 10, 2_000, CallKind.ARRAYS);
        assertEquals(2_000 * MS, TrainSchedule.pauseNanos(declared, 50.0), "the budget needs 190 ms; 2 s declared");
        final TrainSchedule schedule = new TrainSchedule(new Random(2));
        final int slot = schedule.add(declared, 50.0, T0);
        final long startNanos = schedule.dueNanos(slot);
        for (int i = 0; i < 100; i++) {
            schedule.advance(slot);
        }
        assertEquals(10 * (10 * MS + 2_000 * MS), schedule.dueNanos(slot) - startNanos);
        assertEquals(declared, schedule.trainShape(slot), "the declared pause, unchanged");
    }

    @Test
    void aBurstLongerThanTheBudgetAllowsIsFollowedByNoPause() {
        final TrafficShape declared = new TrafficShape(10_000, 100, 0, CallKind.OCTETS);
        assertEquals(0, TrainSchedule.pauseNanos(declared, 200.0), "100 round trips 10 ms apart already take 1 s at 200/s");
    }

    @Test
    void withoutADeclaredShapeEachTrainIsDrawnAfreshFromTheDefaultFamilyAndTheRateHolds() {
        final double ratePerSecond = 20.0;
        final TrainSchedule schedule = new TrainSchedule(new Random(3));
        final int slot = schedule.add(null, ratePerSecond, T0);
        final long startNanos = schedule.dueNanos(slot);
        final Set<TrafficShape> shapes = new HashSet<>();
        final Set<CallKind> calls = new HashSet<>();
        long sends = 0;
        int trains = 0;
        while (trains < 400) {
            final TrafficShape shape = schedule.trainShape(slot);
            assertTrue(TrafficFamily.DEFAULT.contains(shape), shape.toString());
            // The shape's pause is the one used rounded to whole ms: within 0.5 ms of it.
            assertTrue(withLongerPause(shape).meanRoundTripsPerSecond() <= ratePerSecond, shape + " exceeds the probe rate");
            shapes.add(shape);
            calls.add(shape.call());
            for (int i = 0; i < shape.burstRoundTrips(); i++) {
                sends++;
                assertEquals(i == shape.burstRoundTrips() - 1, schedule.advance(slot));
            }
            trains++;
        }
        assertTrue(shapes.size() > 300, "a new draw per train: " + shapes.size() + " distinct shapes in 400 trains");
        assertEquals(Set.of(CallKind.OCTETS, CallKind.ARRAYS), calls);
        final double achievedPerSecond = sends / ((schedule.dueNanos(slot) - startNanos) / 1e9);
        assertTrue(achievedPerSecond <= ratePerSecond && achievedPerSecond > ratePerSecond * 0.98,
            "long-run rate " + achievedPerSecond + " per second for a budget of " + ratePerSecond);
    }

    @Test
    void pathsAreMergedEarliestFirstAndAChangeTakesEffectAtTheNextTrain() {
        final TrainSchedule schedule = new TrainSchedule(new Random(4));
        final TrafficShape slow = new TrafficShape(5_000, 2, 0, CallKind.ARRAYS);
        final int a = schedule.add(slow, 1.0, T0);
        final int b = schedule.add(new TrafficShape(1_000, 3, 0, CallKind.OCTETS), 1.0, T0);
        long previousNanos = Long.MIN_VALUE;
        for (int i = 0; i < 50; i++) {
            final int slot = schedule.earliestSlot();
            final long dueNanos = schedule.dueNanos(slot);
            assertTrue(previousNanos == Long.MIN_VALUE || dueNanos - previousNanos >= 0, "in time order");
            assertEquals(slot == a ? b : a, otherSlot(slot, a, b));
            assertTrue(dueNanos - schedule.dueNanos(otherSlot(slot, a, b)) <= 0, "the earliest of the two");
            previousNanos = dueNanos;
            schedule.advance(slot);
        }
        final TrafficShape faster = new TrafficShape(5_000, 4, 0, CallKind.OCTETS);
        schedule.change(a, faster, 2.0);
        assertFalse(schedule.sentInTrain(a) == 0 && schedule.trainShape(a).equals(faster), "the current train is not cut");
        while (schedule.sentInTrain(a) != 0 || schedule.trainShape(a).burstRoundTrips() == 2) {
            schedule.advance(a);
        }
        assertEquals(new TrafficShape(5_000, 4, 1_980, CallKind.OCTETS), schedule.trainShape(a));
        schedule.remove(b);
        assertEquals(a, schedule.earliestSlot());
        assertEquals(b, schedule.add(null, 5.0, T0), "a removed path's slot is reused");
        assertThrows(IllegalArgumentException.class, () -> schedule.add(slow, 0.0, T0));
        assertThrows(IllegalArgumentException.class, () -> schedule.dueNanos(7));
    }

    private static TrafficShape withLongerPause(final TrafficShape shape) {
        return new TrafficShape(shape.spacingMicros(), shape.burstRoundTrips(), shape.pauseMillis() + 1, shape.call());
    }

    private static int otherSlot(final int slot, final int a, final int b) {
        return slot == a ? b : a;
    }
}
