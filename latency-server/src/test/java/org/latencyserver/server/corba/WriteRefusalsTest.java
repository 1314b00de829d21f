package org.latencyserver.server.corba;

import org.latencyserver.server.engine.ProbeShapes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.latencyserver.core.state.WorkstationType;
import org.latencyserver.idl.LatservPackage.IdlBaselineMeasurements;
import org.latencyserver.idl.LatservPackage.IdlMibUpdates;
import org.latencyserver.idl.latency.HistogramBins;
import org.latencyserver.idl.latency.MeasuredResult;
import org.latencyserver.idl.latency.OperationDisabled;
import org.latencyserver.idl.latency.ProbeReport;
import org.latencyserver.idl.latency.ProfileRejected;
import org.latencyserver.idl.latency.ResultRefused;
import org.latencyserver.idl.latency.UnknownConnection;
import org.latencyserver.server.engine.EngineLoop;
import org.latencyserver.server.engine.EngineSettings;
import org.latencyserver.server.engine.UpdateEngine;
import org.latencyserver.server.metrics.ServerMetrics;
import org.latencyserver.server.security.AccessPolicy;
import org.latencyserver.server.security.Caller;
import org.latencyserver.server.table.ConnectionRow;
import org.latencyserver.server.table.ConnectionSpec;
import org.latencyserver.server.table.ConnectionTable;
import org.latencyserver.testkit.MetricsText;
import org.omg.CORBA.BAD_PARAM;
import org.omg.CORBA.CompletionStatus;
import org.omg.CORBA.NO_PERMISSION;

/**
 * Every write's refusals through the servant, without an ORB: the IDL exception, its text, and the
 * {@code latency_server_refusals_total} label each is counted by.
 */
class WriteRefusalsTest {

    private EngineLoop loop;
    private ServerMetrics metrics;
    private LatencyServiceServant servant;
    private String url;

    private static ConnectionSpec measured(final int indexRef) {
        return new ConnectionSpec((short) indexRef, "ws1", (short) 1, WorkstationType.TAC_4, "ws2", (short) 2, WorkstationType.TAC_4,
            "port-a", 256, 3, 0, null);
    }

    @BeforeEach
    void start() throws Exception {
        final UpdateEngine engine = new UpdateEngine(new ConnectionTable(List.of(ConnectionRow.initial(measured(3), 0),
            ConnectionRow.initial(measured(7), 0))), Map.of(), EngineSettings.DEFAULT, () -> 7L, () -> 0L);
        loop = new EngineLoop(engine, System::nanoTime, 50_000_000L);
        loop.start();
        metrics = new ServerMetrics(engine.table(), loop::counters);
        url = "http://127.0.0.1:" + metrics.serve("127.0.0.1", 0) + "/metrics";
        servant = servant(true, true);
    }

    private LatencyServiceServant servant(final boolean operatorCalls, final boolean plannerCalls) {
        final WriteGuard guard = new WriteGuard(AccessPolicy.open(), () -> Caller.PLAIN, operatorCalls, plannerCalls,
            Map.of((short) 7, new PolledSources("ws1", "ws2", null, false)));
        return new LatencyServiceServant(loop, () -> 0L, guard, metrics, profile -> { }, timeoutMillis -> true);
    }

    @AfterEach
    void stop() {
        metrics.close();
        loop.close();
    }

    private double refusals(final String operation, final String reason) throws Exception {
        return MetricsText.scrape(url).value("latency_server_refusals_total", "operation", operation, "reason", reason).orElse(0.0);
    }

    private static HistogramBins bins(final long... counts) {
        final long[] edges = new long[counts.length];
        for (int i = 0; i < counts.length; i++) {
            edges[i] = (i + 1) * 1_000_000L;
        }
        return new HistogramBins(edges, counts, 0);
    }

    private static IdlMibUpdates mib(final int indexRef, final int clientCpu, final int peerCpu, final int port) {
        return new IdlMibUpdates((short) indexRef, (short) clientCpu, (short) peerCpu, (short) port);
    }

    private static MeasuredResult result(final int indexRef, final long ticket, final String agent) {
        return new MeasuredResult((short) indexRef, ticket, bins(1, 1, 1), 3, 2.0, 0.5, 2.9, 0, 0, agent, new double[0]);
    }

