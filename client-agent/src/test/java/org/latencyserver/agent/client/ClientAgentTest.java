package org.latencyserver.agent.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.latencyserver.idl.StandInServer;
import org.latencyserver.idl.latency.ConnectionInfo;
import org.latencyserver.idl.latency.MeasurementListener;
import org.latencyserver.idl.latency.MeasurementRequest;
import org.latencyserver.idl.latency.PathHop;
import org.latencyserver.launch.ReadyFile;

/**
 * The client agent launched from a context in this JVM, as {@link ClientAgentMain} launches it,
 * against a stand-in server in this JVM with three connections: QoS 4 from ws1, QoS 3 from ws2 and
 * QoS 1 from ws1. The stand-in never asks for a measurement.
 */
class ClientAgentTest {

    /** Threads a running agent has; a closed one has none of them. */
    private static final List<String> AGENT_THREADS = List.of("agent-control", "agent-measuring", "agent-probe");
    /** Port 1 on loopback: nothing listens there, a call is refused at once. */
    private static final String NO_SERVER = "corbaloc::127.0.0.1:1/LatencyServer";

    private static StandInServer server;
    private static final CompletableFuture<MeasurementListener> subscribed = new CompletableFuture<>();

    @BeforeAll
    static void startStandInServer() throws Exception {
        server = StandInServer.start(Map.of(
            "list_connections", args -> new ConnectionInfo[] {connection(1, "ws1", 4), connection(2, "ws2", 3), connection(3, "ws1", 1)},
            "subscribe_measurements", args -> {
                subscribed.complete((MeasurementListener) args[0]);
                return 5L;
            },
            "pending_measurements", args -> new MeasurementRequest[0],
            "unsubscribe", args -> null));
    }

    @AfterAll
    static void stopStandInServer() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void itSubscribesAtTheServerReportsWhatItMeasuresAndCloseStopsItsThreads() throws Exception {
        final ClientAgent agent = ClientAgent.launch(new ClientAgentContext().server(server.ior()).clientNodes(Set.of("ws1"))
            .agentName("agent-under-test").jitWarmupSeconds(0));
        try {
            subscribed.get(60, TimeUnit.SECONDS);
            final ReadyFile ready = agent.readyFile().build();
            assertEquals("client-agent", ready.component());
            assertEquals("agent-under-test", ready.fact("name"));
            assertEquals("ws1", ready.fact("node"));
            assertEquals("1", ready.fact("connections"), "of ws1's connections only the QoS 4 one is measured");
            assertTrue(agent.probing());
        } finally {
            agent.close();
        }
        agent.close();
        assertEquals(List.of(), liveAgentThreads(), "closed, the agent runs none of its threads");
    }

    @Test
    void withoutAnAnsweringServerItRunsAndItsReadyFileLeavesOutTheConnections() {
        try (ClientAgent agent = ClientAgent.launch(new ClientAgentContext().server(NO_SERVER).probing(false))) {
            final ReadyFile ready = agent.readyFile().build();
            assertEquals("*", ready.fact("node"), "no --node: every client node");
            assertFalse(ready.facts().containsKey("connections"), ready.facts().toString());
            assertFalse(agent.probing());
        }
    }

    @Test
    void badSettingsAreRefusedNamingTheOptionAndValue() {
        final IllegalArgumentException poll = assertThrows(IllegalArgumentException.class,
            () -> new ClientAgentContext().server(NO_SERVER).pollIntervalMillis(50).validate());
        assertTrue(poll.getMessage().contains("--poll-millis") && poll.getMessage().contains("50"), poll.getMessage());
        final IllegalArgumentException server = assertThrows(IllegalArgumentException.class,
            () -> new ClientAgentContext().validate());
        assertTrue(server.getMessage().contains("--server"), server.getMessage());
    }

    private static List<String> liveAgentThreads() {
        return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive).map(Thread::getName)
            .filter(AGENT_THREADS::contains).toList();
    }

    private static ConnectionInfo connection(final int indexRef, final String client, final int qos) {
        return new ConnectionInfo((short) indexRef, client, "ws9", (short) 1, (short) 1, 256, (short) qos, qos == 4 ? 96.0 : 0.0,
            "", (short) 11, (short) 0, false, "", "", "", 0.0, "thesis", new PathHop[0], "union", false,
            new org.latencyserver.idl.latency.TrafficShape(0, 0, 0, (short) 0));
    }
}
