package org.latencyserver.systemtests.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.latencyserver.idl.latency.ConnectionInfo;
import org.latencyserver.idl.latency.Estimate;
import org.latencyserver.idl.latency.UnknownConnection;
import org.latencyserver.systemtests.kit.LogWatch;

/**
 * A declared traffic shape end to end, with a real server, client agent and peer agent over IIOP: the server lists the
 * shape, the agent probes in it, the server accepts its shaped probe windows and tests the served estimate with them,
 * and the estimate says what traffic it is for.
 */
class TrafficShapeProcessTest extends PeerAndAgentTest {

    @BeforeAll
    static void start() throws Exception {
        startPeerAndAgent(AgentTestbed.start(directory, 1000, 30_000, c -> c.calibration("adaptive").probeRatePerSecond(20)
                .with("traffic", Map.of("spacing_micros", 2000, "burst_round_trips", 8, "pause_millis", 0, "call", "octets"))),
            "--probe-report-millis", "1000");
    }

    @Test
    void theAgentProbesInTheDeclaredShapeAndTheServerTestsItsEstimateWithThoseWindows() throws Exception {
        final ConnectionInfo info = testbed.service.list_connections()[0];
        assertTrue(info.traffic_declared);
        assertEquals(2000, info.traffic.spacing_micros);
        assertEquals(8, info.traffic.burst_round_trips);
        assertEquals(0, info.traffic.pause_millis);
        assertEquals(1, info.traffic.call, "octets");
        LogWatch.await(agent, "probing at 20\\.000 round trips per second \\(open loop\\) in its declared traffic, bursts of 8"
            + " round trips 2 ms apart, 0 ms pause, octets", Duration.ofSeconds(30));

        testbed.push(10, 10, 20);
        final short indexRef = info.index_ref;
        await(() -> measured(indexRef), "a measurement of connection " + indexRef);
        final Estimate estimate = testbed.service.current_estimate(indexRef);
        assertEquals("bursts of 8 round trips 2 ms apart, 0 ms pause, octets", estimate.traffic);
        // Probe windows carrying the shape (20 round trips a second, reported every second) pass the server's checks
        // and test what it serves: windows checked beyond the measurements'.
        await(() -> probeWindowsChecked(indexRef) >= 3, "three probe windows tested against connection " + indexRef);
    }

    private static boolean measured(final short indexRef) {
        try {
            final Estimate e = testbed.service.current_estimate(indexRef);
            return "measurement".equals(e.source) && !e.update_pending;
        } catch (Exception e) {
            return false;
        }
    }

    private static long probeWindowsChecked(final short indexRef) {
        try {
            final org.latencyserver.idl.latency.StateCalibration pooled = testbed.service.calibration(indexRef).pooled;
            return pooled.windows_checked - pooled.measurements;
        } catch (UnknownConnection e) {
            throw new AssertionError(e.reason, e);
        }
    }

    private static void await(final BooleanSupplier condition, final String what) throws InterruptedException {
        final long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("not seen within 90 s: " + what);
            }
            Thread.sleep(100);
        }
    }
}
