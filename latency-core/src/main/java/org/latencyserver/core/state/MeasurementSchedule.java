package org.latencyserver.core.state;

/**
 * The measurement-interval rule (beyond the thesis): two measurements of one
 * connection start at least {@code minIntervalNanos} apart. A measurement due sooner is deferred
 * to the earliest allowed time; if one is already waiting (or under way), the new need is
 * coalesced with it — one measurement, of the latest state, at that time — and never dropped. So
 * a load hovering at a threshold cannot set off a measurement storm, yet the last state is always
 * measured.
 *
 * <p>Time is passed in (any monotonic nanosecond clock, such as {@code System.nanoTime()} read by
 * the caller); times are compared by difference, so the rule holds across the clock's wrap-around.
 * {@link #NEVER} ({@link Long#MIN_VALUE}) marks a connection never measured; a real clock reading
 * equal to it is treated as "never" too, which at worst lets one measurement start early.
 *
 * <p>Immutable and thread-safe.
 */
public final class MeasurementSchedule {

    /** Passed as the last start when the connection was never measured. */
    public static final long NEVER = Long.MIN_VALUE;

    /** What to do with a measurement that is due. */
    public enum Action {
        /** Start the measurement at {@code nowNanos}. */
        MEASURE_NOW,
        /** Start it at {@link Decision#notBeforeNanos()}, not earlier. */
        DEFER
    }

    /**
     * When a measurement may start. Immutable and thread-safe.
     *
     * @param action         MEASURE_NOW or DEFER
     * @param notBeforeNanos the earliest start, ns on the caller's clock: {@code nowNanos} for
     *                       MEASURE_NOW, {@code lastStart + minInterval} for DEFER
     * @param coalesced      true when a measurement was already pending and this one merges with
     *                       it: the caller keeps one request (for the latest state), not two
     */
    public record Decision(Action action, long notBeforeNanos, boolean coalesced) {

        /**
         * @throws NullPointerException when {@code action} is null
         */
        public Decision {
            if (action == null) {
                throw new NullPointerException("a schedule decision needs its action");
            }
        }

        /** @return true when the measurement may start now */
        public boolean measureNow() {
            return action == Action.MEASURE_NOW;
        }
    }

    private final long minIntervalNanos;

    /**
     * @param minIntervalNanos minimum time between the starts of two measurements of one
     *                         connection, ns, {@code >= 0}; 0 means no minimum
     * @throws IllegalArgumentException when negative
     */
    public MeasurementSchedule(final long minIntervalNanos) {
        if (minIntervalNanos < 0) {
            throw new IllegalArgumentException("minimum measurement interval must be >= 0 ns, was " + minIntervalNanos);
        }
        this.minIntervalNanos = minIntervalNanos;
    }

    /** @return the minimum interval, ns */
    public long minIntervalNanos() {
        return minIntervalNanos;
    }

    /**
     * Decides when a measurement made due at {@code nowNanos} (a load state change, a re-issue)
     * may start.
     *
     * @param nowNanos                  the current time, ns
     * @param lastMeasurementStartNanos when the last measurement of the connection started, ns,
     *                                  or {@link #NEVER}
     * @param measurementPending        true when a measurement of the connection is already
     *                                  waiting to start or under way; the new need is then
     *                                  coalesced with it
     * @return MEASURE_NOW, or DEFER until the earliest allowed start; never "drop"
     */
    public Decision decide(final long nowNanos, final long lastMeasurementStartNanos, final boolean measurementPending) {
        if (lastMeasurementStartNanos == NEVER) {
            return new Decision(Action.MEASURE_NOW, nowNanos, measurementPending);
        }
        final long earliest = lastMeasurementStartNanos + minIntervalNanos;
        // Compare as a difference: safe across nanoTime wrap-around.
        return earliest - nowNanos <= 0
            ? new Decision(Action.MEASURE_NOW, nowNanos, measurementPending)
            : new Decision(Action.DEFER, earliest, measurementPending);
    }

    /**
     * {@link #decide(long, long, boolean)} with no measurement pending.
     *
     * @param nowNanos                  the current time, ns
     * @param lastMeasurementStartNanos when the last measurement started, ns, or {@link #NEVER}
     * @return MEASURE_NOW, or DEFER until the earliest allowed start
     */
    public Decision decide(final long nowNanos, final long lastMeasurementStartNanos) {
        return decide(nowNanos, lastMeasurementStartNanos, false);
    }
}
