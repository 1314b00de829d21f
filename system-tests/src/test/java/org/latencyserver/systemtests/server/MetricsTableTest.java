package org.latencyserver.systemtests.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prometheus.metrics.expositionformats.generated.com_google_protobuf_3_25_3.Metrics;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencyserver.idl.LatservPackage.IdlMibUpdates;
import org.latencyserver.idl.latency.HistogramBins;
import org.latencyserver.idl.latency.LatencyService;
import org.latencyserver.idl.latency.LatencyServiceHelper;
import org.latencyserver.idl.latency.ProbeReport;
import org.latencyserver.server.config.TestbedConfigLines;
import org.latencyserver.server.snmp.ScriptedAgent;
import org.latencyserver.server.security.LocalCertificateAuthority;
import org.latencyserver.systemtests.kit.ServerUnderTest;
import org.latencyserver.systemtests.kit.SystemUnderTest;
import org.latencyserver.systemtests.kit.TestCertificates;
import org.latencyserver.testkit.MetricsText;
import org.omg.CORBA.BAD_PARAM;
import org.omg.CORBA.ORB;

/**
 * The operator guide's metrics table is what a real server exposes, both ways: a server polling
 * one workstation over SNMP, with a TLS listener (so the rows "only when polling SNMP" and "only with
 * {@code security.tls}" apply; plain IIOP open to every call, as the drive needs, and one call over TLS
 * with the test operator's certificate, so a client certificate was seen) is driven until every
 * per-connection series exists (estimates of both kinds, a stale one, an open request, probes of
 * both kinds, a refusal), and its {@code /metrics} families, their types and label names must be
 * the table's rows. And the endpoint answers a scraper asking for protobuf with protobuf, which
 * carries the histograms' native buckets.
 */
class MetricsTableTest {

    private static final String COMMUNITY = "metrics-table-community";
    private static final Pattern ROW = Pattern.compile(
        "^\\| `(latency_server_[a-z_]+)` \\| ([^|]+) \\| ([^|]+) \\| ([^|]+) \\| (.+) \\|$");

    @TempDir
    static Path directory;
    private static ScriptedAgent agent;
    private static SystemUnderTest system;
    private static ServerUnderTest server;
    private static ORB orb;
    private static LatencyService service;

    @BeforeAll
    static void startAndDrive() throws Exception {
        agent = new ScriptedAgent(COMMUNITY);
        final AtomicLong polls = new AtomicLong();
        agent.script(ScriptedAgent.steadyUcdCpu(polls));
        final Path config = Files.writeString(directory.resolve("metrics.yaml"), String.join("\n",
            "server:",
            "  name: MetricsTable",
            "  poll_interval_millis: 50",
            "  operator_calls_enabled: true",
            "measurement: { min_interval_millis: 0, timeout_millis: 600000 }",
            TestbedConfigLines.metricsProfilesAndNodes(),
            "  - name: polled",
            "    node_id: 5",
            "    workstation_type: TAC-4",
            "    mib_source: snmp",
            "    snmp: { address: " + agent.address() + ", version: v2c, community_env: TEST_SNMP_COMMUNITY }",
            "links:",
            "  - { name: port1 }",
            // A path of two polled ports the scripted agent does not serve: its hops stay unknown, their series exist.
            "  - { name: hop-a, mib_source: snmp, snmp: { address: " + agent.address()
                + ", version: v2c, community_env: TEST_SNMP_COMMUNITY, if_index: 1, speed_mbps: 100 } }",
            "  - { name: hop-b, mib_source: snmp, snmp: { address: " + agent.address()
                + ", version: v2c, community_env: TEST_SNMP_COMMUNITY, if_index: 2, speed_mbps: 100 } }",
            "connections:",
            TestbedConfigLines.METRICS_CONNECTIONS,
            "  - { index_ref: 4, client: ws1, peer: ws2, link: port1, message_size_bytes: 256, qos: 1, profile: thesis-tac4-corba }",
            "  - { index_ref: 5, client: polled, peer: ws2, message_size_bytes: 256, qos: 1, profile: thesis-tac4-corba }",
            "  - { index_ref: 6, client: polled, peer: ws2, links: [hop-a, hop-b], message_size_bytes: 256, qos: 1,"
                + " profile: thesis-tac4-corba }",
            "security:",
            "  plain_iiop: all",
            "  tls: { port: 0, keystore: " + TestCertificates.get().stores("server").keystore() + ", truststore: "
                + TestCertificates.get().stores("server").truststore() + " }",
            "  principals:",
            "    - { subject: \"" + LocalCertificateAuthority.subject("operator", "ops") + "\", roles: [operator] }",
            ""));
        system = SystemUnderTest.in(directory);
        server = system.server(config, Map.of("TEST_SNMP_COMMUNITY", COMMUNITY,
            TestCertificates.PASSWORD_VARIABLE, TestCertificates.get().password()));
        orb = system.orb();
        service = LatencyServiceHelper.narrow(orb.string_to_object(server.ior()));

        push(1, 50, 50, 10);
        push(2, 10, 10, 10);
        push(3, 50, 50, 10);
        push(4, 50, 50, 10);
        push(4, -1, 50, 10); // stale: the client's CPU stopped answering
        push(5, 0, 50, 10); // the pushed ends of a connection whose client is polled
        // an average's and a bound's probe windows: round trips, calibration, profile cells
        service.submit_probe(new ProbeReport((short) 1, "ws1", "test", new HistogramBins(
            new long[] {2_000_000, 3_000_000, 4_000_000}, new long[] {30, 60, 10}, 0), 100, 2.8, 0, new org.latencyserver.idl.latency.TrafficShape(1_000, 20, 0, (short) 2)));
        service.submit_probe(new ProbeReport((short) 2, "lab1", "test", new HistogramBins(
            new long[] {100_000, 200_000, 400_000}, new long[] {50, 40, 10}, 0), 100, 0.15, 0, new org.latencyserver.idl.latency.TrafficShape(1_000, 20, 0, (short) 2)));
        for (int i = 0; i < 10; i++) {
            service.RequestStatus((short) 1);
        }
        final ORB operator = TestCertificates.get().orbFor("operator-ops");
        try {
            LatencyServiceHelper.narrow(operator.string_to_object(server.ior())).RequestStatus((short) 1);
        } finally {
            operator.shutdown(false);
        }
        try {
            push(99, 10, 10, 10);
        } catch (BAD_PARAM expected) {
            // counted in latency_server_refusals_total
        }
    }

