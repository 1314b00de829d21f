package org.latencyserver.agent.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.latencyserver.idl.StandInServer;
import org.latencyserver.idl.latency.ConnectionInfo;
import org.latencyserver.idl.latency.EchoPeerOperations;
import org.latencyserver.idl.latency.EchoPeerPOATie;
import org.latencyserver.idl.latency.MeasuredResult;
import org.latencyserver.idl.latency.MeasurementRequest;
import org.latencyserver.idl.latency.PathHop;
import org.latencyserver.idl.latency.ProbeReport;
import org.latencyserver.idl.latency.TrafficShape;
import org.latencyserver.orb.OrbSupport;
import org.latencyserver.peer.EchoPeerServant;
import org.omg.CORBA.ORB;
import org.omg.PortableServer.POA;
import org.omg.PortableServer.POAHelper;

/**
 * A whole client agent over IIOP, against a stand-in server and a peer agent's echo servant in an ORB of its own: the
 * probe reports of a connection with a declared traffic shape reach the server carrying that shape, in whole trains; a
 * measurement request's shape is run with its call, its spacing and its pauses.
 *
 * <p>Nothing is timed against a limit from above: the run's least duration follows from its shape (waits end at their
 * time or later, never sooner).
 */
class TrafficOverIiopTest {

    /** Probe trains: 6 round trips 3 ms apart, octets, at 60 per second (a 100 ms cycle: 82 ms pause). */
    private static final TrafficShape PROBED = new TrafficShape(3_000, 6, 0, (short) 1);
    /** A measurement in bursts of 10 round trips 5 ms apart with 50 ms pauses, octets. */
    private static final TrafficShape MEASURED = new TrafficShape(5_000, 10, 50, (short) 1);
    private static final int MEASURED_ROUND_TRIPS = 40;
    private static final long WAIT_MILLIS = 30_000;

    private static ORB peerOrb;
    private static String peerIor;
    private static final Map<String, AtomicLong> calls = new ConcurrentHashMap<>();
    private static StandInServer server;
    private static final List<ProbeReport> reports = new CopyOnWriteArrayList<>();
    private static final AtomicReference<MeasurementRequest[]> pending = new AtomicReference<>(new MeasurementRequest[0]);
    private static final CompletableFuture<MeasuredResult> measured = new CompletableFuture<>();

    @BeforeAll
    static void startPeerAndStandInServer() throws Exception {
        peerOrb = OrbSupport.init(new String[0], OrbSupport.properties("127.0.0.1", 0, 10_000));
        final POA poa = POAHelper.narrow(peerOrb.resolve_initial_references("RootPOA"));
        poa.the_POAManager().activate();
        final EchoPeerServant servant = new EchoPeerServant();
        final EchoPeerOperations counting = (EchoPeerOperations) Proxy.newProxyInstance(EchoPeerOperations.class.getClassLoader(),
            new Class<?>[] {EchoPeerOperations.class}, (proxy, method, args) -> {
                if (method.getDeclaringClass() != Object.class) {
                    calls.computeIfAbsent("echo".equals(method.getName()) ? "octets" : "arrays", key -> new AtomicLong())
                        .incrementAndGet();
                }
                return method.invoke(servant, args);
            });
        peerIor = peerOrb.object_to_string(poa.servant_to_reference(new EchoPeerPOATie(counting)));
        server = StandInServer.start(Map.of(
            "list_connections", args -> new ConnectionInfo[] {new ConnectionInfo((short) 1, "ws1", "ws2", (short) 1, (short) 1, 64,
                (short) 3, 0, "", (short) 11, (short) 0, false, "", "", "", 60.0, "adaptive", new PathHop[0], "union", true, PROBED)},
            "submit_probe", args -> {
                reports.add((ProbeReport) args[0]);
                return null;
            },
            "subscribe_measurements", args -> 5L,
            "unsubscribe", args -> null,
            "pending_measurements", args -> pending.get(),
            "submit_measurement", args -> {
                measured.complete((MeasuredResult) args[0]);
                pending.set(new MeasurementRequest[0]);
                return null;
            }));
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
        if (peerOrb != null) {
            peerOrb.shutdown(false);
        }
    }

    @Test
    void probeReportsCarryTheDeclaredShapeInWholeTrainsAndAMeasurementRunsInItsShape() throws Exception {
        try (ClientAgent agent = ClientAgent.launch(new ClientAgentContext().server(server.ior()).clientNodes(Set.of("ws1"))
            .peerReferences(Map.of("ws2", peerIor)).agentName("traffic-test").jitWarmupSeconds(0).pollIntervalMillis(200)
            .probeReportMillis(200))) {
            awaitReports(4);
            // Snapshot before any measurement: a measurement skips the probe sends due while it runs.
            final List<ProbeReport> probed = new ArrayList<>(reports);
            for (final ProbeReport report : probed) {
                assertEquals(PROBED.spacing_micros, report.shape.spacing_micros);
                assertEquals(PROBED.burst_round_trips, report.shape.burst_round_trips);
                assertEquals(82, report.shape.pause_millis, "the pause 60 round trips per second need");
                assertEquals(PROBED.call, report.shape.call);
                assertTrue(report.sample_count > 0 && report.sample_count % 6 == 0, "whole trains of 6: " + report.sample_count);
            }
            assertEquals(0, calls.getOrDefault("arrays", new AtomicLong()).get(), "octets declared: no fm1 call");

            final long arraysBefore = calls.getOrDefault("arrays", new AtomicLong()).get();
            final long offeredNanos = System.nanoTime();
            pending.set(new MeasurementRequest[] {new MeasurementRequest((short) 1, 77, "ws1", "ws2", peerIor, 64,
                MEASURED_ROUND_TRIPS, 0, 0L, 0L, WAIT_MILLIS, "test", 0L, 0L, MEASURED_ROUND_TRIPS, MEASURED)});
            final MeasuredResult result = measured.get(WAIT_MILLIS, TimeUnit.MILLISECONDS);
            final long tookMillis = (System.nanoTime() - offeredNanos) / 1_000_000;
            assertEquals(MEASURED_ROUND_TRIPS, result.sample_count);
            // From the first start to the last: 4 bursts of 9 spacings (45 ms) and 3 pauses after a spacing (55 ms).
            assertTrue(tookMillis >= 4 * 45 + 3 * 55, "the run took " + tookMillis + " ms, less than its shape allows");
            assertEquals(arraysBefore, calls.getOrDefault("arrays", new AtomicLong()).get(), "measured with octets");
        }
    }

    private static void awaitReports(final int count) throws InterruptedException {
        final long deadline = System.nanoTime() + WAIT_MILLIS * 1_000_000L;
        while (reports.size() < count) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("fewer than " + count + " probe reports in " + WAIT_MILLIS + " ms: " + reports.size());
            }
            Thread.sleep(20);
        }
    }
}
