package org.latencyserver.agent.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.latencyserver.core.traffic.CallKind;
import org.latencyserver.core.traffic.TrafficFamily;
import org.latencyserver.core.traffic.TrafficShape;
import org.latencyserver.idl.latency.ConnectionInfo;
import org.latencyserver.idl.latency.EchoPeer;
import org.latencyserver.idl.latency.EchoPeerHelper;
import org.latencyserver.idl.latency.EchoPeerOperations;
import org.latencyserver.idl.latency.EchoPeerPOATie;
import org.latencyserver.idl.latency.ProbeReport;
import org.latencyserver.idl.latency.ResultRefused;
import org.latencyserver.orb.OrbSupport;
import org.latencyserver.orb.References;
import org.latencyserver.peer.EchoPeerServant;
import org.omg.CORBA.CompletionStatus;
import org.omg.CORBA.ORB;
import org.omg.CORBA.TRANSIENT;
import org.omg.PortableServer.POA;
import org.omg.PortableServer.POAHelper;

/**
 * The prober against real peer agents: {@link EchoPeerServant}s in a peer ORB of their own, reached
 * over loopback IIOP from a second ORB, exactly as the agent reaches a peer agent. The server is a
 * stand-in that lists connections and captures the reports.
 *
 * <p>Nothing here is timed: the tests wait for what must happen (with a generous limit) and then
 * compare counts, which are exact whatever the machine's speed. The peer's own echo counter is the
 * independent tally of what was sent (one more per path: the echo check when its round trip is
 * built).
 */
class PathProberTest {

    /** Echoes a path costs beyond its recorded round trips: the echo check when it is built, and its warm-up. */
    private static final int UNRECORDED = 1 + PathProber.WARMUP_ROUND_TRIPS;


    private static final Duration PATIENCE = Duration.ofSeconds(20);
    private static final String NODE = "lab1";

    private static ORB peerOrb;
    private static POA peerPoa;
    private static ORB clientOrb;

    private final FakeServer server = new FakeServer();
    private final Peers peers = new Peers();
    private final AtomicBoolean measuring = new AtomicBoolean();
    private PathProber prober;

    @BeforeAll
    static void startOrbs() throws Exception {
        peerOrb = OrbSupport.init(new String[0], OrbSupport.properties("127.0.0.1", 0, 10_000));
        peerPoa = POAHelper.narrow(peerOrb.resolve_initial_references("RootPOA"));
        peerPoa.the_POAManager().activate();
        clientOrb = OrbSupport.init(new String[0], OrbSupport.properties("127.0.0.1", 0, 10_000));
    }

    @AfterAll
    static void stopOrbs() {
        if (clientOrb != null) {
            clientOrb.shutdown(false);
        }
        if (peerOrb != null) {
            peerOrb.shutdown(false);
        }
    }

    @AfterEach
    void stopProber() {
        if (prober != null) {
            prober.close();
        }
    }

