package org.latencyserver.server.corba;

import java.util.HashMap;
import java.util.Map;

/**
 * How many subscriptions each owner holds, against a cap per owner shared by both kinds of
 * subscription.
 *
 * <p>Thread-safe: every method holds this object's monitor for a map update.
 */
final class SubscriptionOwners {

    private final int maxPerOwner;
    private final Map<SubscriptionOwner, Integer> held = new HashMap<>();

    /** @param maxPerOwner the most subscriptions one owner may hold, {@code >= 1} */
    SubscriptionOwners(final int maxPerOwner) {
        if (maxPerOwner < 1) {
            throw new IllegalArgumentException("subscriptions per caller must be >= 1, was " + maxPerOwner);
        }
        this.maxPerOwner = maxPerOwner;
    }

    /** @return the most subscriptions one owner may hold */
    int maxPerOwner() {
        return maxPerOwner;
    }

    /**
     * @param owner who subscribes
     * @return true when the owner held fewer than the cap (it now holds one more); false, changing nothing, when at it
     */
    synchronized boolean tryTake(final SubscriptionOwner owner) {
        final int now = held.getOrDefault(owner, 0);
        if (now >= maxPerOwner) {
            return false;
        }
        held.put(owner, now + 1);
        return true;
    }

    /** @param owner whose subscription ended (call once per successful {@link #tryTake}) */
    synchronized void release(final SubscriptionOwner owner) {
        held.computeIfPresent(owner, (key, count) -> count > 1 ? count - 1 : null);
    }

    /** @return how many subscriptions the owner holds now */
    synchronized int held(final SubscriptionOwner owner) {
        return held.getOrDefault(owner, 0);
    }

    /** Forgets every owner's subscriptions (all were closed). */
    synchronized void clear() {
        held.clear();
    }
}
