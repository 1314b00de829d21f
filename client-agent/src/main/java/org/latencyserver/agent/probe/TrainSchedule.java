package org.latencyserver.agent.probe;

import java.util.Arrays;
import java.util.Random;
import org.latencyserver.core.traffic.TrafficFamily;
import org.latencyserver.core.traffic.TrafficShape;

/**
 * The send times of several probe paths, each sending trains in a traffic shape, merged into one
 * schedule: {@link #earliestSlot()} is the path whose next send is due first.
 *
 * <p>A path's train is a burst of {@code burstRoundTrips} sends started {@code spacingMicros} apart
 * (start to start); the next train starts {@code spacingMicros + pause} after the last send of the
 * burst was due, so that one cycle lasts {@code burstRoundTrips × spacing + pause}, as
 * {@link TrafficShape#meanRoundTripsPerSecond()} counts it. The pause is the longer of the shape's own
 * {@code pauseMillis} and the pause the path's probe rate needs ({@link #pauseNanos}): the long-run rate
 * never exceeds the probe rate, and is below it when the declared pause is longer than the budget needs.
 * A path with a declared shape sends every train in it; a path without one draws each train's shape
 * afresh from {@link TrafficFamily#DEFAULT} at its probe rate ({@link TrafficFamily#draw}).
 *
 * <p>Open loop: a send's due time follows from the previous one's due time, never from when a reply
 * came back; a send made late does not move the ones after it. The first train of a path starts at
 * a random phase within one cycle, so that paths added together do not send in step. Times are
 * {@link System#nanoTime()} values compared by difference; the schedule never reads the clock, so a
 * simulated clock can drive it. Slots are stable for a path's life; a removed path's slot is reused.
 * Finding the earliest slot is a linear scan over a handful of longs and allocates nothing; a new
 * train's drawn shape is allocated between trains, never between a send's clock reads.
 *
 * <p>Not thread-safe: one prober thread owns it.
 */
public final class TrainSchedule {

    private static final double NANOS_PER_SECOND = 1e9;

    private final Random random;
    /** Next send time per slot, ns; meaningless when the slot is free. */
    private long[] dueNanos = new long[0];
    /** Probe rate per slot, round trips/s; 0 marks a free slot. */
    private double[] ratePerSecond = new double[0];
    /** Declared shape per slot; null to draw each train from the default family. */
    private TrafficShape[] declared = new TrafficShape[0];
    /** The shape of the slot's current train, its pause the one used (see {@link #trainShape}). */
    private TrafficShape[] current = new TrafficShape[0];
    /** Sends of the current train already due (made or skipped), per slot. */
    private int[] sentInTrain = new int[0];
    /** Pause after the current train, ns, per slot. */
    private long[] pauseNanos = new long[0];

    /**
     * @param random where drawn shapes and first phases come from; seed it for a reproducible schedule
     */
    public TrainSchedule(final Random random) {
        this.random = random;
    }

    /**
     * The pause a train of {@code shape} is followed by at {@code ratePerSecond}: the longer of the shape's own
     * pause and the one that keeps the long-run rate at the probe rate, {@code burst / rate − burst × spacing}.
     *
     * @param shape         the train's shape
     * @param ratePerSecond the path's probe rate, finite and {@code > 0}
     * @return the pause, ns, {@code >= 0}
     */
    public static long pauseNanos(final TrafficShape shape, final double ratePerSecond) {
        final double cycleNanos = shape.burstRoundTrips() * NANOS_PER_SECOND / checkedRate(ratePerSecond);
        final double budgetPauseNanos = cycleNanos - shape.burstRoundTrips() * (double) shape.spacingMicros() * 1_000.0;
        return Math.max(shape.pauseMillis() * 1_000_000L, (long) Math.ceil(Math.max(0, budgetPauseNanos)));
    }

    /**
     * Adds a path; its first train starts at a random phase within one cycle after {@code fromNanos}.
     *
     * @param declaredShape the path's declared shape, or null to draw each train from the default family
     * @param rate          probe round trips per second, finite and {@code > 0}
     * @param fromNanos     now
     * @return the path's slot
     */
    public int add(final TrafficShape declaredShape, final double rate, final long fromNanos) {
        checkedRate(rate);
        int slot = 0;
        while (slot < ratePerSecond.length && ratePerSecond[slot] != 0) {
            slot++;
        }
        if (slot == ratePerSecond.length) {
            grow(slot + 1);
        }
        ratePerSecond[slot] = rate;
        declared[slot] = declaredShape;
        beginTrain(slot);
        final double cycleNanos = current[slot].burstRoundTrips() * current[slot].spacingMicros() * 1_000.0 + pauseNanos[slot];
        dueNanos[slot] = fromNanos + (long) (random.nextDouble() * cycleNanos);
        return slot;
    }

