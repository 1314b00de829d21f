package org.latencyserver.server.metrics;

import java.util.Map;

/**
 * The server's subscribers at one moment, and those it dropped on its own since start.
 *
 * @param estimateSubscribers    {@code subscribe}'s listeners now
 * @param measurementSubscribers {@code subscribe_measurements}' listeners now
 * @param reapedByReason         subscribers dropped by the server (not unsubscribed), by reason label, every
 *                               reason present (0 until one happens); only grows
 */
public record SubscriberCounts(int estimateSubscribers, int measurementSubscribers, Map<String, Long> reapedByReason) {

    /** Copies the map, keeping its order. */
    public SubscriberCounts {
        reapedByReason = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(reapedByReason));
    }
}
