package org.latencyserver.launch.agent;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

/**
 * Parks for one fixed period after every idle round: the pace of an agent that looks for due work
 * every so often (a poller, a periodic flush). The park ends early on the runner's close (an unpark
 * or an interrupt); it never throws.
 */
public final class SleepingIdleStrategy implements IdleStrategy {

    private final long periodNanos;

    /** @param period how long one idle round parks; positive */
    public SleepingIdleStrategy(final Duration period) {
        if (period.isNegative() || period.isZero()) {
            throw new IllegalArgumentException("period must be positive: " + period);
        }
        this.periodNanos = period.toNanos();
    }

    /** @return the park of one idle round, in nanoseconds */
    public long periodNanos() {
        return periodNanos;
    }

    @Override
    public void idle(final int workCount) {
        if (workCount <= 0) {
            LockSupport.parkNanos(this, periodNanos);
        }
    }
}
