package org.latencyserver.emulator;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.snmp4j.MessageDispatcherImpl;
import org.snmp4j.Snmp;
import org.snmp4j.mp.MPv3;
import org.snmp4j.security.SecurityProtocols;
import org.snmp4j.security.USM;
import org.snmp4j.smi.OctetString;
import org.snmp4j.smi.UdpAddress;
import org.snmp4j.transport.DefaultUdpTransportMapping;

/**
 * 2,000 generated agents (1,500 workstations, 500 switch ports, each on its own 127.x.y.z address)
 * in this JVM, read with net-snmp's {@code snmpget} over real UDP, v2c and v3 authPriv; the
 * scenario's clock is the test's, so the mass change of step 2 is reached without waiting.
 */
class ScaledEmulatorTest {
    private static final String COMMUNITY = "scaled-test-community";
    private static final String V3_USER = "lsScaleUser";
    private static final String V3_AUTH = "auth-passphrase-3";
    private static final String V3_PRIV = "priv-passphrase-4";
    private static final long MINUTE_NANOS = 60_000_000_000L;
    private static final String HR_PROCESSOR_LOAD_0 = ".1.3.6.1.2.1.25.3.3.1.2.196608";
    private static final String SYS_NAME = ".1.3.6.1.2.1.1.5.0";
    private static final String IF_HIGH_SPEED_7 = ".1.3.6.1.2.1.31.1.1.1.15.7";

    @TempDir
    static Path netSnmpHome;
    private static final AtomicLong NOW_NANOS = new AtomicLong();
    private static SnmpEmulator emulator;
    private static NetSnmpClient netSnmp;

    @BeforeAll
    static void launch2000Agents() throws Exception {
        assertTrue(Files.isExecutable(Path.of(NetSnmpClient.SNMPGET)), "net-snmp's clients are needed: apt-get install snmp");
        netSnmp = new NetSnmpClient(netSnmpHome);
        // Port 16100 on 127.51.x.y and 127.52.x.y: addresses no other test of this module uses.
        Scenario scenario = ScenarioLoader.parse("""
            step_seconds: 60
            loop: false
            node_groups:
              - count: 1500
                name: ws{n}
                first_address: 127.51.0.1
                port: 16100
            link_groups:
              - count: 500
                name: sw{n}
                first_address: 127.52.0.1
                port: 16100
                if_index: 7
                speed_mbps: 1000
            steps:
              - { cpu: { "ws*": 20 }, port: { "sw*": 40 } }
              - { cpu: { ws1..ws450: 85 } }
            """, "scaled.yaml");
        emulator = SnmpEmulator.launch(new EmulatorContext().scenario(scenario).nanoTime(NOW_NANOS::get)
                .access(new AccessConfig(Optional.of(COMMUNITY), Optional.of(new AccessConfig.V3User(V3_USER, V3_AUTH, V3_PRIV)))));
    }

    @AfterAll
    static void stop() {
        if (emulator != null) {
            emulator.close();
        }
    }

    private static List<String> v2c(String address, String... oids) {
        List<String> cmd = new ArrayList<>(List.of(NetSnmpClient.SNMPGET, "-v2c", "-c", COMMUNITY, "-On", "-t", "2", "-r", "1",
                address + ":16100"));
        cmd.addAll(List.of(oids));
        return cmd;
    }

    private static Map<String, String> get(List<String> command) throws Exception {
        return NetSnmpClient.values(netSnmp.run(command));
    }

