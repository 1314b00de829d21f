package org.latencyserver.server.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.latencyserver.server.config.ConfigFixture.BASE;
import static org.latencyserver.server.config.ConfigFixture.edit;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencyserver.core.input.InputFault;

class SnmpConfigurationTest {

    @TempDir
    Path directory;

    private static final String WS1 = "    node_id: 1\n    workstation_type: TAC-4";
    private static final String WS2 = "    node_id: 2\n    workstation_type: TAC-4";

    /**
     * @param node      {@link #WS1} or {@link #WS2}
     * @param snmpLines the node's {@code snmp:} key and its block, as lines
     * @return the base configuration with that node polled by SNMP
     */
    private static String polledNode(final String node, final String... snmpLines) {
        return edit(BASE, node, node + "\n    mib_source: snmp\n" + String.join("\n", snmpLines));
    }

    private ServerConfiguration load(final String yaml) throws Exception {
        return ConfigurationLoader.load(ConfigFixture.write(directory, "snmp.yaml", yaml));
    }

    @Test
    void aV3NodeKeepsEveryGivenSettingAndNoSecret() throws Exception {
        final ServerConfiguration configuration = load(polledNode(WS1,
            "    snmp:",
            "      address: udp:10.0.0.7/16101",
            "      version: v3",
            "      user: latserv",
            "      auth_protocol: SHA256",
            "      auth_password_env: LATSERV_AUTH",
            "      priv_protocol: AES256",
            "      priv_password_env: LATSERV_PRIV",
            "      cpu_source: hr-processor-load",
            "      timeout_millis: 750",
            "      retries: 2"));
        final NodeConfig ws1 = configuration.nodes().get(0);
        assertEquals(MibSource.SNMP, ws1.mibSource());
        assertEquals(new SnmpAccess("udp:10.0.0.7/16101", SnmpAccess.Version.V3, null, "latserv", SnmpAccess.AuthProtocol.SHA256,
            "LATSERV_AUTH", SnmpAccess.PrivProtocol.AES256, "LATSERV_PRIV", SnmpAccess.CpuSource.HR_PROCESSOR_LOAD, 750, 2),
            ws1.snmp());
        assertEquals(MibSource.PUSH, configuration.nodes().get(1).mibSource());
    }

    @Test
    void aV3NodeWithoutOptionalKeysGetsShaAesUcdRawCountersAndTheDefaultTimeout() throws Exception {
        final ServerConfiguration configuration = load(polledNode(WS1,
            "    snmp: { address: tcp:agent.example/161, version: v3, user: u, auth_password_env: A, priv_password_env: P }"));
        assertEquals(new SnmpAccess("tcp:agent.example/161", SnmpAccess.Version.V3, null, "u", SnmpAccess.AuthProtocol.SHA, "A",
            SnmpAccess.PrivProtocol.AES, "P", SnmpAccess.CpuSource.UCD_RAW, 300, 0), configuration.nodes().get(0).snmp());
    }

    @Test
    void aV2cNodeNamesTheVariableHoldingItsCommunity() throws Exception {
        final ServerConfiguration configuration = load(polledNode(WS2,
            "    snmp: { address: udp:127.0.0.1/16102, version: v2c, community_env: LATSERV_COMMUNITY }"));
        assertEquals(new SnmpAccess("udp:127.0.0.1/16102", SnmpAccess.Version.V2C, "LATSERV_COMMUNITY", null, null, null, null, null,
            SnmpAccess.CpuSource.UCD_RAW, 300, 0), configuration.nodes().get(1).snmp(), "no user and no v3 protocols");
    }

    @Test
    void aPolledLinkKeepsItsInterfaceAndReadsTheSpeedFromTheAgentUnlessGiven() throws Exception {
        final ServerConfiguration configuration = load(edit(BASE, "links:\n  - name: port-a", String.join("\n",
            "links:",
            "  - name: port-a",
            "    mib_source: snmp",
            "    snmp: { address: udp:127.0.0.1/16103, version: v2c, community_env: C, if_index: 3 }",
            "  - name: port-b",
            "    mib_source: snmp",
            "    snmp: { address: udp:127.0.0.1/16103, version: v2c, community_env: C, if_index: 4, speed_mbps: 155 }")));
        final LinkConfig a = configuration.links().get(0);
        final LinkConfig b = configuration.links().get(1);
        assertEquals(3, a.ifIndex());
        assertTrue(a.speedFromAgent());
        assertNull(a.snmp().cpuSource());
        assertEquals(4, b.ifIndex());
        assertEquals(155, b.speedMbps());
        assertEquals(List.of("port-a"), configuration.connectionSpecs().get(0).linkNames());
        assertNull(a.discardsOid(), "saturation not observed unless a drop counter is named");
    }

    @Test
    void aPolledLinkKeepsTheOidOfItsDropCounter() throws Exception {
        final ServerConfiguration configuration = load(edit(BASE, "links:\n  - name: port-a", String.join("\n",
            "links:",
            "  - name: port-a",
            "    mib_source: snmp",
            "    snmp: { address: udp:127.0.0.1/16103, version: v2c, community_env: C, if_index: 5, speed_mbps: 20,"
                + " discards_oid: 1.3.6.1.2.1.2.2.1.19.5 }")));
        assertEquals("1.3.6.1.2.1.2.2.1.19.5", configuration.links().get(0).discardsOid());
    }