    private static ProbeReport probe(final int indexRef, final long sampleCount, final long windowMillis) {
        return new ProbeReport((short) indexRef, "ws1", "test", bins(1, 1, 1), sampleCount, 2.0, windowMillis, ProbeShapes.idl());
    }

    @Test
    void putMibUpdatesIsRefusedWithBadParamNamingWhatIsWrong() throws Exception {
        assertEquals("PutMibUpdates: mib_updates.index_ref 2 does not match client_ref 3",
            assertThrows(BAD_PARAM.class, () -> servant.PutMibUpdates(mib(2, 10, 10, 10), (short) 3)).getMessage());
        assertEquals("PutMibUpdates: no connection 99",
            assertThrows(BAD_PARAM.class, () -> servant.PutMibUpdates(mib(99, 10, 10, 10), (short) 99)).getMessage());
        final BAD_PARAM port = assertThrows(BAD_PARAM.class, () -> servant.PutMibUpdates(mib(3, 10, 10, 101), (short) 3));
        assertEquals("PutMibUpdates for connection 3: port utilisation must be 0..100 % (or -1 for unknown), was 101",
            port.getMessage());
        assertEquals(CompletionStatus.COMPLETED_NO, port.completed);
        assertTrue(assertThrows(BAD_PARAM.class, () -> servant.PutMibUpdates(mib(3, -2, 10, 10), (short) 3)).getMessage()
            .startsWith("PutMibUpdates for connection 3: "));
        assertTrue(assertThrows(BAD_PARAM.class, () -> servant.PutMibUpdates(mib(7, 10, 10, 10), (short) 7)).getMessage()
            .contains("polled by SNMP (mib_source: snmp)"));
        assertEquals(3, refusals("PutMibUpdates", "bad_value"), "the index_ref, the port, the CPU");
        assertEquals(1, refusals("PutMibUpdates", "unknown_connection"));
        assertEquals(1, refusals("PutMibUpdates", "polled_source"));
    }

    @Test
    void operatorCallsSwitchedOffAreNoPermissionCountedAsDisabled() throws Exception {
        final LatencyServiceServant off = servant(false, true);
        assertTrue(assertThrows(NO_PERMISSION.class, () -> off.PutMibUpdates(mib(3, 10, 10, 10), (short) 3)).getMessage()
            .contains("server.operator_calls_enabled: false"));
        assertThrows(NO_PERMISSION.class, () -> off.RequestTableStatus((short) 3));
        assertEquals(1, refusals("PutMibUpdates", "disabled"));
        assertEquals(1, refusals("RequestTableStatus", "disabled"));
    }

    @Test
    void updateResponseIsRefusedWithBadParamAndTheEnginesKind() throws Exception {
        assertEquals("UpdateResponse: baseline_status.index_ref 4 does not match client_ref 3", assertThrows(BAD_PARAM.class,
            () -> servant.UpdateResponse(new IdlBaselineMeasurements((short) 4, 1.2f, 0, 1.3f, 1.1f, (short) 1), (short) 3))
            .getMessage());
        assertEquals("UpdateResponse: no connection 99", assertThrows(BAD_PARAM.class,
            () -> servant.UpdateResponse(new IdlBaselineMeasurements((short) 99, 1.2f, 0, 1.3f, 1.1f, (short) 1), (short) 99))
            .getMessage());
        assertTrue(assertThrows(BAD_PARAM.class,
            () -> servant.UpdateResponse(new IdlBaselineMeasurements((short) 3, 1.2f, 0, 1.3f, 1.1f, (short) 0), (short) 3))
            .getMessage().startsWith("UpdateResponse for connection 3 refused: "));
        assertEquals(1, refusals("UpdateResponse", "bad_value"));
        assertEquals(1, refusals("UpdateResponse", "unknown_connection"));
        assertEquals(1, refusals("UpdateResponse", "bad_ticket"));
    }

