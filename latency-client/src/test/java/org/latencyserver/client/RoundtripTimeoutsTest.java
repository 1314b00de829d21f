package org.latencyserver.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.latencyserver.idl.latency.EchoPeer;
import org.latencyserver.idl.latency.EchoPeerHelper;
import org.latencyserver.idl.latency.EchoPeerPOATie;
import org.latencyserver.orb.EchoingPeer;
import org.latencyserver.orb.Fm1Arrays;
import org.latencyserver.orb.OrbSupport;
import org.omg.CORBA.ORB;
import org.omg.CORBA.TIMEOUT;
import org.omg.PortableServer.POA;
import org.omg.PortableServer.POAHelper;

/**
 * The round-trip time-out against a real peer that answers slowly: an {@code EchoPeer} served by an
 * ORB of its own, called over IIOP on 127.0.0.1 sockets from a second ORB in the same JVM whose own reply
 * time-out ({@code jacorb.connection.client.pending_reply_timeout}) is a minute, so only the policy
 * can cut a call short.
 *
 * <p>After a call times out, JacORB closes the connection it used, so the slow peer's late reply
 * cannot be written: the peer's ORB logs an ERROR "Failed to write GIOP message due to
 * COMM_FAILURE" for it. That is expected here.
 *
 * <p>Times are asserted loosely (the machine is shared): a call that overruns must end well before
 * the slow peer answers, not at the deadline to the millisecond.
 */
class RoundtripTimeoutsTest {

    /** The client ORB's own reply time-out: far beyond every delay here. */
    private static final long ORB_REPLY_TIMEOUT_MILLIS = 60_000;
    private static final long SLOW_PEER_MILLIS = 2_000;
    private static final long SHORT_DEADLINE_NANOS = TimeUnit.MILLISECONDS.toNanos(200);
    /** A call that overruns must have ended by then: well before the slow peer's answer. */
    private static final long ENDED_BY_MILLIS = 1_500;

    private static ORB peerOrb;
    private static ORB clientOrb;
    private static SlowEchoPeer peer;
    private static org.omg.CORBA.Object peerRef;

    @BeforeAll
    static void startPeerAndClient() throws Exception {
        peerOrb = OrbSupport.init(new String[0], overSockets(OrbSupport.properties("127.0.0.1", 0, ORB_REPLY_TIMEOUT_MILLIS)));
        final POA poa = POAHelper.narrow(peerOrb.resolve_initial_references("RootPOA"));
        poa.the_POAManager().activate();
        peer = new SlowEchoPeer();
        final String ior = peerOrb.object_to_string(poa.servant_to_reference(new EchoPeerPOATie(peer)));

        clientOrb = OrbSupport.init(new String[0], overSockets(OrbSupport.properties("127.0.0.1", 0, ORB_REPLY_TIMEOUT_MILLIS)));
        peerRef = clientOrb.string_to_object(ior);
        // Open the connection before anything is timed.
        peer.delayMillis = 0;
        EchoPeerHelper.narrow(peerRef).echo(new byte[] {0});
    }

    @AfterAll
    static void stopOrbs() throws InterruptedException {
        if (peer != null) {
            peer.releaseAndAwaitIdle();
        }
        if (clientOrb != null) {
            clientOrb.shutdown(false);
        }
        if (peerOrb != null) {
            peerOrb.shutdown(false);
        }
    }

    @Test
    void aCallThatOverrunsItsDeadlineEndsWithTimeoutLongBeforeTheSlowPeerAnswers() throws InterruptedException {
        peer.delayMillis = SLOW_PEER_MILLIS;
        final EchoPeer withDeadline = RoundtripTimeouts.withTimeout(clientOrb, peerRef, SHORT_DEADLINE_NANOS,
            EchoPeerHelper::narrow);

        final int startedBefore = peer.started.get();
        final long start = System.nanoTime();
        final TIMEOUT timeout = assertThrows(TIMEOUT.class, () -> withDeadline.echo(new byte[] {1, 2, 3}));
        final long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

        System.out.printf("overrun: deadline 200 ms, peer %d ms, the call ended after %d ms with %s%n",
            SLOW_PEER_MILLIS, tookMillis, timeout);
        assertTrue(tookMillis < ENDED_BY_MILLIS, "ended after " + tookMillis + " ms, the peer answers after " + SLOW_PEER_MILLIS);
        assertTrue(tookMillis >= 150, "not before the deadline: ended after " + tookMillis + " ms");
        // JacORB reports COMPLETED_NO, yet the request was sent: the peer received it and carries it out.
        awaitStarted(startedBefore + 1);
    }