    /**
     * Changes a path's declared shape or rate; the current train goes on, the next one follows the change.
     *
     * @param slot          an active slot
     * @param declaredShape the declared shape, or null to draw from the default family
     * @param rate          the probe rate, finite and {@code > 0}
     */
    public void change(final int slot, final TrafficShape declaredShape, final double rate) {
        checkActive(slot);
        ratePerSecond[slot] = checkedRate(rate);
        declared[slot] = declaredShape;
    }

    /**
     * Removes a path; its slot becomes free for the next {@link #add}.
     *
     * @param slot an active slot
     */
    public void remove(final int slot) {
        checkActive(slot);
        ratePerSecond[slot] = 0;
        declared[slot] = null;
        current[slot] = null;
    }

    /** @return the slot whose send is due first, or -1 when no path is scheduled */
    public int earliestSlot() {
        int best = -1;
        for (int slot = 0; slot < ratePerSecond.length; slot++) {
            if (ratePerSecond[slot] != 0 && (best < 0 || dueNanos[slot] - dueNanos[best] < 0)) {
                best = slot;
            }
        }
        return best;
    }

    /**
     * @param slot an active slot
     * @return when its next send is due, ns ({@link System#nanoTime()} scale)
     */
    public long dueNanos(final int slot) {
        checkActive(slot);
        return dueNanos[slot];
    }

    /**
     * @param slot an active slot
     * @return the shape of the train its next send belongs to, with the pause it is followed by (rounded to whole ms,
     *         at most {@link TrafficShape#MAX_PAUSE_MILLIS})
     */
    public TrafficShape trainShape(final int slot) {
        checkActive(slot);
        return current[slot];
    }

    /**
     * @param slot an active slot
     * @return how many sends of the current train were already due (0: the next send opens a train)
     */
    public int sentInTrain(final int slot) {
        checkActive(slot);
        return sentInTrain[slot];
    }

    /**
     * Moves a path on by one send, whether or not that send was made (a skipped send is not made up
     * later): to the next send of its train one spacing on, or, after the train's last send, to the
     * next train's first, one spacing and the pause on (its shape drawn now when none is declared).
     *
     * @param slot an active slot
     * @return true when the send just due was its train's last
     */
    public boolean advance(final int slot) {
        checkActive(slot);
        final TrafficShape shape = current[slot];
        final long spacingNanos = shape.spacingMicros() * 1_000L;
        sentInTrain[slot]++;
        if (sentInTrain[slot] < shape.burstRoundTrips()) {
            dueNanos[slot] += spacingNanos;
            return false;
        }
        dueNanos[slot] += spacingNanos + pauseNanos[slot];
        beginTrain(slot);
        return true;
    }

    private void beginTrain(final int slot) {
        final double rate = ratePerSecond[slot];
        final TrafficShape shape = declared[slot] != null ? declared[slot] : TrafficFamily.DEFAULT.draw(random, rate);
        final long pause = pauseNanos(shape, rate);
        pauseNanos[slot] = pause;
        final long pauseMillis = Math.min(TrafficShape.MAX_PAUSE_MILLIS, Math.round(pause / 1e6));
        current[slot] = pauseMillis == shape.pauseMillis() ? shape
            : new TrafficShape(shape.spacingMicros(), shape.burstRoundTrips(), pauseMillis, shape.call());
        sentInTrain[slot] = 0;
    }

    private void grow(final int length) {
        dueNanos = Arrays.copyOf(dueNanos, length);
        ratePerSecond = Arrays.copyOf(ratePerSecond, length);
        declared = Arrays.copyOf(declared, length);
        current = Arrays.copyOf(current, length);
        sentInTrain = Arrays.copyOf(sentInTrain, length);
        pauseNanos = Arrays.copyOf(pauseNanos, length);
    }

    private static double checkedRate(final double rate) {
        if (!(rate > 0) || Double.isInfinite(rate)) {
            throw new IllegalArgumentException("a probe rate must be finite and > 0 per second, was " + rate);
        }
        return rate;
    }

    private void checkActive(final int slot) {
        if (slot < 0 || slot >= ratePerSecond.length || ratePerSecond[slot] == 0) {
            throw new IllegalArgumentException("no path is scheduled in slot " + slot);
        }
    }
}
