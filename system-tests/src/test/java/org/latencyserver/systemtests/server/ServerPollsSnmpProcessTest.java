package org.latencyserver.systemtests.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencyserver.idl.Latserv;
import org.latencyserver.idl.LatservHelper;
import org.latencyserver.launch.ChildProcess;
import org.latencyserver.launch.ProcessKit;
import org.latencyserver.server.snmp.ScriptedAgent;
import org.latencyserver.systemtests.kit.ServerUnderTest;
import org.latencyserver.systemtests.kit.SystemUnderTest;
import org.latencyserver.testkit.config.ServerYaml;
import org.latencyserver.testkit.config.ServerYaml.Connection;
import org.latencyserver.testkit.config.ServerYaml.Node;
import org.latencyserver.testkit.config.ServerYaml.Snmp;

/**
 * The server process ({@code ServerMain}) with {@code mib_source: snmp}: it starts the poller, with
 * the community from an environment variable of the child process, and the polled value reaches
 * the connection table (served, and in the state file the server keeps once stopped); without that variable it refuses
 * to start and names it.
 */
@Order(12) // a long class, started early (junit-platform.properties)
class ServerPollsSnmpProcessTest {

    private static final String COMMUNITY = "process-test-community";

    @TempDir
    Path directory;

    private Path writeConfig(final ScriptedAgent agent) throws Exception {
        return ServerYaml.named("PolledServer").pollIntervalMillis(50).metricsOff()
            .profile(Path.of("../profiles/thesis-tac4-corba.json").toAbsolutePath())
            .node(Node.of("ws1", 1, "TAC-4").snmp(Snmp.v2c(agent.address(), "TEST_SNMP_COMMUNITY")))
            .node(Node.of("ws2", 2, "TAC-4").with("mib_source", "push"))
            .connection(Connection.of(1, "ws1", "ws2", 1).profile("thesis-tac4-corba"))
            .writeTo(directory.resolve("polled.yaml"));
    }

    /** The server as the operator starts it, in this test's directory, its metrics on any free port. */
    private ProcessKit.Launch server(final SystemUnderTest system, final Path config) {
        // The community comes only from what a test sets: the test JVM's own environment has none.
        assertNull(System.getenv("TEST_SNMP_COMMUNITY"), "the test JVM's environment must not name the community");
        return system.serverLaunch("server", config).args("--metrics-port", "0");
    }

    @Test
    void theServerPollsItsSnmpWorkstationAndTheValueReachesTheTable() throws Exception {
        try (ScriptedAgent agent = new ScriptedAgent(COMMUNITY)) {
            final AtomicLong polls = new AtomicLong();
            // 1 busy tick per 4 idle ticks at every request: 20 %.
            agent.script(ScriptedAgent.steadyUcdCpu(polls));
            try (SystemUnderTest system = SystemUnderTest.in(directory)) {
                final ServerUnderTest server = new ServerUnderTest(system.start(server(system, writeConfig(agent))
                    .env("TEST_SNMP_COMMUNITY", COMMUNITY)));
                final Latserv latserv = LatservHelper.narrow(system.orb().string_to_object(server.ior()));
                final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                int clientCpu = latserv.RequestTableStatus((short) 1).latest_client_mib_cpu;
                while (System.nanoTime() < deadline && clientCpu != 20) {
                    Thread.sleep(200);
                    clientCpu = latserv.RequestTableStatus((short) 1).latest_client_mib_cpu;
                }
                assertEquals(20, clientCpu, () -> "the polled 20 % in the served table; server log: " + log());
                // The ready file is written once the server serves, long before the table shows 20 %.
                final org.latencyserver.testkit.MetricsText metrics = org.latencyserver.testkit.MetricsText.scrape(server.metricsUrl());
                assertTrue(metrics.value("latency_server_snmp_answers_total").orElse(0.0) >= 2, "SNMP answers counted:\n" + metrics);
                assertTrue(!metrics.samples("latency_server_snmp_polls_skipped_total").isEmpty(), metrics::toString);
                // A reading alone is saved with the next change that matters or within 30 s, and at the
                // latest when the server stops: stopped (SIGTERM), it has saved the polled 20 %.
                assertTrue(system.stop(server.child()), "the server stopped");
                final Path state = directory.resolve("polled.state.json");
                assertEquals(20, savedClientCpu(state), () -> "the polled 20 % in the saved table (state file and journal); server log: "
                    + log());
            }
        }
    }

    @Test
    void withoutTheCommunityVariableTheServerRefusesToStartNamingIt() throws Exception {
        try (ScriptedAgent agent = new ScriptedAgent(COMMUNITY); SystemUnderTest system = SystemUnderTest.in(directory)) {
            final ChildProcess process = server(system, writeConfig(agent)).start();
            assertEquals(1, process.awaitExit(Duration.ofSeconds(60)), this::log);
            assertTrue(log().contains("TEST_SNMP_COMMUNITY"), this::log);
        }
    }

    /**
     * The client CPU of connection 1 as a restart would restore it: the state file's record, then the
     * journal's lines after it, the last one naming its {@code latest} reading winning (the layout of
     * {@code StateStore}: a change is a journal line; the state file is rewritten only at compaction).
     *
     * @return the saved percent, or −1 when none is saved yet (or a file is being replaced)
     */
    private static int savedClientCpu(final Path state) {
        final ObjectMapper json = new ObjectMapper();
        int clientCpu = -1;
        try {
            if (Files.exists(state)) {
                clientCpu = json.readTree(state.toFile()).get("connections").get(0).get("latest").get(0).asInt();
            }
            final Path journal = state.resolveSibling(state.getFileName() + ".journal");
            if (Files.exists(journal)) {
                for (final String line : Files.readAllLines(journal)) {
                    final JsonNode record = json.readTree(line);
                    if (record.path("index_ref").asInt() == 1 && record.has("latest")) {
                        clientCpu = record.get("latest").get(0).asInt();
                    }
                }
            }
        } catch (java.io.IOException | RuntimeException partlyWritten) {
            return -1;
        }
        return clientCpu;
    }

    private String log() {
        try {
            return Files.readString(directory.resolve("server.log"));
        } catch (java.io.IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }
}
