package org.latencyserver.server.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.latencyserver.server.config.ConfigFixture.BASE;
import static org.latencyserver.server.config.ConfigFixture.edit;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencyserver.core.input.InputFault;
import org.latencyserver.core.state.WorkstationType;
import org.latencyserver.server.table.CalibrationMode;
import org.latencyserver.server.table.ConnectionSpec;

class ConfigurationLoaderTest {

    private static final Path EXAMPLE = Path.of("../examples/thesis-testbed.yaml");

    @TempDir
    Path directory;

    @Test
    void theShippedThesisTestbedLoadsWithItsNodesLinkAndSixConnections() throws Exception {
        final ServerConfiguration configuration = ConfigurationLoader.load(EXAMPLE);

        assertEquals(List.of("thesis-tac4-corba", "thesis-tac3-corba", "measured-loopback-jacorb"),
            List.copyOf(configuration.profiles().keySet()));
        assertEquals("TAC-4", configuration.profiles().get("thesis-tac4-corba").workstationType());
        assertEquals(List.of("ws1", "ws2", "ws3", "ws4", "lab1", "lab2"), configuration.nodes().stream().map(NodeConfig::name).toList());
        assertEquals(List.of(4, 4, 3, 3, 5, 5), configuration.nodes().stream().map(n -> n.workstationType().code()).toList(),
            "LOCAL-2CORE, the first type beyond the thesis's, is 5");
        assertTrue(configuration.nodes().stream().allMatch(n -> n.mibSource() == MibSource.PUSH && n.snmp() == null));
        assertEquals(List.of("atm-port"), configuration.links().stream().map(LinkConfig::name).toList());

        final List<ConnectionSpec> connections = configuration.connectionSpecs();
        assertEquals(List.of(1, 2, 3, 4, 5, 6), connections.stream().map(c -> (int) c.indexRef()).toList());
        assertEquals(List.of(1, 1, 2, 3, 3, 4), connections.stream().map(ConnectionSpec::qos).toList());
        assertEquals("measured-loopback-jacorb", connections.get(2).profileName());
        assertEquals(96.0, connections.get(2).boundPercent());

        final ConnectionSpec one = connections.get(0);
        assertEquals("ws1", one.clientNodeName());
        assertEquals("ws2", one.peerNodeName());
        assertEquals("TAC-4", one.clientWorkstationType().name());
        assertEquals(256, one.messageSizeBytes());
        assertEquals("thesis-tac4-corba", one.profileName());
        assertEquals(List.of("atm-port"), one.linkNames());
        assertEquals(0.0, one.boundPercent());

        final ConnectionSpec two = connections.get(1);
        assertEquals("TAC-3", two.clientWorkstationType().name());
        assertEquals("TAC-3", two.peerWorkstationType().name());
        assertEquals(1024, two.messageSizeBytes());
        assertEquals("thesis-tac3-corba", two.profileName());

        final ConnectionSpec six = connections.get(5);
        assertEquals(96.0, six.boundPercent());
        assertNull(six.profileName());

        final ConnectionSpec twoSpec = configuration.connectionSpecs().get(1);
        assertEquals(3, twoSpec.clientWorkstationCode());
        assertEquals(3, twoSpec.clientNodeId());
        assertEquals(4, twoSpec.peerNodeId());

        assertEquals(EXAMPLE.toAbsolutePath().normalize().resolveSibling("thesis-testbed.state.json"),
            configuration.server().stateFile());
        assertEquals(new ServerSettings.Metrics(true, "127.0.0.1", 9464), configuration.server().metrics());
        assertEquals(30_000_000_000L, configuration.engine().measurementTimeoutNanos());
        assertEquals(1000, configuration.engine().roundTripsPerMeasurement());
    }

    @Test
    void absentKeysTakeTheDefaultsTheDocumentationPromises() throws Exception {
        final Path file = ConfigFixture.write(directory, "minimal.yaml", edit(BASE, "server:\n  name: LatencyServer\n", ""));
        final ServerConfiguration configuration = ConfigurationLoader.load(file);

        // Whole records, so that a default left out of the loader, or a new field, cannot go unnoticed.
        assertEquals(new ServerSettings("LatencyServer", null, IndexRefScope.DEPLOYMENT, 100, 5, directory.resolve("minimal.state.json").toAbsolutePath().normalize(),
            new ServerSettings.Metrics(true, "127.0.0.1", 9464), true, true, null), configuration.server(), "polled at 10 Hz");
        assertEquals(new Thresholds(33, 66, 2.0, 90, 1.0), configuration.thresholds());
        assertEquals(new MeasurementSettings(1000, 20, 30_000, 5_000, 20_000, 2, MeasurementSettings.DWELL_FROM_POLL_INTERVAL),
            configuration.measurement());

        assertTrue(configuration.profiles().isEmpty());
        final NodeConfig ws1 = configuration.nodes().get(0);
        assertEquals(MibSource.PUSH, ws1.mibSource());
        assertNull(ws1.snmp());
        assertEquals(MibSource.PUSH, configuration.links().get(0).mibSource());
        assertEquals(5_000_000_000L, configuration.engine().minMeasurementIntervalNanos());
        assertEquals(2, configuration.engine().maxConcurrentMeasurements());
    }

