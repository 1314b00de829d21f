package org.latencyserver.server.corba;

import java.security.SecureRandom;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.Semaphore;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.latencyserver.server.engine.Refusal;

/**
 * The subscribers of one kind of event (estimate changes, or measurement requests).
 *
 * <p>A subscription id is a random positive number: whoever holds it may unsubscribe, so it must
 * not be guessable (sequential ids let any caller cancel an agent's measurement requests). Each
 * subscriber holds its undelivered events and, while it has some, up to its policy's calls in
 * flight on delivery threads, so a hub holds at most {@link #MAX_SUBSCRIBERS}, and each owner at most
 * its share of the {@link SubscriptionOwners} the hubs of a server have in common.
 *
 * <p>A subscriber leaves the hub once, whichever way (unsubscribed, dropped by itself, all closed),
 * and only then is its owner's count released and, when it dropped itself, {@code onReaped} told why.
 *
 * <p>Thread-safety: subscribe and unsubscribe from servant threads, {@link #publish} from the
 * update thread, {@link #checkLiveness} from the liveness timer; the subscriber set is a concurrent
 * map, and publishing and checking only hand work to the subscribers.
 *
 * @param <E> the event type
 */
final class SubscriptionHub<E> {

    /** The most subscribers of one kind: each may hold delivery threads and undelivered events. */
    static final int MAX_SUBSCRIBERS = 1_000;

    private final Map<Long, Subscriber<E>> subscribers = new ConcurrentHashMap<>();
    private final SecureRandom random = new SecureRandom();
    private final DeliveryPolicy policy;
    private final Executor pool;
    private final SubscriptionOwners owners;
    private final Consumer<ReapReason> onReaped;

    /**
     * A hub whose subscribers all count against one owner with a cap of {@link #MAX_SUBSCRIBERS}, reaped unseen.
     *
     * @param policy how every subscriber of this hub gets its events
     * @param pool   runs the deliveries; must not queue a task behind a running one ({@link DeliveryPool})
     */
    SubscriptionHub(final DeliveryPolicy policy, final Executor pool) {
        this(policy, pool, new SubscriptionOwners(MAX_SUBSCRIBERS), reason -> { });
    }

    /**
     * @param policy   how every subscriber of this hub gets its events
     * @param pool     runs the deliveries and liveness checks; must not queue a task behind a running one ({@link DeliveryPool})
     * @param owners   the subscriptions each owner holds, shared with the server's other hub
     * @param onReaped told why, once per subscriber that dropped itself (on the thread that found it dead)
     */
    SubscriptionHub(final DeliveryPolicy policy, final Executor pool, final SubscriptionOwners owners,
                    final Consumer<ReapReason> onReaped) {
        this.policy = policy;
        this.pool = pool;
        this.owners = owners;
        this.onReaped = onReaped;
    }

    /**
     * @param owner               whom the subscription counts against
     * @param indexRefs           the connections, empty for all
     * @param delivery            the remote call of one event
     * @param listenerNonExistent the listener's {@code _non_existent()} (see {@link Subscriber})
     * @return the new subscription's id
     * @throws SubscriptionRefused {@link Refusal.Kind#TOO_LARGE} when the hub already holds {@link #MAX_SUBSCRIBERS},
     *                             {@link Refusal.Kind#CALLER_LIMIT} when the owner holds its cap
     */
    synchronized long subscribe(final SubscriptionOwner owner, final Set<Short> indexRefs, final Consumer<E> delivery,
                                final BooleanSupplier listenerNonExistent) throws SubscriptionRefused {
        if (subscribers.size() >= MAX_SUBSCRIBERS) {
            throw new SubscriptionRefused(Refusal.of(Refusal.Kind.TOO_LARGE, "the server already has " + subscribers.size()
                + " subscribers of this kind, its limit; unsubscribe one first"));
        }
        if (!owners.tryTake(owner)) {
            final String limit = owners.maxPerOwner() + " (limits.max_subscriptions_per_caller)";
            throw new SubscriptionRefused(Refusal.of(Refusal.Kind.CALLER_LIMIT, "subscriptions", owners.held(owner), limit,
                owner.description() + " already holds " + owners.held(owner) + " subscriptions, the most one caller may hold: "
                    + limit + "; unsubscribe one first"));
        }
        long id;
        do {
            id = random.nextLong() & Long.MAX_VALUE;
        } while (id == 0 || subscribers.containsKey(id));
        final long chosen = id;
        subscribers.put(chosen, new Subscriber<>(chosen, owner, indexRefs, delivery, listenerNonExistent, reason -> {
            if (leave(chosen) != null) {
                onReaped.accept(reason);
            }
        }, policy, pool));
        return chosen;
    }

    /**
     * @param owner     whom the subscription counts against
     * @param indexRefs the connections, empty for all
     * @param delivery  the remote call of one event
     * @return the new subscription's id; its listener is never asked whether it exists
     * @throws SubscriptionRefused as {@link #subscribe(SubscriptionOwner, Set, Consumer, BooleanSupplier)}
     */
    long subscribe(final SubscriptionOwner owner, final Set<Short> indexRefs, final Consumer<E> delivery) throws SubscriptionRefused {
        return subscribe(owner, indexRefs, delivery, () -> false);
    }

    boolean unsubscribe(final long id) {
        final Subscriber<E> subscriber = leave(id);
        if (subscriber != null) {
            subscriber.close();
        }
        return subscriber != null;
    }

    /**
     * Hands each subscriber a liveness check (see {@link Subscriber#checkLiveness}), each holding a
     * permit of {@code checksInFlight} until it ends: waits while none is free, so the checks under
     * way at once are bounded by the permits.
     *
     * @param checksInFlight permits for checks under way, shared by the server's hubs
     * @throws InterruptedException when interrupted waiting for a permit (the round is abandoned)
     */
    void checkLiveness(final Semaphore checksInFlight) throws InterruptedException {
        for (final Subscriber<E> subscriber : subscribers.values()) {
            checksInFlight.acquire();
            if (!subscriber.checkLiveness(checksInFlight::release)) {
                checksInFlight.release();
            }
        }
    }

    /** @return the subscriber that left, or null when it had already left */
    private Subscriber<E> leave(final long id) {
        final Subscriber<E> subscriber = subscribers.remove(id);
        if (subscriber != null) {
            owners.release(subscriber.owner());
        }
        return subscriber;
    }

    /**
     * Offers an event of one connection to every subscriber that wants it; the event is built once,
     * and only when one does.
     */
    void publish(final short indexRef, final Supplier<E> event) {
        E built = null;
        for (final Subscriber<E> subscriber : subscribers.values()) {
            if (subscriber.wants(indexRef)) {
                if (built == null) {
                    built = event.get();
                }
                subscriber.offer(indexRef, built);
            }
        }
    }

    int size() {
        return subscribers.size();
    }

    void closeAll() {
        for (final Long id : subscribers.keySet()) {
            unsubscribe(id);
        }
    }
}
