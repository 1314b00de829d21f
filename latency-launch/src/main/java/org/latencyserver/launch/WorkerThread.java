package org.latencyserver.launch;

import java.time.Duration;

/**
 * A component's own daemon thread that runs one loop until told to stop: the loop keeps going while
 * {@link #running()} is true, and {@link #stop} clears that flag, interrupts the thread (to end a
 * sleep or a blocking take) and waits a bounded time for it to end. Daemon, because such a thread is
 * never a reason to keep the JVM alive: the component's close, or its main's shutdown, ends it.
 *
 * <p>Only the thread's lifecycle lives here; what the loop does and what a close does before or
 * after the stop (cancel queued commands, close a file) stay in the component.
 *
 * <p>Thread-safety: {@link #start} once; {@link #running()}, {@link #finish()} and {@link #stop}
 * from any thread (the flag is volatile). Stopping a thread that never started only clears the flag.
 */
public final class WorkerThread {

    private final Thread thread;
    private volatile boolean running = true;

    /**
     * @param name the thread's name, as thread dumps and logs show it
     * @param loop the loop; it should return once {@link #running()} is false, and treat an
     *             interrupt as a reason to look at that flag again
     */
    public WorkerThread(final String name, final Runnable loop) {
        this.thread = new Thread(loop, name);
        this.thread.setDaemon(true);
    }

    /** Starts the thread. */
    public void start() {
        thread.start();
    }

    /** @return true until {@link #finish()} or {@link #stop} is called; the loop's condition */
    public boolean running() {
        return running;
    }

    /** Asks the loop to end at its next look at {@link #running()}, without interrupting or waiting (e.g. from the loop itself). */
    public void finish() {
        running = false;
    }

    /**
     * Ends the loop: clears {@link #running()}, interrupts the thread and waits for it.
     *
     * @param wait how long to wait for the thread at most; it may still run afterwards (it is a daemon)
     * @throws InterruptedException when the caller is interrupted while waiting
     */
    public void stop(final Duration wait) throws InterruptedException {
        running = false;
        thread.interrupt();
        thread.join(wait.toMillis());
    }

    /**
     * {@link #stop} for a close that may not throw {@link InterruptedException}: an interrupt while
     * waiting ends the wait and is kept for the caller (its interrupt status is set again).
     *
     * @param wait how long to wait for the thread at most
     */
    public void stopKeepingInterrupt(final Duration wait) {
        try {
            stop(wait);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
