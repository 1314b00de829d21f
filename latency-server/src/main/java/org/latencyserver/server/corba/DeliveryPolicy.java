package org.latencyserver.server.corba;

/**
 * How a subscriber's events reach it: how many remote calls may be outstanding at once, whether a
 * subscriber that falls behind gets every event or each connection's newest, and how many undelivered
 * events drop it.
 *
 * <p>Both keep the order of events per connection: a connection's next event is sent only after the
 * listener answered its previous one.
 */
enum DeliveryPolicy {

    /**
     * Every event, one call at a time, in the order offered (measurement requests: each carries a
     * ticket of its own); a subscriber with {@value #EVENT_CAPACITY} undelivered events is dropped.
     */
    EVERY_EVENT_IN_ORDER(1, Integer.MAX_VALUE, DeliveryPolicy.EVENT_CAPACITY),

    /**
     * Estimate changes: up to {@value #CALLS_IN_FLIGHT} calls at once, for different connections;
     * every change while the subscriber keeps up, and once more than {@value #COALESCE_ABOVE_EVENTS}
     * events wait, a new event replaces whatever of its connection still waits (the newest state wins,
     * not a backlog). Undelivered events are then at most {@value #COALESCE_ABOVE_EVENTS} plus one per
     * connection, so nothing is dropped for a full queue; a listener that fails a call is.
     */
    NEWEST_PER_CONNECTION(DeliveryPolicy.CALLS_IN_FLIGHT, DeliveryPolicy.COALESCE_ABOVE_EVENTS, Integer.MAX_VALUE);

    /** Outstanding calls of one {@link #NEWEST_PER_CONNECTION} subscriber at most. */
    static final int CALLS_IN_FLIGHT = 4;
    /** Undelivered events beyond which a {@link #NEWEST_PER_CONNECTION} subscriber gets the newest state only. */
    static final int COALESCE_ABOVE_EVENTS = 256;
    /** Undelivered events that drop an {@link #EVERY_EVENT_IN_ORDER} subscriber. */
    static final int EVENT_CAPACITY = 4096;

    private final int maxCallsInFlight;
    private final int coalesceAboveEvents;
    private final int capacityEvents;

    DeliveryPolicy(final int maxCallsInFlight, final int coalesceAboveEvents, final int capacityEvents) {
        this.maxCallsInFlight = maxCallsInFlight;
        this.coalesceAboveEvents = coalesceAboveEvents;
        this.capacityEvents = capacityEvents;
    }

    /** @return how many of one subscriber's calls may be outstanding at once (at least 1) */
    int maxCallsInFlight() {
        return maxCallsInFlight;
    }

    /** @return undelivered events beyond which a new event replaces its connection's waiting ones */
    int coalesceAboveEvents() {
        return coalesceAboveEvents;
    }

    /** @return undelivered events at which the subscriber is dropped ({@link Integer#MAX_VALUE}: never) */
    int capacityEvents() {
        return capacityEvents;
    }

    /**
     * @param indexRef the event's connection
     * @return the queue the event waits in: its connection's, or one queue for all when every event
     *     keeps the order it was offered in
     */
    short queueOf(final short indexRef) {
        return this == EVERY_EVENT_IN_ORDER ? 0 : indexRef;
    }
}