    @Test
    void eachConnectionOfThisNodeWithARateIsProbedAndEveryRoundTripIsReportedExactlyOnce() throws Exception {
        final EchoPeerServant first = peers.start("p1");
        final EchoPeerServant second = peers.start("p2");
        final EchoPeerServant untouched = peers.start("p3");
        server.connections = new ConnectionInfo[] {
            ProberFixtures.connection(1, NODE, "p1", 64, 40),          // the fm1 arrays
            ProberFixtures.connection(2, NODE, "p2", 100, 20),         // octets
            ProberFixtures.connection(3, NODE, "p3", 64, 0),           // probing off
            ProberFixtures.connection(4, "lab9", "p3", 64, 40),        // another node's agent probes it
            ProberFixtures.connection(5, NODE, "p3", 64, Double.NaN),  // nonsense from the server
            ProberFixtures.connection(6, NODE, "p3", 2_000_000, 10),
            ProberFixtures.connection(7, NODE, "p3", 64, -3)};
        final long startNanos = System.nanoTime();
        prober = start(200, 10_000);

        await("three reports of each probed connection", () -> reportsOf(1).size() >= 3 && reportsOf(2).size() >= 3);
        quiesce();
        await("every round trip sent reported", () -> reportedRoundTrips(1) == first.echoCount() - UNRECORDED
            && reportedRoundTrips(2) == second.echoCount() - UNRECORDED);

        assertEquals(first.echoCount() - UNRECORDED + second.echoCount() - UNRECORDED, prober.totals().sentRoundTrips(), "sent = echoed");
        assertEquals(prober.totals().sentRoundTrips(), prober.totals().reportedRoundTrips());
        assertEquals(0, untouched.echoCount(), "rate 0, another node's and nonsense connections are not probed");
        assertEquals(Set.of((short) 1, (short) 2), Set.copyOf(server.reports.stream().map(r -> r.index_ref).toList()));
        for (final ProbeReport report : server.reports) {
            final String what = "report of connection " + report.index_ref;
            assertEquals(NODE, report.client_node_name, what);
            assertEquals("probe-test", report.agent, what);
            assertTrue(report.sample_count >= 1, what + ": an empty window is not reported");
            long binned = 0;
            for (final long count : report.histogram.counts) {
                binned += count;
            }
            assertEquals(report.sample_count, binned + report.histogram.overflow, what + ": the histogram holds the window's round trips");
            final long[] edges = report.histogram.upper_edges_ns;
            assertTrue(report.mean_ms > 0 && report.mean_ms * 1e6 <= edges[edges.length - 1], what + ": mean " + report.mean_ms
                + " ms within the histogram");
        }
        for (final int indexRef : new int[] {1, 2}) {
            // Windows follow one another without overlap: together no longer than the prober ran (each rounded to 1 ms).
            final List<ProbeReport> reports = reportsOf(indexRef);
            final long windowsMillis = reports.stream().mapToLong(r -> r.window_millis).sum();
            final long ranMillis = (System.nanoTime() - startNanos) / 1_000_000 + reports.size();
            assertTrue(windowsMillis <= ranMillis, "connection " + indexRef + ": windows of " + windowsMillis + " ms in all in "
                + ranMillis + " ms");
        }
    }

    @Test
    void aMeasurementInProgressSuspendsProbingAndTheSkippedSendsAreNotMadeUpLater() throws Exception {
        final EchoPeerServant peer = peers.start("p1");
        server.connections = new ConnectionInfo[] {ProberFixtures.connection(1, NODE, "p1", 256, 50)};
        prober = start(200, 10_000);
        await("probing under way", () -> peer.echoCount() > 10);

        measuring.set(true);
        final long skippedBefore = awaitValue("a send skipped while measuring", () -> prober.totals().skippedWhileMeasuring(), 1);
        // A skip comes after the send before it has returned (one thread): nothing is in flight now.
        final long echoesWhileMeasuring = peer.echoCount();
        final long sentWhileMeasuring = prober.totals().sentRoundTrips();
        awaitValue("twenty more sends skipped", () -> prober.totals().skippedWhileMeasuring(), skippedBefore + 20);
        assertEquals(echoesWhileMeasuring, peer.echoCount(), "no round trip reached the peer while measuring");
        assertEquals(sentWhileMeasuring, prober.totals().sentRoundTrips());

        measuring.set(false);
        await("probing resumed", () -> peer.echoCount() > echoesWhileMeasuring + 10);
        quiesce();
        await("every round trip sent reported", () -> reportedRoundTrips(1) == peer.echoCount() - UNRECORDED);
    }

    @Test
    void aRefusedReportIsDroppedAndItsConnectionStillProbed() throws Exception {
        final EchoPeerServant accepted = peers.start("p1");
        final EchoPeerServant refused = peers.start("p2");
        server.connections = new ConnectionInfo[] {
            ProberFixtures.connection(1, NODE, "p1", 64, 50),
            ProberFixtures.connection(2, NODE, "p2", 64, 50)};
        server.refused.add((short) 2);
        prober = start(200, 10_000);
        await("reports of connection 1, refusals of connection 2", () -> reportsOf(1).size() >= 2
            && prober.totals().droppedRoundTrips() > 0);
        final long refusedEchoes = refused.echoCount();
        await("the refused connection still probed", () -> refused.echoCount() > refusedEchoes + 10);

        quiesce();
        await("every round trip reported or dropped", () -> {
            final ProbeTotals totals = prober.totals();
            return totals.reportedRoundTrips() + totals.droppedRoundTrips() == totals.sentRoundTrips();
        });
        final ProbeTotals totals = prober.totals();
        assertEquals(0, reportsOf(2).size());
        assertEquals(accepted.echoCount() - UNRECORDED + refused.echoCount() - UNRECORDED, totals.sentRoundTrips(), "sent = echoed");
        assertEquals(accepted.echoCount() - UNRECORDED, reportedRoundTrips(1), "connection 1's windows all accepted");
        assertEquals(refused.echoCount() - UNRECORDED, totals.droppedRoundTrips(), "connection 2's windows all dropped");
        assertEquals(0, server.forgotten.get(), "a refusal is an answer: the server's reference is kept");
    }

