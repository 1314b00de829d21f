package org.latencyserver.agent.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Properties;
import org.latencyserver.idl.Latserv;
import org.latencyserver.idl.LatservHelper;
import org.latencyserver.idl.LatservPackage.IdlMibUpdates;
import org.latencyserver.idl.latency.LatencyService;
import org.latencyserver.idl.latency.LatencyServiceHelper;
import org.omg.CORBA.ORB;

/**
 * A server with measured connections, and an ORB to call it: connection 4 (QoS 3) and 6 (QoS 4 at
 * 96 %) from ws1 to ws2, 256 B, MIB values pushed by the test as the thesis's emulator pushed them.
 */
final class Testbed implements AutoCloseable {

    final Path directory;
    final JavaProcess server;
    final ORB orb;
    final Latserv latserv;
    final LatencyService service;
    final Path serverIor;

    private Testbed(final Path directory, final JavaProcess server, final Path serverIor, final ORB orb) throws IOException {
        this.directory = directory;
        this.server = server;
        this.serverIor = serverIor;
        this.orb = orb;
        final String ior = Files.readString(serverIor).trim();
        this.latserv = LatservHelper.narrow(orb.string_to_object(ior));
        this.service = LatencyServiceHelper.narrow(orb.string_to_object(ior));
    }

    /**
     * @param roundTrips    per measurement
     * @param timeoutMillis before a request is re-issued
     */
    static Testbed start(final Path directory, final int roundTrips, final long timeoutMillis) throws Exception {
        // These tests follow requests, tickets and pushes through the thesis's semantics.
        return start(directory, roundTrips, timeoutMillis, "calibration: thesis");
    }

    /**
     * @param connectionKeys extra keys of both connections, e.g. {@code "calibration: adaptive, probe_rate_per_second: 20"}
     */
    static Testbed start(final Path directory, final int roundTrips, final long timeoutMillis, final String connectionKeys)
        throws Exception {
        return start(directory, roundTrips, timeoutMillis, connectionKeys, "");
    }

    /**
     * @param extraConnection one more line of the connections list (with its leading "  - "), or ""
     */
    static Testbed start(final Path directory, final int roundTrips, final long timeoutMillis, final String connectionKeys,
                         final String extraConnection) throws Exception {
        final Path profiles = Path.of("../profiles").toAbsolutePath().normalize();
        final Path config = directory.resolve("measured.yaml");
        Files.writeString(config, String.join("\n",
            "server:",
            "  name: MeasuredTestbed",
            "  state_file: " + directory.resolve("state.json"),
            "  metrics: { enabled: false, address: 127.0.0.1 }",
            "thresholds:",
            "  cpu_hysteresis_band_percent: 0",
            "measurement:",
            "  round_trips: " + roundTrips,
            "  warmup_round_trips: 200",
            "  timeout_millis: " + timeoutMillis,
            "  min_interval_millis: 0",
            "  max_concurrent_measurements: 2",
            "profiles:",
            "  - " + profiles.resolve("thesis-tac4-corba.json"),
            "nodes:",
            "  - { name: ws1, node_id: 1, workstation_type: TAC-4, mib_source: push }",
            "  - { name: ws2, node_id: 2, workstation_type: TAC-4, mib_source: push }",
            "links:",
            "  - { name: atm-port, mib_source: push }",
            "connections:",
            "  - { index_ref: 4, client: ws1, peer: ws2, link: atm-port, message_size_bytes: 256, qos: 3, " + connectionKeys + " }",
            "  - { index_ref: 6, client: ws1, peer: ws2, link: atm-port, message_size_bytes: 256, qos: 4, bound_percent: 96, "
                + connectionKeys + " }",
            extraConnection,
            ""));
        final Path ior = directory.resolve("server.ior");
        final JavaProcess server = JavaProcess.start("server", directory, "org.latencyserver.server.launch.ServerMain",
            "--config", config.toString(), "--ior-file", ior.toString(), "--metrics-port", "-1");
        server.awaitLog("serving " + (extraConnection.isBlank() ? 2 : 3) + " connections", Duration.ofSeconds(60));
        final Properties properties = new Properties();
        properties.setProperty("org.omg.CORBA.ORBClass", "org.jacorb.orb.ORB");
        properties.setProperty("org.omg.CORBA.ORBSingletonClass", "org.jacorb.orb.ORBSingleton");
        properties.setProperty("OAIAddr", "127.0.0.1");
        properties.setProperty("jacorb.log.default.verbosity", "1");
        return new Testbed(directory, server, ior, ORB.init(new String[0], properties));
    }

    JavaProcess startPeer(final String logName) throws Exception {
        final JavaProcess peer = JavaProcess.start(logName, directory, "org.latencyserver.peer.PeerAgentMain",
            "--name", "ws2", "--ior-file", peerIor().toString(), "--ready-file", directory.resolve(logName + ".ready.json").toString());
        peer.awaitReady(directory.resolve(logName + ".ready.json"), Duration.ofSeconds(30));
        return peer;
    }

    Path peerIor() {
        return directory.resolve("peer-ws2.ior");
    }

    JavaProcess startAgent(final String logName, final String... extra) throws Exception {
        final String[] args = new String[8 + extra.length];
        System.arraycopy(new String[] {"--server", serverIor.toString(), "--peer", "ws2=" + peerIor(), "--poll-millis", "1000",
            // these tests are about requests, tickets and failures, not values: 3000 round trips of warm-up will do
            "--jit-warmup-seconds", "0"}, 0, args, 0, 8);
        System.arraycopy(extra, 0, args, 8, extra.length);
        final JavaProcess agent = JavaProcess.start(logName, directory, "org.latencyserver.agent.client.ClientAgentMain", args);
        agent.awaitLog("subscribed to measurement requests", Duration.ofSeconds(30));
        return agent;
    }

    /** Pushes the same MIB values for both connections, as the emulator does for every connection. */
    void push(final int clientCpuPercent, final int peerCpuPercent, final int portPercent) {
        for (final short indexRef : new short[] {4, 6}) {
            latserv.PutMibUpdates(new IdlMibUpdates(indexRef, (short) clientCpuPercent, (short) peerCpuPercent,
                (short) portPercent), indexRef);
        }
    }

    @Override
    public void close() throws Exception {
        orb.shutdown(false);
        server.close();
    }
}
