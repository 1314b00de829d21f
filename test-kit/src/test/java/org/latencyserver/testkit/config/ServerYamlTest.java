package org.latencyserver.testkit.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencyserver.testkit.config.ServerYaml.Connection;
import org.latencyserver.testkit.config.ServerYaml.Link;
import org.latencyserver.testkit.config.ServerYaml.Node;
import org.latencyserver.testkit.config.ServerYaml.Snmp;

class ServerYamlTest {

    private static final YAMLMapper YAML = new YAMLMapper();

    @Test
    void everyTypedCallReadsBackAsTheKeyItNames() throws Exception {
        final JsonNode top = YAML.readTree(ServerYaml.named("Polled")
            .pollIntervalMillis(50).metricsOff().stateFile(Path.of("/tmp/s.json"))
            .measurement("round_trips", 200).thresholds("port_states", "bands")
            .profile(Path.of("/p/thesis.json"))
            .node(Node.of("ws1", 1, "TAC-4").snmp(Snmp.v2c("udp:127.0.0.1/1161", "COMMUNITY")))
            .node(Node.of("ws2", 2, "TAC-4"))
            .link(Link.named("sw1-ws2").snmp(Snmp.v2c("udp:127.0.0.1/1162", "COMMUNITY").ifIndex(3).speedMbps(10)))
            .connection(Connection.of(4, "ws1", "ws2", 2).link("sw1-ws2").boundPercent(96).profile("thesis")
                .calibration("thesis").probeRatePerSecond(0).messageSizeBytes(1024))
            .text());

        assertEquals("Polled", top.at("/server/name").asText());
        assertEquals(50, top.at("/server/poll_interval_millis").asInt());
        assertFalse(top.at("/server/metrics/enabled").asBoolean(true));
        assertEquals("/tmp/s.json", top.at("/server/state_file").asText());
        assertEquals(200, top.at("/measurement/round_trips").asInt());
        assertEquals("bands", top.at("/thresholds/port_states").asText());
        assertEquals("/p/thesis.json", top.at("/profiles/0").asText());
        assertEquals("snmp", top.at("/nodes/0/mib_source").asText());
        assertEquals("udp:127.0.0.1/1161", top.at("/nodes/0/snmp/address").asText());
        assertEquals("v2c", top.at("/nodes/0/snmp/version").asText());
        assertTrue(top.at("/nodes/1/mib_source").isMissingNode(), "a node not polled names no mib_source");
        assertEquals(3, top.at("/links/0/snmp/if_index").asInt());
        assertEquals(10, top.at("/links/0/snmp/speed_mbps").asInt());
        final JsonNode connection = top.at("/connections/0");
        assertEquals(List.of("index_ref", "client", "peer", "message_size_bytes", "qos", "link", "bound_percent", "profile",
            "calibration", "probe_rate_per_second"), names(connection));
        assertEquals(1024, connection.get("message_size_bytes").asInt());
        assertEquals(96, connection.get("bound_percent").asInt());
    }

    @Test
    void sectionsComeInTheOrderOfTheGuideAndEmptyListsAreLeftOut() throws Exception {
        final JsonNode top = YAML.readTree(ServerYaml.named("S").limits("max_connections", 10)
            .connection(Connection.of(1, "a", "b", 1)).text());

        assertEquals(List.of("server", "limits", "connections"), names(top));
        assertEquals(256, top.at("/connections/0/message_size_bytes").asInt(), "the documented default message size");
    }

    @Test
    void textThatLooksLikeANumberOrHoldsAColonStaysText(@TempDir final Path directory) throws Exception {
        final Path file = ServerYaml.named("007").node(Node.of("ws:1", 1, "TAC-4").with("note", "yes"))
            .writeTo(directory.resolve("c.yaml"));

        final JsonNode top = YAML.readTree(Files.readString(file));
        assertTrue(top.at("/server/name").isTextual(), Files.readString(file));
        assertEquals("007", top.at("/server/name").asText());
        assertEquals("ws:1", top.at("/nodes/0/name").asText());
        assertTrue(top.at("/nodes/0/note").isTextual(), "yes stays the word, not a boolean: " + Files.readString(file));
    }

    private static List<String> names(final JsonNode object) {
        final List<String> names = new java.util.ArrayList<>();
        object.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