    @Test
    void givenValuesReplaceTheDefaultsAndTheStateFileIsRelativeToTheConfiguration() throws Exception {
        final String yaml = edit(BASE, "  name: LatencyServer", String.join("\n",
            "  name: Partitioned",
            "  partition: p-7",
            "  index_ref_scope: partition",
            "  poll_interval_millis: 250",
            "  unknown_after_missed_polls: 12",
            "  state_file: ../state/p7.json",
            "  metrics: { enabled: false, address: 0.0.0.0, port: 9100 }",
            "  operator_calls_enabled: false",
            "  planner_calls_enabled: no",
            "thresholds:",
            "  cpu_low_upper_percent: 40",
            "  cpu_medium_upper_percent: 80",
            "  cpu_hysteresis_band_percent: 0",
            "  port_hysteresis_band_percent: 2.5",
            "measurement:",
            "  round_trips: 10_000",
            "  warmup_round_trips: 0",
            "  timeout_millis: 1500",
            "  min_interval_millis: 0",
            "  budget_round_trips_per_second: 500",
            "  max_concurrent_measurements: 8"));
        Files.createDirectories(directory.resolve("conf"));
        final ServerConfiguration configuration = ConfigurationLoader.load(ConfigFixture.write(directory, "conf/server.yml", yaml));

        assertEquals(new ServerSettings("Partitioned", "p-7", IndexRefScope.PARTITION, 250, 12, directory.resolve("state/p7.json").toAbsolutePath().normalize(),
            new ServerSettings.Metrics(false, "0.0.0.0", 9100), false, false, null), configuration.server());
        assertFalse(configuration.server().metrics().enabled());
        assertEquals("Partitioned/p-7", configuration.server().registeredName(), "a partition registers under the server name");
        assertEquals(new Thresholds(40, 80, 0, 90, 2.5), configuration.thresholds());
        assertEquals(new MeasurementSettings(10_000, 0, 1500, 0, 500, 8), configuration.measurement());
        assertEquals(40.5, configuration.engine().cpuThresholds().lowMediumBoundaryPercent());
        assertEquals(1_500_000_000L, configuration.engine().measurementTimeoutNanos());
    }

    @Test
    void workstationTypesOtherThanTheThesisTwoAreNumberedFromFiveInOrderOfAppearance() throws Exception {
        final String yaml = String.join("\n",
            "nodes:",
            "  - { name: a, node_id: 1, workstation_type: TAC-4 }",
            "  - { name: b, node_id: 2, workstation_type: Sun-Ultra }",
            "  - { name: c, node_id: 3, workstation_type: TAC-3 }",
            "  - { name: d, node_id: 4, workstation_type: HP-9000 }",
            "  - { name: e, node_id: 5, workstation_type: Sun-Ultra }",
            "connections: []",
            "");
        final ServerConfiguration configuration = ConfigurationLoader.load(ConfigFixture.write(directory, "types.yaml", yaml));
        assertEquals(List.of(4, 5, 3, 6, 5), configuration.nodes().stream().map(n -> n.workstationType().code()).toList());
        assertTrue(configuration.connectionSpecs().isEmpty());
    }

    @Test
    void severalFaultsAreReportedTogetherInFileOrderOnePerLineOfTheMessage() throws Exception {
        final String yaml = edit(BASE,
            "    node_id: 2", "    node_id: 0",                     // line 8
            "  name: LatencyServer", "  name: LatencyServer\n  pol_interval_millis: 50", // line 3 (shifts the rest by one)
            "    client: ws1", "    client: nobody",              // line 15
            "    qos: 3", "    qos: 9");                          // line 19
        final Path file = ConfigFixture.write(directory, "many.yaml", yaml);
        final ConfigurationException error = ConfigFixture.refused(file);
        final List<InputFault> faults = error.faults();

        assertEquals(List.of(3, 9, 15, 19), faults.stream().map(InputFault::line).toList(), faults::toString);
        assertEquals(List.of("server.pol_interval_millis", "nodes[1].node_id", "connections[0].client", "connections[0].qos"),
            faults.stream().map(InputFault::path).toList());
        final List<String> lines = error.getMessage().lines().toList();
        assertEquals(faults.size(), lines.size());
        final Pattern form = Pattern.compile(Pattern.quote(file.toString()) + ":\\d+:\\d+: [a-z_\\[\\]0-9.]+: .+");
        for (int i = 0; i < lines.size(); i++) {
            assertTrue(form.matcher(lines.get(i)).matches(), lines.get(i));
            assertEquals(faults.get(i).toString(), lines.get(i));
        }
        assertTrue(lines.get(1).startsWith(file + ":9:14: nodes[1].node_id: must be 1..32767, was 0"), lines.get(1));
    }

