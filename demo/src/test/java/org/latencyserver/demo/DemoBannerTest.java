package org.latencyserver.demo;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.latencyserver.demo.DemoReady.Agent;
import org.latencyserver.demo.DemoReady.AgentKind;
import org.latencyserver.launch.Component;
import org.latencyserver.launch.ReadyFile;

class DemoBannerTest {

    private static DemoReady running(final boolean withMetrics) {
        final ReadyFile.Builder builder = ReadyFile.of(Component.DEMO)
            .reference(DemoReady.NAMING, "corbaloc::127.0.0.1:40711/NameService")
            .fact(DemoReady.SERVER_NAME, "DemoServer")
            .url(DemoReady.CONSOLE, "http://127.0.0.1:8471/")
            .file(DemoReady.MIRROR, Path.of("/tmp/run/estimates.mirror"))
            .file(DemoReady.WORK_DIR, Path.of("/tmp/run"));
        if (withMetrics) {
            builder.url(DemoReady.METRICS, "http://127.0.0.1:39121/metrics");
        }
        DemoReady.withAgent(builder, AgentKind.PEER, new Agent("lab2", "peers/lab2", 1));
        return DemoReady.of(builder.build());
    }

    private static String printed(final DemoReady ready, final String loadOffReason, final Long durationSeconds) {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DemoBanner.print(new PrintStream(bytes, true, StandardCharsets.UTF_8), ready, List.of("  Prometheus:     here"),
            loadOffReason, durationSeconds);
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void itTellsPeopleWhatTheReadyFileSays() {
        final String banner = printed(running(true), null, 100L);

        assertTrue(banner.contains("Console:        http://127.0.0.1:8471/"), banner);
        assertTrue(banner.contains("corbaloc::127.0.0.1:40711/NameService  (the server is 'DemoServer', the peer agent 'peers/lab2')"), banner);
        assertTrue(banner.contains("Metrics:        http://127.0.0.1:39121/metrics"), banner);
        assertTrue(banner.contains("  Prometheus:     here"), banner);
        assertTrue(banner.contains("--file /tmp/run/estimates.mirror --watch"), banner);
        assertTrue(banner.contains("cat /tmp/run/certs/password"), banner);
        assertTrue(banner.contains("Real load follows the scenario"), banner);
        assertTrue(banner.contains("(or wait 100 s)"), banner);
    }

    @Test
    void withoutMetricsOrLoadItSaysSoAndWhy() {
        final String banner = printed(running(false), "--no-load", null);

        assertFalse(banner.contains("Metrics:"), banner);
        assertTrue(banner.contains("Real CPU load is off (--no-load)"), banner);
        assertTrue(banner.contains("Stop with Ctrl-C."), banner);
    }
}
