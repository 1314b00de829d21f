package org.latencyserver.server.corba;

import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.omg.CORBA.OBJECT_NOT_EXIST;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One remote listener: its undelivered events ({@link PendingEvents}) and the delivery of them, on
 * threads of a shared pool, at most {@link DeliveryPolicy#maxCallsInFlight()} calls at once. A
 * subscriber holds no thread while nothing waits. A slow or dead listener delays nobody else: the
 * update thread only adds to its pending events, and its calls run on threads of their own (the pool
 * adds threads, it never queues a task behind another subscriber's).
 *
 * <p>Reaping: the subscriber is dropped (and {@code onDrop} told why, once) when
 * <ul>
 *   <li>its listener's object no longer exists: a push or a liveness check ({@link #checkLiveness})
 *       ends in {@code OBJECT_NOT_EXIST}, or {@code _non_existent()} answers true;</li>
 *   <li>{@value #MAX_CONSECUTIVE_FAILURES} calls to the listener in a row failed, pushes and
 *       liveness checks alike: it could not be reached ({@code COMM_FAILURE}, {@code TRANSIENT}),
 *       did not answer within the ORB's reply time-out ({@code TIMEOUT}), or threw. Any call that
 *       succeeds starts the count again, so a slow listener that answers within the time-out is
 *       never dropped. The event of a failed push is not sent again (a newer one of its connection,
 *       or the agents' polling of open requests, takes its place);</li>
 *   <li>its queue is full (only under {@link DeliveryPolicy#EVERY_EVENT_IN_ORDER}).</li>
 * </ul>
 *
 * <p>Order: each connection's events reach the listener one after the other in the order offered
 * (under {@link DeliveryPolicy#EVERY_EVENT_IN_ORDER} all events share one queue, so all keep their
 * order); under {@link DeliveryPolicy#NEWEST_PER_CONNECTION} a subscriber that is behind gets each
 * connection's newest event (see {@link PendingEvents}).
 *
 * <p>Thread-safety: {@link #offer} from the update thread, delivery and liveness checks on pool
 * threads, {@link #checkLiveness} and {@link #close} from any; the pending events, the count of
 * running deliveries and the failure count are guarded by this object's monitor, held only to read
 * or change them, never during a call.
 *
 * @param <E> the event type
 */
final class Subscriber<E> {

    /** Failed calls in a row (pushes and liveness checks) that drop a subscriber. */
    static final int MAX_CONSECUTIVE_FAILURES = 2;

    private static final Logger LOG = LoggerFactory.getLogger(Subscriber.class);

    private final long id;
    private final SubscriptionOwner owner;
    private final Set<Short> indexRefs;
    private final Consumer<E> delivery;
    private final BooleanSupplier listenerNonExistent;
    private final Consumer<ReapReason> onDrop;
    private final DeliveryPolicy policy;
    private final Executor pool;
    private final PendingEvents<E> pending;
    private int deliveriesRunning;
    private int consecutiveFailures;
    private boolean checkRunning;
    private boolean alive = true;

    /**
     * @param id                  subscription id
     * @param owner               whom the subscription counts against
     * @param indexRefs           connections of interest; empty for all
     * @param delivery            the remote call, made on a pool thread
     * @param listenerNonExistent the listener's {@code _non_existent()}, made on a pool thread: true when its
     *                            object is gone; a CORBA system exception when it cannot be asked
     * @param onDrop              told once, with why, when the subscriber drops itself (not after {@link #close})
     * @param policy              how events are delivered
     * @param pool                runs the deliveries and checks; must not queue a task behind a running one
     */
    Subscriber(final long id, final SubscriptionOwner owner, final Set<Short> indexRefs, final Consumer<E> delivery,
               final BooleanSupplier listenerNonExistent, final Consumer<ReapReason> onDrop, final DeliveryPolicy policy,
               final Executor pool) {
        this.id = id;
        this.owner = owner;
        this.indexRefs = Set.copyOf(indexRefs);
        this.delivery = delivery;
        this.listenerNonExistent = listenerNonExistent;
        this.onDrop = onDrop;
        this.policy = policy;
        this.pool = pool;
        this.pending = new PendingEvents<>(policy.coalesceAboveEvents());
    }

    long id() {
        return id;
    }

    SubscriptionOwner owner() {
        return owner;
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
            drop(ReapReason.QUEUE_FULL, "its queue of " + policy.capacityEvents() + " undelivered events is full");
        } else if (startDelivery) {
            startDelivery();
        }
    }

    /**
     * Asks, on a pool thread, whether the listener still exists, unless a check is under way (a
     * listener that hangs until the reply time-out holds one check at a time). Never blocks.
     *
     * @param whenDone run on the pool thread once the check handed out ended, whatever its outcome
     * @return whether a check was handed out (else {@code whenDone} is never run)
     */
    boolean checkLiveness(final Runnable whenDone) {
        synchronized (this) {
            if (!alive || checkRunning) {
                return false;
            }
            checkRunning = true;
        }
        try {
            pool.execute(() -> {
                try {
                    askListener();
                } finally {
                    whenDone.run();
                }
            });
            return true;
        } catch (RejectedExecutionException e) {
            synchronized (this) {
                checkRunning = false;
            }
            return false;
        }
    }

    /** {@link #checkLiveness(Runnable)} with nothing to run after it. */
    void checkLiveness() {
        checkLiveness(() -> { });
    }

    /** @return events replaced by a newer one of their connection before delivery, since subscribing */
    synchronized long replacedEvents() {
        return pending.replacedEvents();
    }

    /** @return whether the subscriber still delivers (not closed, not dropped) */
    synchronized boolean isAlive() {
        return alive;
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
            drop(ReapReason.NO_DELIVERY_THREAD, "no delivery thread: " + e.getMessage());
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
            RuntimeException failure = null;
            try {
                delivery.accept(next.event());
            } catch (RuntimeException e) {
                failure = e;
            }
            // The call's outcome is counted in the same step that lets its connection's next event go: a success must
            // reset the count before a call taken after it can fail, and a failure be counted before one taken after it
            // can succeed, or two calls on two threads would count as failures in a row around a success.
            final int failures;
            synchronized (this) {
                pending.delivered(next.queue());
                failures = !alive ? 0 : failure == null ? (consecutiveFailures = 0)
                    : failure instanceof OBJECT_NOT_EXIST ? consecutiveFailures : ++consecutiveFailures;
            }
            if (failure != null && pushFailed(failure, failures)) {
                synchronized (this) {
                    deliveriesRunning--;
                }
                return;
            }
        }
    }

    /**
     * @param failure  the push's failure
     * @param failures failed calls in a row, this one counted
     * @return true when the failure dropped the subscriber
     */
    private boolean pushFailed(final RuntimeException failure, final int failures) {
        synchronized (this) {
            if (!alive) {
                return true;
            }
        }
        return judged("push", failure, failures);
    }

    private void askListener() {
        try {
            if (listenerNonExistent.getAsBoolean()) {
                drop(ReapReason.LISTENER_GONE, "its listener no longer exists (_non_existent)");
            } else {
                succeeded();
            }
        } catch (RuntimeException e) {
            failed("liveness check", e);
        } finally {
            synchronized (this) {
                checkRunning = false;
            }
        }
    }

    private synchronized void succeeded() {
        consecutiveFailures = 0;
    }

    /** @return true when the failure dropped the subscriber */
    private boolean failed(final String call, final RuntimeException failure) {
        final int failures;
        synchronized (this) {
            if (!alive) {
                return true;
            }
            failures = failure instanceof OBJECT_NOT_EXIST ? consecutiveFailures : ++consecutiveFailures;
        }
        return judged(call, failure, failures);
    }

    /**
     * @param call     what failed ("push", "liveness check")
     * @param failure  its failure
     * @param failures failed calls in a row, this one counted
     * @return true when the failure dropped the subscriber: the listener is gone, or too many failed in a row
     */
    private boolean judged(final String call, final RuntimeException failure, final int failures) {
        if (failure instanceof OBJECT_NOT_EXIST) {
            drop(ReapReason.LISTENER_GONE, call + " failed, the listener no longer exists: " + failure);
            return true;
        }
        if (failures >= MAX_CONSECUTIVE_FAILURES) {
            drop(ReapReason.FAILED_CALLS, failures + " calls in a row failed, the last a " + call + ": " + failure);
            return true;
        }
        LOG.warn("subscriber {}: a {} failed ({} of {} failures in a row drop it): {}", id, call, failures,
            MAX_CONSECUTIVE_FAILURES, failure.toString());
        return false;
    }

    private void drop(final ReapReason reason, final String why) {
        synchronized (this) {
            if (!alive) {
                return;
            }
            alive = false;
            pending.clear();
        }
        LOG.warn("dropping subscriber {} of {} ({}): {}", id, owner.description(), reason.label(), why);
        onDrop.accept(reason);
    }
}