    @Test
    void aResultIsRefusedWithTheExceptionOfItsKind() throws Exception {
        final ResultRefused missing = assertThrows(ResultRefused.class, () -> servant.submit_measurement(null));
        assertEquals("result is missing", missing.reason);
        assertEquals(0, missing.index_ref);
        final UnknownConnection unknown = assertThrows(UnknownConnection.class,
            () -> servant.submit_measurement(result(99, 1, "test")));
        assertEquals("no connection 99 is configured", unknown.reason);
        assertEquals(99, unknown.index_ref);
        final MeasuredResult backwards = new MeasuredResult((short) 3, 1, new HistogramBins(new long[] {3, 2, 1},
            new long[] {1, 1, 1}, 0), 3, 2.0, 0.5, 2.9, 0, 0, "test", new double[0]);
        assertTrue(assertThrows(ResultRefused.class, () -> servant.submit_measurement(backwards)).reason
            .startsWith("bad measurement for connection 3: "));
        assertEquals("the agent's name has 201 characters, more than 200",
            assertThrows(ResultRefused.class, () -> servant.submit_measurement(result(3, 1, "a".repeat(201)))).reason);
        final ResultRefused forged = assertThrows(ResultRefused.class, () -> servant.submit_measurement(result(3, 12345, "test")));
        assertTrue(forged.reason.startsWith("result for connection 3 refused: "), forged.reason);
        assertEquals(12345, forged.ticket);
        assertEquals(2, refusals("submit_measurement", "bad_value"));
        assertEquals(1, refusals("submit_measurement", "unknown_connection"));
        assertEquals(1, refusals("submit_measurement", "too_large"));
        assertEquals(1, refusals("submit_measurement", "bad_ticket"));
    }

    @Test
    void aProbeReportIsRefusedNamingItsConnection() throws Exception {
        assertEquals("probe report for connection 0 refused: probe report is missing",
            assertThrows(ResultRefused.class, () -> servant.submit_probe(null)).reason);
        assertEquals("no connection 99 is configured",
            assertThrows(UnknownConnection.class, () -> servant.submit_probe(probe(99, 3, 2000))).reason);
        assertEquals("probe report for connection 3 refused: probe report says 7 round trips, its histogram holds 3",
            assertThrows(ResultRefused.class, () -> servant.submit_probe(probe(3, 7, 2000))).reason);
        assertEquals("probe report for connection 3 refused: probe window must be 0..3600000 ms, was 3600001",
            assertThrows(ResultRefused.class, () -> servant.submit_probe(probe(3, 3, 3_600_001))).reason);
        assertTrue(assertThrows(ResultRefused.class, () -> servant.submit_probe(probe(3, 3, 2000))).reason
            .startsWith("probe report for connection 3 refused: "), "probing is switched off for this connection");
        assertEquals(3, refusals("submit_probe", "bad_value"));
        assertEquals(1, refusals("submit_probe", "unknown_connection"));
        assertEquals(1, refusals("submit_probe", "bad_ticket"));
    }

    @Test
    void aProbeReportsCountMeanAndWindowAreCheckedAgainstEachOtherAndLimits() throws Exception {
        final long hugeCount = 1L << 62;
        final ResultRefused huge = assertThrows(ResultRefused.class, () -> servant.submit_probe(
            new ProbeReport((short) 3, "ws1", "test", bins(hugeCount), hugeCount, 0.5, 3_600_000, ProbeShapes.idl())));
        assertEquals("probe report for connection 3 refused: probe report holds " + hugeCount
            + " round trips, more than the limit of 1000000000 per report", huge.reason);
        final ResultRefused crowded = assertThrows(ResultRefused.class, () -> servant.submit_probe(
            new ProbeReport((short) 3, "ws1", "test", bins(0, 1_000_000), 1_000_000, 1.5, 60_000, ProbeShapes.idl())));
        assertTrue(crowded.reason.startsWith("probe report for connection 3 refused: probe report's 1000000 round trips take at"
            + " least 1.00000e+06 ms by their bins, more than its window of 60000 ms allows"), crowded.reason);
        final HistogramBins fast = new HistogramBins(new long[] {200_000, 400_000, 1_000_000}, new long[] {10, 10, 5}, 0);
        final ResultRefused slowMean = assertThrows(ResultRefused.class, () -> servant.submit_probe(
            new ProbeReport((short) 3, "ws1", "test", fast, 25, 1000, 2000, ProbeShapes.idl())));
        assertTrue(slowMean.reason.startsWith("probe report for connection 3 refused: probe mean 1000.0 ms lies outside what its"
            + " histogram's bins allow, 0.160000..0.440000 ms"), slowMean.reason);
        final ResultRefused fastMean = assertThrows(ResultRefused.class, () -> servant.submit_probe(
            new ProbeReport((short) 3, "ws1", "test", bins(0, 0, 3), 3, 1.5, 2000, ProbeShapes.idl())));
        assertTrue(fastMean.reason.contains("probe mean 1.5 ms lies outside"), fastMean.reason);
        assertEquals(1, refusals("submit_probe", "too_large"));
        assertEquals(3, refusals("submit_probe", "bad_value"));
        final ResultRefused consistent = assertThrows(ResultRefused.class, () -> servant.submit_probe(
            new ProbeReport((short) 3, "ws1", "test", fast, 25, 0.3, 2000, ProbeShapes.idl())));
        assertTrue(consistent.reason.contains("switched off"), "a consistent report passes to the engine: " + consistent.reason);
    }

