package org.latencyserver.launch.agent;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

/**
 * An agent made of periodic duties, each with its own timetable ({@link PeriodicDeadline}): each
 * round runs the duties that are due, in the order they were added; a round with nothing due parks
 * until the earliest one is (the runner's close ends the park). Run it with {@link NoIdleStrategy}:
 * the park is its idle, so each duty keeps its own period exactly rather than a common sleep's.
 *
 * <p>A duty that throws is the runner's to record; the duties after it run in the next round, at once.
 *
 * <p>Thread-safety: built on one thread, then the runner's only.
 */
public final class PeriodicAgent implements Agent {

    private final String roleName;
    private final LongSupplier nanoClock;
    private final List<Duty> duties;
    private final Runnable closeAction;
    private final boolean interruptOnClose;

    private record Duty(PeriodicDeadline deadline, Runnable action) {
    }

    private PeriodicAgent(final Builder builder) {
        this.roleName = builder.roleName;
        this.nanoClock = builder.nanoClock;
        this.duties = List.copyOf(builder.duties);
        this.closeAction = builder.closeAction;
        this.interruptOnClose = builder.interruptOnClose;
    }

    /**
     * @param roleName the agent's role, also its thread's name
     * @return a builder
     */
    public static Builder named(final String roleName) {
        return new Builder(roleName);
    }

    @Override
    public int doWork(final long nowNanos) {
        int workCount = 0;
        long earliestDueNanos = Long.MAX_VALUE;
        boolean anyDue = false;
        for (final Duty duty : duties) {
            final PeriodicDeadline deadline = duty.deadline();
            if (deadline.take(nowNanos)) {
                duty.action().run();
                workCount++;
                if (deadline.kind() == PeriodicDeadline.Kind.FIXED_DELAY) {
                    deadline.delayFrom(nanoClock.getAsLong());
                }
            }
            if (!anyDue || deadline.dueNanos() - earliestDueNanos < 0) {
                earliestDueNanos = deadline.dueNanos();
                anyDue = true;
            }
        }
        if (workCount == 0 && anyDue) {
            final long parkNanos = earliestDueNanos - nanoClock.getAsLong();
            if (parkNanos > 0) {
                LockSupport.parkNanos(this, parkNanos);
            }
        }
        return workCount;
    }

    @Override
    public void onClose() {
        if (closeAction != null) {
            closeAction.run();
        }
    }

    @Override
    public String roleName() {
        return roleName;
    }

    @Override
    public boolean wakesByInterrupt() {
        return interruptOnClose;
    }

    /** Builds a {@link PeriodicAgent}. */
    public static final class Builder {
        private final String roleName;
        private final List<Duty> duties = new ArrayList<>();
        private LongSupplier nanoClock = System::nanoTime;
        private Runnable closeAction;
        private boolean interruptOnClose;

        private Builder(final String roleName) {
            this.roleName = roleName;
        }

        /**
         * @param clock the monotonic clock the timetables follow, nanoseconds; set it before adding duties
         * @return this
         */
        public Builder clock(final LongSupplier clock) {
            this.nanoClock = clock;
            return this;
        }

        /**
         * Adds a duty.
         *
         * @param kind             fixed rate, or fixed delay counted from the end of the duty's run
         * @param periodNanos      its period, nanoseconds; positive
         * @param firstDelayNanos  how long after the agent is built it is first due, nanoseconds
         * @param action           the duty
         * @return this
         */
        public Builder duty(final PeriodicDeadline.Kind kind, final long periodNanos, final long firstDelayNanos,
                            final Runnable action) {
            duties.add(new Duty(new PeriodicDeadline(kind, periodNanos, nanoClock.getAsLong() + firstDelayNanos), action));
            return this;
        }

        /**
         * @param action run on the agent's thread at its close
         * @return this
         */
        public Builder onClose(final Runnable action) {
            this.closeAction = action;
            return this;
        }

        /**
         * Makes the runner's close interrupt the agent's thread, to end a duty's blocking call (a
         * remote call, a socket read); without it the close only ends the park between duties.
         *
         * @return this
         */
        public Builder interruptOnClose() {
            this.interruptOnClose = true;
            return this;
        }

        /** @return the agent */
        public PeriodicAgent build() {
            if (duties.isEmpty()) {
                throw new IllegalStateException(roleName + " has no duty");
            }
            return new PeriodicAgent(this);
        }
    }
}