    @Test
    void anUnknownKeyIsRefusedWithTheClosestKnownKeySuggested() throws Exception {
        final String yaml = edit(BASE, "  name: LatencyServer", "  name: LatencyServer\n  pol_interval_millis: 50");
        final InputFault fault = ConfigFixture.onlyFault(directory, "typo.yaml", yaml);
        assertEquals(3, fault.line());
        assertEquals(3, fault.column());
        assertEquals("server.pol_interval_millis", fault.path());
        assertEquals("unknown key 'pol_interval_millis' - did you mean 'poll_interval_millis'?", fault.reason());
    }

    @Test
    void anUnknownKeyFarFromEveryKnownOneListsTheKeysAllowedThere() throws Exception {
        final String yaml = edit(BASE, "    qos: 3", "    qos: 3\n    colour: blue");
        final InputFault fault = ConfigFixture.onlyFault(directory, "far.yaml", yaml);
        assertEquals("connections[0].colour", fault.path());
        assertEquals("unknown key 'colour'; the keys here are bound_percent, calibration, client, index_ref, link, "
            + "links, message_size_bytes, path_bound, peer, probe_rate_per_second, profile, qos, traffic", fault.reason());
    }

    @Test
    void anInlineSecretIsRefusedWithoutRepeatingItAnywhere() throws Exception {
        final String secret = "s3cret-community-7741";
        final String yaml = edit(BASE, "    node_id: 1\n    workstation_type: TAC-4", String.join("\n",
            "    node_id: 1",
            "    workstation_type: TAC-4",
            "    mib_source: snmp",
            "    snmp:",
            "      address: udp:127.0.0.1/161",
            "      version: v2c",
            "      community_env: LATSERV_COMMUNITY",
            "      community: " + secret,
            "      auth_password: " + secret + "-too"));
        final ConfigurationException error = ConfigFixture.refused(ConfigFixture.write(directory, "secret.yaml", yaml));
        assertEquals(List.of("nodes[0].snmp.community", "nodes[0].snmp.auth_password"),
            error.faults().stream().map(InputFault::path).toList());
        assertEquals(List.of(12, 13), error.faults().stream().map(InputFault::line).toList());
        assertTrue(error.faults().get(0).reason().startsWith("put secrets in the environment: use community_env"),
            error.faults().get(0)::toString);
        assertTrue(error.faults().get(1).reason().startsWith("put secrets in the environment: use auth_password_env"),
            error.faults().get(1)::toString);
        assertFalse(error.getMessage().contains("s3cret"), error.getMessage());
    }

    @Test
    void anEnvironmentVariableNameThatLooksLikeASecretIsRefusedWithoutRepeatingIt() throws Exception {
        final String yaml = edit(BASE, "    node_id: 1\n    workstation_type: TAC-4", String.join("\n",
            "    node_id: 1",
            "    workstation_type: TAC-4",
            "    mib_source: snmp",
            "    snmp: { address: udp:127.0.0.1/161, version: v2c, community_env: \"pa55 w0rd!\" }"));
        final ConfigurationException error = ConfigFixture.refused(ConfigFixture.write(directory, "env.yaml", yaml));
        assertEquals(1, error.faults().size(), error::getMessage);
        assertEquals("nodes[0].snmp.community_env", error.faults().get(0).path());
        assertEquals(8, error.faults().get(0).line());
        assertFalse(error.getMessage().contains("pa55"), error.getMessage());
    }

    @Test
    void badIndentationIsReportedAsMalformedYamlAtItsLine() throws Exception {
        final String yaml = edit(BASE, "    node_id: 2", "   node_id: 2");     // line 8: one space short
        final InputFault fault = ConfigFixture.onlyFault(directory, "indent.yaml", yaml);
        assertEquals(8, fault.line(), fault::toString);
        assertEquals("file", fault.path());
        assertTrue(fault.reason().startsWith("malformed YAML: "), fault::toString);
    }

    @Test
    void aTabUsedForIndentationIsReportedAtTheTabNotAtThePreviousLine() throws Exception {
        final String yaml = edit(BASE, "    qos: 3", "\tqos: 3");            // line 18
        final InputFault fault = ConfigFixture.onlyFault(directory, "tab.yaml", yaml);
        assertEquals(18, fault.line(), fault::toString);
        assertEquals(1, fault.column(), fault::toString);
        assertTrue(fault.reason().contains("TAB"), fault::toString);
    }

