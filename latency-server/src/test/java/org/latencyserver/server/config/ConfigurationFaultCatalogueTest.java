package org.latencyserver.server.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.latencyserver.server.config.ConfigFixture.BASE;
import static org.latencyserver.server.config.ConfigFixture.edit;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.latencyserver.core.input.InputFault;

/**
 * One case per kind of fault: each document differs from a valid one by a single mistake, on the
 * line marked {@code # <-}; the loader must report exactly one fault, at that line and at the
 * column of the offending key or value, with the key path and a reason that names the bad value.
 */
class ConfigurationFaultCatalogueTest {

    @TempDir
    Path directory;

    private static final String SNMP_NODE = "    node_id: 1\n    workstation_type: TAC-4";
    private static final String V3_BLOCK = String.join("\n",
        SNMP_NODE,
        "    mib_source: snmp",
        "    snmp:",
        "      address: udp:127.0.0.1/16101",
        "      version: v3",
        "      user: latserv",
        "      auth_password_env: LATSERV_AUTH",
        "      priv_password_env: LATSERV_PRIV");
    /** @return the first node's lines, polled by SNMP with this snmp block */
    private static String snmpNode(final String... blockLines) {
        return SNMP_NODE + "\n    mib_source: snmp\n    snmp:\n      " + String.join("\n      ", blockLines);
    }

    /** @return the valid document with this line added to its server section */
    private static String underServer(final String line) {
        return edit(BASE, "  name: LatencyServer", "  name: LatencyServer\n  " + line);
    }

    /** @return the valid document after a thresholds section holding this line */
    private static String underThresholds(final String line) {
        return "thresholds:\n  " + line + "\n" + BASE;
    }

    /** @return the valid document followed by a security section of these lines (each ending in a line break) */
    private static String withSecurity(final String lines) {
        return BASE + "security:\n" + lines;
    }

    /** @return the valid document with a security section taking all plain IIOP calls, and these principals' lines */
    private static String withPrincipals(final String lines) {
        return withSecurity("  plain_iiop: all\n  principals:\n" + lines);
    }

    /** @return the case of a bad value of one key of the server section: at {@code server.KEY}, pointing at the value */
    static Arguments faultInServer(final String description, final String key, final String value, final String... fragments) {
        return fault(description, underServer(key + ": " + value + " # <-"), "server." + key, value, fragments);
    }

    /** @return the case of a bad value of one key of the thresholds section: at {@code thresholds.KEY}, pointing at the value */
    static Arguments faultInThresholds(final String description, final String key, final String value,
                                       final String... fragments) {
        return fault(description, underThresholds(key + ": " + value + " # <-"), "thresholds." + key, value, fragments);
    }

    private static final String SNMP_LINK = String.join("\n",
        "  - name: port-a",
        "    mib_source: snmp",
        "    snmp:",
        "      address: udp:127.0.0.1/16102",
        "      version: v2c",
        "      community_env: LATSERV_COMMUNITY",
        "      if_index: 3");

    /**
     * @param description what is wrong, as a sentence
     * @param document    the document, with the faulty line marked
     * @param path        the key path the fault must name
     * @param token       the text on the marked line the fault's column must point at
     * @param fragments   texts the reason must contain (the bad value among them)
     */
    static Arguments fault(final String description, final String document, final String path, final String token,
                           final String... fragments) {
        return Arguments.of(description, document, path, token, List.of(fragments));
    }

