package org.latencyserver.systemtests.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.latencyserver.idl.LatservPackage.TableRow;
import org.latencyserver.idl.latency.Calibration;
import org.latencyserver.idl.latency.Estimate;
import org.latencyserver.idl.latency.EstimateKind;
import org.latencyserver.idl.latency.EstimateListenerHelper;
import org.latencyserver.idl.latency.EstimateListenerOperations;
import org.latencyserver.idl.latency.EstimateListenerPOATie;
import org.latencyserver.idl.latency.StateCalibration;
import org.omg.PortableServer.POA;
import org.omg.PortableServer.POAHelper;

/**
 * Measured connections follow state changes, with real processes on loopback: the server, a peer agent and a
 * client agent, each in its own JVM. A QoS 3 and a QoS 4 connection go through "measurement
 * pending" (update_required_flag 1) to a measured estimate (flag 0) on every state change.
 *
 * <p>Not here: agreement of the served estimate with an independent measurement of the same path
 * within its CI. On this 2-core machine a second measurer (this test's JVM) read the same path
 * 25–60 % slower or faster than the agent, run after run, far beyond a CI of a few per cent; a
 * test of it could only pass by luck, so none is kept (see the session note).
 */
class MeasuredConnectionsFollowStateChangesTest extends PeerAndAgentTest {

    @BeforeAll
    static void start() throws Exception {
        startPeerAndAgent(AgentTestbed.start(directory, 2000, 30_000));
    }

    @Test
    void qos3AndQos4GoThroughPendingToMeasuredOnEveryStateChange() throws Exception {
        // One queue per connection: each subscriber's pushes arrive in order on its own thread, and
        // sorting them by connection keeps that order within each connection.
        final Map<Short, BlockingQueue<Estimate>> pushed = Map.of((short) 4, new LinkedBlockingQueue<>(),
            (short) 6, new LinkedBlockingQueue<>());
        final POA poa = POAHelper.narrow(testbed.orb.resolve_initial_references("RootPOA"));
        poa.the_POAManager().activate();
        final EstimateListenerOperations listener = estimate -> pushed.get(estimate.index_ref).add(estimate);
        final long subscription = testbed.service.subscribe(
            EstimateListenerHelper.narrow(poa.servant_to_reference(new EstimateListenerPOATie(listener))), new short[] {4, 6});
        // Both connections measured once, so that every change below has an estimate to mark pending
        // (before the first measurement there is nothing to serve, and nothing is pushed). The wait
        // takes the pushes up to the measured one, which may reach the listener after the table says
        // measured: a push still on its way would otherwise be read as the first after the change.
        testbed.push(80, 50, 20);
        for (final short indexRef : new short[] {4, 6}) {
            awaitMeasuredPush(pushed.get(indexRef), "67-100/34-66", "baseline, connection " + indexRef);
        }
        final int[][] walk = {{10, 10}, {80, 10}, {50, 50}, {10, 80}};
        final String[] labels = {"0-33/0-33", "67-100/0-33", "34-66/34-66", "0-33/67-100"};
        for (int step = 0; step < walk.length; step++) {
            testbed.push(walk[step][0], walk[step][1], 20);
            for (final short indexRef : new short[] {4, 6}) {
                final String context = "step " + step + ", connection " + indexRef;
                // Pushed in order: first the pending estimate, then the measured one for this state.
                final List<Estimate> seen = awaitMeasuredPush(pushed.get(indexRef), labels[step], context);
                final Estimate measured = seen.get(seen.size() - 1);
                assertTrue(seen.get(0).update_pending, context + ": the first push after the change says pending: " + describe(seen));
                assertEquals(indexRef == 4 ? EstimateKind.AVERAGE : EstimateKind.BOUND, measured.kind);
                final TableRow row = testbed.latserv.RequestTableStatus(indexRef);
                assertEquals(0, row.update_required_flag, context);
                assertEquals(1, row.latency_data_provided, context);
            }
        }
        testbed.service.unsubscribe(subscription);
    }

