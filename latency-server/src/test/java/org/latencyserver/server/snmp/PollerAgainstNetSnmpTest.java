package org.latencyserver.server.snmp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencyserver.core.profile.Profile;
import org.latencyserver.core.profile.ProfileJson;
import org.latencyserver.core.state.CpuState;
import org.latencyserver.core.state.WorkstationType;
import org.latencyserver.server.config.ConnectionSpecs;
import org.latencyserver.server.table.ConnectionSpec;
import org.latencyserver.server.config.LinkConfig;
import org.latencyserver.server.config.MibSource;
import org.latencyserver.server.config.NodeConfig;
import org.latencyserver.server.config.SnmpAccess;
import org.latencyserver.server.engine.EngineLoop;
import org.latencyserver.server.engine.EngineSettings;
import org.latencyserver.server.engine.UpdateEngine;
import org.latencyserver.server.table.ConnectionRow;
import org.latencyserver.server.table.ConnectionTable;

/**
 * The poller against net-snmp's real {@code snmpd} (Debian package {@code snmpd}), started by the
 * test on a free loopback port, feeding a real update engine: CPU load from {@code stress-ng}
 * moves the workstation's CPU state to HIGH and the QoS 1 estimate changes; stopping the agent
 * makes the workstation UNKNOWN and the estimate stale; restarting the agent recovers.
 *
 * <p>The agent is polled in v2c (client) and v3 authPriv SHA/AES (peer; the same host), with
 * random secrets handed to the poller as environment variables of the test's own lookup.
 */
class PollerAgainstNetSnmpTest {

    private static final Path SNMPD = Path.of("/usr/sbin/snmpd");
    private static final Path STRESS_NG = Path.of("/usr/bin/stress-ng");
    private static final short INDEX_REF = 1;

    @TempDir
    Path directory;

    private Process snmpd;
    private Process stress;
    private SnmpPoller poller;
    private EngineLoop loop;

    @AfterEach
    void stopAll() throws Exception {
        if (poller != null) {
            poller.close();
        }
        if (loop != null) {
            loop.close();
        }
        for (final Process process : new Process[] {stress, snmpd}) {
            if (process != null) {
                process.destroy();
                process.waitFor(5, TimeUnit.SECONDS);
            }
        }
    }

    private static String secret() {
        final byte[] bytes = new byte[12];
        new SecureRandom().nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }

    private static int freeUdpPort() throws IOException {
        try (DatagramSocket socket = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    private Process startSnmpd(final Path config) throws IOException {
        final ProcessBuilder builder = new ProcessBuilder(SNMPD.toString(), "-f", "-Lo", "-C", "-c", config.toString())
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(directory.resolve("snmpd.log").toFile()));
        builder.environment().put("SNMP_PERSISTENT_DIR", directory.resolve("persist").toString());
        // No MIB files are installed; do not let it try to load them.
        builder.environment().put("MIBS", "");
        return builder.start();
    }

    private ConnectionRow awaitRow(final String what, final Predicate<ConnectionRow> condition, final long timeoutSeconds)
        throws Exception {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
        ConnectionRow row = null;
        while (System.nanoTime() < deadline) {
            row = loop.query().row(INDEX_REF);
            if (condition.test(row)) {
                return row;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("not seen within " + timeoutSeconds + " s: " + what + "; last row: mib " + row.latest()
            + ", load " + row.load() + ", stale " + row.staleInputs() + "; snmpd log: "
            + Files.readString(directory.resolve("snmpd.log")).lines().filter(l -> !l.contains("MIB") && !l.contains("OID"))
                .limit(20).toList());
    }

    @Test
    void cpuLoadMovesTheStateToHighAndAStoppedAgentIsUnknownUntilItIsBack() throws Exception {
        assertTrue(Files.isExecutable(SNMPD), "net-snmp's agent is needed: apt-get install snmpd");
        assertTrue(Files.isExecutable(STRESS_NG), "stress-ng is needed: apt-get install stress-ng");
        final int port = freeUdpPort();
        final String community = secret();
        final String authPassword = secret();
        final String privPassword = secret();
        final Path config = directory.resolve("snmpd.conf");
        Files.writeString(config, String.join("\n",
            "agentAddress udp:127.0.0.1:" + port,
            "rocommunity " + community + " 127.0.0.1",
            "createUser latency SHA \"" + authPassword + "\" AES \"" + privPassword + "\"",
            "rouser latency priv",
            ""));
        snmpd = startSnmpd(config);
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
        final ConnectionSpec connection = ConnectionSpecs.of(INDEX_REF, client, peer, link, 256, 1, 0, "thesis-tac4-corba");

        final Profile profile = ProfileJson.read(Path.of("../profiles/thesis-tac4-corba.json"));
        final UpdateEngine engine = new UpdateEngine(new ConnectionTable(List.of(ConnectionRow.initial(connection, 0))),
            Map.of(profile.name(), profile), EngineSettings.DEFAULT, new SecureRandom()::nextLong, System::currentTimeMillis);
        loop = new EngineLoop(engine, System::nanoTime, 50_000_000L);
        loop.start();
        final List<Long> answerToUpdateNanos = new java.util.concurrent.CopyOnWriteArrayList<>();
        poller = new SnmpPoller(List.of(client, peer), List.of(link), List.of(connection), 100, 5, environment::get,
            new EngineFeed(loop, answerToUpdateNanos::add, System::nanoTime), System::nanoTime);
        poller.start();

        // net-snmp reads 0 for its first seconds and refreshes the CPU counters every ~5 s.
        final ConnectionRow known = awaitRow("both CPUs (v2c and v3) and the port known",
            r -> r.latest().clientCpuPercent() >= 0 && r.latest().peerCpuPercent() >= 0 && r.latest().portPercent() >= 0, 40);
        assertTrue(known.latest().clientCpuPercent() <= 100 && known.latest().portPercent() <= 100, known.latest().toString());
        assertNotNull(known.estimate(), "a QoS 1 estimate from the profile");
        assertFalse(answerToUpdateNanos.isEmpty(), "each applied change told how long it took from its answer");
        assertTrue(answerToUpdateNanos.stream().allMatch(nanos -> nanos >= 0), "from an answer to its update: " + answerToUpdateNanos);

        stress = new ProcessBuilder(STRESS_NG.toString(), "--cpu", "2", "--cpu-load", "90", "--timeout", "40s")
            .redirectErrorStream(true).redirectOutput(directory.resolve("stress.log").toFile()).start();
        final ConnectionRow loaded = awaitRow("client CPU HIGH under stress-ng", r -> r.load().cpu().client() == CpuState.HIGH, 25);
        if (known.load().cpu().client() != CpuState.HIGH || known.load().cpu().peer() != CpuState.HIGH) {
            assertNotEquals(known.estimate().valueMillis(), loaded.estimate().valueMillis(),
                "the QoS 1 estimate follows the state " + known.load() + " -> " + loaded.load());
        }
        stress.destroy();
        stress.waitFor(5, TimeUnit.SECONDS);

        snmpd.destroy();
        assertTrue(snmpd.waitFor(5, TimeUnit.SECONDS), "snmpd stopped");
        // Each source counts its own misses, so they turn UNKNOWN within a poll or two of each other.
        final ConnectionRow down = awaitRow("client, peer and port UNKNOWN and the estimate stale after the agent stopped",
            r -> r.load().cpu().client() == CpuState.UNKNOWN && r.load().cpu().peer() == CpuState.UNKNOWN
                && r.latest().portPercent() == -1, 10);
        assertEquals("CPU utilisation of both workstations unknown; switch port utilisation unknown", down.staleInputs().reason());

        snmpd = startSnmpd(config);
        awaitRow("client known again after the agent restarted", r -> r.load().cpu().client().isKnown()
            && r.load().cpu().peer().isKnown() && !r.staleInputs().isStale(), 40);
    }
}