    @Test
    void aCallThatAnswersWithinItsDeadlineReturnsTheEcho() {
        peer.delayMillis = 200;
        final EchoPeer withDeadline = RoundtripTimeouts.withTimeout(clientOrb, peerRef, TimeUnit.SECONDS.toNanos(5),
            EchoPeerHelper::narrow);

        final long start = System.nanoTime();
        final byte[] echoed = withDeadline.echo(new byte[] {4, 5, 6});
        final long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

        System.out.printf("within: deadline 5000 ms, peer 200 ms, the call returned after %d ms%n", tookMillis);
        assertArrayEquals(new byte[] {4, 5, 6}, echoed);
        assertTrue(tookMillis >= 190, "the peer's delay was waited for: " + tookMillis + " ms");
    }

    @Test
    void theReferencePassedInKeepsNoDeadlineAndWaitsForTheSlowPeer() {
        peer.delayMillis = 1_000;
        RoundtripTimeouts.withTimeout(clientOrb, peerRef, SHORT_DEADLINE_NANOS);
        final EchoPeer plain = EchoPeerHelper.narrow(peerRef);

        final long start = System.nanoTime();
        final byte[] echoed = plain.echo(new byte[] {7});
        final long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

        System.out.printf("no deadline: peer 1000 ms, the call returned after %d ms%n", tookMillis);
        assertArrayEquals(new byte[] {7}, echoed);
        assertTrue(tookMillis >= 990, "the ORB's own reply time-out (a minute) let it wait: " + tookMillis + " ms");
    }

    @Test
    void aDeadlineFromAServedBoundWithItsMarginCutsAnOverrunningCallShort() {
        peer.delayMillis = SLOW_PEER_MILLIS;
        // A 100 ms bound, x 1.5 + 50 ms: a 200 ms deadline.
        final DeadlineMargin margin = new DeadlineMargin(1.5, TimeUnit.MILLISECONDS.toNanos(50));
        final EchoPeer withDeadline = RoundtripTimeouts.withEstimate(clientOrb, peerRef, DeadlineTest.bound(100.0, 95, 97),
            margin, EchoPeerHelper::unchecked_narrow);

        final long start = System.nanoTime();
        assertThrows(TIMEOUT.class, () -> withDeadline.fixed_array_test_64(Fm1Arrays.numbered(64)));
        final long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

        System.out.printf("from a bound: deadline 200 ms, peer %d ms, the call ended after %d ms%n", SLOW_PEER_MILLIS, tookMillis);
        assertTrue(tookMillis < ENDED_BY_MILLIS, "ended after " + tookMillis + " ms");
    }

    /**
     * JacORB passes calls between two ORBs of one JVM through an in-memory pipe unless told not to;
     * these tests want the calls on real loopback sockets, as between processes.
     */
    static Properties overSockets(final Properties properties) {
        properties.setProperty("jacorb.iiop.enable_loopback", "off");
        return properties;
    }

    private static void awaitStarted(final int calls) throws InterruptedException {
        final long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (peer.started.get() < calls) {
            assertTrue(System.nanoTime() < until, "the peer never received the call that timed out");
            Thread.sleep(10);
        }
    }

    /** An echo peer that sleeps {@link #delayMillis} before every answer. */
    static final class SlowEchoPeer extends EchoingPeer {

        volatile long delayMillis;
        final AtomicInteger started = new AtomicInteger();
        private final AtomicInteger finished = new AtomicInteger();
        private final CountDownLatch released = new CountDownLatch(1);

        /**
         * Ends the pauses in progress (their replies go to callers that gave up on them) and waits
         * until every call has answered, so that no reply is written after the ORBs are shut down.
         */
        void releaseAndAwaitIdle() throws InterruptedException {
            released.countDown();
            final long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (finished.get() < started.get() && System.nanoTime() < until) {
                Thread.sleep(10);
            }
            Thread.sleep(50);
        }

        @Override
        protected void beforeAnswer() {
            started.incrementAndGet();
            try {
                final long millis = delayMillis;
                if (millis > 0) {
                    released.await(millis, TimeUnit.MILLISECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                finished.incrementAndGet();
            }
        }
    }
}
