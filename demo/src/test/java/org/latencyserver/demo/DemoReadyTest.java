package org.latencyserver.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencyserver.demo.DemoReady.Agent;
import org.latencyserver.demo.DemoReady.AgentKind;
import org.latencyserver.launch.Component;
import org.latencyserver.launch.ReadyFile;

class DemoReadyTest {

    @TempDir
    Path directory;

    private ReadyFile.Builder demoFile() {
        final ReadyFile.Builder builder = ReadyFile.of(Component.DEMO)
            .reference(DemoReady.NAMING, "corbaloc::127.0.0.1:4000/NameService")
            .port(DemoReady.NAMING, 4000)
            .port(DemoReady.CONSOLE, 1)
            .fact(DemoReady.SERVER_NAME, "LatencyServer")
            .url(DemoReady.CONSOLE, "http://127.0.0.1:1/")
            .file(DemoReady.MIRROR, directory.resolve("estimates.mirror"))
            .file(DemoReady.WORK_DIR, directory)
            .file(DemoReady.SCENARIO, directory.resolve("demo-scenario.yaml"))
            .fact(DemoReady.LOAD_DRIVEN, true);
        DemoReady.withAgent(builder, AgentKind.CLIENT, new Agent("lab1", "demo-agent-lab1", 0));
        DemoReady.withAgent(builder, AgentKind.PEER, new Agent("lab2", "peers/lab2", null));
        DemoReady.withPid(builder, "server", 42);
        DemoReady.withPid(builder, "client-agent", 43);
        return builder;
    }

    @Test
    void whatTheDemoWritesIsReadBackByItsKeysThroughTheCommonLayout() throws Exception {
        final Path file = directory.resolve("demo.ready.json");
        demoFile().writeTo(file);

        final DemoReady ready = DemoReady.read(file);

        assertEquals("corbaloc::127.0.0.1:4000/NameService", ready.naming());
        assertEquals("LatencyServer", ready.serverName());
        assertEquals("http://127.0.0.1:1/", ready.consoleUrl());
        assertEquals(4000, ready.namingPort());
        assertEquals(1, ready.consolePort());
        assertEquals(directory.resolve("estimates.mirror").toAbsolutePath(), ready.mirrorFile());
        assertEquals(directory.toAbsolutePath(), ready.workDir());
        assertEquals(directory.resolve("demo-scenario.yaml").toAbsolutePath(), ready.scenario());
        assertTrue(ready.loadDriven());
        assertEquals(Map.of("server", 42L, "client-agent", 43L), ready.pids());
        assertEquals(42L, ready.pidOf("server").orElseThrow());
        assertTrue(ready.pidOf("console").isEmpty(), "a role the demo did not start has no pid");
        // The same file read as any component's: the demo's keys are plain sections and facts.
        assertEquals("LatencyServer", ReadyFile.read(file).fact("server_name"));
        assertEquals("0", ReadyFile.read(file).fact("client_agent.lab1.core"));
    }

    @Test
    void anAgentIsFoundByItsNodeWithItsCoreOnlyWhenPinned() {
        final DemoReady ready = DemoReady.of(demoFile().build());

        assertEquals(new Agent("lab1", "demo-agent-lab1", 0), ready.clientAgentOf("lab1").orElseThrow());
        assertEquals(new Agent("lab2", "peers/lab2", null), ready.peerAgentOf("lab2").orElseThrow());
        assertTrue(ready.clientAgentOf("lab2").isEmpty(), "no client agent on lab2");
        assertTrue(ready.peerAgentOf("lab1").isEmpty(), "no peer agent on lab1");
    }

    @Test
    void theMetricsUrlIsThereOnlyWhenTheServerHasAnEndpoint() {
        assertTrue(DemoReady.of(demoFile().build()).metricsUrl().isEmpty());

        final DemoReady withMetrics = DemoReady.of(demoFile().url(DemoReady.METRICS, "http://127.0.0.1:2/metrics").build());

        assertEquals("http://127.0.0.1:2/metrics", withMetrics.metricsUrl().orElseThrow());
    }

    @Test
    void aReadyFileOfAnotherComponentIsRefusedAsTheDemos() throws Exception {
        final Path file = directory.resolve("server.ready.json");
        ReadyFile.of(Component.SERVER).fact("name", "LatencyServer").writeTo(file);

        final IOException refused = assertThrows(IOException.class, () -> DemoReady.read(file));
        assertTrue(refused.getMessage().contains("'server'"), refused.getMessage());
        assertThrows(IllegalArgumentException.class, () -> DemoReady.of(ReadyFile.read(file)));
    }

    @Test
    void theOldPrivateFormatIsRefused() throws Exception {
        final Path file = directory.resolve("old.json");
        Files.writeString(file, "{\"format\": \"latency-demo-ready/1\", \"naming_service\": \"corbaloc::127.0.0.1:1/NameService\"}");

        final IOException refused = assertThrows(IOException.class, () -> DemoReady.read(file));
        assertTrue(refused.getMessage().contains("latency-demo-ready/1"), refused.getMessage());
    }
}
