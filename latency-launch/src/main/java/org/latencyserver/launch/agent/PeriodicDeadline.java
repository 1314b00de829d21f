package org.latencyserver.launch.agent;

/**
 * When a periodic duty of an agent is next due, on the agent's monotonic clock: either at a fixed
 * rate (due times {@code start + k * period}; a late round does not shift the next ones, and rounds
 * missed while the agent was held up run back to back until it is on time again, as
 * {@code ScheduledExecutorService.scheduleAtFixedRate} does) or with a fixed delay (the next due time
 * is one period after the round that ran).
 *
 * <p>Not thread-safe: the agent's own thread only.
 */
public final class PeriodicDeadline {

    /** How the next due time follows from the last one. */
    public enum Kind {
        /** Due at {@code first + k * period}; missed rounds are caught up one after the other. */
        FIXED_RATE,
        /** Due one period after the last round ran. */
        FIXED_DELAY
    }

    private final Kind kind;
    private final long periodNanos;
    private long dueNanos;

    /**
     * @param kind          fixed rate or fixed delay
     * @param periodNanos   the period, nanoseconds; positive
     * @param firstDueNanos when the duty is first due, on the agent's clock
     */
    public PeriodicDeadline(final Kind kind, final long periodNanos, final long firstDueNanos) {
        if (periodNanos <= 0) {
            throw new IllegalArgumentException("period must be positive: " + periodNanos + " ns");
        }
        this.kind = java.util.Objects.requireNonNull(kind, "kind");
        this.periodNanos = periodNanos;
        this.dueNanos = firstDueNanos;
    }

    /**
     * Answers whether the duty is due and, if so, moves the due time on (the caller then runs the duty once).
     *
     * @param nowNanos the agent's clock
     * @return true when the duty should run now
     */
    public boolean take(final long nowNanos) {
        if (nowNanos - dueNanos < 0) {
            return false;
        }
        if (kind == Kind.FIXED_DELAY) {
            dueNanos = nowNanos + periodNanos;
        } else {
            dueNanos += periodNanos;
        }
        return true;
    }

    /**
     * Makes the duty next due one period after {@code nowNanos}: for a fixed delay counted from the
     * end of the round that ran, call it once the duty has finished.
     *
     * @param nowNanos the agent's clock
     */
    public void delayFrom(final long nowNanos) {
        dueNanos = nowNanos + periodNanos;
    }

    /** @return fixed rate or fixed delay */
    public Kind kind() {
        return kind;
    }

    /** @return when the duty is next due, on the agent's clock */
    public long dueNanos() {
        return dueNanos;
    }

    /**
     * @param nowNanos the agent's clock
     * @return nanoseconds until the duty is due; 0 when due already
     */
    public long nanosUntilDue(final long nowNanos) {
        return Math.max(0, dueNanos - nowNanos);
    }
}