    @Test
    void everyAgentHasItsOwnAddressAndTheirSocketsShareOneThread() {
        Map<String, java.net.InetSocketAddress> addresses = emulator.agentAddresses();
        assertEquals(2000, addresses.size());
        assertEquals("127.51.5.220", addresses.get("ws1500").getAddress().getHostAddress()); // 127.51.0.1 + 1499
        assertEquals("127.52.1.244", addresses.get("sw500").getAddress().getHostAddress());
        long loops = Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().startsWith("snmp-agents-")).count();
        long ownListeners = Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().startsWith("DefaultUDPTransportMapping")).count();
        assertEquals(1, loops);
        assertEquals(0, ownListeners);
    }

    @Test
    void snmpgetReadsAFewWorkstationsAndSwitchPortsByTheirAddress() throws Exception {
        for (String[] agent : new String[][] {{"127.51.0.1", "ws1"}, {"127.51.3.232", "ws1000"}, {"127.51.5.220", "ws1500"}}) {
            Map<String, String> v = get(v2c(agent[0], SYS_NAME, HR_PROCESSOR_LOAD_0));
            assertEquals("STRING: \"" + agent[1] + "\"", v.get(SYS_NAME), v::toString);
        }
        Map<String, String> port = get(v2c("127.52.0.250", SYS_NAME, IF_HIGH_SPEED_7));
        assertEquals("STRING: \"sw250\"", port.get(SYS_NAME));
        assertEquals("Gauge32: 1000", port.get(IF_HIGH_SPEED_7));
    }

    @Test
    void snmpgetV3AuthPrivReadsAGeneratedAgentWithItsOwnEngineId() throws Exception {
        Map<String, String> v = get(List.of(NetSnmpClient.SNMPGET, "-v3", "-l", "authPriv", "-u", V3_USER, "-a", "SHA", "-A",
                V3_AUTH, "-x", "AES", "-X", V3_PRIV, "-On", "-t", "2", "-r", "1", "127.51.4.1:16100", SYS_NAME));
        assertEquals("STRING: \"ws1025\"", v.get(SYS_NAME));
        // The engine ID each agent reports in USM discovery (RFC 3414 4) is its own.
        MessageDispatcherImpl dispatcher = new MessageDispatcherImpl();
        dispatcher.addMessageProcessingModel(new MPv3(new USM(SecurityProtocols.getInstance(),
                new OctetString(MPv3.createLocalEngineID()), 0)));
        try (Snmp discoverer = new Snmp(dispatcher, new DefaultUdpTransportMapping())) {
            discoverer.listen();
            for (String[] agent : new String[][] {{"127.51.4.1", "ws1025"}, {"127.51.4.2", "ws1026"}, {"127.52.0.1", "sw1"}}) {
                byte[] engineId = discoverer.discoverAuthoritativeEngineID(new UdpAddress(agent[0] + "/16100"), 2000);
                assertArrayEquals(AgentEngines.engineId(agent[1]), engineId, agent[1]);
            }
        }
    }

    @Test
    void theMassChangeOfStepTwoMovesThirtyPercentOfTheWorkstationsAndNoOther() throws Exception {
        NOW_NANOS.set(0);
        assertEquals("INTEGER: 20", get(v2c("127.51.0.1", HR_PROCESSOR_LOAD_0)).get(HR_PROCESSOR_LOAD_0));
        NOW_NANOS.set(MINUTE_NANOS + MINUTE_NANOS / 2);
        try {
            assertEquals("INTEGER: 85", get(v2c("127.51.0.1", HR_PROCESSOR_LOAD_0)).get(HR_PROCESSOR_LOAD_0), "ws1");
            assertEquals("INTEGER: 85", get(v2c("127.51.1.194", HR_PROCESSOR_LOAD_0)).get(HR_PROCESSOR_LOAD_0), "ws450");
            assertEquals("INTEGER: 20", get(v2c("127.51.1.195", HR_PROCESSOR_LOAD_0)).get(HR_PROCESSOR_LOAD_0), "ws451");
        } finally {
            NOW_NANOS.set(0);
        }
    }

    @Test
    void aWrongCommunityGetsNoAnswerFromAGeneratedAgent() throws Exception {
        NetSnmpClient.Result r = netSnmp.run(List.of(NetSnmpClient.SNMPGET, "-v2c", "-c", "public", "-On", "-t", "1", "-r", "0",
                "127.51.2.2:16100", SYS_NAME));
        assertTrue(r.exitCode() != 0 && r.output().contains("Timeout"), r.output());
    }
}