    @AfterAll
    static void stop() throws Exception {
        if (system != null) {
            system.close();
        }
        if (agent != null) {
            agent.close();
        }
    }

    private static void push(final int indexRef, final int clientCpu, final int peerCpu, final int port) {
        service.PutMibUpdates(new IdlMibUpdates((short) indexRef, (short) clientCpu, (short) peerCpu, (short) port),
            (short) indexRef);
    }

    /** The guide's rows: name to {type, labels, unit, meaning}. */
    private static Map<String, String[]> documented() throws Exception {
        final String guide = Files.readString(Path.of("../docs/operator-guide.md"));
        final int start = guide.indexOf("\n## Metrics\n");
        final int end = guide.indexOf("\n## ", start + 1);
        final Map<String, String[]> rows = new LinkedHashMap<>();
        for (final String line : guide.substring(start, end < 0 ? guide.length() : end).split("\n")) {
            final Matcher row = ROW.matcher(line);
            if (row.matches()) {
                rows.put(row.group(1), new String[] {row.group(2).trim(), row.group(3).trim(), row.group(4).trim(), row.group(5).trim()});
            }
        }
        assertTrue(rows.size() > 20, "the guide's metrics table: " + rows.keySet());
        return rows;
    }

    /** Scrapes until the SNMP source has answered and the open request shows (both come from other threads). */
    private static MetricsText scrapeDriven() throws Exception {
        final long deadline = System.nanoTime() + 60_000_000_000L;
        MetricsText scrape = MetricsText.scrape(server.metricsUrl());
        while (System.nanoTime() < deadline && (scrape.value("latency_server_snmp_source_up", "source", "polled").orElse(0.0) != 1
            || scrape.samples("latency_server_measurement_pending_age_seconds").isEmpty()
            || scrape.samples("latency_server_estimate_seconds").stream().noneMatch(s -> "5".equals(s.labels().get("index_ref"))))) {
            Thread.sleep(100);
            scrape = MetricsText.scrape(server.metricsUrl());
        }
        final MetricsText last = scrape;
        assertEquals(1, scrape.get("latency_server_snmp_source_up", "source", "polled"), "the polled workstation answers");
        assertEquals(1, last.samples("latency_server_measurement_pending_age_seconds").size(), last::toString);
        assertTrue(last.samples("latency_server_estimate_seconds").stream().anyMatch(s -> "5".equals(s.labels().get("index_ref"))),
            () -> "an estimate for the polled connection:\n" + last);
        return last;
    }

