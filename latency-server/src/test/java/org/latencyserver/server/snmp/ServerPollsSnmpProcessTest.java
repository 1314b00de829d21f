package org.latencyserver.server.snmp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencyserver.launch.ReadyFile;

/**
 * The server process ({@code ServerMain}) with {@code mib_source: snmp}: it starts the poller, with
 * the community from an environment variable of the child process, and the polled value reaches
 * the connection table (seen in the state file the server keeps); without that variable it refuses
 * to start and names it.
 */
class ServerPollsSnmpProcessTest {

    private static final String COMMUNITY = "process-test-community";

    @TempDir
    Path directory;

    private Path writeConfig(final ScriptedAgent agent) throws Exception {
        final Path config = directory.resolve("polled.yaml");
        Files.writeString(config, String.join("\n",
            "server:",
            "  name: PolledServer",
            "  poll_interval_millis: 50",
            "  metrics: { enabled: false, address: 127.0.0.1 }",
            "profiles:",
            "  - " + Path.of("../profiles/thesis-tac4-corba.json").toAbsolutePath(),
            "nodes:",
            "  - name: ws1",
            "    node_id: 1",
            "    workstation_type: TAC-4",
            "    mib_source: snmp",
            "    snmp: { address: " + agent.address() + ", version: v2c, community_env: TEST_SNMP_COMMUNITY }",
            "  - { name: ws2, node_id: 2, workstation_type: TAC-4, mib_source: push }",
            "connections:",
            "  - { index_ref: 1, client: ws1, peer: ws2, message_size_bytes: 256, qos: 1, profile: thesis-tac4-corba }",
            ""));
        return config;
    }

    private ProcessBuilder server(final Path config) {
        final List<String> command = new ArrayList<>(List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-cp", System.getProperty("java.class.path"),
            "-Dlogback.configurationFile=logback.xml",
            "org.latencyserver.server.launch.ServerMain",
            "--config", config.toString(), "--ior-file", directory.resolve("server.ior").toString(), "--metrics-port", "0",
            "--ready-file", readyFile().toString()));
        final ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(directory.resolve("server.log").toFile()));
        builder.environment().remove("TEST_SNMP_COMMUNITY");
        return builder;
    }

    @Test
    void theServerPollsItsSnmpWorkstationAndTheValueReachesTheTable() throws Exception {
        try (ScriptedAgent agent = new ScriptedAgent(COMMUNITY)) {
            final AtomicLong polls = new AtomicLong();
            // 1 busy tick per 4 idle ticks at every request: 20 %.
            agent.script(ScriptedAgent.steadyUcdCpu(polls));
            final ProcessBuilder builder = server(writeConfig(agent));
            builder.environment().put("TEST_SNMP_COMMUNITY", COMMUNITY);
            final Process process = builder.start();
            try {
                final Path state = directory.resolve("polled.state.json");
                final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                int clientCpu = -1;
                while (System.nanoTime() < deadline && clientCpu != 20) {
                    Thread.sleep(200);
                    assertTrue(process.isAlive(), () -> "the server exited: " + log());
                    if (Files.exists(state)) {
                        try {
                            final JsonNode row = new ObjectMapper().readTree(state.toFile()).get("connections").get(0);
                            clientCpu = row.get("latest").get(0).asInt();
                        } catch (java.io.IOException partlyWritten) {
                            clientCpu = -1;
                        }
                    }
                }
                assertEquals(20, clientCpu, () -> "the polled 20 % in the saved table; server log: " + log());
                // The ready file is written once the server serves, long before the state shows 20 %.
                final String url = ReadyFile.read(readyFile()).url("metrics");
                final String metrics = java.net.http.HttpClient.newHttpClient().send(
                    java.net.http.HttpRequest.newBuilder(java.net.URI.create(url)).build(),
                    java.net.http.HttpResponse.BodyHandlers.ofString()).body();
                final java.util.regex.Matcher answers = java.util.regex.Pattern.compile("(?m)^latency_server_snmp_answers_total (\\S+)")
                    .matcher(metrics);
                assertTrue(answers.find() && Double.parseDouble(answers.group(1)) >= 2, "SNMP answers counted:\n" + metrics);
                assertTrue(metrics.contains("latency_server_snmp_polls_skipped_total"), metrics);
            } finally {
                process.destroy();
                process.waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    @Test
    void withoutTheCommunityVariableTheServerRefusesToStartNamingIt() throws Exception {
        try (ScriptedAgent agent = new ScriptedAgent(COMMUNITY)) {
            final Process process = server(writeConfig(agent)).start();
            assertTrue(process.waitFor(60, TimeUnit.SECONDS), "the server exits");
            assertEquals(1, process.exitValue(), this::log);
            assertTrue(log().contains("TEST_SNMP_COMMUNITY"), this::log);
        }
    }

    private Path readyFile() {
        return directory.resolve("server.ready.json");
    }

    private String log() {
        try {
            return Files.readString(directory.resolve("server.log"));
        } catch (java.io.IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }
}