    @Test
    void aDropCounterNamedByAMibNameIsRefusedAskingForTheNumericOid() throws Exception {
        final InputFault fault = ConfigFixture.onlyFault(directory, "names.yaml", edit(BASE, "links:\n  - name: port-a",
            String.join("\n",
                "links:",
                "  - name: port-a",
                "    mib_source: snmp",
                "    snmp: { address: udp:127.0.0.1/16103, version: v2c, community_env: C, if_index: 5,"
                    + " discards_oid: IF-MIB::ifOutDiscards.5 }")));
        assertEquals("links[0].snmp.discards_oid", fault.path());
        assertTrue(fault.reason().startsWith("expected a numeric OID of a counter of the packets the port dropped"), fault.reason());
    }

    @Test
    void aV3BlockMissingUserAndBothPassphrasesReportsEachAtTheBlock() throws Exception {
        final String yaml = polledNode(WS1,
            "    snmp:",
            "      address: udp:127.0.0.1/161",        // line 9: a block mapping is located at its first key
            "      version: v3");
        final List<InputFault> faults = ConfigFixture.faultsOf(directory, "v3.yaml", yaml);
        assertEquals(List.of("nodes[0].snmp.user", "nodes[0].snmp.auth_password_env", "nodes[0].snmp.priv_password_env"),
            faults.stream().map(InputFault::path).toList());
        assertTrue(faults.stream().allMatch(f -> f.line() == 9 && f.column() == 7), faults::toString);
    }

    @Test
    void aCommunityInAV3BlockIsRefusedAsTheWrongVersion() throws Exception {
        final String yaml = polledNode(WS1,
            "    snmp: { address: udp:127.0.0.1/161, version: v3, user: u, auth_password_env: A, priv_password_env: P,"
                + " community_env: C }");
        final InputFault fault = ConfigFixture.onlyFault(directory, "v3c.yaml", yaml);
        assertEquals("nodes[0].snmp.community_env", fault.path());
        assertTrue(fault.reason().startsWith("SNMP v3 uses no community"), fault::toString);
    }

    @Test
    void anUnknownVersionIsRefusedWithTheChoices() throws Exception {
        final String yaml = polledNode(WS1,
            "    snmp: { address: udp:127.0.0.1/161, version: v1, community_env: C }");
        final InputFault fault = ConfigFixture.onlyFault(directory, "v1.yaml", yaml);
        assertEquals("nodes[0].snmp.version", fault.path());
        assertEquals("must be one of v2c | v3, was 'v1'", fault.reason());
    }

    @Test
    void aLocalAddressOfThisMachineIsKept() throws Exception {
        final ServerConfiguration configuration = load(polledNode(WS2,
            "    snmp: { address: udp:127.0.0.1/16102, version: v2c, community_env: C, local_address: 127.0.0.1 }"));
        assertEquals("127.0.0.1", configuration.nodes().get(1).snmp().localAddress());
    }

    @Test
    void aLocalAddressThatIsNotThisMachinesIsRefusedAtItsLine() throws Exception {
        // TEST-NET-1 (RFC 5737): documentation only, never an address of this machine.
        final List<InputFault> faults = localAddressFaults("udp:127.0.0.1/161", "192.0.2.77");
        assertEquals(1, faults.size(), faults::toString);
        assertTrue(faults.get(0).reason().startsWith("192.0.2.77 is not an address a UDP socket can be bound to on this machine ("),
            faults.get(0)::toString);
    }

    @Test
    void aLocalAddressThatIsNoIpAddressIsRefusedWithAnExample() throws Exception {
        final List<InputFault> faults = localAddressFaults("udp:127.0.0.1/161", "lab-host");
        assertEquals(1, faults.size(), faults::toString);
        assertEquals("expected an IP address of this machine, e.g. 127.0.0.1, or 0.0.0.0 for all interfaces, was 'lab-host'",
            faults.get(0).reason());
        assertEquals(1, localAddressFaults("udp:127.0.0.1/161", "127.0.0.256").size(), "an octet above 255");
    }

    @Test
    void aLoopbackLocalAddressForAnAgentOffLoopbackIsRefused() throws Exception {
        final List<InputFault> faults = localAddressFaults("udp:10.0.0.7/161", "127.0.0.1");
        assertEquals(1, faults.size(), faults::toString);
        assertEquals("the loopback address 127.0.0.1 cannot reach the agent at 10.0.0.7, which is not on loopback: use an "
            + "address of the interface towards it, or remove local_address", faults.get(0).reason());
    }

    /** The faults of a node whose snmp block has the local address; each must be at local_address's own line. */
    private List<InputFault> localAddressFaults(final String agent, final String localAddress) throws Exception {
        final String yaml = polledNode(WS1,
            "    snmp:",
            "      address: " + agent,
            "      version: v2c",
            "      community_env: C",
            "      local_address: " + localAddress);
        final int line = (int) yaml.lines().takeWhile(l -> !l.contains("local_address:")).count() + 1;
        final List<InputFault> faults = ConfigFixture.faultsOf(directory, "local.yaml", yaml);
        for (final InputFault fault : faults) {
            assertEquals("nodes[0].snmp.local_address", fault.path(), fault::toString);
            assertEquals(line, fault.line(), fault::toString);
        }
        return faults;
    }
}