    /**
     * Takes one connection's pushes up to and including its measured estimate of the state {@code label}.
     *
     * @return the pushes taken, in the order they arrived; the last is the measured one
     */
    private static List<Estimate> awaitMeasuredPush(final BlockingQueue<Estimate> pushes, final String label, final String context)
        throws InterruptedException {
        final List<Estimate> seen = new ArrayList<>();
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            final Estimate next = pushes.poll(1, TimeUnit.SECONDS);
            if (next == null) {
                continue;
            }
            seen.add(next);
            if (!next.update_pending && next.basis.contains(label) && next.basis.contains("measurement ticket")) {
                return seen;
            }
        }
        throw new AssertionError(context + ": no measured estimate for " + label + "; pushed " + describe(seen) + "\n" + agent.log());
    }

    @Test
    void calibrationShowsHowTheServedEstimatesHeldAfterAFewMeasurements() throws Exception {
        for (final int[] cpu : new int[][] {{10, 10}, {80, 80}, {10, 10}, {80, 80}}) {
            testbed.push(cpu[0], cpu[1], 20);
            awaitMeasured((short) 4);
            awaitMeasured((short) 6);
        }
        final Calibration average = testbed.service.calibration((short) 4);
        final Calibration bound = testbed.service.calibration((short) 6);
        // Pooled over the connection's load states (cpu_state -1); each measurement tests the estimate served before it.
        final StateCalibration averagePooled = average.pooled;
        assertTrue(averagePooled.measurements >= 3, "QoS 3 measurements: " + averagePooled.measurements);
        assertTrue(averagePooled.windows_checked >= 1, "QoS 3 windows checked: " + averagePooled.windows_checked);
        assertTrue(averagePooled.median_relative_error > 0, "a measured mean never equals the served one exactly");
        assertEquals(0, averagePooled.nominal, "no nominal share for an average");
        final StateCalibration boundPooled = bound.pooled;
        assertTrue(boundPooled.measurements >= 3, "QoS 4 measurements: " + boundPooled.measurements);
        assertTrue(boundPooled.round_trips_checked > 0, "QoS 4 round trips checked: " + boundPooled.round_trips_checked);
        assertTrue(boundPooled.coverage >= 0 && boundPooled.coverage <= 1, "coverage " + boundPooled.coverage);
        assertTrue(boundPooled.coverage_interval.lower <= boundPooled.coverage
            && boundPooled.coverage <= boundPooled.coverage_interval.upper, "the coverage lies in its interval");
        assertEquals(0.96, boundPooled.nominal, 1e-12, "the nominal share is the 96 % bound's");
    }

    @Test
    void thesisVerificationTest5TheQos4BoundDoesNotDecreaseWithTheBoundPercentage() throws Exception {
        testbed.push(10, 10, 20);
        testbed.push(80, 10, 20);
        awaitMeasured((short) 6);
        double previousMillis = 0;
        final StringBuilder bounds = new StringBuilder();
        for (final double percent : new double[] {50, 75, 90, 93, 95, 96, 97, 98, 99, 99.9, 100}) {
            final Estimate estimate = testbed.service.estimate_at_percentile((short) 6, percent);
            bounds.append(String.format(Locale.ROOT, " %s%%=%.4f", percent, estimate.value_ms));
            assertTrue(estimate.value_ms >= previousMillis, "bounds must not decrease:" + bounds);
            assertEquals(EstimateKind.BOUND, estimate.kind);
            previousMillis = estimate.value_ms;
        }
        assertEquals(testbed.service.current_estimate((short) 6).value_ms,
            testbed.service.estimate_at_percentile((short) 6, 96).value_ms, 1e-12, "the served QoS 4 bound is the 96 % one");
    }

    /** Waits for the connection's measured estimate of the state just pushed (flag back to 0). */
    private static Estimate awaitMeasured(final short indexRef) throws Exception {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        Thread.sleep(200); // the push is applied on the update thread; let the flag rise first
        while (System.nanoTime() < deadline) {
            final TableRow row = testbed.latserv.RequestTableStatus(indexRef);
            if (row.update_required_flag == 0 && row.latency_data_provided == 1) {
                return testbed.service.current_estimate(indexRef);
            }
            Thread.sleep(50);
        }
        throw new AssertionError("connection " + indexRef + " was not measured:\n" + agent.log());
    }

    private static String describe(final List<Estimate> estimates) {
        final StringBuilder text = new StringBuilder();
        for (final Estimate estimate : estimates) {
            text.append(String.format(Locale.ROOT, "%n  pending=%s value=%.4f basis=%s", estimate.update_pending,
                estimate.value_ms, estimate.basis));
        }
        return text.toString();
    }
}