    @Test
    void anUnreachableServerCostsOnlyTheWindowsOfTheOutageWhileProbingGoesOn() throws Exception {
        final EchoPeerServant peer = peers.start("p1");
        server.connections = new ConnectionInfo[] {ProberFixtures.connection(1, NODE, "p1", 64, 50)};
        prober = start(200, 500);
        await("reports while the server is up", () -> reportsOf(1).size() >= 2);

        server.down.set(true);
        await("the server's reference forgotten", () -> server.forgotten.get() >= 1);
        final long echoesWhenDown = peer.echoCount();
        await("probing goes on while the server is down, its windows dropped", () -> peer.echoCount() > echoesWhenDown + 20
            && prober.totals().droppedRoundTrips() > 0);
        final int reportsWhenDown = reportsOf(1).size();
        server.down.set(false);
        await("reports resume once the server is back", () -> reportsOf(1).size() > reportsWhenDown);

        quiesce();
        await("every round trip reported or dropped", () -> {
            final ProbeTotals totals = prober.totals();
            return totals.reportedRoundTrips() + totals.droppedRoundTrips() == totals.sentRoundTrips();
        });
        final ProbeTotals totals = prober.totals();
        assertEquals(peer.echoCount() - UNRECORDED, totals.sentRoundTrips(), "sent = echoed");
        assertEquals(reportedRoundTrips(1), totals.reportedRoundTrips());
        assertTrue(totals.droppedRoundTrips() > 0 && reportedRoundTrips(1) < totals.sentRoundTrips(),
            "the outage's windows were dropped, not sent later");
    }

    @Test
    void aPeerThatCannotBeFoundIsBackedOffAndProbedAgainOnceItIsThere() throws Exception {
        final EchoPeerServant healthy = peers.start("p1");
        server.connections = new ConnectionInfo[] {
            ProberFixtures.connection(1, NODE, "p1", 64, 50),
            ProberFixtures.connection(2, NODE, "late", 64, 50)};
        prober = start(200, 10_000);
        await("the missing peer forgotten and backed off", () -> peers.forgotten.contains("late")
            && prober.totals().skippedWhilePeerDown() > 0);
        final long healthyEchoes = healthy.echoCount();
        await("the other path probed meanwhile", () -> healthy.echoCount() > healthyEchoes + 10);
        final EchoPeerServant lateComer = peers.start("late");
        await("the peer probed once it is there", () -> reportsOf(2).size() >= 1);
        assertTrue(lateComer.echoCount() > 1);
        assertTrue(prober.totals().failedRoundTrips() >= 1);
    }

    @Test
    void aConnectionSwitchedOnOrOffOnTheServerIsFollowedAtTheNextRefresh() throws Exception {
        final EchoPeerServant peer = peers.start("p1");
        server.connections = new ConnectionInfo[] {ProberFixtures.connection(1, NODE, "p1", 64, 0)};
        prober = start(200, 300);
        server.connections = new ConnectionInfo[] {ProberFixtures.connection(1, NODE, "p1", 64, 50)};
        await("probing once the server lists a rate", () -> reportsOf(1).size() >= 2);

        final int listedBefore = server.listed.get();
        server.connections = new ConnectionInfo[] {ProberFixtures.connection(1, NODE, "p1", 64, 0)};
        // Two reads of the list: the first may have begun before the change.
        await("the list read again", () -> server.listed.get() >= listedBefore + 2);
        await("the switched-off connection's last window reported", () -> reportedRoundTrips(1) == peer.echoCount() - UNRECORDED);
        final long echoes = peer.echoCount();
        final int reports = reportsOf(1).size();
        // Several refreshes and report windows later, still nothing: 50 round trips a second would show.
        Thread.sleep(1_500);
        assertEquals(echoes, peer.echoCount(), "no probe after the rate went to 0");
        assertEquals(reports, reportsOf(1).size(), "no report without round trips");
    }

