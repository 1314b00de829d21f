package org.latencyserver.core.state;

/**
 * The measurement-interval rule: two measurements of one connection start at least
 * {@code minIntervalNanos} apart. A measurement due sooner is deferred to the earliest allowed
 * time — coalesced with any other change in between, never dropped — so a load hovering at a
 * threshold cannot set off a measurement storm, yet the last state is always measured.
 *
 * <p>Time is passed in (any monotonic nanosecond clock). Immutable and thread-safe.
 */
public final class MeasurementSchedule {

    /** Passed as the last start when the connection was never measured. */
    public static final long NEVER = Long.MIN_VALUE;

    /**
     * When a measurement may start.
     *
     * @param measureNow  true when it may start at {@code nowNanos}
     * @param notBeforeNanos the earliest start: {@code nowNanos} when {@code measureNow}
     */
    public record Decision(boolean measureNow, long notBeforeNanos) {
    }

    private final long minIntervalNanos;

    /** @param minIntervalNanos {@code >= 0}; 0 means no minimum */
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
     * @param nowNanos                  the current time
     * @param lastMeasurementStartNanos when the last measurement of the connection started, or {@link #NEVER}
     * @return start now, or not before the returned time
     */
    public Decision decide(final long nowNanos, final long lastMeasurementStartNanos) {
        if (lastMeasurementStartNanos == NEVER) {
            return new Decision(true, nowNanos);
        }
        final long earliest = lastMeasurementStartNanos + minIntervalNanos;
        // Compare as a difference: safe across nanoTime wrap-around.
        return earliest - nowNanos <= 0 ? new Decision(true, nowNanos) : new Decision(false, earliest);
    }
}
