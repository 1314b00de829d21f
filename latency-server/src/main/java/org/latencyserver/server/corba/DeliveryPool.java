package org.latencyserver.server.corba;

import java.util.concurrent.Executor;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The threads that make subscribers' remote calls: started when a subscriber has an event to send
 * and no idle thread is free, retired after {@value #IDLE_SECONDS} s idle. A task is never queued
 * behind another (a thread is added instead), so a listener that hangs until the ORB's reply
 * time-out holds only its own subscriber's threads; each subscriber uses at most
 * {@link DeliveryPolicy#maxCallsInFlight()} at once, so the pool holds at most that many per
 * subscriber with events, none for an idle one.
 *
 * <p>Thread-safety: {@link #execute} from any thread.
 */
final class DeliveryPool implements Executor {

    /** An idle delivery thread retires after this long. */
    static final long IDLE_SECONDS = 30;

    private final ThreadPoolExecutor threads;

    DeliveryPool() {
        final AtomicInteger started = new AtomicInteger();
        this.threads = new ThreadPoolExecutor(0, Integer.MAX_VALUE, IDLE_SECONDS, TimeUnit.SECONDS, new SynchronousQueue<>(),
            task -> {
                final Thread thread = new Thread(task, "subscriber-delivery-" + started.incrementAndGet());
                thread.setDaemon(true);
                return thread;
            });
    }

    @Override
    public void execute(final Runnable delivery) {
        threads.execute(delivery);
    }

    /** Refuses new deliveries and interrupts those under way. */
    void shutdown() {
        threads.shutdownNow();
    }
}
