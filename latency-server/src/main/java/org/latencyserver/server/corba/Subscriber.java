package org.latencyserver.server.corba;

import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One remote listener: its undelivered events ({@link PendingEvents}) and the delivery of them, on
 * threads of a shared pool, at most {@link DeliveryPolicy#maxCallsInFlight()} calls at once. A
 * subscriber holds no thread while nothing waits. A slow or dead listener delays nobody else: the
 * update thread only adds to its pending events, and its calls run on threads of their own (the pool
 * adds threads, it never queues a task behind another subscriber's). The first failed delivery (the
 * listener died, or did not answer within the ORB's reply time-out) or a full queue (only under
 * {@link DeliveryPolicy#EVERY_EVENT_IN_ORDER}) drops the subscriber.
 *
 * <p>Order: each connection's events reach the listener one after the other in the order offered
 * (under {@link DeliveryPolicy#EVERY_EVENT_IN_ORDER} all events share one queue, so all keep their
 * order); under {@link DeliveryPolicy#NEWEST_PER_CONNECTION} a subscriber that is behind gets each
 * connection's newest event (see {@link PendingEvents}).
 *
 * <p>Thread-safety: {@link #offer} from the update thread, delivery on pool threads, {@link #close}
 * from any; the pending events and the count of running deliveries are guarded by this object's
 * monitor, held only to add or take an event, never during a call.
 *
 * @param <E> the event type
 */
final class Subscriber<E> {

    private static final Logger LOG = LoggerFactory.getLogger(Subscriber.class);

    private final long id;
    private final Set<Short> indexRefs;
    private final Consumer<E> delivery;
    private final Runnable onDrop;
    private final DeliveryPolicy policy;
    private final Executor pool;
    private final PendingEvents<E> pending;
    private int deliveriesRunning;
    private boolean alive = true;

    /**
     * @param id        subscription id
     * @param indexRefs connections of interest; empty for all
     * @param delivery  the remote call, made on a pool thread
     * @param onDrop    run once when the subscriber is dropped
     * @param policy    how events are delivered
     * @param pool      runs the deliveries; must not queue a task behind a running one
     */
    Subscriber(final long id, final Set<Short> indexRefs, final Consumer<E> delivery, final Runnable onDrop,
               final DeliveryPolicy policy, final Executor pool) {
        this.id = id;
        this.indexRefs = Set.copyOf(indexRefs);
        this.delivery = delivery;
        this.onDrop = onDrop;
        this.policy = policy;
        this.pool = pool;
        this.pending = new PendingEvents<>(policy.coalesceAboveEvents());
    }

    long id() {
        return id;
    }

    boolean wants(final short indexRef) {
        return indexRefs.isEmpty() || indexRefs.contains(indexRef);
    }

    /** Never blocks on the listener: adds the event and, when a call may start, hands a delivery to the pool. */
    void offer(final short indexRef, final E event) {
        final boolean full;
        final boolean startDelivery;
        synchronized (this) {
            if (!alive) {
                return;
            }
            full = pending.waitingEvents() >= policy.capacityEvents();
            if (!full) {
                pending.add(policy.queueOf(indexRef), event);
            }
            startDelivery = !full && deliveriesRunning < policy.maxCallsInFlight() && pending.hasDeliverable();
            if (startDelivery) {
                deliveriesRunning++;
            }
        }
        if (full) {
            drop("its queue of " + policy.capacityEvents() + " undelivered events is full");
        } else if (startDelivery) {
            startDelivery();
        }
    }

    /** @return events replaced by a newer one of their connection before delivery, since subscribing */
    synchronized long replacedEvents() {
        return pending.replacedEvents();
    }

    /** Stops delivery: waiting events are forgotten, calls under way end on their own. */
    synchronized void close() {
        alive = false;
        pending.clear();
    }

    private void startDelivery() {
        try {
            pool.execute(this::deliverWhileDeliverable);
        } catch (RejectedExecutionException e) {
            synchronized (this) {
                deliveriesRunning--;
            }
            drop("no delivery thread: " + e.getMessage());
        }
    }

    /** One delivery slot: takes and delivers events until none may go now. */
    private void deliverWhileDeliverable() {
        while (true) {
            final PendingEvents.Taken<E> next;
            synchronized (this) {
                next = alive ? pending.takeNext() : null;
                if (next == null) {
                    deliveriesRunning--;
                    return;
                }
            }
            try {
                delivery.accept(next.event());
            } catch (RuntimeException e) {
                drop("delivery failed: " + e);    // first, so that no new delivery starts in this one's place
                synchronized (this) {
                    deliveriesRunning--;
                }
                return;
            }
            synchronized (this) {
                pending.delivered(next.queue());
            }
        }
    }

    private void drop(final String reason) {
        synchronized (this) {
            if (!alive) {
                return;
            }
            alive = false;
            pending.clear();
        }
        LOG.warn("dropping subscriber {}: {}", id, reason);
        onDrop.run();
    }
}
