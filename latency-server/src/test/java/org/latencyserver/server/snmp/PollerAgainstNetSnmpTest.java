package org.latencyserver.server.snmp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;
import org.latencyserver.core.state.CpuState;
import org.latencyserver.core.state.WorkstationType;
import org.latencyserver.server.config.LinkConfig;
import org.latencyserver.server.config.MibSource;
import org.latencyserver.server.config.NodeConfig;
import org.latencyserver.server.config.SnmpAccess;
import org.latencyserver.server.table.ConnectionRow;

/**
 * The poller against net-snmp's real {@code snmpd} (Debian package {@code snmpd}), started by the
 * test on a free loopback port, feeding a real update engine: CPU load from {@code stress-ng}
 * moves the workstation's CPU state to HIGH and the QoS 1 estimate changes; stopping the agent
 * makes the workstation UNKNOWN and the estimate stale; restarting the agent recovers.
 *
 * <p>The agent is polled in v2c (client) and v3 authPriv SHA/AES (peer; the same host), with
 * random secrets handed to the poller as environment variables of the test's own lookup.
 */
@Isolated // runs alone (junit-platform.properties): drives CPU load with stress-ng and reads it back through snmpd
class PollerAgainstNetSnmpTest {

    private static final Path STRESS_NG = Path.of("/usr/bin/stress-ng");

    @TempDir
    Path directory;

    private NetSnmpd snmpd;
    private Process stress;
    private PolledConnection polled;

    @AfterEach
    void stopAll() throws Exception {
        if (polled != null) {
            polled.close();
        }
        if (stress != null) {
            stress.destroy();
            stress.waitFor(5, TimeUnit.SECONDS);
        }
        if (snmpd != null) {
            snmpd.close();
        }
    }

    @Test
    void cpuLoadMovesTheStateToHighAndAStoppedAgentIsUnknownUntilItIsBack() throws Exception {
        assertTrue(Files.isExecutable(STRESS_NG), "stress-ng is needed: apt-get install stress-ng");
        final int port = NetSnmpd.freeUdpPort();
        final String community = NetSnmpd.secret();
        final String authPassword = NetSnmpd.secret();
        final String privPassword = NetSnmpd.secret();
        final Path config = directory.resolve("snmpd.conf");
        Files.writeString(config, String.join("\n",
            "agentAddress udp:127.0.0.1:" + port,
            "rocommunity " + community + " 127.0.0.1",
            "createUser latency SHA \"" + authPassword + "\" AES \"" + privPassword + "\"",
            "rouser latency priv",
            ""));
        snmpd = NetSnmpd.readingOnly(directory, config);
        snmpd.start();
        final Map<String, String> environment = Map.of("SNMP_COMMUNITY", community, "SNMP_AUTH", authPassword,
            "SNMP_PRIV", privPassword);

        final String address = "udp:127.0.0.1/" + port;
        final SnmpAccess v2c = new SnmpAccess(address, SnmpAccess.Version.V2C, "SNMP_COMMUNITY", null, null, null, null, null,
            SnmpAccess.CpuSource.UCD_RAW, 300, 0);
        final SnmpAccess v3 = new SnmpAccess(address, SnmpAccess.Version.V3, null, "latency", SnmpAccess.AuthProtocol.SHA,
            "SNMP_AUTH", SnmpAccess.PrivProtocol.AES, "SNMP_PRIV", SnmpAccess.CpuSource.UCD_RAW, 300, 0);
        final SnmpAccess linkAccess = new SnmpAccess(address, SnmpAccess.Version.V2C, "SNMP_COMMUNITY", null, null, null, null,
            null, null, 300, 0);
        final NodeConfig client = new NodeConfig("ws1", (short) 1, WorkstationType.TAC_4, MibSource.SNMP, v2c);
        final NodeConfig peer = new NodeConfig("ws2", (short) 2, WorkstationType.TAC_4, MibSource.SNMP, v3);
        // ifIndex 1 is the loopback interface; its ifHighSpeed is 10 Mbit/s.
        final LinkConfig link = new LinkConfig("lo", MibSource.SNMP, linkAccess, 1, 0);
        final List<Long> answerToUpdateNanos = new CopyOnWriteArrayList<>();
        polled = PolledConnection.start(client, peer, link, environment, answerToUpdateNanos::add, snmpd::logExcerpt);

        // net-snmp reads 0 for its first seconds and refreshes the CPU counters every ~5 s.
        final ConnectionRow known = polled.awaitRow("both CPUs (v2c and v3) and the port known",
            r -> r.latest().clientCpuPercent() >= 0 && r.latest().peerCpuPercent() >= 0 && r.latest().portPercent() >= 0, 40);
        assertTrue(known.latest().clientCpuPercent() <= 100 && known.latest().portPercent() <= 100, known.latest().toString());
        assertNotNull(known.estimate(), "a QoS 1 estimate from the profile");
        assertFalse(answerToUpdateNanos.isEmpty(), "each applied change told how long it took from its answer");
        assertTrue(answerToUpdateNanos.stream().allMatch(nanos -> nanos >= 0), "from an answer to its update: " + answerToUpdateNanos);

        stress = new ProcessBuilder(STRESS_NG.toString(), "--cpu", "2", "--cpu-load", "90", "--timeout", "40s")
            .redirectErrorStream(true).redirectOutput(directory.resolve("stress.log").toFile()).start();
        final ConnectionRow loaded = polled.awaitRow("client CPU HIGH under stress-ng",
            r -> r.load().cpu().client() == CpuState.HIGH, 25);
        if (known.load().cpu().client() != CpuState.HIGH || known.load().cpu().peer() != CpuState.HIGH) {
            assertNotEquals(known.estimate().valueMillis(), loaded.estimate().valueMillis(),
                "the QoS 1 estimate follows the state " + known.load() + " -> " + loaded.load());
        }
        stress.destroy();
        stress.waitFor(5, TimeUnit.SECONDS);

        assertTrue(snmpd.stop(), "snmpd stopped");
        // Each source counts its own misses, so they turn UNKNOWN within a poll or two of each other.
        final ConnectionRow down = polled.awaitRow("client, peer and port UNKNOWN and the estimate stale after the agent stopped",
            r -> r.load().cpu().client() == CpuState.UNKNOWN && r.load().cpu().peer() == CpuState.UNKNOWN
                && r.latest().portPercent() == -1, 10);
        assertEquals("CPU utilisation of both workstations unknown; switch port utilisation unknown", down.staleInputs().reason());

        snmpd.start();
        polled.awaitRow("client known again after the agent restarted", r -> r.load().cpu().client().isKnown()
            && r.load().cpu().peer().isKnown() && !r.staleInputs().isStale(), 40);
    }
}