    static Stream<Arguments> faults() {
        return Stream.of(
            fault("a QoS outside 1..4 is refused with its value",
                edit(BASE, "    qos: 3", "    qos: 5 # <-"), "connections[0].qos", "5", "must be 1..4", "was 5"),
            fault("a message size beyond the IDL's short is refused",
                edit(BASE, "    message_size_bytes: 256", "    message_size_bytes: 40000 # <-"),
                "connections[0].message_size_bytes", "40000", "1..32767", "40000"),
            faultInServer("a word where a number belongs is refused", "poll_interval_millis", "fast",
                "expected a whole number", "'fast'"),
            fault("a quoted number is text and refused with a hint",
                edit(BASE, "    message_size_bytes: 256", "    message_size_bytes: \"256\" # <-"),
                "connections[0].message_size_bytes", "\"256\"", "the text '256'", "remove the quotes"),
            fault("a number with a leading zero is refused because YAML reads it as octal",
                edit(BASE, "    node_id: 2", "    node_id: 010 # <-"), "nodes[1].node_id", "010", "'010'", "octal"),
            fault("a fraction where a whole number belongs is refused",
                edit(BASE, "    qos: 3", "    qos: 2.5 # <-"), "connections[0].qos", "2.5", "whole number", "'2.5'"),
            fault("a second node with the same name is refused",
                edit(BASE, "links:", "  - name: ws1 # <-\n    node_id: 3\n    workstation_type: TAC-4\nlinks:"),
                "nodes[2].name", "ws1", "a second node named 'ws1'", "nodes[0] (line 4)"),
            fault("a node_id used twice is refused",
                edit(BASE, "    node_id: 2", "    node_id: 1 # <-"), "nodes[1].node_id", "1",
                "node_id 1 is already used by nodes[0] (line 4)"),
            fault("a second link with the same name is refused",
                edit(BASE, "connections:", "  - name: port-a # <-\nconnections:"), "links[1].name", "port-a",
                "a second link named 'port-a'", "links[0] (line 11)"),
            fault("an index_ref used twice is refused",
                BASE + "  - index_ref: 1 # <-\n    client: ws2\n    peer: ws1\n    message_size_bytes: 512\n    qos: 3\n",
                "connections[1].index_ref", "1", "index_ref 1 is already used by connections[0] (line 13)"),
            fault("a reference to an unknown node is refused with the known ones",
                edit(BASE, "    client: ws1", "    client: ws9 # <-"), "connections[0].client", "ws9",
                "unknown node 'ws9'", "ws1, ws2"),
            fault("a reference to an unknown link is refused with the known ones",
                edit(BASE, "    link: port-a", "    link: port-z # <-"), "connections[0].link", "port-z",
                "unknown link 'port-z'", "port-a"),
            fault("a connection from a node to itself is refused",
                edit(BASE, "    peer: ws2", "    peer: ws1 # <-"), "connections[0].peer", "ws1", "both 'ws1'"),
            fault("QoS 4 without bound_percent is refused at its connection",
                edit(BASE, "  - index_ref: 1", "  - index_ref: 1 # <-", "    qos: 3", "    qos: 4"),
                "connections[0].bound_percent", "index_ref", "QoS 4", "bound_percent is required"),
            fault("a bound for QoS 3 is refused because QoS 3 serves an average",
                edit(BASE, "    qos: 3", "    qos: 3\n    bound_percent: 96 # <-"), "connections[0].bound_percent", "96",
                "QoS 3 serves an average", "'96'"),
            fault("a bound of 0 % is refused",
                edit(BASE, "    qos: 3", "    qos: 4\n    bound_percent: 0 # <-"), "connections[0].bound_percent", "0",
                "(0, 100]", "was 0"),
            fault("a bound above 100 % is refused",
                edit(BASE, "    qos: 3", "    qos: 4\n    bound_percent: 100.5 # <-"), "connections[0].bound_percent", "100.5",
                "(0, 100]", "was 100.5"),
            faultInThresholds("CPU thresholds out of order are refused", "cpu_low_upper_percent", "70",
                "cpu_low_upper_percent (70) must be below cpu_medium_upper_percent (66)"),
            faultInThresholds("a CPU hysteresis band as wide as a CPU band is refused", "cpu_hysteresis_band_percent", "33",
                "band 33", "narrowest CPU band, 33 points"),
            faultInThresholds("a negative CPU hysteresis band is refused", "cpu_hysteresis_band_percent", "-1",
                "[0, 100]", "was -1"),
            faultInThresholds("a port hysteresis band as wide as the loaded range is refused",
                "port_hysteresis_band_percent", "10", "below 10 points", "was 10"),
            faultInThresholds("a port threshold other than the IDL's 90 % is refused", "port_loaded_above_percent", "80",
                "fixed at 90", "was 80"),
            fault("mib_source snmp without an snmp block is refused",
                edit(BASE, SNMP_NODE, SNMP_NODE + "\n    mib_source: snmp # <-"), "nodes[0].mib_source", "snmp",
                "'snmp'", "no snmp block"),
            fault("an snmp block on a pushed node is refused",
                edit(BASE, SNMP_NODE, SNMP_NODE + "\n    snmp: { address: udp:127.0.0.1/161, version: v2c, community_env: C } # <-"),
                "nodes[0].snmp", "{", "mib_source is push (the default)"),
            fault("an unknown mib_source is refused with the choices",
                edit(BASE, SNMP_NODE, SNMP_NODE + "\n    mib_source: carrier-pigeon # <-"), "nodes[0].mib_source",
                "carrier-pigeon", "push | snmp", "'carrier-pigeon'"),
            fault("an inline community is refused and pointed to the environment",
                edit(BASE, SNMP_NODE, snmpNode("address: udp:127.0.0.1/16101", "version: v2c", "community_env: C",
                    "community: s3cret # <-")),
                "nodes[0].snmp.community", "community:", "put secrets in the environment: use community_env"),
            fault("SNMP v3 without a privacy passphrase is refused",
                edit(BASE, SNMP_NODE, snmpNode("address: udp:127.0.0.1/16101 # <-", "version: v3", "user: latserv",
                    "auth_password_env: LATSERV_AUTH")),
                "nodes[0].snmp.priv_password_env", "address", "SNMP v3 needs priv_password_env"),
            fault("a v3 key in a v2c block is refused",
                edit(BASE, SNMP_NODE, snmpNode("address: udp:127.0.0.1/16101", "version: v2c", "community_env: C",
                    "user: latserv # <-")),
                "nodes[0].snmp.user", "latserv", "SNMP v2c has no 'user'"),
            fault("an agent address without udp: or a port is refused",
                edit(BASE, SNMP_NODE, V3_BLOCK.replace("udp:127.0.0.1/16101", "127.0.0.1:161 # <-")),
                "nodes[0].snmp.address", "127.0.0.1:161", "udp:HOST/PORT", "'127.0.0.1:161'"),
            fault("a polled link without if_index is refused",
                edit(BASE, "  - name: port-a", SNMP_LINK.replace("      if_index: 3", "")
                    .replace("udp:127.0.0.1/16102", "udp:127.0.0.1/16102 # <-")),
                "links[0].snmp.if_index", "address", "missing: if_index"),
            fault("cpu_source in a link's snmp block is refused as belonging to nodes",
                edit(BASE, "  - name: port-a", SNMP_LINK + "\n      cpu_source: ucd-raw # <-"), "links[0].snmp.cpu_source",
                "cpu_source", "node's snmp block"),
            fault("an unknown profile is refused",
                edit(BASE, "    qos: 3", "    qos: 1\n    profile: nope # <-"), "connections[0].profile", "nope",
                "unknown profile 'nope'", "no profiles are loaded"),
            fault("QoS 1 without a profile is refused at its connection",
                edit(BASE, "  - index_ref: 1", "  - index_ref: 1 # <-", "    qos: 3", "    qos: 1"),
                "connections[0].profile", "index_ref", "QoS 1 is served from a profile"),
            fault("a key given twice is refused at the second",
                edit(BASE, "    qos: 3", "    qos: 3\n    qos: 4 # <-"), "connections[0].qos", "qos", "given twice",
                "first at line 18"),
            faultInServer("a word where true or false belongs is refused", "operator_calls_enabled", "maybe",
                "true or false", "'maybe'"),
            fault("a text where a list belongs is refused",
                edit(BASE, "links:\n  - name: port-a", "links: port-a # <-", "    link: port-a\n", ""), "links", "port-a",
                "expected a list", "'port-a'"),
            fault("a list item that is not a mapping is refused",
                edit(BASE, "links:", "  - ws3 # <-\nlinks:"), "nodes[2]", "ws3", "expected a mapping", "'ws3'"),
            fault("a node without node_id is refused at the node",
                edit(BASE, "  - name: ws2", "  - name: ws2 # <-", "    node_id: 2\n", ""), "nodes[1].node_id", "name",
                "missing: node_id"),
            fault("an alias is refused rather than read as its anchor's name",
                edit(BASE, "  - name: ws2", "  - name: &w2 ws2", "    peer: ws2", "    peer: *w2 # <-"),
                "connections[0].peer", "*w2", "aliases", "*w2"),
            fault("a metrics port beyond 65535 is refused",
                underServer("metrics: { port: 70000 } # <-"),
                "server.metrics.port", "70000", "0..65535", "70000"),
            fault("a metrics port of 0 without enabled is refused, as 0 used to mean no endpoint and now means any free port",
                underServer("metrics: { port: 0 } # <-"),
                "server.metrics.port", "0", "any free port", "'enabled: false' for no endpoint", "'enabled: true'"),
            faultInServer("an empty state file name is refused", "state_file", "\"\"", "must not be empty"),
            faultInServer("a partition named like a directory of the partitioned deployment is refused", "partition", "by-client",
                "'by-client'", "not a partition"),
            faultInServer("a partition name that is no single name component is refused", "partition", "east/1",
                "letters, digits", "'east/1'"),
            faultInServer("an index_ref scope other than deployment or partition is refused with the two there are",
                "index_ref_scope", "server", "deployment | partition"),
            fault("a section key written at the top level is refused with where it belongs",
                "poll_interval_millis: 50 # <-\n" + BASE, "poll_interval_millis", "poll_interval_millis",
                "belongs under server:"),
            fault("an unknown plain_iiop mode is refused with the modes there are",
                withSecurity("  plain_iiop: writable # <-\n"), "security.plain_iiop", "writable", "read-only or all",
                "'writable'"),
            fault("a role that does not exist is refused",
                withPrincipals("    - subject: \"CN=x\"\n      roles: [admin] # <-\n"),
                "security.principals[0].roles", "admin", "agent, operator or planner", "admin"),
            fault("an agent without its node is refused",
                withPrincipals("    - subject: \"CN=x\" # <-\n      roles: [agent]\n"),
                "security.principals[0].node", "subject", "an agent's own workstation"),
            fault("an agent of a node that is not configured is refused with the nodes there are",
                withPrincipals("    - subject: \"CN=x\"\n      roles: [agent]\n      node: ws9 # <-\n"),
                "security.principals[0].node", "ws9", "no workstation 'ws9'", "ws1, ws2"),
            fault("a subject that is not an X.500 name is refused",
                withPrincipals("    - subject: \"not a name\" # <-\n      roles: [planner]\n"),
                "security.principals[0].subject", "\"not a name\"", "not an X.500 name", "'not a name'"),
            fault("a TLS key store that does not exist is refused with its path",
                withSecurity("  tls:\n    keystore: nowhere.p12 # <-\n    truststore: server.yaml\n"),
                "security.tls.keystore", "nowhere.p12", "no readable file", "nowhere.p12"),
            fault("a TLS port beyond 65535 is refused",
                withSecurity("  plain_iiop: all\n  tls: { port: 70000, keystore: server.yaml, truststore: server.yaml } # <-\n"),
                "security.tls.port", "70000", "0..65535"),
            fault("a revoked serials file that does not exist is refused with its path",
                withSecurity("  tls:\n    keystore: server.yaml\n    truststore: server.yaml\n    revoked_serials_file: gone.txt # <-\n"),
                "security.tls.revoked_serials_file", "gone.txt", "no readable file", "gone.txt"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("faults")
    void eachFaultNamesTheFileTheLineTheColumnTheKeyPathAndTheBadValue(final String description, final String document,
                                                                       final String path, final String token,
                                                                       final List<String> fragments) throws Exception {
        final Path file = ConfigFixture.write(directory, "server.yaml", document);
        final List<InputFault> faults = ConfigFixture.refused(file).faults();
        assertEquals(1, faults.size(), () -> "exactly one fault expected for: " + description + "\n" + faults);
        final InputFault fault = faults.get(0);
        assertEquals(path, fault.path(), fault::toString);
        assertEquals(ConfigFixture.markedLine(document), fault.line(), fault::toString);
        assertEquals(ConfigFixture.markedColumn(document, token), fault.column(), fault::toString);
        for (final String fragment : fragments) {
            assertTrue(fault.reason().contains(fragment), () -> "'" + fragment + "' missing from: " + fault);
        }
    }
}
