package org.latencyserver.emulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencyserver.emulator.NetSnmpClient.Result;

/**
 * Runs net-snmp's real command-line clients ({@code snmpget}, {@code snmpwalk}, Debian package
 * "snmp") against the emulator's agents on free loopback ports, with SNMPv2c and SNMPv3 authPriv.
 */
class NetSnmpInteropTest {
    private static final String COMMUNITY = "emulator-test-community";
    private static final String V3_USER = "lsTestUser";
    private static final String V3_AUTH = "auth-passphrase-1";
    private static final String V3_PRIV = "priv-passphrase-2";
    private static final String SNMPGET = NetSnmpClient.SNMPGET;
    private static final String SNMPWALK = NetSnmpClient.SNMPWALK;
    private static final int WS1_CPU_PERCENT = 40;
    private static final int WS2_CPU_PERCENT = 75;
    private static final int PORT_PERCENT = 95;

    @TempDir
    static Path netSnmpHome;
    private static Emulator emulator;

    @BeforeAll
    static void startTheEmulator() throws Exception {
        assertTrue(Files.isExecutable(Path.of(SNMPGET)) && Files.isExecutable(Path.of(SNMPWALK)),
                "net-snmp's clients are needed: apt-get install snmp");
        Scenario scenario = ScenarioLoader.parse("step_seconds: 3600\n"
                + "nodes: [ { name: ws1, port: 0, cores: 2 }, { name: ws2, port: 0, cores: 4 } ]\n"
                + "links: [ { name: atm, port: 0, if_index: 3, speed_mbps: 155 } ]\n"
                + "steps: [ { cpu: { ws1: " + WS1_CPU_PERCENT + ", ws2: " + WS2_CPU_PERCENT + " }, port: { atm: "
                + PORT_PERCENT + " } } ]\n", "interop.yaml");
        AccessConfig access = new AccessConfig(Optional.of(COMMUNITY),
                Optional.of(new AccessConfig.V3User(V3_USER, V3_AUTH, V3_PRIV)));
        long startNanos = System.nanoTime();
        emulator = new Emulator(scenario, access, InetAddress.getLoopbackAddress(),
                () -> (System.nanoTime() - startNanos) / 1_000);
        emulator.start();
    }

    @AfterAll
    static void stopTheEmulator() {
        if (emulator != null) {
            emulator.close();
        }
    }

    private static Result run(List<String> command) throws IOException, InterruptedException {
        return new NetSnmpClient(netSnmpHome).run(command);
    }

    private static List<String> v2c(String tool, String node, String... oids) {
        List<String> cmd = new ArrayList<>(List.of(tool, "-v2c", "-c", COMMUNITY, "-On", "-t", "2", "-r", "1",
                "127.0.0.1:" + emulator.udpPortOf(node)));
        cmd.addAll(List.of(oids));
        return cmd;
    }

    private static List<String> v3(String tool, String level, String node, String... oids) {
        List<String> cmd = new ArrayList<>(List.of(tool, "-v3", "-l", level, "-u", V3_USER, "-a", "SHA", "-A", V3_AUTH,
                "-x", "AES", "-X", V3_PRIV, "-On", "-t", "2", "-r", "1", "127.0.0.1:" + emulator.udpPortOf(node)));
        cmd.addAll(List.of(oids));
        return cmd;
    }

    private static Map<String, String> values(Result r) {
        return NetSnmpClient.values(r);
    }

    private static long number(String typedValue) {
        String v = typedValue.substring(typedValue.indexOf(':') + 1).trim();
        if (v.startsWith("(")) {
            v = v.substring(1, v.indexOf(')')); // Timeticks: (263) 0:00:02.63
        }
        return Long.parseLong(v.split(" ")[0]);
    }

    private static final String[] CPU_OIDS = {".1.3.6.1.4.1.2021.11.50.0", ".1.3.6.1.4.1.2021.11.51.0",
        ".1.3.6.1.4.1.2021.11.52.0", ".1.3.6.1.4.1.2021.11.53.0"};

    private static double cpuPercentFromTwoReadings(List<String> firstCommand) throws Exception {
        Map<String, String> a = values(run(firstCommand));
        Thread.sleep(1500);
        Map<String, String> b = values(run(firstCommand));
        long busy = 0;
        long total = 0;
        for (String oid : CPU_OIDS) {
            assertTrue(a.get(oid).startsWith("Counter32:"), oid + " = " + a.get(oid));
            long delta = number(b.get(oid)) - number(a.get(oid));
            total += delta;
            if (!oid.endsWith(".53.0")) {
                busy += delta;
            }
        }
        assertTrue(total >= 200, "1.5 s at 100 Hz × 2+ cores should give ≥ 200 ticks, got " + total);
        return 100.0 * busy / total;
    }

    @Test
    void snmpgetV2cReadsTheNodeOidsWithNetSnmpTypes() throws Exception {
        Map<String, String> v = values(run(v2c(SNMPGET, "ws2", ".1.3.6.1.2.1.1.3.0", CPU_OIDS[0], CPU_OIDS[3],
                ".1.3.6.1.2.1.25.3.3.1.2.196608", ".1.3.6.1.2.1.25.3.3.1.2.196611")));
        assertTrue(v.get(".1.3.6.1.2.1.1.3.0").startsWith("Timeticks:"), v.toString());
        assertTrue(v.get(CPU_OIDS[0]).startsWith("Counter32:"), v.toString());
        assertEquals("INTEGER: " + WS2_CPU_PERCENT, v.get(".1.3.6.1.2.1.25.3.3.1.2.196608"));
        assertEquals("INTEGER: " + WS2_CPU_PERCENT, v.get(".1.3.6.1.2.1.25.3.3.1.2.196611"));
    }

