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

    @Test
    void livenessChecksUnderWayAtOnceAreBoundedByThePermitsAndEverySubscriberIsChecked() throws Exception {
        final DeliveryPool pool = new DeliveryPool();
        final SubscriptionHub<String> hub = new SubscriptionHub<>(DeliveryPolicy.NEWEST_PER_CONNECTION, pool);
        final java.util.concurrent.atomic.AtomicInteger inFlight = new java.util.concurrent.atomic.AtomicInteger();
        final java.util.concurrent.atomic.AtomicInteger mostInFlight = new java.util.concurrent.atomic.AtomicInteger();
        final java.util.concurrent.atomic.AtomicInteger checked = new java.util.concurrent.atomic.AtomicInteger();
        final java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        final int subscribers = 50;
        try {
            for (int i = 0; i < subscribers; i++) {
                hub.subscribe(SubscriptionOwner.UNKNOWN, Set.of(), event -> { }, () -> {
                    mostInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
                    try {
                        release.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    inFlight.decrementAndGet();
                    checked.incrementAndGet();
                    return false;
                });
            }
            final java.util.concurrent.Semaphore permits = new java.util.concurrent.Semaphore(3);
            final Thread round = new Thread(() -> {
                try {
                    hub.checkLiveness(permits);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            round.start();
            awaitTrue(() -> inFlight.get() == 3, "three checks are under way");
            release.countDown();
            round.join(30_000);
            awaitTrue(() -> checked.get() == subscribers, "every subscriber was checked");
            assertEquals(3, mostInFlight.get(), "never more checks at once than permits");
            assertEquals(subscribers, hub.size(), "listeners that answer stay");
        } finally {
            hub.closeAll();
            pool.shutdown();
        }
    }

    private static void awaitTrue(final java.util.function.BooleanSupplier condition, final String what) throws InterruptedException {
        final long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within 30 s: " + what);
            }
            Thread.sleep(5);
        }
    }
}
