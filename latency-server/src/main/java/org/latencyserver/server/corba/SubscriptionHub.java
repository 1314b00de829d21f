package org.latencyserver.server.corba;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * The subscribers of one kind of event (estimate changes, or measurement requests).
 *
 * <p>Thread-safety: subscribe and unsubscribe from servant threads, {@link #publish} from the
 * update thread; the subscriber set is a concurrent map, and publishing only offers to queues.
 *
 * @param <E> the event type
 */
final class SubscriptionHub<E> {

    private final Map<Long, Subscriber<E>> subscribers = new ConcurrentHashMap<>();
    private final AtomicLong nextId;

    /** @param firstId ids of this hub start here (keeps ids of different hubs apart) */
    SubscriptionHub(final long firstId) {
        this.nextId = new AtomicLong(firstId);
    }

    long subscribe(final Set<Short> indexRefs, final Consumer<E> delivery) {
        final long id = nextId.getAndIncrement();
        subscribers.put(id, new Subscriber<>(id, indexRefs, delivery, () -> subscribers.remove(id)));
        return id;
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
