package org.latencyserver.agent.probe;

import java.util.Arrays;
import java.util.Random;

/**
 * The send times of several probe paths, each a Poisson process of its own rate (round trips per
 * second), merged into one schedule: {@link #earliestSlot()} is the path whose next send is due
 * first.
 *
 * <p>Open loop: a path's next send time is drawn, in advance, from its previous send time (an
 * exponential gap of mean 1/rate), never from when a reply came back. A slow reply therefore does
 * not thin the process out: the sends it held up are late, not missing, and the round trips sample
 * the path at times independent of its own latency (PASTA), which is what makes their histogram an
 * unbiased picture of what an application's message would see.
 *
 * <p>Times are {@link System#nanoTime()} values and are compared by difference (they may wrap);
 * the schedule never reads the clock itself, so it can be driven by a simulated clock. Paths are
 * numbered slots, stable for a path's life; a removed path's slot is reused by the next added one.
 * Finding the earliest slot is a linear scan: an agent probes a handful of connections, and
 * scanning a few longs is cheaper than a heap and allocates nothing.
 *
 * <p>Not thread-safe: one prober thread owns it.
 */
public final class PoissonSchedule {

    private static final double NANOS_PER_SECOND = 1e9;

    private final Random random;
    /** Next send time per slot, ns ({@link System#nanoTime()} scale); meaningless when the slot is free. */
    private long[] dueNanos = new long[0];
    /** Mean gap per slot, ns (1e9 / rate); 0 marks a free slot. */
    private double[] meanGapNanos = new double[0];

    /**
     * @param random where the gaps come from; seed it for a reproducible schedule
     */
    public PoissonSchedule(final Random random) {
        this.random = random;
    }

    /**
     * Adds a path; its first send is one gap after {@code fromNanos}.
     *
     * @param ratePerSecond mean sends per second, finite and {@code > 0}
     * @param fromNanos     now
     * @return the path's slot
     * @throws IllegalArgumentException on a rate that is not finite and positive
     */
    public int add(final double ratePerSecond, final long fromNanos) {
        final double meanGap = meanGapNanos(ratePerSecond);
        int slot = 0;
        while (slot < meanGapNanos.length && meanGapNanos[slot] != 0) {
            slot++;
        }
        if (slot == meanGapNanos.length) {
            dueNanos = Arrays.copyOf(dueNanos, slot + 1);
            meanGapNanos = Arrays.copyOf(meanGapNanos, slot + 1);
        }
        meanGapNanos[slot] = meanGap;
        dueNanos[slot] = fromNanos + drawGapNanos(meanGap);
        return slot;
    }

    /**
     * Changes a path's rate. Its next send is redrawn from {@code fromNanos} with the new rate:
     * the exponential distribution is memoryless, so this is exactly a process of the new rate
     * from then on.
     *
     * @param slot          a slot from {@link #add}
     * @param ratePerSecond the new rate, finite and {@code > 0}
     * @param fromNanos     now
     */
    public void setRate(final int slot, final double ratePerSecond, final long fromNanos) {
        checkActive(slot);
        meanGapNanos[slot] = meanGapNanos(ratePerSecond);
        dueNanos[slot] = fromNanos + drawGapNanos(meanGapNanos[slot]);
    }

    /**
     * Removes a path; its slot becomes free for the next {@link #add}.
     *
     * @param slot a slot from {@link #add}
     */
    public void remove(final int slot) {
        checkActive(slot);
        meanGapNanos[slot] = 0;
    }

    /** @return the slot whose send is due first, or -1 when no path is scheduled */
    public int earliestSlot() {
        int best = -1;
        for (int slot = 0; slot < meanGapNanos.length; slot++) {
            if (meanGapNanos[slot] != 0 && (best < 0 || dueNanos[slot] - dueNanos[best] < 0)) {
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
     * Moves a path's next send one exponential gap on from its current due time, whether or not
     * that send was made (a skipped send is not made up later).
     *
     * @param slot an active slot
     */
    public void advance(final int slot) {
        checkActive(slot);
        dueNanos[slot] += drawGapNanos(meanGapNanos[slot]);
    }

    /**
     * @param slot an active slot
     * @return its rate, round trips per second
     */
    public double ratePerSecond(final int slot) {
        checkActive(slot);
        return NANOS_PER_SECOND / meanGapNanos[slot];
    }

    /**
     * One exponential gap by inversion: {@code -ln(1 - U) * mean}, U uniform in [0, 1), so the
     * logarithm's argument is in (0, 1] and always finite. At least 1 ns so that two sends of a
     * path never share a time (the bias, below 1 ns in 1/rate, is nil).
     *
     * @param meanGapNanos mean gap, ns
     * @return the gap, ns
     */
    long drawGapNanos(final double meanGapNanos) {
        return Math.max(1L, Math.round(-Math.log(1.0 - random.nextDouble()) * meanGapNanos));
    }

    private static double meanGapNanos(final double ratePerSecond) {
        if (!(ratePerSecond > 0) || Double.isInfinite(ratePerSecond)) {
            throw new IllegalArgumentException("a probe rate must be finite and > 0 per second, was " + ratePerSecond);
        }
        return NANOS_PER_SECOND / ratePerSecond;
    }

    private void checkActive(final int slot) {
        if (slot < 0 || slot >= meanGapNanos.length || meanGapNanos[slot] == 0) {
            throw new IllegalArgumentException("no path is scheduled in slot " + slot);
        }
    }
}
