package org.latencyserver.demo;

import java.io.IOException;
import java.util.Collection;
import java.util.concurrent.atomic.AtomicBoolean;
import org.latencyserver.launch.ChildProcess;
import org.latencyserver.launch.ProcessKit;

/**
 * A demo's stop flag and the lock that orders starting against stopping: once {@link #beginStop()}
 * has been called, nothing more is started, so nothing started can escape the stop.
 *
 * <p>Thread-safety: the main thread starts and follows, the shutdown hook (Ctrl-C) stops. What the
 * demo starts or stops is touched only while holding {@link #lock()}; the flag may be read without it.
 */
final class DemoLifecycle {

    private final Object lock = new Object();
    private final AtomicBoolean stopped = new AtomicBoolean();

    /** @return the lock held while starting or stopping anything */
    Object lock() {
        return lock;
    }

    /** @return whether stopping has begun */
    boolean isStopped() {
        return stopped.get();
    }

    /**
     * Marks the demo as stopping; call while holding {@link #lock()}.
     *
     * @return true for the first caller only: it does the stop
     */
    boolean beginStop() {
        return stopped.compareAndSet(false, true);
    }

    /**
     * Call while holding {@link #lock()}, before starting anything.
     *
     * @throws DemoException when the demo is stopping
     */
    void requireNotStopping() {
        if (stopped.get()) {
            throw new DemoException("stopping; nothing more is started");
        }
    }

    /**
     * Starts a child unless the demo is stopping (then the stop would miss it).
     *
     * @throws DemoException when the demo is stopping
     */
    ChildProcess start(final ProcessKit.Launch launch) throws IOException {
        synchronized (lock) {
            requireNotStopping();
            return launch.start();
        }
    }

    /**
     * The demo's watch: every long-running part is still running.
     *
     * @throws DemoException naming the first that stopped, unless the demo is stopping
     */
    void requireRunning(final Collection<ChildProcess> services) {
        for (final ChildProcess child : services) {
            if (!child.isAlive() && !stopped.get()) {
                throw new DemoException(child.name() + " stopped unexpectedly; " + child.logEnd());
            }
        }
    }
}
