package org.latencyserver.server.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencyserver.server.table.ConnectionSpec;

class ConfigurationLoaderTest {

    @TempDir
    Path directory;

    private Path write(final String yaml) throws Exception {
        final Path profiles = Path.of("../profiles").toAbsolutePath().normalize();
        final Path file = directory.resolve("server.yaml");
        Files.writeString(file, yaml.replace("PROFILES", profiles.toString()));
        return file;
    }

    private static final String MINIMAL = String.join("\n",
        "profiles:",
        "  - PROFILES/thesis-tac4-corba.json",
        "nodes:",
        "  - { name: a, node_id: 1, workstation_type: TAC-4 }",
        "  - { name: b, node_id: 2, workstation_type: TAC-4 }",
        "connections:",
        "  - { index_ref: 1, client: a, peer: b, message_size_bytes: 256, qos: 1, profile: thesis-tac4-corba }",
        "");

    private List<ConfigurationFault> faults(final String yaml) throws Exception {
        final Path file = write(yaml);
        final ConfigurationException error = assertThrows(ConfigurationException.class, () -> ConfigurationLoader.load(file));
        error.faults().forEach(f -> assertEquals(file.toString(), f.file()));
        return error.faults();
    }

    @Test
    void theShippedThesisTestbedLoads() throws Exception {
        final ServerConfiguration configuration = ConfigurationLoader.load(Path.of("../examples/thesis-testbed.yaml"));
        assertEquals(List.of(1, 2, 4, 5, 6), configuration.connections().stream().map(c -> (int) c.indexRef()).toList());
        assertEquals(List.of(1, 1, 3, 3, 4), configuration.connections().stream().map(ConnectionSpec::qos).toList());
        final ConnectionSpec six = configuration.connections().get(4);
        assertEquals(96.0, six.boundPercent());
        assertEquals(3, configuration.connections().get(1).clientWorkstationCode(), "TAC-3");
        assertEquals(1000, configuration.engine().roundTripsPerMeasurement());
        assertTrue(configuration.stateFile().endsWith("examples/thesis-testbed.state.json"));
    }

    @Test
    void absentSectionsTakeTheirDefaults() throws Exception {
        final ServerConfiguration configuration = ConfigurationLoader.load(write(MINIMAL));
        assertEquals("LatencyServer", configuration.serverName());
        assertEquals(33, configuration.engine().cpuThresholds().lowUpperPercent());
        assertEquals(2, configuration.engine().cpuThresholds().hysteresisBandPercent());
        assertEquals(30_000_000_000L, configuration.engine().measurementTimeoutNanos());
        assertTrue(configuration.operatorCallsEnabled());
        assertTrue(configuration.stateFile().endsWith("server.state.json"));
    }

    @Test
    void unknownKeyIsAFaultWithItsLineAndASuggestion() throws Exception {
        final List<ConfigurationFault> faults = faults("measurement:\n  round_trip: 500\n" + MINIMAL);
        assertEquals(1, faults.size(), faults.toString());
        final ConfigurationFault fault = faults.get(0);
        assertEquals(2, fault.line());
        assertEquals("measurement.round_trip", fault.path());
        assertEquals("unknown key 'round_trip' - did you mean 'round_trips'?", fault.reason());
    }

    @Test
    void badValuesAreNamedWithLinePathAndValue() throws Exception {
        final List<ConfigurationFault> faults = faults(MINIMAL.replace("qos: 1, profile: thesis-tac4-corba", "qos: 7")
            + "  - { index_ref: 1, client: a, peer: c, message_size_bytes: 99999, qos: 4 }\n");
        final List<String> rendered = faults.stream().map(ConfigurationFault::toString).toList();
        assertTrue(rendered.stream().anyMatch(f -> f.contains(":7:") && f.contains("connections[0].qos: must be 1..4, was 7")), rendered.toString());
        assertTrue(rendered.stream().anyMatch(f -> f.contains(":8:") && f.contains("connections[1].index_ref: index_ref 1 is already used by connections[0]")), rendered.toString());
        assertTrue(rendered.stream().anyMatch(f -> f.contains("connections[1].peer: unknown node 'c'")), rendered.toString());
        assertTrue(rendered.stream().anyMatch(f -> f.contains("connections[1].message_size_bytes: must be 1..32767, was 99999")), rendered.toString());
        assertTrue(rendered.stream().anyMatch(f -> f.contains("QoS 4 serves a bound: bound_percent is required")), rendered.toString());
    }

    @Test
    void aProfileForAnotherWorkstationTypeIsRefused() throws Exception {
        final List<ConfigurationFault> faults = faults(MINIMAL.replace("workstation_type: TAC-4 }\n  - { name: b", "workstation_type: TAC-3 }\n  - { name: b"));
        assertTrue(faults.get(0).reason().contains("is for TAC-4 workstations, but client 'a' is a TAC-3"), faults.toString());
    }

    @Test
    void aBadProfileFileIsReportedWithItsOwnFault() throws Exception {
        Files.writeString(directory.resolve("broken.json"), "{\"format\": \"latency-profile/1\"");
        final List<ConfigurationFault> faults = faults(MINIMAL.replace("  - PROFILES/thesis-tac4-corba.json",
            "  - PROFILES/thesis-tac4-corba.json\n  - broken.json"));
        assertTrue(faults.stream().anyMatch(f -> f.line() == 3 && f.reason().startsWith("profile refused:")
            && f.reason().contains("malformed or truncated JSON")), faults.toString());
    }

    @Test
    void malformedYamlIsReportedWithItsLine() throws Exception {
        final List<ConfigurationFault> faults = faults("nodes:\n  - { name: a, node_id: 1\nconnections: []\n");
        assertEquals(1, faults.size());
        assertTrue(faults.get(0).reason().startsWith("malformed YAML"), faults.get(0).reason());
        assertTrue(faults.get(0).line() >= 2, faults.toString());
    }

    @Test
    void secretsAndUnsupportedSourcesAreNotSilentlyAccepted() throws Exception {
        final List<ConfigurationFault> faults = faults(MINIMAL.replace("workstation_type: TAC-4 }\n  - { name: b",
            "workstation_type: TAC-4, mib_source: snmp, community: public }\n  - { name: b"));
        assertTrue(faults.stream().anyMatch(f -> f.path().equals("nodes[0].community") && f.reason().startsWith("unknown key")), faults.toString());
        assertTrue(faults.stream().anyMatch(f -> f.path().equals("nodes[0].mib_source")), faults.toString());
    }
}
