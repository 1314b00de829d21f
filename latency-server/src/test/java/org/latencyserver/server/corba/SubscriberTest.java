package org.latencyserver.server.corba;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Delivery to one subscriber on the shared pool: order per connection, the newest state for one that
 * is behind, every event for one that keeps up, calls in flight bounded, a failing or hanging
 * listener dropped or contained.
 */
class SubscriberTest {

    /** An event: its connection and its sequence number within that connection. */
    private record Change(short indexRef, int sequence) {
    }

    private final DeliveryPool pool = new DeliveryPool();

    @AfterEach
    void stopPool() {
        pool.shutdown();
    }

    private Subscriber<Change> subscriber(final DeliveryPolicy policy, final Consumer<Change> delivery, final Runnable onDrop) {
        return new Subscriber<>(1, SubscriptionOwner.UNKNOWN, Set.of(), delivery, () -> false, reason -> onDrop.run(), policy, pool);
    }

    private Subscriber<Change> subscriber(final Consumer<Change> delivery, final java.util.function.BooleanSupplier nonExistent,
                                          final List<ReapReason> reaped) {
        return new Subscriber<>(1, SubscriptionOwner.UNKNOWN, Set.of(), delivery, nonExistent, reaped::add,
            DeliveryPolicy.NEWEST_PER_CONNECTION, pool);
    }

