package org.latencyserver.server.corba;

import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One remote listener with its own queue and its own delivery thread, so that a slow or dead
 * listener delays nobody else: the update thread only offers to the queue, never waits. Events
 * reach the listener one at a time, in the order offered. The first failed delivery (the listener
 * died, or did not answer within the ORB's reply time-out) or a full queue drops the subscriber.
 *
 * <p>Thread-safety: {@link #offer} from the update thread; delivery on the subscriber's thread.
 *
 * @param <E> the event type
 */
final class Subscriber<E> {

    private static final Logger LOG = LoggerFactory.getLogger(Subscriber.class);
    private static final int QUEUE_CAPACITY = 4096;

    private final long id;
    private final Set<Short> indexRefs;
    private final Consumer<E> delivery;
    private final Runnable onDrop;
    private final BlockingQueue<E> queue = new ArrayBlockingQueue<>(QUEUE_CAPACITY);
    private final Thread thread;
    private volatile boolean alive = true;

    /**
     * @param id        subscription id
     * @param indexRefs connections of interest; empty for all
     * @param delivery  the remote call, made on this subscriber's thread
     * @param onDrop    run once when the subscriber is dropped
     */
    Subscriber(final long id, final Set<Short> indexRefs, final Consumer<E> delivery, final Runnable onDrop) {
        this.id = id;
        this.indexRefs = Set.copyOf(indexRefs);
        this.delivery = delivery;
        this.onDrop = onDrop;
        this.thread = new Thread(this::deliver, "subscriber-" + id);
        this.thread.setDaemon(true);
        this.thread.start();
    }

    long id() {
        return id;
    }

    boolean wants(final short indexRef) {
        return indexRefs.isEmpty() || indexRefs.contains(indexRef);
    }

    /** Never blocks. */
    void offer(final E event) {
        if (alive && !queue.offer(event)) {
            drop("its queue of " + QUEUE_CAPACITY + " undelivered events is full");
        }
    }

    void close() {
        alive = false;
        thread.interrupt();
    }

    private void deliver() {
        while (alive) {
            final E event;
            try {
                event = queue.take();
            } catch (InterruptedException e) {
                return;
            }
            try {
                delivery.accept(event);
            } catch (RuntimeException e) {
                drop("delivery failed: " + e);
                return;
            }
        }
    }

    private void drop(final String reason) {
        if (alive) {
            alive = false;
            LOG.warn("dropping subscriber {}: {}", id, reason);
            thread.interrupt();
            onDrop.run();
        }
    }
}
