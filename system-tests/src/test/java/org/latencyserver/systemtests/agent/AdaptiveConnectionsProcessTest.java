package org.latencyserver.systemtests.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.latencyserver.idl.latency.ConnectionInfo;
import org.latencyserver.idl.latency.Estimate;
import org.latencyserver.idl.latency.EstimateUnavailable;
import org.latencyserver.idl.latency.StateCalibration;

/**
 * The adaptive connections end to end, with a real server, client agent and peer agent over IIOP:
 * the agent's probes reach the server and are tested against what it serves, a state never
 * measured says so, and a return to a measured state serves that state's own last measurement at
 * once, labelled, while the fresh one is awaited.
 */
class AdaptiveConnectionsProcessTest extends PeerAndAgentTest {

    @BeforeAll
    static void start() throws Exception {
        startPeerAndAgent(AgentTestbed.start(directory, 1000, 30_000, c -> c.calibration("adaptive").probeRatePerSecond(20)),
            "--probe-report-millis", "1000");
    }

    @Test
    void probesCalibrateTheServedEstimatesAndAReturnToAStateServesItsOwnLastMeasurement() throws Exception {
        final ConnectionInfo info = testbed.service.list_connections()[0];
        assertEquals("adaptive", info.calibration_mode);
        assertEquals(20.0, info.probe_rate_per_second);

        testbed.push(10, 10, 20);
        final Estimate lowLow = awaitMeasured((short) 4, "0-33/0-33");
        awaitMeasured((short) 6, "0-33/0-33");
        // The agent's probes (20/s, reported every second) test what is served.
        await(() -> pooled((short) 4).windows_checked >= 3 && pooled((short) 6).round_trips_checked >= 40,
            "probe windows tested against connections 4 and 6");
        final StateCalibration bound = pooled((short) 6);
        assertTrue(bound.coverage > 0 && bound.coverage <= 1, "coverage " + bound.coverage);
        assertEquals(0.96, bound.nominal, 1e-12);

        // A state never measured, without a profile to fall back on: no number, and the reason.
        testbed.push(80, 80, 20);
        final EstimateUnavailable unseen = assertThrows(EstimateUnavailable.class, () -> testbed.service.current_estimate((short) 4));
        assertTrue(unseen.reason.contains("has not been measured in HIGH/HIGH"), unseen.reason);
        awaitMeasured((short) 4, "67-100/67-100");

        // Back to LOW/LOW: its own last measurement at once, labelled, while a fresh one is awaited.
        testbed.push(10, 10, 20);
        final Estimate back = testbed.service.current_estimate((short) 4);
        assertEquals("remembered measurement", back.source, back.basis);
        assertEquals(lowLow.thesis_value_ms, back.thesis_value_ms, 0.0, "LOW/LOW's value, not HIGH/HIGH's");
        assertEquals(lowLow.data_epoch_millis, back.data_epoch_millis);
        assertTrue(back.update_pending);
        awaitMeasured((short) 4, "0-33/0-33");
        assertEquals(2, testbed.service.calibration((short) 4).states.length, "LOW/LOW and HIGH/HIGH");
    }

    private static StateCalibration pooled(final short indexRef) {
        try {
            return testbed.service.calibration(indexRef).pooled;
        } catch (org.latencyserver.idl.latency.UnknownConnection e) {
            throw new AssertionError(e.reason, e);
        }
    }

    /** Waits for a fresh measurement of the state whose label the basis carries, and returns it. */
    private static Estimate awaitMeasured(final short indexRef, final String stateLabel) throws Exception {
        final Estimate[] measured = new Estimate[1];
        await(() -> {
            try {
                final Estimate e = testbed.service.current_estimate(indexRef);
                if ("measurement".equals(e.source) && !e.update_pending && e.basis.contains(stateLabel)) {
                    measured[0] = e;
                    return true;
                }
            } catch (EstimateUnavailable e) {
                return false;
            } catch (org.latencyserver.idl.latency.UnknownConnection e) {
                throw new AssertionError(e.reason, e);
            }
            return false;
        }, "connection " + indexRef + " measured in " + stateLabel);
        return measured[0];
    }

    private static void await(final BooleanSupplier condition, final String what) throws InterruptedException {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within 90 s: " + what + "\n" + agent.log());
            }
            Thread.sleep(100);
        }
    }
}
