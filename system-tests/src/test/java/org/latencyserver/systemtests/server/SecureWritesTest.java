package org.latencyserver.systemtests.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencyserver.idl.LatservPackage.IdlMibUpdates;
import org.latencyserver.idl.latency.HistogramBins;
import org.latencyserver.idl.latency.LatencyService;
import org.latencyserver.idl.latency.MeasuredResult;
import org.latencyserver.idl.latency.MeasurementRequest;
import org.latencyserver.idl.latency.OperationDisabled;
import org.latencyserver.systemtests.kit.SecuredClients;
import org.latencyserver.systemtests.kit.ServerUnderTest;
import org.latencyserver.systemtests.kit.Testbed;
import org.omg.CORBA.NO_PERMISSION;

/**
 * Writes only by their owners: a server with {@code security:} serves reads to
 * everyone over plain IIOP and takes writes only over IIOP/TLS from a certificate with the role —
 * an operator's readings, a planner's profiles, an agent's results for its own node's connections.
 * Real JacORB on both ends, real TLS over loopback, certificates from {@code ./latency certs}'s code.
 */
class SecureWritesTest {

    @TempDir
    static Path directory;

    private static ServerUnderTest server;
    private static SecuredClients clients;

    @BeforeAll
    static void startSecuredServer() throws Exception {
        clients = SecuredClients.start(directory, "secured.yaml", Testbed.text(), Map.of());
        server = clients.server();
    }

    @AfterAll
    static void stop() throws Exception {
        if (clients != null) {
            clients.close();
        }
    }

    private static LatencyService plain() {
        return clients.plain();
    }

    private static LatencyService as(final String party) {
        return clients.as(party);
    }

    @Test
    void plainIiopReadsButMayNotWrite() throws Exception {
        assertEquals(1, plain().RequestStatus((short) 1).quality, "a thesis read answers over plain IIOP");
        assertEquals(6, plain().list_connections().length);
        final double before = refusals("PutMibUpdates", "not_permitted");
        final NO_PERMISSION refused = assertThrows(NO_PERMISSION.class,
            () -> plain().PutMibUpdates(new IdlMibUpdates((short) 1, (short) 10, (short) 10, (short) 50), (short) 1));
        assertEquals(before + 1, refusals("PutMibUpdates", "not_permitted"), "the refusal is counted with its reason");
        assertTrue(refused.getMessage().contains("plain IIOP is read-only"), "JacORB carries the reason: " + refused.getMessage());
        final OperationDisabled profile = assertThrows(OperationDisabled.class, () -> plain().load_profile("{}", "x.json"));
        assertTrue(profile.reason.contains("needs the planner role"), profile.reason);
        assertThrows(NO_PERMISSION.class, () -> plain().RequestTableStatus((short) 1));
    }

    @Test
    void aTlsCallerWithoutACertificateMayNotWrite() throws Exception {
        final NO_PERMISSION refused = assertThrows(NO_PERMISSION.class,
            () -> as("none").PutMibUpdates(new IdlMibUpdates((short) 1, (short) 10, (short) 10, (short) 50), (short) 1));
        final OperationDisabled profile = assertThrows(OperationDisabled.class, () -> as("none").load_profile("{}", "x.json"));
        assertTrue(profile.reason.contains("the TLS caller presented no certificate"), profile.reason);
        assertEquals(6, as("none").list_connections().length, "reads are open over TLS too");
        assertTrue(refused.getMessage().contains("presented no certificate"), refused.getMessage());
    }

    @Test
    void anOperatorPushesReadingsButLoadsNoProfile() throws Exception {
        as("operator-ops").PutMibUpdates(new IdlMibUpdates((short) 2, (short) 50, (short) 50, (short) 50), (short) 2);
        assertEquals(1, plain().RequestStatus((short) 2).server_acknowledges_client, "the reading made the estimate known");
        assertEquals(2, as("operator-ops").RequestTableStatus((short) 2).index_ref);
        final OperationDisabled refused = assertThrows(OperationDisabled.class, () -> as("operator-ops").load_profile("{}", "x.json"));
        assertTrue(refused.reason.contains("has the roles [operator]"), refused.reason);
    }

    @Test
    void aPlannerLoadsAProfile() throws Exception {
        final String profile = Files.readString(Path.of("../profiles/thesis-tac3-corba.json"));
        assertEquals("thesis-tac3-corba", as("planner-plan").load_profile(profile, "planner.json").name);
        assertThrows(NO_PERMISSION.class,
            () -> as("planner-plan").PutMibUpdates(new IdlMibUpdates((short) 1, (short) 10, (short) 10, (short) 50), (short) 1));
    }

    @Test
    void anAgentSeesAndSubmitsOnlyForItsOwnNode() throws Exception {
        // Connections 4 (client ws1) and 5 (client ws3) are QoS 3: a known load opens a measurement request.
        as("operator-ops").PutMibUpdates(new IdlMibUpdates((short) 4, (short) 10, (short) 10, (short) 50), (short) 4);
        as("operator-ops").PutMibUpdates(new IdlMibUpdates((short) 5, (short) 10, (short) 10, (short) 50), (short) 5);
        assertEquals(0, pendingFor(plain(), 4).ticket, "a plain caller sees no ticket");
        assertEquals(0, pendingFor(as("agent-ws3"), 4).ticket, "another node's agent sees no ticket");
        assertEquals(0, pendingFor(as("operator-ops"), 4).ticket, "an operator sees no ticket");
        final long ticket = pendingFor(as("agent-ws1"), 4).ticket;
        assertNotEquals(0, ticket, "the connection's own agent sees its ticket");

        final OperationDisabled foreign = assertThrows(OperationDisabled.class,
            () -> as("agent-ws3").submit_measurement(result(4, ticket)));
        assertTrue(foreign.reason.contains("is the agent of node ws3; the connection's client node is ws1"), foreign.reason);
        assertThrows(OperationDisabled.class, () -> plain().submit_measurement(result(4, ticket)));
        assertEquals(ticket, pendingFor(as("agent-ws1"), 4).ticket, "refused writes left the request open");

        as("agent-ws1").submit_measurement(result(4, ticket));
        assertEquals(1.0, plain().RequestStatus((short) 4).latency_estimate, 0.5, "the agent's result serves");
        assertTrue(List.of(plain().pending_measurements()).stream().noneMatch(r -> r.index_ref == 4), "its request is closed");
    }

    /** @return the server's refusal counter for the operation and reason */
    private static double refusals(final String operation, final String reason) throws Exception {
        return org.latencyserver.testkit.MetricsText.scrape(server.metricsUrl())
            .value("latency_server_refusals_total", "operation", operation, "reason", reason).orElse(0.0);
    }

    private static MeasurementRequest pendingFor(final LatencyService service, final int indexRef) {
        final List<MeasurementRequest> pending = List.of(service.pending_measurements());
        return pending.stream().filter(r -> r.index_ref == indexRef).findFirst()
            .orElseThrow(() -> new AssertionError("no pending request for " + indexRef + " in " + pending.size()));
    }

    /** 1000 round trips: 500 in (0, 1] ms, 460 in (1, 2], 40 in (2, 3]. */
    private static MeasuredResult result(final int indexRef, final long ticket) {
        final HistogramBins bins = new HistogramBins(new long[] {1_000_000, 2_000_000, 3_000_000}, new long[] {500, 460, 40}, 0);
        return new MeasuredResult((short) indexRef, ticket, bins, 1000, 1.1, 0.6, 2.9, 20, 0, "test agent", new double[0]);
    }
}
