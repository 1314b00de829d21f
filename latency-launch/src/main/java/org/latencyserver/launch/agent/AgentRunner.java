package org.latencyserver.launch.agent;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

/**
 * Runs one {@link Agent} on its own daemon thread, named after the agent's role: {@code onStart},
 * then rounds of {@code doWork} separated by the {@link IdleStrategy}, then {@code onClose}, all on
 * that thread. A round that throws is recorded in the runner's {@link DistinctErrorLog} and counts
 * as idle (or pauses {@linkplain #pauseAfterFailure its own time}); the agent carries on. Daemon, because an agent is never a reason to keep the JVM alive:
 * its owner's close, or the main's shutdown, ends it.
 *
 * <p>{@link #close()} asks the loop to end, wakes the thread ({@link Agent#onCloseRequested()}, an
 * unpark, and an interrupt as well for an agent that {@linkplain Agent#wakesByInterrupt() asks for one}) and waits a bounded time for
 * {@code onClose} to finish. A runner closed before it started runs {@code onClose} on the closing thread.
 *
 * <p>Thread-safety: {@link #start} once; {@link #close}, {@link #requestStop()} and the readers from any thread.
 */
public final class AgentRunner implements AutoCloseable {

    /** How long {@link #close()} waits for the agent's thread by default. */
    public static final Duration DEFAULT_CLOSE_WAIT = Duration.ofSeconds(2);

    private enum State { NEW, RUNNING, CLOSED }

    private final Agent agent;
    private final IdleStrategy idleStrategy;
    private final DistinctErrorLog errors;
    private final LongSupplier nanoClock;
    private final Duration closeWait;
    private final Thread thread;
    private volatile boolean running = true;
    private State state = State.NEW;
    /** Set (under this runner's lock) once the agent's thread left its rounds: no interrupt may reach its onClose. */
    private boolean roundsEnded;
    /** The pause after a failed round, ns; 0: the idle strategy's pause. Set before start. */
    private long failurePauseNanos;

    /**
     * A runner with its own error log, {@code System::nanoTime} and the default close wait.
     *
     * @param agent        the agent to run
     * @param idleStrategy its pause between idle rounds
     */
    public AgentRunner(final Agent agent, final IdleStrategy idleStrategy) {
        this(agent, idleStrategy, new DistinctErrorLog(agent.roleName()), System::nanoTime, DEFAULT_CLOSE_WAIT);
    }

    /**
     * @param agent        the agent to run
     * @param idleStrategy its pause between idle rounds; used by this runner only
     * @param errors       where failures are counted; may be shared by several runners
     * @param nanoClock    the monotonic clock whose reading each round gets, nanoseconds
     * @param closeWait    how long {@link #close()} waits for the thread at most
     */
    public AgentRunner(final Agent agent, final IdleStrategy idleStrategy, final DistinctErrorLog errors,
                       final LongSupplier nanoClock, final Duration closeWait) {
        this.agent = agent;
        this.idleStrategy = idleStrategy;
        this.errors = errors;
        this.nanoClock = nanoClock;
        this.closeWait = closeWait;
        this.thread = new Thread(this::run, agent.roleName());
        this.thread.setDaemon(true);
    }

    /**
     * Makes a failed round pause this long (ended early by the close) instead of the idle strategy's
     * pause: for an agent that waits inside its rounds, so that a bug cannot spin a core.
     *
     * @param pause the pause after a failed round; positive
     * @return this
     */
    public AgentRunner pauseAfterFailure(final Duration pause) {
        if (pause.isNegative() || pause.isZero()) {
            throw new IllegalArgumentException("pause must be positive: " + pause);
        }
        this.failurePauseNanos = pause.toNanos();
        return this;
    }

    /** Starts the agent's thread; a runner already closed stays closed. */
    public synchronized void start() {
        if (state != State.NEW) {
            throw new IllegalStateException(agent.roleName() + " was already " + state);
        }
        state = State.RUNNING;
        thread.start();
    }

    /** @return true until {@link #close()} or {@link #requestStop()}; an agent may look at it inside a long round */
    public boolean running() {
        return running;
    }

    /** @return the failures of the agent's rounds so far */
    public DistinctErrorLog errors() {
        return errors;
    }

    /** @return the agent this runner runs */
    public Agent agent() {
        return agent;
    }

    /** @return true when the calling thread is the agent's own */
    public boolean onAgentThread() {
        return Thread.currentThread() == thread;
    }

    /** Asks the loop to end after the current round without waiting for it; safe from the agent's own thread. */
    public void requestStop() {
        running = false;
        LockSupport.unpark(thread);
    }

    /**
     * Ends the agent: asks the loop to end, wakes the thread and waits up to the close wait for it to
     * run {@code onClose} and end. Called on the agent's own thread, it only asks. An interrupt while
     * waiting ends the wait and is kept for the caller.
     */
    @Override
    public void close() {
        if (signalClose()) {
            awaitClosed();
        }
    }

    /**
     * Closes several runners together: all are asked to end and woken first, then each is waited
     * for (up to its own close wait), so that none keeps running while another one's close waits.
     *
     * @param runners the runners, in the order their threads are waited for
     */
    public static void closeAll(final AgentRunner... runners) {
        final boolean[] wait = new boolean[runners.length];
        for (int i = 0; i < runners.length; i++) {
            wait[i] = runners[i].signalClose();
        }
        for (int i = 0; i < runners.length; i++) {
            if (wait[i]) {
                runners[i].awaitClosed();
            }
        }
    }

    /** @return true when the caller should wait for the thread: it runs and the caller is not on it */
    private boolean signalClose() {
        final State was;
        synchronized (this) {
            was = state;
            state = State.CLOSED;
        }
        running = false;
        if (was == State.NEW) {
            closeAgent();
            return false;
        }
        if (was == State.CLOSED || onAgentThread()) {
            return false;
        }
        agent.onCloseRequested();
        LockSupport.unpark(thread);
        if (agent.wakesByInterrupt()) {
            synchronized (this) {
                if (!roundsEnded) {
                    thread.interrupt();
                }
            }
        }
        return true;
    }

    private void awaitClosed() {
        try {
            thread.join(closeWait.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** @return true when the agent's thread has ended (or never started and the runner is closed) */
    public boolean closed() {
        synchronized (this) {
            if (state == State.NEW) {
                return false;
            }
        }
        return !thread.isAlive();
    }

    private void run() {
        boolean started = false;
        try {
            agent.onStart();
            started = true;
        } catch (Exception e) {
            errors.record(e);
        }
        if (started) {
            dutyCycle();
        }
        synchronized (this) {
            roundsEnded = true;
        }
        Thread.interrupted(); // a close's interrupt came before roundsEnded, or never: onClose may write files
        closeAgent();
    }

    private void dutyCycle() {
        while (running) {
            int workCount;
            try {
                workCount = agent.doWork(nanoClock.getAsLong());
            } catch (InterruptedException e) {
                workCount = 0;
            } catch (Exception e) {
                errors.record(e);
                if (failurePauseNanos > 0 && running) {
                    LockSupport.parkNanos(this, failurePauseNanos);
                    continue;
                }
                workCount = 0;
            }
            if (running) {
                idleStrategy.idle(workCount);
            }
        }
    }

    private void closeAgent() {
        try {
            agent.onClose();
        } catch (Exception e) {
            errors.record(e);
        }
    }
}
