package org.latencyserver.server.engine;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One command queued for the update thread, with the state that decides whether it runs.
 *
 * <p>Invariant: a command runs only if the update thread moved it from {@link State#PENDING} to
 * {@link State#RUNNING}; a caller that gives up moves it from {@code PENDING} to
 * {@link State#CANCELLED}. Both moves are compare-and-set on the same reference, so exactly one
 * wins: a cancelled command is never applied later, and a caller whose cancel lost knows the
 * command is running (or done) and waits for its outcome instead of reporting a failure that did
 * not happen.
 *
 * <p>Thread-safety: {@link #tryStart} and {@link #runStarted} on the update thread;
 * {@link #await} and {@link #cancel} on the caller's thread.
 *
 * @param <T> the outcome type
 */
final class EngineCommand<T> {

    /** Where a command is in its life; only the moves named in the class comment happen. */
    enum State {
        /** Queued; neither run nor given up. */
        PENDING,
        /** Taken by the update thread; it will complete. */
        RUNNING,
        /** Given up by its caller or by a stopping loop; never runs. */
        CANCELLED,
        /** Ran to its end (with an outcome or a failure). */
        DONE
    }

    /** Work on the engine, given the monotonic time of its run. */
    @FunctionalInterface
    interface Work<T> {
        /**
         * @param engine   the engine, on its own thread
         * @param nowNanos monotonic time of the run
         * @return the outcome
         */
        T apply(UpdateEngine engine, long nowNanos);
    }

    /** What the command does, given; null for a {@link Command}, which describes itself when asked. */
    private final String name;
    private final Command<T> command;
    private final Work<T> work;
    private final AtomicReference<State> state = new AtomicReference<>(State.PENDING);
    private final CountDownLatch finished = new CountDownLatch(1);
    /** Written before {@link #finished} counts down, read after it: the latch orders them. */
    private T outcome;
    private RuntimeException failure;

    /**
     * @param name what the command does, for messages ("submit_measurement for connection 3")
     * @param work the work
     */
    EngineCommand(final String name, final Work<T> work) {
        this.name = name;
        this.command = null;
        this.work = work;
    }

    /** @param command one of the engine's commands, queued as it describes itself (only when a message needs it) */
    EngineCommand(final Command<T> command) {
        this.name = null;
        this.command = command;
        this.work = command::applyTo;
    }

    /** @return what the command does */
    String name() {
        return name != null ? name : command.describe();
    }

    /** @return the state now (for tests and logs; it may change at once) */
    State state() {
        return state.get();
    }

    /**
     * Update thread: claims the command.
     *
     * @return true when it is now RUNNING and must be run with {@link #runStarted}; false when it
     *         was cancelled and must be skipped
     */
    boolean tryStart() {
        return state.compareAndSet(State.PENDING, State.RUNNING);
    }

    /**
     * Update thread, after {@link #tryStart} returned true: runs the work and publishes its outcome.
     *
     * @param engine   the engine
     * @param nowNanos monotonic time
     * @throws RuntimeException the work's failure, after it is recorded for the caller
     */
    void runStarted(final UpdateEngine engine, final long nowNanos) {
        try {
            outcome = work.apply(engine, nowNanos);
        } catch (RuntimeException e) {
            failure = e;
            throw e;
        } finally {
            state.set(State.DONE);
            finished.countDown();
        }
    }

    /**
     * Gives the command up unless the update thread has taken it.
     *
     * @return true when this call cancelled it (it will never run)
     */
    boolean cancel() {
        if (state.compareAndSet(State.PENDING, State.CANCELLED)) {
            finished.countDown();
            return true;
        }
        return false;
    }

    /**
     * Waits for the outcome. When {@code timeoutMillis} passes first the command is cancelled if it
     * has not started; if it has, the wait goes on until it completes (commands are short
     * computations on in-memory state, so this is brief).
     *
     * @param timeoutMillis how long to wait for the update thread to take the command
     * @return the outcome
     * @throws EngineTimeoutException       when cancelled after the time-out: not applied, and never will be
     * @throws EngineStoppedException       when cancelled because the loop stopped or the caller was interrupted: not applied
     * @throws EngineCommandFailedException when the command ran and threw
     */
    T await(final long timeoutMillis)
        throws EngineTimeoutException, EngineStoppedException, EngineCommandFailedException {
        boolean interrupted = false;
        try {
            try {
                if (!finished.await(timeoutMillis, TimeUnit.MILLISECONDS) && cancel()) {
                    throw new EngineTimeoutException(name(), timeoutMillis);
                }
            } catch (InterruptedException e) {
                interrupted = true;
                if (cancel()) {
                    throw new EngineStoppedException(name() + " was not applied: the caller's thread was interrupted while it"
                        + " waited for the update thread");
                }
            }
            // Not cancelled by us: it runs, ran, or was cancelled by the stopping loop.
            while (true) {
                try {
                    finished.await();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
        if (state.get() == State.CANCELLED) {
            throw new EngineStoppedException(name() + " was not applied: the update thread stopped before it ran");
        }
        if (failure != null) {
            throw new EngineCommandFailedException(name(), failure);
        }
        return outcome;
    }
}
