package org.latencyserver.server.corba;

import java.security.SecureRandom;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * The subscribers of one kind of event (estimate changes, or measurement requests).
 *
 * <p>A subscription id is a random positive number: whoever holds it may unsubscribe, so it must
 * not be guessable (sequential ids let any caller cancel an agent's measurement requests). Each
 * subscriber has a queue and a delivery thread, so a hub holds at most {@link #MAX_SUBSCRIBERS}.
 *
 * <p>Thread-safety: subscribe and unsubscribe from servant threads, {@link #publish} from the
 * update thread; the subscriber set is a concurrent map, and publishing only offers to queues.
 *
 * @param <E> the event type
 */
final class SubscriptionHub<E> {

    /** The most subscribers of one kind: each costs a thread. */
    static final int MAX_SUBSCRIBERS = 1_000;

    private final Map<Long, Subscriber<E>> subscribers = new ConcurrentHashMap<>();
    private final SecureRandom random = new SecureRandom();

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
        subscribers.put(chosen, new Subscriber<>(chosen, indexRefs, delivery, () -> subscribers.remove(chosen)));
        return chosen;
    }

    boolean unsubscribe(final long id) {
        final Subscriber<E> subscriber = subscribers.remove(id);
        if (subscriber != null) {
            subscriber.close();
        }
        return subscriber != null;
    }

    void publish(final short indexRef, final E event) {
        for (final Subscriber<E> subscriber : subscribers.values()) {
            if (subscriber.wants(indexRef)) {
                subscriber.offer(event);
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
