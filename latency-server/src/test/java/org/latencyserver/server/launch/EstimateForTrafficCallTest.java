package org.latencyserver.server.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencyserver.idl.LatservPackage.IdlMibUpdates;
import org.latencyserver.idl.latency.Estimate;
import org.latencyserver.idl.latency.EstimateKind;
import org.latencyserver.idl.latency.HistogramBins;
import org.latencyserver.idl.latency.InvalidArgument;
import org.latencyserver.idl.latency.LatencyService;
import org.latencyserver.idl.latency.LatencyServiceHelper;
import org.latencyserver.idl.latency.MeasuredResult;
import org.latencyserver.idl.latency.MeasurementRequest;
import org.latencyserver.idl.latency.ProbeReport;
import org.latencyserver.idl.latency.TrafficShape;
import org.latencyserver.idl.latency.UnknownConnection;
import org.latencyserver.orb.PlainOrbs;
import org.latencyserver.server.config.TestbedConfigLines;
import org.latencyserver.testkit.config.ServerYaml;
import org.latencyserver.testkit.config.ServerYaml.Connection;
import org.omg.CORBA.ORB;

/**
 * {@code estimate_for_traffic} over real JacORB, from a server in the test's JVM: a QoS 4 connection without declared
 * traffic, measured once, then probed in two shapes — a slow one whose round trips all lie above the bound, a fast
 * one well below it. Each application asking for its own shape gets the bound read at its class's level, saying
 * so; a shape never probed gets the worst class's while few trains were seen, then the shape model's bound; a shape
 * outside the ranges is refused naming the field.
 */
class EstimateForTrafficCallTest {

    private static final long DEADLINE_SECONDS = 60;
    private static final short CONNECTION = 4;
    private static final TrafficShape SLOW = new TrafficShape(10_000, 10, 0, (short) 2);
    private static final TrafficShape FAST = new TrafficShape(500, 100, 0, (short) 1);
    private static final TrafficShape NEVER_PROBED = new TrafficShape(2_000, 50, 0, (short) 1);

    @TempDir
    Path directory;
    private ORB client;

    @BeforeEach
    void startAClientOrb() {
        client = PlainOrbs.withoutRetries();
    }

    @AfterEach
    void stopTheClientOrb() {
        client.shutdown(true);
    }

    @Test
    void eachShapeGetsTheBoundAtItsClasssLevelAndABadShapeIsRefusedNamingTheField() throws Exception {
        try (LatencyServerNode server = LatencyServerNode.launch(context())) {
            final LatencyService service = LatencyServiceHelper.narrow(client.string_to_object(server.serverIor()));
            service.PutMibUpdates(new IdlMibUpdates(CONNECTION, (short) 10, (short) 10, (short) 10), CONNECTION);
            await("a measurement is requested", () -> request(service) != null);
            final MeasurementRequest request = request(service);
            // 1000 round trips spread evenly over 0–1 ms: the 96 % bound lies near 0.96 ms.
            final long[] edges = new long[100];
            final long[] counts = new long[100];
            for (int i = 0; i < 100; i++) {
                edges[i] = (i + 1) * 10_000L;
                counts[i] = 10;
            }
            service.submit_measurement(new MeasuredResult(CONNECTION, request.ticket, new HistogramBins(edges, counts, 0), 1000, 0.5,
                0.29, 1.0, 20, 0, "test agent", new double[0]));
            await("a bound is served", () -> service.current_estimate(CONNECTION).kind == EstimateKind.BOUND);

            for (int w = 0; w < 25; w++) {
                if (w == 5) {
                    final Estimate early = service.estimate_for_traffic(CONNECTION, NEVER_PROBED);
                    assertTrue(early.traffic.contains("worst shape class seen"), "10 trains fit no shape model yet: " + early.traffic);
                }
                service.submit_probe(new ProbeReport(CONNECTION, "ws1", "test agent",
                    new HistogramBins(new long[] {3_000_000}, new long[] {10}, 0), 10, 2.5, 100, SLOW));
                service.submit_probe(new ProbeReport(CONNECTION, "ws1", "test agent",
                    new HistogramBins(new long[] {100_000}, new long[] {100}, 0), 100, 0.05, 50, FAST));
            }
            final Estimate slow = service.estimate_for_traffic(CONNECTION, SLOW);
            final Estimate fast = service.estimate_for_traffic(CONNECTION, FAST);
            assertEquals(EstimateKind.BOUND, slow.kind);
            assertTrue(slow.value_ms > fast.value_ms, slow.value_ms + " ms for the slow shape, " + fast.value_ms + " for the fast");
            assertTrue(slow.traffic.startsWith("bursts of 10 round trips"), slow.traffic);
            assertTrue(slow.traffic.contains("the class's own level in this state"), slow.traffic);
            assertTrue(fast.traffic.contains("the class's own level in this state"), fast.traffic);
            assertTrue(slow.correction.contains("level for the shape"), slow.correction);
            assertEquals(slow.thesis_value_ms, fast.thesis_value_ms, 0.0, "one thesis bound behind both");

            final Estimate never = service.estimate_for_traffic(CONNECTION, NEVER_PROBED);
            assertTrue(never.traffic.contains("shape model from 50 trains"), never.traffic);
            assertTrue(never.correction.startsWith("shape model from 50 trains"), never.correction);
            assertTrue(never.value_ms > 0.1 && never.value_ms < 3.0,
                "a shape between the two probed ones gets a bound between their round trips (0.1 ms and 3 ms): " + never.value_ms);

            final InvalidArgument spacing = assertThrows(InvalidArgument.class,
                () -> service.estimate_for_traffic(CONNECTION, new TrafficShape(10, 10, 0, (short) 1)));
            assertTrue(spacing.reason.contains("traffic.spacing_micros"), spacing.reason);
            final InvalidArgument call = assertThrows(InvalidArgument.class,
                () -> service.estimate_for_traffic(CONNECTION, new TrafficShape(1_000, 10, 0, (short) 0)));
            assertTrue(call.reason.contains("traffic.call"), call.reason);
            assertThrows(UnknownConnection.class, () -> service.estimate_for_traffic((short) 99, SLOW));
        }
    }

    private static MeasurementRequest request(final LatencyService service) {
        return Arrays.stream(service.pending_measurements()).filter(r -> r.index_ref == CONNECTION).findFirst().orElse(null);
    }

    private static void await(final String what, final Callable<Boolean> condition) throws Exception {
        final long deadline = System.nanoTime() + DEADLINE_SECONDS * 1_000_000_000L;
        while (!condition.call()) {
            assertTrue(System.nanoTime() < deadline, what + " within " + DEADLINE_SECONDS + " s");
            Thread.sleep(50);
        }
    }

    /** One pushed QoS 4 connection at 96 %, adaptive, without declared traffic (no agent runs: the test reports the probe windows). */
    private ServerContext context() throws java.io.IOException {
        final ServerYaml yaml = TestbedConfigLines.pushedWs1Ws2OnAtmPort(ServerYaml.named("ShapedEstimateServer")
                .stateFile(Path.of("shaped.state.json")), "ws1")
            .connection(Connection.of(CONNECTION, "ws1", "ws2", 4).link("atm-port").boundPercent(96));
        return new ServerContext().configFile(yaml.writeTo(directory.resolve("shaped.yaml"))).metricsPort(ServerContext.METRICS_OFF);
    }
}