    @Test
    void anUnclosedFlowMappingIsReportedAsMalformedYamlNearItsEnd() throws Exception {
        final String yaml = "nodes:\n  - { name: a, node_id: 1\nconnections: []\n";
        final InputFault fault = ConfigFixture.onlyFault(directory, "flow.yaml", yaml);
        assertEquals(3, fault.line(), fault::toString);
        assertTrue(fault.reason().startsWith("malformed YAML: "), fault::toString);
        assertTrue(fault.reason().contains("line 2"), "names where the mapping began: " + fault);
    }

    @Test
    void anEmptyFileIsRefusedWithTheSectionsItNeeds() throws Exception {
        final List<InputFault> faults = ConfigFixture.refused(ConfigFixture.write(directory, "empty.yaml", "# nothing\n"))
            .faults();
        assertEquals(1, faults.size(), faults::toString);
        assertEquals(0, faults.get(0).line());
        assertTrue(faults.get(0).reason().startsWith("the file is empty"), faults.get(0)::toString);
        assertTrue(faults.get(0).reason().contains("connections"), faults.get(0)::toString);
    }

    @Test
    void aMissingFileIsRefusedNamingIt() {
        final Path missing = directory.resolve("absent.yaml");
        final List<InputFault> faults = ConfigFixture.refused(missing).faults();
        assertEquals(1, faults.size(), faults::toString);
        assertEquals(0, faults.get(0).line());
        assertTrue(faults.get(0).reason().startsWith("cannot be read: NoSuchFileException"), faults.get(0)::toString);
    }

    @Test
    void missingNodesAndConnectionsSectionsAreBothReported() throws Exception {
        final List<InputFault> faults = ConfigFixture.refused(ConfigFixture.write(directory, "bare.yaml",
            "server:\n  name: X\n")).faults();
        assertEquals(List.of("nodes", "connections"), faults.stream().map(InputFault::path).toList());
        assertTrue(faults.stream().allMatch(f -> f.line() == 1 && f.reason().startsWith("missing: ")), faults::toString);
    }

    @Test
    void aConnectionBecomesTheSpecTheConnectionTableTakes() throws Exception {
        final ServerConfiguration configuration = ConfigurationLoader.load(ConfigFixture.write(directory, "spec.yaml",
            edit(BASE, "    qos: 3", "    qos: 4\n    bound_percent: 99.5")));
        final ConnectionSpec spec = configuration.connectionSpecs().get(0);
        assertEquals(new ConnectionSpec((short) 1, "ws1", (short) 1, WorkstationType.TAC_4, "ws2", (short) 2, WorkstationType.TAC_4, "port-a", 256, 4,
            99.5, null, CalibrationMode.ADAPTIVE, 10.0), spec);
    }

    @Test
    void aBoundOfExactlyOneHundredPercentIsTheClosedEndOfTheRangeAndAccepted() throws Exception {
        final ServerConfiguration configuration = ConfigurationLoader.load(ConfigFixture.write(directory, "hundred.yaml",
            edit(BASE, "    qos: 3", "    qos: 4\n    bound_percent: 100")));
        assertEquals(100.0, configuration.connectionSpecs().get(0).boundPercent());
    }

    @Test
    void metricsPortZeroWithEnabledTrueServesOnAnyFreePortAsOnTheCommandLine() throws Exception {
        final ServerConfiguration configuration = ConfigurationLoader.load(ConfigFixture.write(directory, "anyport.yaml",
            edit(BASE, "  name: LatencyServer", "  name: LatencyServer\n  metrics: { enabled: true, port: 0 }")));
        assertEquals(new ServerSettings.Metrics(true, "127.0.0.1", 0), configuration.server().metrics());
    }

    @Test
    void metricsEnabledFalseTurnsTheEndpointOffWhateverThePort() throws Exception {
        final ServerConfiguration configuration = ConfigurationLoader.load(ConfigFixture.write(directory, "nometrics.yaml",
            edit(BASE, "  name: LatencyServer", "  name: LatencyServer\n  metrics: { enabled: false, port: 0 }")));
        assertFalse(configuration.server().metrics().enabled());
    }

    @Test
    void numbersWithDigitGroupingAndExponentsAreReadAsWritten() throws Exception {
        final ServerConfiguration configuration = ConfigurationLoader.load(ConfigFixture.write(directory, "numbers.yaml",
            "measurement:\n  round_trips: 1e4\n  timeout_millis: 2_500\n" + BASE));
        assertEquals(10_000, configuration.measurement().roundTrips());
        assertEquals(2_500, configuration.measurement().timeoutMillis());
    }
}
