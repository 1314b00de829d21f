package org.latencyserver.agent.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencyserver.idl.Latserv;
import org.latencyserver.idl.LatservHelper;
import org.latencyserver.idl.LatservPackage.IdlMibUpdates;
import org.latencyserver.idl.LatservPackage.TableRow;
import org.latencyserver.idl.latency.Estimate;
import org.latencyserver.idl.latency.LatencyService;
import org.latencyserver.idl.latency.LatencyServiceHelper;
import org.omg.CORBA.ORB;

/**
 * Thesis verification test 4 (§4.3): "for QoS 3 the Latency Server provided latency estimates that
 * were consistent with the QoS 1 estimates … for all the CPU states", with the port below 90 %.
 *
 * <p>Here QoS 1 comes from the profile measured on this kind of machine, and QoS 3 from a live
 * measurement under the same load: for each of the six CPU state pairs the test drives the client
 * side's core (where the client agent is pinned) and the peer side's core (the peer agent's) to the
 * pair's utilisation with pinned load drivers, as the profiler did, pushes the matching MIB values,
 * and compares the two estimates the server then serves. "Consistent", as in the thesis, is a
 * tolerance, not a CI test: the measured mean lies within a factor of two of the profile's mean for
 * the same state (a shared 2-core machine drifts by more than a CI between runs; see
 * {@code MeasuredConnectionsFollowStateChangesTest}).
 */
class ThesisVerificationFourTest {

    /** The shipped profile measured on this kind of machine, and its workstation type. */
    static final String PROFILE = "measured-loopback-jacorb";
    static final String WORKSTATION_TYPE = "LOCAL-2CORE";

    /** Utilisation driven per state: LOW, MEDIUM, HIGH (as the profiler targets them). */
    private static final int[] LOAD_PERCENT = {15, 50, 85};
    private static final String[] STATE = {"LOW", "MEDIUM", "HIGH"};

    @TempDir
    Path directory;

    @Test
    void qos3MeasuredUnderEachCpuStatePairIsConsistentWithQos1FromTheMeasuredProfile() throws Exception {
        assertTrue(Files.isExecutable(Path.of("/usr/bin/stress-ng")) && Files.isExecutable(Path.of("/usr/bin/taskset")),
            "stress-ng and taskset drive and pin the load (.ci/run installs stress-ng)");
        final Path profile = Path.of("../profiles/" + PROFILE + ".json").toAbsolutePath().normalize();
        final Path config = directory.resolve("verification4.yaml");
        Files.writeString(config, String.join("\n",
            "server:",
            "  name: Verification4",
            "  state_file: " + directory.resolve("state.json"),
            "  metrics: { address: 127.0.0.1, port: 0 }",
            "thresholds:",
            "  cpu_hysteresis_band_percent: 0",
            "measurement:",
            "  round_trips: 1000",
            "  warmup_round_trips: 200",
            "  timeout_millis: 30000",
            "  min_interval_millis: 0",
            "profiles:",
            "  - " + profile,
            "nodes:",
            "  - { name: lab1, node_id: 5, workstation_type: " + WORKSTATION_TYPE + ", mib_source: push }",
            "  - { name: lab2, node_id: 6, workstation_type: " + WORKSTATION_TYPE + ", mib_source: push }",
            "links:",
            "  - { name: lab-port, mib_source: push }",
            "connections:",
            "  - { index_ref: 1, client: lab1, peer: lab2, link: lab-port, message_size_bytes: 256, qos: 1, profile: " + PROFILE + " }",
            "  - { index_ref: 3, client: lab1, peer: lab2, link: lab-port, message_size_bytes: 256, qos: 3 }",
            ""));
        final Path serverIor = directory.resolve("server.ior");
        final Path peerIor = directory.resolve("peer.ior");
        final List<String> results = new ArrayList<>();
        final Properties properties = new Properties();
        properties.setProperty("org.omg.CORBA.ORBClass", "org.jacorb.orb.ORB");
        properties.setProperty("org.omg.CORBA.ORBSingletonClass", "org.jacorb.orb.ORBSingleton");
        final ORB orb = ORB.init(new String[0], properties);
        try (JavaProcess server = JavaProcess.start("server", directory, "org.latencyserver.server.launch.ServerMain",
                 "--config", config.toString(), "--ior-file", serverIor.toString(), "--metrics-port", "-1")) {
            server.awaitLog("serving 2 connections", Duration.ofSeconds(60));
            try (PinnedProcess peer = PinnedProcess.java(1, "peer", directory, "org.latencyserver.peer.PeerAgentMain",
                     "--name", "lab2", "--ior-file", peerIor.toString());
                 PinnedProcess agent = PinnedProcess.java(0, "agent", directory, "org.latencyserver.agent.client.ClientAgentMain",
                     "--server", serverIor.toString(), "--peer", "lab2=" + peerIor, "--poll-millis", "1000")) {
                peer.awaitLog("peer-agent lab2 ready", Duration.ofSeconds(30));
                agent.awaitLog("subscribed to measurement requests", Duration.ofSeconds(30));
                final String ior = Files.readString(serverIor).trim();
                final Latserv latserv = LatservHelper.narrow(orb.string_to_object(ior));
                final LatencyService service = LatencyServiceHelper.narrow(orb.string_to_object(ior));
                for (int client = 0; client < 3; client++) {
                    for (int peerState = client; peerState < 3; peerState++) {
                        results.add(verify(latserv, service, client, peerState, directory));
                    }
                }
            }
        } finally {
            orb.shutdown(false);
            System.out.println(String.join("\n", results));
        }
        assertEquals(6, results.size());
    }

    private static String verify(final Latserv latserv, final LatencyService service, final int client, final int peer,
                                 final Path directory) throws Exception {
        try (PinnedProcess clientLoad = PinnedProcess.stress(0, LOAD_PERCENT[client], "load-client", directory);
             PinnedProcess peerLoad = PinnedProcess.stress(1, LOAD_PERCENT[peer], "load-peer", directory)) {
            Thread.sleep(1_000); // let the drivers reach their duty cycle before measuring under them
            for (final short indexRef : new short[] {1, 3}) {
                latserv.PutMibUpdates(new IdlMibUpdates(indexRef, (short) LOAD_PERCENT[client], (short) LOAD_PERCENT[peer],
                    (short) 20), indexRef);
            }
            final String pair = STATE[client] + "/" + STATE[peer];
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            Thread.sleep(200);
            TableRow row = latserv.RequestTableStatus((short) 3);
            while ((row.update_required_flag != 0 || row.cpu_state != (client + 1) * 10 + peer + 1) && System.nanoTime() < deadline) {
                Thread.sleep(100);
                row = latserv.RequestTableStatus((short) 3);
            }
            assertEquals(0, row.update_required_flag, pair + ": the QoS 3 connection was measured");
            final Estimate qos1 = service.current_estimate((short) 1);
            final Estimate qos3 = service.current_estimate((short) 3);
            final String line = String.format(Locale.ROOT, "%-12s QoS 1 (profile) %.4f ms [%.4f, %.4f]   QoS 3 (measured) %.4f ms [%.4f, %.4f]",
                pair, qos1.value_ms, qos1.interval.lower, qos1.interval.upper, qos3.value_ms, qos3.interval.lower, qos3.interval.upper);
            assertTrue(qos3.value_ms >= qos1.value_ms / 2 && qos3.value_ms <= qos1.value_ms * 2, line);
            return line;
        }
    }
}