    @Test
    void aDeclaredShapeIsProbedInItsTrainsWithItsCallAndEachReportCarriesIt() throws Exception {
        final Map<String, AtomicLong> calls = peers.startCounting("p1");
        final TrafficShape declared = new TrafficShape(2_000, 7, 0, CallKind.OCTETS);
        server.connections = new ConnectionInfo[] {ProberFixtures.shaped(1, NODE, "p1", 64, 100, declared)};
        prober = start(200, 10_000);
        await("five reports", () -> reportsOf(1).size() >= 5);
        final List<ProbeReport> reports = reportsOf(1);
        // 7 round trips at 100 per second: a 70 ms cycle, 14 ms of it the train, 56 ms the pause the rate needs.
        final TrafficShape sent = new TrafficShape(2_000, 7, 56, CallKind.OCTETS);
        for (final ProbeReport report : reports) {
            assertEquals(sent, shapeOf(report), "the shape as sent, its pause the one the rate needs");
            assertTrue(report.sample_count > 0 && report.sample_count % 7 == 0,
                "whole trains of 7 round trips in a window, all recorded: " + report.sample_count);
        }
        assertEquals(0, calls.getOrDefault("arrays", new AtomicLong()).get(), "octets declared: no fm1 call");
        assertTrue(calls.get("octets").get() >= 1 + PathProber.WARMUP_ROUND_TRIPS + reports.stream().mapToLong(r -> r.sample_count).sum());
    }

    @Test
    void arraysAtASizeTheThesisHasNoArrayForGoAsOctetsAndAreReportedSo() throws Exception {
        final Map<String, AtomicLong> calls = peers.startCounting("p1");
        server.connections = new ConnectionInfo[] {ProberFixtures.shaped(1, NODE, "p1", 100, 100,
            new TrafficShape(1_000, 4, 0, CallKind.ARRAYS))};
        prober = start(200, 10_000);
        await("two reports", () -> reportsOf(1).size() >= 2);
        assertEquals(CallKind.OCTETS, shapeOf(reportsOf(1).get(0)).call());
        assertEquals(0, calls.getOrDefault("arrays", new AtomicLong()).get());
    }

    @Test
    void withoutADeclaredShapeEachTrainIsDrawnFromTheDefaultFamilyAndReportedAlone() throws Exception {
        final Map<String, AtomicLong> calls = peers.startCounting("p1");
        server.connections = new ConnectionInfo[] {ProberFixtures.undeclared(1, NODE, "p1", 64, 200)};
        prober = start(200, 10_000);
        await("twelve reports", () -> reportsOf(1).size() >= 12);
        final List<ProbeReport> reports = reportsOf(1);
        final Set<TrafficShape> shapes = new HashSet<>();
        for (final ProbeReport report : reports) {
            final TrafficShape shape = shapeOf(report);
            assertTrue(TrafficFamily.DEFAULT.contains(shape), shape.toString());
            // The reported pause is the one used rounded to whole ms: within 0.5 ms of it.
            assertTrue(new TrafficShape(shape.spacingMicros(), shape.burstRoundTrips(), shape.pauseMillis() + 1, shape.call())
                .meanRoundTripsPerSecond() <= 200, shape + " is faster than the probe rate");
            assertTrue(report.sample_count > 0 && report.sample_count % shape.burstRoundTrips() == 0,
                "a window holds whole trains of its shape: " + report.sample_count + " round trips, " + shape);
            shapes.add(shape);
        }
        assertTrue(shapes.size() >= reports.size() - 1, "a new shape per train: " + shapes.size() + " of " + reports.size());
        assertTrue(calls.containsKey("octets") && calls.containsKey("arrays"), "both calls drawn: " + calls);
    }

    // ---- helpers ----

    private PathProber start(final long reportMillis, final long refreshMillis) {
        final PathProber started = new PathProber(server, peers, NODE::equals, measuring::get,
            new ProbeSettings("probe-test", reportMillis, refreshMillis), new Random(42));
        started.start();
        return started;
    }

    /** Stops the sends (as a measurement does) and waits until one was skipped: then none is in flight. */
    private void quiesce() throws InterruptedException {
        measuring.set(true);
        final long skipped = prober.totals().skippedWhileMeasuring();
        awaitValue("a send skipped", () -> prober.totals().skippedWhileMeasuring(), skipped + 1);
    }