    private static void awaitTrue(final java.util.function.BooleanSupplier condition, final String what) throws InterruptedException {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting until " + what);
            }
            Thread.sleep(5);
        }
    }

    @Test
    void aSubscriberThatIsBehindGetsEachConnectionsNewestStateInOrderNotTheBacklog() throws Exception {
        final CountDownLatch release = new CountDownLatch(1);
        final List<Change> delivered = new CopyOnWriteArrayList<>();
        final Subscriber<Change> subscriber = subscriber(DeliveryPolicy.NEWEST_PER_CONNECTION, change -> {
            awaitQuietly(release);
            delivered.add(change);
        }, () -> { });
        final int connections = 50;
        final int changesEach = 40;    // 2,000 changes, far beyond the coalescing threshold
        for (int sequence = 1; sequence <= changesEach; sequence++) {
            for (short ref = 1; ref <= connections; ref++) {
                subscriber.offer(ref, new Change(ref, sequence));
            }
        }
        release.countDown();
        awaitTrue(() -> lastOf(delivered).size() == connections
            && lastOf(delivered).values().stream().allMatch(last -> last == changesEach), "every connection's newest arrived");
        Thread.sleep(100);
        assertTrue(delivered.size() < connections * changesEach / 4,
            "a backlog of " + connections * changesEach + " changes became " + delivered.size() + " calls");
        assertTrue(subscriber.replacedEvents() > 0);
        assertIncreasingPerConnection(delivered);
    }

    @Test
    void aSubscriberThatKeepsUpGetsEveryChangeOnceInOrderPerConnectionWithBoundedCallsInFlight() throws Exception {
        final Map<Short, Boolean> out = new ConcurrentHashMap<>();
        final AtomicInteger inFlight = new AtomicInteger();
        final AtomicInteger mostInFlight = new AtomicInteger();
        final AtomicInteger sameConnectionTwice = new AtomicInteger();
        final List<Change> delivered = new CopyOnWriteArrayList<>();
        // The first call holds its thread until another connection's call is out beside it.
        final CountDownLatch anotherOut = new CountDownLatch(1);
        final java.util.concurrent.atomic.AtomicBoolean overlapped = new java.util.concurrent.atomic.AtomicBoolean();
        final Subscriber<Change> subscriber = subscriber(DeliveryPolicy.NEWEST_PER_CONNECTION, change -> {
            if (out.put(change.indexRef(), Boolean.TRUE) != null) {
                sameConnectionTwice.incrementAndGet();
            }
            mostInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
            if (change.indexRef() == 1 && change.sequence() == 1) {
                overlapped.set(awaitFor(anotherOut));
            } else {
                anotherOut.countDown();
            }
            sleepQuietly(1);
            inFlight.decrementAndGet();
            out.remove(change.indexRef());
            delivered.add(change);
        }, () -> { });
        final int connections = 8;
        final int changesEach = 20;    // 160 changes, offered in bursts below the threshold
        for (int sequence = 1; sequence <= changesEach; sequence++) {
            for (short ref = 1; ref <= connections; ref++) {
                subscriber.offer(ref, new Change(ref, sequence));
            }
        }
        awaitTrue(() -> delivered.size() == connections * changesEach, "every change arrived");
        assertEquals(0, sameConnectionTwice.get(), "one connection's changes never overlap");
        assertTrue(mostInFlight.get() <= DeliveryPolicy.CALLS_IN_FLIGHT, "calls in flight: " + mostInFlight.get());
        assertTrue(overlapped.get(), "another connection's call went out while the first was still out");
        assertEquals(0, subscriber.replacedEvents());
        final Map<Short, List<Integer>> sequences = perConnection(delivered);
        for (short ref = 1; ref <= connections; ref++) {
            final List<Integer> expected = new ArrayList<>();
            for (int sequence = 1; sequence <= changesEach; sequence++) {
                expected.add(sequence);
            }
            assertEquals(expected, sequences.get(ref), "connection " + ref + ": each change once, in order");
        }
    }

    @Test
    void aListenerThatFailsTwiceInARowIsDroppedOnceAndGetsNothingMore() throws Exception {
        final AtomicInteger calls = new AtomicInteger();
        final AtomicInteger drops = new AtomicInteger();
        final Subscriber<Change> subscriber = subscriber(DeliveryPolicy.NEWEST_PER_CONNECTION, change -> {
            calls.incrementAndGet();
            throw new org.omg.CORBA.TRANSIENT("listener gone");
        }, drops::incrementAndGet);
        for (short ref = 1; ref <= 20; ref++) {
            subscriber.offer(ref, new Change(ref, 1));
        }
        awaitTrue(() -> drops.get() == 1, "the subscriber is dropped");
        Thread.sleep(100);
        final int callsAtDrop = calls.get();
        subscriber.offer((short) 1, new Change((short) 1, 2));
        Thread.sleep(100);
        assertEquals(1, drops.get(), "dropped once");
        assertEquals(callsAtDrop, calls.get(), "a dropped subscriber gets nothing more");
        assertTrue(callsAtDrop <= DeliveryPolicy.CALLS_IN_FLIGHT + Subscriber.MAX_CONSECUTIVE_FAILURES - 1,
            "no call after the failures but those already out: " + callsAtDrop);
    }

    @Test
    void oneFailedPushBetweenDeliveredOnesDropsNothing() throws Exception {
        final List<ReapReason> reaped = new CopyOnWriteArrayList<>();
        final List<Change> delivered = new CopyOnWriteArrayList<>();
        final Subscriber<Change> subscriber = subscriber(change -> {
            if (change.sequence() % 2 == 0) {
                throw new org.omg.CORBA.TIMEOUT("no reply in time");
            }
            delivered.add(change);
        }, () -> false, reaped);
        for (int sequence = 1; sequence <= 9; sequence++) {
            subscriber.offer((short) 1, new Change((short) 1, sequence));
            final int expected = (sequence + 1) / 2;
            awaitTrue(() -> delivered.size() == expected, "change " + expected + " of the odd ones arrived");
        }
        assertEquals(List.of(), reaped, "every failure was followed by a success");
        assertTrue(subscriber.isAlive());
    }

    @Test
    void aPushToAListenerWhoseObjectIsGoneDropsItAtOnce() throws Exception {
        final List<ReapReason> reaped = new CopyOnWriteArrayList<>();
        final Subscriber<Change> subscriber = subscriber(change -> {
            throw new org.omg.CORBA.OBJECT_NOT_EXIST("deactivated");
        }, () -> false, reaped);
        subscriber.offer((short) 1, new Change((short) 1, 1));
        awaitTrue(() -> !reaped.isEmpty(), "the subscriber is dropped");
        assertEquals(List.of(ReapReason.LISTENER_GONE), reaped);
    }

    @Test
    void aLivenessCheckDropsAListenerThatIsGoneAndTwoUnansweredChecksInARowDropOneThatCannotBeReached() throws Exception {
        final List<ReapReason> gone = new CopyOnWriteArrayList<>();
        final Subscriber<Change> nonExistent = subscriber(change -> { }, () -> true, gone);
        nonExistent.checkLiveness();
        awaitTrue(() -> !gone.isEmpty(), "the check dropped it");
        assertEquals(List.of(ReapReason.LISTENER_GONE), gone);

        final List<ReapReason> unreachable = new CopyOnWriteArrayList<>();
        final AtomicInteger checks = new AtomicInteger();
        final Subscriber<Change> dead = subscriber(change -> { }, () -> {
            checks.incrementAndGet();
            throw new org.omg.CORBA.TRANSIENT("connection refused");
        }, unreachable);
        awaitTrue(() -> {
            dead.checkLiveness();    // does nothing while a check is under way
            return !unreachable.isEmpty();
        }, "failed checks dropped it");
        assertEquals(List.of(ReapReason.FAILED_CALLS), unreachable);
        assertEquals(Subscriber.MAX_CONSECUTIVE_FAILURES, checks.get(), "dropped at the second failed check in a row, not before");
    }

    @Test
    void aHangingListenerDelaysNoOtherSubscriberOnTheSamePool() throws Exception {
        final CountDownLatch never = new CountDownLatch(1);
        final Subscriber<Change> hanging = subscriber(DeliveryPolicy.NEWEST_PER_CONNECTION, change -> awaitQuietly(never), () -> { });
        final List<Change> delivered = new CopyOnWriteArrayList<>();
        final Subscriber<Change> healthy = subscriber(DeliveryPolicy.NEWEST_PER_CONNECTION, delivered::add, () -> { });
        for (short ref = 1; ref <= 20; ref++) {
            hanging.offer(ref, new Change(ref, 1));
        }
        for (short ref = 1; ref <= 20; ref++) {
            healthy.offer(ref, new Change(ref, 1));
        }
        awaitTrue(() -> delivered.size() == 20, "the healthy subscriber got every change");
        hanging.close();
        never.countDown();
    }

    @Test
    void everyEventInOrderKeepsTheGlobalOrderOneCallAtATimeAndAFullQueueDrops() throws Exception {
        final CountDownLatch release = new CountDownLatch(1);
        final AtomicInteger drops = new AtomicInteger();
        final List<Change> delivered = new CopyOnWriteArrayList<>();
        final Subscriber<Change> subscriber = subscriber(DeliveryPolicy.EVERY_EVENT_IN_ORDER, change -> {
            awaitQuietly(release);
            delivered.add(change);
        }, drops::incrementAndGet);
        for (int sequence = 1; sequence <= 100; sequence++) {
            subscriber.offer((short) (sequence % 7 + 1), new Change((short) (sequence % 7 + 1), sequence));
        }
        release.countDown();
        awaitTrue(() -> delivered.size() == 100, "every event arrived");
        for (int i = 0; i < 100; i++) {
            assertEquals(i + 1, delivered.get(i).sequence(), "the order offered");
        }
        assertEquals(0, drops.get());

        final CountDownLatch never = new CountDownLatch(1);
        final Subscriber<Change> stuck = subscriber(DeliveryPolicy.EVERY_EVENT_IN_ORDER, change -> awaitQuietly(never), drops::incrementAndGet);
        for (int sequence = 0; sequence <= DeliveryPolicy.EVENT_CAPACITY + 1; sequence++) {
            stuck.offer((short) 1, new Change((short) 1, sequence));
        }
        assertEquals(1, drops.get(), "a full queue drops the subscriber");
        never.countDown();
    }

    private static Map<Short, Integer> lastOf(final List<Change> delivered) {
        final Map<Short, Integer> last = new ConcurrentHashMap<>();
        delivered.forEach(change -> last.put(change.indexRef(), change.sequence()));
        return last;
    }

    private static Map<Short, List<Integer>> perConnection(final List<Change> delivered) {
        final Map<Short, List<Integer>> sequences = new ConcurrentHashMap<>();
        delivered.forEach(change -> sequences.computeIfAbsent(change.indexRef(), ref -> new ArrayList<>()).add(change.sequence()));
        return sequences;
    }

    private static void assertIncreasingPerConnection(final List<Change> delivered) {
        perConnection(delivered).forEach((ref, sequences) -> {
            for (int i = 1; i < sequences.size(); i++) {
                assertTrue(sequences.get(i) > sequences.get(i - 1), "connection " + ref + " out of order: " + sequences);
            }
        });
    }

    private static void awaitQuietly(final CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** @return whether the latch opened within 30 s (a generous wait, not a bound the test measures) */
    private static boolean awaitFor(final CountDownLatch latch) {
        try {
            return latch.await(30, java.util.concurrent.TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static void sleepQuietly(final long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
