package org.latencyserver.server.corba;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Subscription ids are capabilities, not counters; a hub holds a bounded number of subscribers. */
class SubscriptionHubTest {

    @Test
    void idsArePositiveDistinctAndNotConsecutive() throws SubscriptionRefused {
        final SubscriptionHub<String> hub = new SubscriptionHub<>(DeliveryPolicy.NEWEST_PER_CONNECTION, Runnable::run);
        final Set<Long> ids = new HashSet<>();
        long previous = -1;
        int consecutive = 0;
        for (int i = 0; i < 50; i++) {
            final long id = hub.subscribe(SubscriptionOwner.UNKNOWN, Set.of(), event -> { });
            assertTrue(id > 0, "positive: " + id);
            assertTrue(ids.add(id), "distinct: " + id);
            consecutive += id == previous + 1 ? 1 : 0;
            previous = id;
        }
        assertTrue(consecutive < 2, "ids must not be guessable from one another");
        hub.closeAll();
    }

    @Test
    void onlyTheHolderOfAnIdCanUnsubscribeItAndAnUnknownIdChangesNothing() throws SubscriptionRefused {
        final SubscriptionHub<String> hub = new SubscriptionHub<>(DeliveryPolicy.NEWEST_PER_CONNECTION, Runnable::run);
        final long id = hub.subscribe(SubscriptionOwner.UNKNOWN, Set.of(), event -> { });
        assertFalse(hub.unsubscribe(id + 1));
        assertEquals(1, hub.size());
        assertTrue(hub.unsubscribe(id));
        assertEquals(0, hub.size());
    }

    @Test
    void aFullHubRefusesTheNextSubscriberWithTheLimit() throws SubscriptionRefused {
        final SubscriptionHub<String> hub = new SubscriptionHub<>(DeliveryPolicy.NEWEST_PER_CONNECTION, Runnable::run);
        try {
            for (int i = 0; i < SubscriptionHub.MAX_SUBSCRIBERS; i++) {
                hub.subscribe(SubscriptionOwner.UNKNOWN, Set.of(), event -> { });
            }
            final SubscriptionRefused refused = assertThrows(SubscriptionRefused.class,
                () -> hub.subscribe(SubscriptionOwner.UNKNOWN, Set.of(), e -> { }));
            assertTrue(refused.getMessage().contains("1000 subscribers"), refused.getMessage());
            assertEquals(org.latencyserver.server.engine.Refusal.Kind.TOO_LARGE, refused.refusal().kind());
        } finally {
            hub.closeAll();
        }
    }
}