    @Test
    void theGuidesTableNamesEveryExposedMetricWithItsTypeLabelsAndUnitAndNothingElse() throws Exception {
        final Map<String, String[]> rows = documented();
        final MetricsText scrape = scrapeDriven();
        final Set<String> exposed = new TreeSet<>(scrape.types().keySet());
        final Set<String> undocumented = new TreeSet<>(exposed);
        undocumented.removeAll(rows.keySet());
        final Set<String> missing = new TreeSet<>(rows.keySet());
        missing.removeAll(exposed);
        assertEquals(Set.of(), undocumented, "exposed but not in the operator guide's table");
        assertEquals(Set.of(), missing, "in the operator guide's table but not exposed:\n" + scrape);
        final List<String> wrong = new ArrayList<>();
        rows.forEach((name, row) -> {
            final String type = row[0].split(" ")[0];
            if (!type.equals(scrape.types().get(name))) {
                wrong.add(name + ": documented " + type + ", exposed " + scrape.types().get(name));
            }
            final Set<String> labels = row[1].equals("—") ? Set.of() : new TreeSet<>(Arrays.asList(row[1].split(",\\s*")));
            if (!labels.equals(scrape.labelNames(name))) {
                wrong.add(name + ": documented labels " + labels + ", exposed " + scrape.labelNames(name));
            }
            if (row[2].isBlank() || row[3].isBlank()) {
                wrong.add(name + ": no unit or meaning");
            }
            if (name.endsWith("_seconds") != row[2].equals("seconds") || name.endsWith("_total") != type.equals("counter")) {
                wrong.add(name + ": the name's suffix and the documented unit or type disagree");
            }
        });
        assertEquals(List.of(), wrong);
        // the drive did what the rows say
        assertEquals(1, scrape.get("latency_server_estimate_stale", "index_ref", "4"));
        assertEquals(1, scrape.get("latency_server_estimate_stale_reason", "index_ref", "4", "reason", "client_cpu_unknown"));
        assertEquals(0, scrape.get("latency_server_estimate_stale", "index_ref", "1"));
        assertEquals(100, scrape.get("latency_server_round_trip_seconds_count", "index_ref", "1"));
        assertEquals(100, scrape.get("latency_server_round_trip_seconds_count", "index_ref", "2"));
        assertEquals(2, scrape.samples("latency_server_hop_port_state").size(), "a series per hop of the path of two");
    }

    @Test
    void aScraperAskingForProtobufGetsTheNativeHistograms() throws Exception {
        scrapeDriven();
        final HttpResponse<InputStream> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create(server.metricsUrl()))
            .header("Accept", "application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited")
            .build(), HttpResponse.BodyHandlers.ofInputStream());
        assertEquals(200, response.statusCode());
        final String contentType = response.headers().firstValue("Content-Type").orElse("");
        assertTrue(contentType.startsWith("application/vnd.google.protobuf") && contentType.contains("encoding=delimited"),
            contentType);
        final Map<String, Metrics.MetricFamily> families = new LinkedHashMap<>();
        try (InputStream body = response.body()) {
            Metrics.MetricFamily family;
            while ((family = Metrics.MetricFamily.parseDelimitedFrom(body)) != null) {
                families.put(family.getName(), family);
            }
        }
        assertTrue(families.containsKey("latency_server_estimate_seconds"), families.keySet()::toString);
        final Metrics.MetricFamily roundTrips = families.get("latency_server_round_trip_seconds");
        assertEquals(Metrics.MetricType.HISTOGRAM, roundTrips.getType());
        final Metrics.Histogram ofConnection1 = roundTrips.getMetricList().stream()
            .filter(m -> m.getLabelList().stream().anyMatch(l -> l.getName().equals("index_ref") && l.getValue().equals("1")))
            .findFirst().orElseThrow().getHistogram();
        assertEquals(100, ofConnection1.getSampleCount());
        assertEquals(3, ofConnection1.getSchema(), "native: 2^(1/8) buckets");
        assertTrue(ofConnection1.getPositiveSpanCount() > 0, ofConnection1::toString);
        assertEquals(100, nativeTotal(ofConnection1) + ofConnection1.getZeroCount(), "the native buckets hold every round trip");
        assertTrue(ofConnection1.getBucketCount() > 0, "and the classic buckets come along");
        final Metrics.Histogram requestStatus = families.get("latency_server_request_status_seconds").getMetric(0).getHistogram();
        assertEquals(2, requestStatus.getSchema());
        assertTrue(requestStatus.getSampleCount() >= 10, requestStatus::toString);
        assertEquals(requestStatus.getSampleCount(), nativeTotal(requestStatus) + requestStatus.getZeroCount());
    }

    /** The native buckets' counts: deltas, each bucket's count from the previous one's. */
    private static long nativeTotal(final Metrics.Histogram histogram) {
        long count = 0;
        long total = 0;
        for (final long delta : histogram.getPositiveDeltaList()) {
            count += delta;
            total += count;
        }
        return total;
    }
}
