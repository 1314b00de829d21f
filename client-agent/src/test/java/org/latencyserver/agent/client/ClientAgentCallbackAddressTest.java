package org.latencyserver.agent.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.latencyserver.idl.StandInServer;
import org.latencyserver.idl.latency.ConnectionInfo;
import org.latencyserver.idl.latency.MeasurementListener;
import org.latencyserver.idl.latency.MeasurementRequest;
import org.latencyserver.orb.CallbackReach;
import org.latencyserver.orb.CommandRun;
import org.latencyserver.orb.PublishedAddress;
import org.latencyserver.testkit.FreePorts;

/**
 * Where the client agent's callback object listens ({@code --host}, {@code --port}), and its refusal
 * of a loopback callback address when the server is not on loopback. The refused server is a
 * reference to 198.18.0.1 (a benchmarking address): the refusal comes before any call to it.
 */
class ClientAgentCallbackAddressTest {

    private static final String REMOTE_SERVER = "corbaloc::198.18.0.1:2809/LatencyServer";

    @Test
    void aLoopbackCallbackForAServerNotOnLoopbackIsRefusedNamingHost() {
        final CallbackReach.Unreachable refused = assertThrows(CallbackReach.Unreachable.class,
            () -> ClientAgent.launch(new ClientAgentContext().server(REMOTE_SERVER).probing(false)));
        assertEquals("the server is at 198.18.0.1, but this agent's callback address is 127.0.0.1, which the server cannot reach;"
            + " give --host with this host's address as the server reaches it", refused.getMessage());
    }

    @Test
    void theCommandLineRefusesItWithExitTwoAndOneLine() {
        final CommandRun run = CommandRun.of(new ClientAgentMain(), "--server", REMOTE_SERVER, "--host", "localhost", "--no-probe");
        assertEquals(2, run.exit());
        assertEquals("client-agent: the server is at 198.18.0.1, but this agent's callback address is localhost, which the server"
            + " cannot reach; give --host with this host's address as the server reaches it", run.standardError().strip());
    }

    @Test
    void aPortOutOfRangeIsRefusedNamingPort() {
        final IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
            () -> new ClientAgentContext().server(REMOTE_SERVER).port(65_536).validate());
        assertEquals("--port must be 0..65535, was 65536", refused.getMessage());
    }

    @Test
    void theCallbackObjectTheServerIsGivenListensOnTheGivenHostAndPort() throws Exception {
        final CompletableFuture<MeasurementListener> subscribed = new CompletableFuture<>();
        try (StandInServer server = StandInServer.start(Map.of(
            "list_connections", args -> new ConnectionInfo[0],
            "subscribe_measurements", args -> {
                subscribed.complete((MeasurementListener) args[0]);
                return 1L;
            },
            "pending_measurements", args -> new MeasurementRequest[0],
            "unsubscribe", args -> null))) {
            final int port = FreePorts.belowEphemeralRange();
            try (ClientAgent agent = ClientAgent.launch(new ClientAgentContext().server(server.ior()).host("127.0.0.1").port(port)
                .probing(false).jitWarmupSeconds(0))) {
                assertEquals(new PublishedAddress("127.0.0.1", port), PublishedAddress.of(subscribed.get(60, TimeUnit.SECONDS)));
                assertEquals(port, agent.readyFile().build().port("callback"), "the ready file names the port for a firewall");
            }
        }
    }
}