    private static TrafficShape shapeOf(final ProbeReport report) {
        return new TrafficShape(report.shape.spacing_micros, report.shape.burst_round_trips, report.shape.pause_millis,
            CallKind.fromWireCode(report.shape.call).orElseThrow());
    }

    private List<ProbeReport> reportsOf(final int indexRef) {
        final List<ProbeReport> of = new ArrayList<>();
        for (final ProbeReport report : server.reports) {
            if (report.index_ref == indexRef) {
                of.add(report);
            }
        }
        return of;
    }

    private long reportedRoundTrips(final int indexRef) {
        return reportsOf(indexRef).stream().mapToLong(r -> r.sample_count).sum();
    }

    private static void await(final String what, final BooleanSupplier condition) throws InterruptedException {
        final long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("not seen within " + PATIENCE.toSeconds() + " s: " + what);
            }
            Thread.sleep(20);
        }
    }

    private static long awaitValue(final String what, final Supplier<Long> value, final long atLeast) throws InterruptedException {
        await(what, () -> value.get() >= atLeast);
        return value.get();
    }

    /** The Latency Server as the prober sees it: a connection list, and reports captured (or refused, or unreachable). */
    private static final class FakeServer implements ProbeServer {
        volatile ConnectionInfo[] connections = new ConnectionInfo[0];
        final List<ProbeReport> reports = new CopyOnWriteArrayList<>();
        final Set<Short> refused = ConcurrentHashMap.newKeySet();
        final AtomicBoolean down = new AtomicBoolean();
        final AtomicInteger forgotten = new AtomicInteger();
        final AtomicInteger listed = new AtomicInteger();

        @Override
        public ConnectionInfo[] listConnections() {
            failIfDown();
            listed.incrementAndGet();
            return connections;
        }

        @Override
        public void submitProbe(final ProbeReport report) throws ResultRefused {
            failIfDown();
            if (refused.contains(report.index_ref)) {
                throw new ResultRefused(report.index_ref, 0, "not this agent's node");
            }
            reports.add(report);
        }

        @Override
        public void forgetReference() {
            forgotten.incrementAndGet();
        }

        private void failIfDown() {
            if (down.get()) {
                throw new TRANSIENT("the test's server is down", 0, CompletionStatus.COMPLETED_NO);
            }
        }
    }

    /** Peer agents in the peer ORB, reached from the client ORB by their IORs. */
    private static final class Peers implements PeerLookup {
        private final Map<String, String> iors = new ConcurrentHashMap<>();
        final Set<String> forgotten = ConcurrentHashMap.newKeySet();

        EchoPeerServant start(final String node) throws Exception {
            final EchoPeerServant servant = new EchoPeerServant();
            iors.put(node, peerOrb.object_to_string(peerPoa.servant_to_reference(new EchoPeerPOATie(servant))));
            return servant;
        }

        /** @return a peer agent's echoes by call ("octets" or "arrays"), counted as they are answered */
        Map<String, AtomicLong> startCounting(final String node) throws Exception {
            final EchoPeerServant servant = new EchoPeerServant();
            final Map<String, AtomicLong> calls = new ConcurrentHashMap<>();
            final EchoPeerOperations counting = (EchoPeerOperations) Proxy.newProxyInstance(EchoPeerOperations.class.getClassLoader(),
                new Class<?>[] {EchoPeerOperations.class}, (proxy, method, args) -> {
                    if (method.getDeclaringClass() == Object.class) {
                        return method.invoke(servant, args);
                    }
                    calls.computeIfAbsent("echo".equals(method.getName()) ? "octets" : "arrays", key -> new AtomicLong()).incrementAndGet();
                    return method.invoke(servant, args);
                });
            iors.put(node, peerOrb.object_to_string(peerPoa.servant_to_reference(new EchoPeerPOATie(counting))));
            return calls;
        }

        @Override
        public EchoPeer peer(final String peerNode) {
            final String ior = iors.get(peerNode);
            if (ior == null) {
                throw new References.ReferenceException("no peer agent for node '" + peerNode + "' yet");
            }
            return EchoPeerHelper.unchecked_narrow(clientOrb.string_to_object(ior));
        }

        @Override
        public void forget(final String peerNode) {
            forgotten.add(peerNode);
        }
    }
}
