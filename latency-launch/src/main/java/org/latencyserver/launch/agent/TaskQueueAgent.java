package org.latencyserver.launch.agent;

import java.util.Objects;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.Executor;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * An agent that runs tasks handed to it, in order, on its own thread, and optionally a periodic duty
 * between them: the shape of a single-threaded executor, as a duty cycle. Each round waits for a task
 * at most until the duty is due (or {@code idleWaitNanos} without a duty), runs it, then runs the duty
 * when due. Run it with {@link NoIdleStrategy}: the wait is its idle.
 *
 * <p>The close never interrupts (a task may be writing a {@code FileChannel}, which an interrupt would
 * close); it offers a marker that ends the wait instead. After the close is requested no task is
 * accepted ({@link RejectedExecutionException}); on the agent's thread, {@code onClose} then either runs
 * or cancels the tasks still queued ({@link Leftovers}) and runs the owner's last action.
 *
 * <p>Thread-safety: {@link #execute}, {@link #submit} from any thread; the rest is the runner's.
 */
public final class TaskQueueAgent implements Agent, Executor {

    /** What {@code onClose} does with tasks still queued. */
    public enum Leftovers {
        /** Runs them, in order: a graceful shutdown. */
        RUN,
        /** Cancels those that are futures and drops the rest. */
        CANCEL
    }

    /** Offered by the close to end a wait; never run. */
    private static final Runnable WAKE = () -> { };

    private final String roleName;
    private final BlockingQueue<Runnable> tasks = new LinkedBlockingQueue<>();
    private final LongSupplier nanoClock;
    /** The periodic duty and its timetable; null without a duty. Owned by the agent's thread once it runs. */
    private Runnable duty;
    private PeriodicDeadline dutyDeadline;
    private final long idleWaitNanos;
    private final Leftovers leftovers;
    private final Runnable lastAction;
    private volatile boolean accepting = true;

    private TaskQueueAgent(final Builder builder) {
        this.roleName = builder.roleName;
        this.nanoClock = builder.nanoClock;
        if (builder.duty != null) {
            installDuty(builder.dutyKind, builder.dutyPeriodNanos, builder.duty);
        }
        this.idleWaitNanos = builder.idleWaitNanos;
        this.leftovers = builder.leftovers;
        this.lastAction = builder.lastAction;
    }

    /**
     * @param roleName the agent's role, also its thread's name
     * @return a builder; without more, an agent that only runs tasks and runs those left at its close
     */
    public static Builder named(final String roleName) {
        return new Builder(roleName);
    }

    /**
     * Queues a task.
     *
     * @param task what to run on the agent's thread
     * @throws RejectedExecutionException once the close was requested
     */
    @Override
    public void execute(final Runnable task) {
        if (!accepting) {
            throw new RejectedExecutionException(roleName + " is closed");
        }
        tasks.add(task);
        if (!accepting && tasks.remove(task)) {
            // the close drained the queue before the add
            throw new RejectedExecutionException(roleName + " is closed");
        }
    }

    /**
     * Queues a task whose result the caller waits for.
     *
     * @param task what to run on the agent's thread
     * @param <T>  its result's type
     * @return its future
     * @throws RejectedExecutionException once the close was requested
     */
    public <T> Future<T> submit(final Callable<T> task) {
        final FutureTask<T> future = new FutureTask<>(task);
        execute(future);
        return future;
    }

    /**
     * Starts (or replaces) the periodic duty, from any thread: a task installs it on the agent's thread,
     * first due one period after that task ran.
     *
     * @param kind         fixed rate or fixed delay (counted from the end of the duty's run)
     * @param periodNanos  the duty's period, nanoseconds; positive
     * @param periodicDuty what to run; a failure is the runner's to record
     * @throws RejectedExecutionException once the close was requested
     */
    public void scheduleDuty(final PeriodicDeadline.Kind kind, final long periodNanos, final Runnable periodicDuty) {
        if (periodNanos <= 0) {
            throw new IllegalArgumentException("period must be positive: " + periodNanos + " ns");
        }
        execute(() -> installDuty(kind, periodNanos, periodicDuty));
    }

    private void installDuty(final PeriodicDeadline.Kind kind, final long periodNanos, final Runnable periodicDuty) {
        this.duty = periodicDuty;
        this.dutyDeadline = new PeriodicDeadline(kind, periodNanos, nanoClock.getAsLong() + periodNanos);
    }

    /** @return tasks queued and not yet taken */
    public int queued() {
        return tasks.size();
    }

    @Override
    public int doWork(final long nowNanos) throws InterruptedException {
        final long waitNanos = dutyDeadline == null ? idleWaitNanos : dutyDeadline.nanosUntilDue(nowNanos);
        final Runnable task = tasks.poll(waitNanos, TimeUnit.NANOSECONDS);
        int workCount = 0;
        if (task != null && task != WAKE) {
            task.run();
            workCount++;
        }
        if (dutyDeadline == null) {
            return workCount;
        }
        if (dutyDeadline.take(nanoClock.getAsLong())) {
            duty.run();
            workCount++;
            if (dutyDeadline.kind() == PeriodicDeadline.Kind.FIXED_DELAY) {
                dutyDeadline.delayFrom(nanoClock.getAsLong());
            }
        }
        return workCount;
    }

    @Override
    public void onCloseRequested() {
        accepting = false;
        tasks.add(WAKE);
    }

    @Override
    public void onClose() {
        accepting = false;
        Runnable task;
        while ((task = tasks.poll()) != null) {
            if (task == WAKE) {
                continue;
            }
            if (leftovers == Leftovers.RUN) {
                task.run();
            } else if (task instanceof Future<?> future) {
                future.cancel(false);
            }
        }
        if (lastAction != null) {
            lastAction.run();
        }
    }

    @Override
    public String roleName() {
        return roleName;
    }

    /** Builds a {@link TaskQueueAgent}. */
    public static final class Builder {
        private final String roleName;
        private LongSupplier nanoClock = System::nanoTime;
        private Runnable duty;
        private PeriodicDeadline.Kind dutyKind;
            private long dutyPeriodNanos;
        private long idleWaitNanos = TimeUnit.MILLISECONDS.toNanos(100);
        private Leftovers leftovers = Leftovers.RUN;
        private Runnable lastAction;

        private Builder(final String roleName) {
            this.roleName = roleName;
        }

        /**
         * @param kind        fixed rate or fixed delay (counted from the end of the duty's run)
         * @param periodNanos the duty's period, nanoseconds; it is first due one period after the agent is built
         * @param periodicDuty what to run; a failure is the runner's to record
         * @return this
         */
        public Builder duty(final PeriodicDeadline.Kind kind, final long periodNanos, final Runnable periodicDuty) {
            this.dutyKind = Objects.requireNonNull(kind, "kind");
            this.dutyPeriodNanos = periodNanos;
            this.duty = periodicDuty;
            return this;
        }

        /**
         * @param clock the monotonic clock the duty's timetable follows, nanoseconds; {@code System::nanoTime} by default
         * @return this
         */
        public Builder clock(final LongSupplier clock) {
            this.nanoClock = clock;
            return this;
        }

        /**
         * @param leftovers what the close does with tasks still queued; {@link Leftovers#RUN} by default
         * @return this
         */
        public Builder leftovers(final Leftovers leftovers) {
            this.leftovers = leftovers;
            return this;
        }

        /**
         * @param action run on the agent's thread at its close, after the leftovers
         * @return this
         */
        public Builder lastAction(final Runnable action) {
            this.lastAction = action;
            return this;
        }

        /** @return the agent */
        public TaskQueueAgent build() {
            return new TaskQueueAgent(this);
        }
    }
}