    @Test
    void cpuUtilisationFromTwoV2cSnmpgetReadingsMatchesTheScenarioWithinOnePoint() throws Exception {
        assertEquals(WS1_CPU_PERCENT, cpuPercentFromTwoReadings(v2c(SNMPGET, "ws1", CPU_OIDS)), 1.0);
    }

    @Test
    void cpuUtilisationFromTwoV3AuthPrivSnmpgetReadingsMatchesTheScenarioWithinOnePoint() throws Exception {
        assertEquals(WS2_CPU_PERCENT, cpuPercentFromTwoReadings(v3(SNMPGET, "authPriv", "ws2", CPU_OIDS)), 1.0);
    }

    @Test
    void portUtilisationFromTwoSnmpgetReadingsOfTheHcOctetsMatchesTheScenarioWithinOnePoint() throws Exception {
        String in = ".1.3.6.1.2.1.31.1.1.1.6.3";
        String speed = ".1.3.6.1.2.1.31.1.1.1.15.3";
        String upTime = ".1.3.6.1.2.1.1.3.0";
        Map<String, String> a = values(run(v2c(SNMPGET, "atm", upTime, in, speed)));
        Thread.sleep(2000);
        Map<String, String> b = values(run(v2c(SNMPGET, "atm", upTime, in, speed)));
        assertEquals("Gauge32: 155", a.get(speed));
        assertTrue(a.get(in).startsWith("Counter64:"), a.toString());
        double seconds = (number(b.get(upTime)) - number(a.get(upTime))) / 100.0;
        double percent = 100.0 * (number(b.get(in)) - number(a.get(in))) * 8 / (155e6 * seconds);
        // sysUpTime has 10 ms resolution: over 2 s that is at most 0.5 % of the value, under half a point at 95 %.
        assertEquals(PORT_PERCENT, percent, 1.0);
    }

    @Test
    void snmpwalkV2cListsEveryNodeOidInOrder() throws Exception {
        Map<String, String> v = values(run(v2c(SNMPWALK, "ws1", ".1")));
        List<String> expected = List.of(".1.3.6.1.2.1.1.1.0", ".1.3.6.1.2.1.1.3.0", ".1.3.6.1.2.1.1.5.0",
                ".1.3.6.1.2.1.25.3.3.1.2.196608", ".1.3.6.1.2.1.25.3.3.1.2.196609", CPU_OIDS[0], CPU_OIDS[1],
                CPU_OIDS[2], CPU_OIDS[3], ".1.3.6.1.4.1.2021.11.54.0");
        assertEquals(expected, new ArrayList<>(v.keySet()));
    }

    @Test
    void snmpwalkV3AuthPrivListsTheLinkCounters() throws Exception {
        Map<String, String> v = values(run(v3(SNMPWALK, "authPriv", "atm", ".1.3.6.1.2.1.31.1.1.1")));
        assertEquals(List.of(".1.3.6.1.2.1.31.1.1.1.6.3", ".1.3.6.1.2.1.31.1.1.1.10.3", ".1.3.6.1.2.1.31.1.1.1.15.3"),
                new ArrayList<>(v.keySet()));
        assertTrue(v.get(".1.3.6.1.2.1.31.1.1.1.10.3").startsWith("Counter64:"), v.toString());
    }

    @Test
    void aWrongCommunityGetsNoAnswer() throws Exception {
        List<String> cmd = new ArrayList<>(List.of(SNMPGET, "-v2c", "-c", "public", "-On", "-t", "1", "-r", "0",
                "127.0.0.1:" + emulator.udpPortOf("ws1"), ".1.3.6.1.2.1.1.3.0"));
        Result r = run(cmd);
        assertNotEquals(0, r.exitCode(), r.output());
        assertTrue(r.output().contains("Timeout"), r.output());
    }

    @Test
    void v3BelowAuthPrivGetsNoAnswer() throws Exception {
        List<String> cmd = new ArrayList<>(List.of(SNMPGET, "-v3", "-l", "authNoPriv", "-u", V3_USER, "-a", "SHA",
                "-A", V3_AUTH, "-On", "-t", "1", "-r", "0", "127.0.0.1:" + emulator.udpPortOf("ws1"), ".1.3.6.1.2.1.1.3.0"));
        Result r = run(cmd);
        assertNotEquals(0, r.exitCode(), r.output());
    }

    @Test
    void unknownInstancesAnswerNoSuchInstanceOrObject() throws Exception {
        Map<String, String> v = values(run(v2c(SNMPGET, "ws1", ".1.3.6.1.2.1.25.3.3.1.2.1", ".1.3.6.1.2.1.2.2.1.10.3")));
        assertTrue(v.get(".1.3.6.1.2.1.25.3.3.1.2.1").contains("No Such Instance"), v.toString());
        assertTrue(v.get(".1.3.6.1.2.1.2.2.1.10.3").contains("No Such Object"), v.toString());
    }
}
