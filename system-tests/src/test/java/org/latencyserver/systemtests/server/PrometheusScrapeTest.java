package org.latencyserver.systemtests.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencyserver.emulator.AccessConfig;
import org.latencyserver.emulator.Emulator;
import org.latencyserver.emulator.ScenarioLoader;
import org.latencyserver.emulator.SnmpEndpoint;
import org.latencyserver.idl.Latserv;
import org.latencyserver.idl.LatservHelper;
import org.latencyserver.idl.latency.Estimate;
import org.latencyserver.idl.latency.LatencyService;
import org.latencyserver.idl.latency.LatencyServiceHelper;
import org.latencyserver.orb.PlainOrbs;
import org.latencyserver.systemtests.kit.ServerUnderTest;
import org.latencyserver.systemtests.kit.SystemUnderTest;
import org.latencyserver.testkit.config.ServerYaml;
import org.latencyserver.testkit.config.ServerYaml.Connection;
import org.latencyserver.testkit.config.ServerYaml.Link;
import org.latencyserver.testkit.config.ServerYaml.Node;
import org.latencyserver.testkit.config.ServerYaml.Snmp;
import org.omg.CORBA.ORB;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A real Prometheus (Debian's {@code /usr/bin/prometheus}, with native histograms) scrapes a
 * server process that polls the snmp-emulator's agents over SNMP, and evaluates the shipped alert
 * rules ({@code ops/prometheus/latency-server-alerts.yml}): the estimates it stores are the ones
 * the server serves over CORBA, {@code latency_server_request_status_seconds} is stored as a
 * native histogram whose median is a finite positive number, and the SNMP-source-unknown alert
 * fires when one emulated agent stops answering and resolves when it answers again.
 *
 * <p>The rules are used as shipped except their {@code for:} durations, which the test's copy
 * sets to 3 s (the shipped minute would add two minutes to the run; the expressions are the
 * point).
 */
class PrometheusScrapeTest {

    private static final Path PROMETHEUS = Path.of("/usr/bin/prometheus");
    private static final Path RULES = Path.of("../ops/prometheus/latency-server-alerts.yml").toAbsolutePath().normalize();
    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final String COMMUNITY = "prometheus-test-" + System.nanoTime();

    @TempDir
    Path directory;

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final ObjectMapper json = new ObjectMapper();
    private String prometheusUrl;
    private Path prometheusLog;

    @Test
    void prometheusStoresTheServedEstimatesANativeHistogramAndFiresTheSnmpAlert() throws Exception {
        assertTrue(Files.isExecutable(PROMETHEUS), PROMETHEUS + " is missing: install the Debian package 'prometheus'"
            + " (sudo apt-get install -y prometheus; .ci/run installs it)");
        final int ws1 = freeUdpPort();
        final int ws2 = freeUdpPort();
        final int port = freeUdpPort();
        final Path scenario = directory.resolve("steady.yaml");
        Files.writeString(scenario, String.join("\n",
            "step_seconds: 3600",
            "loop: false",
            "nodes:",
            "  - { name: ws1, port: " + ws1 + ", cores: 2 }",
            "  - { name: ws2, port: " + ws2 + ", cores: 2 }",
            "links:",
            "  - { name: atm-port, port: " + port + ", if_index: 3, speed_mbps: 155 }",
            "steps:",
            "  - { cpu: { ws1: 10, ws2: 10 }, port: { atm-port: 50 } }",
            ""));
        final Path profiles = Path.of("../profiles").toAbsolutePath().normalize();
        final Path config = ServerYaml.named("PrometheusScrapeTest").pollIntervalMillis(100)
            .server("unknown_after_missed_polls", 5).metricsOff()
            .profile(profiles.resolve("measured-loopback-jacorb.json"))
            .node(Node.of("ws1", 1, "LOCAL-2CORE").snmp(Snmp.v2c("udp:127.0.0.1/" + ws1, "LATSERV_COMMUNITY")))
            .node(Node.of("ws2", 2, "LOCAL-2CORE").snmp(Snmp.v2c("udp:127.0.0.1/" + ws2, "LATSERV_COMMUNITY")))
            .link(Link.named("atm-port").snmp(Snmp.v2c("udp:127.0.0.1/" + port, "LATSERV_COMMUNITY").ifIndex(3)))
            .connection(Connection.of(1, "ws1", "ws2", 1).link("atm-port").profile("measured-loopback-jacorb"))
            .connection(Connection.of(2, "ws1", "ws2", 2).link("atm-port").boundPercent(96).profile("measured-loopback-jacorb"))
            .writeTo(directory.resolve("polled.yaml"));

        final long started = System.nanoTime();
        final ORB orb = PlainOrbs.init();
        final AtomicBoolean calling = new AtomicBoolean(true);
        Process prometheus = null;
        Thread caller = null;
        final long emulatorStart = System.nanoTime();
        try (Emulator emulator = new Emulator(ScenarioLoader.load(scenario),
                new AccessConfig(Optional.of(COMMUNITY), Optional.empty()), InetAddress.getLoopbackAddress(),
                () -> (System.nanoTime() - emulatorStart) / 1_000)) {
            emulator.start();
            try (SystemUnderTest system = SystemUnderTest.in(directory);
                 ServerUnderTest server = system.server(config, Map.of("LATSERV_COMMUNITY", COMMUNITY))) {
            final Latserv latserv = LatservHelper.narrow(orb.string_to_object(server.ior()));
            final LatencyService service = LatencyServiceHelper.narrow(orb.string_to_object(server.ior()));
            // RequestStatus calls all along, so the request-time histogram has data.
            final AtomicLong calls = new AtomicLong();
            caller = new Thread(() -> {
                while (calling.get()) {
                    try {
                        latserv.RequestStatus((short) 1);
                        calls.incrementAndGet();
                        Thread.sleep(10);
                    } catch (InterruptedException stop) {
                        return;
                    } catch (RuntimeException ignored) {
                        // counted by the server or not: the histogram only needs some calls
                    }
                }
            }, "request-status-caller");
            caller.setDaemon(true);
            caller.start();

            prometheus = startPrometheus(URI.create(server.metricsUrl()));

            // The server's sources answer (as Prometheus sees them) before anything is compared.
            final JsonNode up = awaitQuery("latency_server_snmp_source_up == 1", r -> r.size() == 3,
                "all three SNMP sources up", server);
            assertEquals(3, up.size());

            // (a) The estimates Prometheus stores are those the server serves over CORBA.
            final JsonNode estimates = awaitQuery("latency_server_estimate_seconds{job=\"latency-server\"}", r -> r.size() == 2,
                "an estimate series per connection", server);
            for (final JsonNode sample : estimates) {
                final JsonNode labels = sample.get("metric");
                final short ref = Short.parseShort(labels.get("index_ref").asText());
                final Estimate served = service.current_estimate(ref);
                assertEquals(Integer.toString(served.quality), labels.get("qos").asText(), sample::toString);
                assertEquals(served.kind.value() == 0 ? "average" : "bound", labels.get("kind").asText(), sample::toString);
                final double stored = sample.get("value").get(1).asDouble();
                assertTrue(stored > 0, sample::toString);
                assertEquals(served.value_ms / 1e3, stored, served.value_ms / 1e3 * 1e-9,
                    () -> "connection " + ref + ": Prometheus has " + stored + " s, the server serves " + served.value_ms + " ms");
            }
            assertEquals(List.of("1", "2"), estimates.findValuesAsText("index_ref").stream().sorted().toList());

            // (b) A native histogram: its median over 30 s is a finite positive number, and the
            // classic buckets were not stored (Prometheus scraped the protobuf exposition).
            final JsonNode median = awaitQuery("histogram_quantile(0.5, rate(latency_server_request_status_seconds[30s]))",
                r -> r.size() == 1 && isFinitePositive(r.get(0).get("value").get(1).asText()),
                "a finite positive median RequestStatus time (" + calls.get() + " calls so far)", server);
            final double seconds = Double.parseDouble(median.get(0).get("value").get(1).asText());
            assertTrue(seconds > 0 && seconds < 1, "median RequestStatus time " + seconds + " s");
            final JsonNode histogram = query("latency_server_request_status_seconds");
            assertEquals(1, histogram.size(), histogram::toString);
            assertTrue(histogram.get(0).has("histogram") && !histogram.get(0).has("value"),
                () -> "stored as a native histogram: " + histogram);
            assertTrue(histogram.get(0).get("histogram").get(1).get("count").asDouble() > 0, histogram::toString);
            assertEquals(0, query("latency_server_request_status_seconds_bucket").size(), "no classic buckets stored");

            // Healthy: no alert is firing (the rules do not fire on a server that works).
            awaitAlerts(alerts -> firing(alerts).isEmpty(), "no alert firing while every source answers", server);

            // (c) ws2's agent stops answering: its source turns UNKNOWN and the alert fires ...
            final SnmpEndpoint agent = emulator.endpoints().stream().filter(e -> e.name().equals("ws2")).findFirst().orElseThrow();
            agent.close();
            final JsonNode fired = awaitAlerts(alerts -> firing(alerts).stream().anyMatch(PrometheusScrapeTest::ws2Unknown),
                "LatencyServerSnmpSourceUnknown firing for ws2", server);
            final JsonNode alert = firing(fired).stream().filter(PrometheusScrapeTest::ws2Unknown).findFirst().orElseThrow();
            assertEquals("warning", alert.get("labels").get("severity").asText(), alert::toString);
            assertEquals("latency-server", alert.get("labels").get("job").asText(), alert::toString);
            assertEquals("SNMP source ws2 is unknown", alert.get("annotations").get("summary").asText(), alert::toString);
            assertTrue(firing(fired).stream().noneMatch(a -> a.get("labels").path("source").asText().equals("ws1")), fired::toString);

            // ... and resolves when it answers again.
            agent.start();
            awaitAlerts(alerts -> alerts.findValues("labels").stream().noneMatch(l -> l.path("source").asText().equals("ws2")),
                "the alert for ws2 resolved", server);
            System.out.printf("PrometheusScrapeTest: %.1f s%n", (System.nanoTime() - started) / 1e9);
            }
        } finally {
            calling.set(false);
            if (caller != null) {
                caller.interrupt();
                caller.join(10_000);
            }
            if (prometheus != null) {
                prometheus.destroy();
                if (!prometheus.waitFor(30, TimeUnit.SECONDS)) {
                    prometheus.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
                assertFalse(prometheus.isAlive(), "Prometheus stopped");
            }
            orb.shutdown(false);
        }
    }

    /** Starts Prometheus on 127.0.0.1 scraping the server every second, with the shipped rules ({@code for:} shortened). */
    private Process startPrometheus(final URI metrics) throws IOException, InterruptedException {
        final String shipped = Files.readString(RULES);
        final String rules = shipped.replaceAll("(?m)^(\\s+for: )\\S+$", "$13s");
        assertEquals(shipped.lines().filter(l -> !l.trim().startsWith("for: ")).toList(),
            rules.lines().filter(l -> !l.trim().startsWith("for: ")).toList(), "the copy differs from the shipped rules in for: only");
        assertTrue(rules.contains("for: 3s"), rules);
        Files.writeString(directory.resolve("latency-server-alerts.yml"), rules);
        final Path config = directory.resolve("prometheus.yml");
        Files.writeString(config, String.join("\n",
            "global:",
            "  scrape_interval: 1s",
            "  scrape_timeout: 1s",
            "  evaluation_interval: 1s",
            "rule_files:",
            "  - latency-server-alerts.yml",
            "scrape_configs:",
            "  - job_name: latency-server",
            "    metrics_path: " + metrics.getPath(),
            "    static_configs:",
            "      - targets: ['" + metrics.getHost() + ":" + metrics.getPort() + "']",
            ""));
        final int port;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort();
        }
        prometheusUrl = "http://127.0.0.1:" + port;
        prometheusLog = directory.resolve("prometheus.log");
        final Process process = new ProcessBuilder(PROMETHEUS.toString(), "--config.file=" + config,
            "--storage.tsdb.path=" + Files.createDirectories(directory.resolve("tsdb")),
            "--web.listen-address=127.0.0.1:" + port, "--enable-feature=native-histograms")
            .directory(directory.toFile()).redirectErrorStream(true).redirectOutput(prometheusLog.toFile()).start();
        final long deadline = System.nanoTime() + WAIT.toNanos();
        while (System.nanoTime() < deadline) {
            assertTrue(process.isAlive(), () -> "Prometheus exited:\n" + prometheusLog());
            try {
                if (http.send(HttpRequest.newBuilder(URI.create(prometheusUrl + "/-/ready")).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return process;
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            Thread.sleep(200);
        }
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        throw new AssertionError("Prometheus not ready within " + WAIT + ":\n" + prometheusLog());
    }

    /** @return the result vector of an instant query */
    private JsonNode query(final String promql) throws IOException, InterruptedException {
        final JsonNode body = get("/api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8));
        assertEquals("vector", body.get("data").get("resultType").asText(), body::toString);
        return body.get("data").get("result");
    }

    private JsonNode get(final String path) throws IOException, InterruptedException {
        final HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(prometheusUrl + path))
            .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), () -> path + ": " + response.body());
        final JsonNode body = json.readTree(response.body());
        assertEquals("success", body.get("status").asText(), body::toString);
        return body;
    }

    private JsonNode awaitQuery(final String promql, final Predicate<JsonNode> done, final String what, final ServerUnderTest server)
        throws IOException, InterruptedException {
        final long deadline = System.nanoTime() + WAIT.toNanos();
        JsonNode result = query(promql);
        while (!done.test(result) && System.nanoTime() < deadline) {
            Thread.sleep(500);
            result = query(promql);
        }
        final JsonNode last = result;
        assertTrue(done.test(last), () -> what + " within " + WAIT + "; " + promql + " gives " + last + context(server));
        return last;
    }

    private JsonNode awaitAlerts(final Predicate<JsonNode> done, final String what, final ServerUnderTest server)
        throws IOException, InterruptedException {
        final long deadline = System.nanoTime() + WAIT.toNanos();
        JsonNode alerts = get("/api/v1/alerts").get("data").get("alerts");
        while (!done.test(alerts) && System.nanoTime() < deadline) {
            Thread.sleep(500);
            alerts = get("/api/v1/alerts").get("data").get("alerts");
        }
        final JsonNode last = alerts;
        assertTrue(done.test(last), () -> what + " within " + WAIT + "; alerts: " + last + context(server));
        return last;
    }

    private static List<JsonNode> firing(final JsonNode alerts) {
        final List<JsonNode> firing = new ArrayList<>();
        alerts.forEach(a -> {
            if (a.get("state").asText().equals("firing")) {
                firing.add(a);
            }
        });
        return firing;
    }

    private static boolean ws2Unknown(final JsonNode alert) {
        return alert.get("labels").get("alertname").asText().equals("LatencyServerSnmpSourceUnknown")
            && alert.get("labels").path("source").asText().equals("ws2");
    }

    private static boolean isFinitePositive(final String value) {
        try {
            final double number = Double.parseDouble(value);
            return Double.isFinite(number) && number > 0;
        } catch (NumberFormatException notANumber) {
            return false;
        }
    }

    private String context(final ServerUnderTest server) {
        try {
            return "\n--- Prometheus targets ---\n" + get("/api/v1/targets").get("data").get("activeTargets")
                + "\n--- Prometheus log ---\n" + prometheusLog() + "\n--- server log ---\n" + server.log();
        } catch (IOException | InterruptedException | AssertionError e) {
            return "\n(no context: " + e + ")";
        }
    }

    private String prometheusLog() {
        try {
            return Files.readString(prometheusLog);
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    private static int freeUdpPort() throws IOException {
        try (DatagramSocket socket = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
