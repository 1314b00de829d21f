package org.latencyserver.server.corba;

import java.util.ArrayDeque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * One subscriber's undelivered events: a queue per connection, the connections taken in turn (in the
 * order their first waiting event came, a connection with more waiting going to the back once one is
 * taken), and the connections whose event is being delivered now. An event is
 * handed out only while no other event of its connection is out, so each connection's events reach
 * the listener one after the other, in the order they came.
 *
 * <p>Once more than the coalescing threshold of events wait, a new event replaces the waiting events
 * of its connection: a subscriber that is behind then gets each connection's newest event instead of
 * its backlog, and at most threshold + one per connection wait.
 *
 * <p>Not thread-safe: its {@link Subscriber} guards it.
 *
 * @param <E> the event type
 */
final class PendingEvents<E> {

    /** An event handed out for delivery, with the connection to report {@link #delivered} for. */
    record Taken<E>(short queue, E event) {
    }

    private final int coalesceAboveEvents;
    private final Map<Short, ArrayDeque<E>> waiting = new LinkedHashMap<>();
    private final Set<Short> out = new HashSet<>();
    private int waitingEvents;
    private long replacedEvents;

    /** @param coalesceAboveEvents waiting events beyond which a new event replaces its queue's waiting ones */
    PendingEvents(final int coalesceAboveEvents) {
        this.coalesceAboveEvents = coalesceAboveEvents;
    }

    /** Adds an event to the end of its queue, or replaces that queue's waiting events when over the threshold. */
    void add(final short queue, final E event) {
        final ArrayDeque<E> events = waiting.computeIfAbsent(queue, key -> new ArrayDeque<>());
        if (waitingEvents >= coalesceAboveEvents && !events.isEmpty()) {
            waitingEvents -= events.size();
            replacedEvents += events.size();
            events.clear();
        }
        events.addLast(event);
        waitingEvents++;
    }

    /**
     * @return the oldest waiting event of the first queue in turn with nothing out, now counted as out
     *     until {@link #delivered} (its queue, if more wait, goes to the back of the turn); null when
     *     every waiting event's queue has one out, or nothing waits
     */
    Taken<E> takeNext() {
        for (final Map.Entry<Short, ArrayDeque<E>> queue : waiting.entrySet()) {
            final short key = queue.getKey();
            if (!out.contains(key)) {
                final ArrayDeque<E> events = waiting.remove(key);
                final E event = events.pollFirst();
                if (!events.isEmpty()) {
                    waiting.put(key, events);    // to the back: the other connections go first
                }
                waitingEvents--;
                out.add(key);
                return new Taken<>(key, event);
            }
        }
        return null;
    }

    /** The event taken from this queue was delivered (or given up): the queue's next may go. */
    void delivered(final short queue) {
        out.remove(queue);
    }

    /** @return whether {@link #takeNext} would hand out an event now */
    boolean hasDeliverable() {
        int blocked = 0;
        for (final Short queue : out) {
            blocked += waiting.containsKey(queue) ? 1 : 0;
        }
        return waiting.size() > blocked;
    }

    /** @return events waiting (not counting those out) */
    int waitingEvents() {
        return waitingEvents;
    }

    /** @return events replaced by a newer one of their queue, since creation */
    long replacedEvents() {
        return replacedEvents;
    }

    /** Forgets every waiting event (those out stay out until {@link #delivered}). */
    void clear() {
        waiting.clear();
        waitingEvents = 0;
    }
}
