package org.latencyserver.server.corba;

import java.security.SecureRandom;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The subscribers of one kind of event (estimate changes, or measurement requests).
 *
 * <p>A subscription id is a random positive number: whoever holds it may unsubscribe, so it must
 * not be guessable (sequential ids let any caller cancel an agent's measurement requests). Each
 * subscriber holds its undelivered events and, while it has some, up to its policy's calls in
 * flight on delivery threads, so a hub holds at most {@link #MAX_SUBSCRIBERS}.
 *
 * <p>Thread-safety: subscribe and unsubscribe from servant threads, {@link #publish} from the
 * update thread; the subscriber set is a concurrent map, and publishing only offers to the
 * subscribers' pending events.
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

    /**
     * @param policy how every subscriber of this hub gets its events
     * @param pool   runs the deliveries; must not queue a task behind a running one ({@link DeliveryPool})
     */
    SubscriptionHub(final DeliveryPolicy policy, final Executor pool) {
        this.policy = policy;
        this.pool = pool;
    }

    /**
     * @return the new subscription's id
     * @throws IllegalStateException when the hub already holds {@link #MAX_SUBSCRIBERS}
     */
    synchronized long subscribe(final Set<Short> indexRefs, final Consumer<E> delivery) {
        if (subscribers.size() >= MAX_SUBSCRIBERS) {
            throw new IllegalStateException("the server already has " + subscribers.size() + " subscribers of this kind, its limit;"
                + " unsubscribe one first");
        }
        long id;
        do {
            id = random.nextLong() & Long.MAX_VALUE;
        } while (id == 0 || subscribers.containsKey(id));
        final long chosen = id;
        subscribers.put(chosen, new Subscriber<>(chosen, indexRefs, delivery, () -> subscribers.remove(chosen), policy, pool));
        return chosen;
    }

    boolean unsubscribe(final long id) {
        final Subscriber<E> subscriber = subscribers.remove(id);
        if (subscriber != null) {
            subscriber.close();
        }
        return subscriber != null;
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
        subscribers.values().forEach(Subscriber::close);
        subscribers.clear();
    }
}
