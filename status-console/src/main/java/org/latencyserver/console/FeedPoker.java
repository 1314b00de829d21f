package org.latencyserver.console;

import org.latencyserver.idl.latency.Estimate;
import org.latencyserver.idl.latency.EstimateListenerPOA;

/**
 * The console's callback servant: a pushed estimate change makes its feed refresh at once.
 *
 * <p>Thread-safety: the ORB calls it on its request threads; the feed is set once after creation.
 */
final class FeedPoker extends EstimateListenerPOA {
    private volatile ServerFeed feed;

    /** @param target the feed to wake; set once the feed exists (it needs this object's reference first) */
    void feed(final ServerFeed target) {
        this.feed = target;
    }

    @Override
    public void estimate_changed(final Estimate changed) {
        final ServerFeed target = feed;
        if (target != null) {
            target.poke();
        }
    }
}