    @Test
    void aProbeReportWhoseTrafficShapeIsOutsideItsRangesIsRefusedNamingTheField() throws Exception {
        final HistogramBins fast = new HistogramBins(new long[] {200_000, 400_000, 1_000_000}, new long[] {10, 10, 5}, 0);
        final ResultRefused burst = assertThrows(ResultRefused.class, () -> servant.submit_probe(new ProbeReport((short) 3, "ws1",
            "test", fast, 25, 0.3, 2000, new org.latencyserver.idl.latency.TrafficShape(1_000, 0, 0, (short) 2))));
        assertEquals("probe report for connection 3 refused: shape.burst_round_trips must be 1..10000, was 0", burst.reason);
        final ResultRefused call = assertThrows(ResultRefused.class, () -> servant.submit_probe(new ProbeReport((short) 3, "ws1",
            "test", fast, 25, 0.3, 2000, new org.latencyserver.idl.latency.TrafficShape(1_000, 5, 0, (short) 0))));
        assertEquals("probe report for connection 3 refused: shape.call must be 1 (octets) or 2 (arrays), was 0", call.reason);
        assertEquals(2, refusals("submit_probe", "bad_value"));
    }

    @Test
    void aMegabyteCallerStringIsCappedInTheRefusalItIsEchoedIn() throws Exception {
        final String huge = "n".repeat(1_048_576);
        final String probeReason = assertThrows(ResultRefused.class, () -> servant.submit_probe(
            new ProbeReport((short) 3, huge, "test", bins(1, 1, 1), 3, 2.0, 2000, ProbeShapes.idl()))).reason;
        assertTrue(probeReason.length() < 600, () -> probeReason.length() + " chars");
        assertTrue(probeReason.contains("n".repeat(200) + "… (1048576 chars)"),
            () -> probeReason.substring(0, Math.min(300, probeReason.length())));
        final String learnedReason = assertThrows(org.latencyserver.idl.latency.InvalidArgument.class,
            () -> servant.learned_profile(huge)).reason;
        assertTrue(learnedReason.length() < 600, () -> learnedReason.length() + " chars");
        assertTrue(learnedReason.startsWith("no profile '" + "n".repeat(200) + "… (1048576 chars)' is loaded"),
            () -> learnedReason.substring(0, Math.min(300, learnedReason.length())));
    }

    @Test
    void aProfileLoadIsRefusedAsDisabledOrRejected() throws Exception {
        final OperationDisabled off = assertThrows(OperationDisabled.class, () -> servant(true, false).load_profile("{}", "x.json"));
        assertEquals("load_profile is switched off in this server's configuration (server.planner_calls_enabled: false)",
            off.reason);
        final ProfileRejected empty = assertThrows(ProfileRejected.class, () -> servant.load_profile("", "empty.json"));
        assertEquals("empty.json refused; the server keeps the profile it had", empty.reason);
        assertTrue(empty.faults.length >= 1 && empty.faults[0].startsWith("empty.json:"), String.join("\n", empty.faults));
        assertEquals(1, refusals("load_profile", "disabled"));
        assertEquals(1, refusals("load_profile", "bad_profile"));
    }
}
