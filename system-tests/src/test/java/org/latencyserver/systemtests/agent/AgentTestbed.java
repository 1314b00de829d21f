package org.latencyserver.systemtests.agent;

import java.nio.file.Path;
import java.time.Duration;
import java.util.function.UnaryOperator;
import org.latencyserver.idl.Latserv;
import org.latencyserver.idl.LatservHelper;
import org.latencyserver.idl.LatservPackage.IdlMibUpdates;
import org.latencyserver.idl.latency.LatencyService;
import org.latencyserver.idl.latency.LatencyServiceHelper;
import org.latencyserver.launch.ChildProcess;
import org.latencyserver.launch.Component;
import org.latencyserver.server.config.TestbedConfigLines;
import org.latencyserver.systemtests.kit.LogWatch;
import org.latencyserver.systemtests.kit.ReadyProcess;
import org.latencyserver.systemtests.kit.SystemUnderTest;
import org.latencyserver.testkit.config.ServerYaml;
import org.latencyserver.testkit.config.ServerYaml.Connection;
import org.omg.CORBA.ORB;

/**
 * A server with measured connections, and an ORB to call it: connection 4 (QoS 3) and 6 (QoS 4 at
 * 96 %) from ws1 to ws2, 256 B, MIB values pushed by the test as the thesis's emulator pushed them;
 * and the peer and client agents of those connections, on the system tests' kit
 * ({@link SystemUnderTest}). Closing stops every process it started.
 */
final class AgentTestbed implements AutoCloseable {

    /** How long an agent may take to subscribe once it is ready, on a busy machine. */
    private static final Duration SUBSCRIBED_WITHIN = Duration.ofSeconds(30);

    final Path directory;
    final SystemUnderTest system;
    final ReadyProcess server;
    final ORB orb;
    final Latserv latserv;
    final LatencyService service;
    final Path serverIor;
    private int profilerRuns;

    private AgentTestbed(final SystemUnderTest system, final ReadyProcess server) {
        this.system = system;
        this.directory = system.directory();
        this.server = server;
        this.serverIor = directory.resolve("server.ior");
        this.orb = system.orb();
        final String ior = server.ready().reference("server");
        this.latserv = LatservHelper.narrow(orb.string_to_object(ior));
        this.service = LatencyServiceHelper.narrow(orb.string_to_object(ior));
    }

    /**
     * @param roundTrips    per measurement
     * @param timeoutMillis before a request is re-issued
     */
    static AgentTestbed start(final Path directory, final int roundTrips, final long timeoutMillis) throws Exception {
        // These tests follow requests, tickets and pushes through the thesis's semantics.
        return start(directory, roundTrips, timeoutMillis, c -> c.calibration("thesis"));
    }

    /**
     * @param connectionKeys adds keys to both measured connections, e.g. {@code c -> c.calibration("adaptive")}
     */
    static AgentTestbed start(final Path directory, final int roundTrips, final long timeoutMillis,
                              final UnaryOperator<Connection> connectionKeys) throws Exception {
        return start(directory, roundTrips, timeoutMillis, connectionKeys, null);
    }

    /**
     * Closes each of a test's processes and its testbed that was started, in the order given (the
     * agent before the peer before the testbed); one that never started is null and skipped.
     */
    static void closeAll(final AutoCloseable... started) throws Exception {
        for (final AutoCloseable process : started) {
            if (process != null) {
                process.close();
            }
        }
    }

    /**
     * @return a measuring testbed's configuration so far: the name, the state kept in the test's
     *     directory, no metrics endpoint
     */
    static ServerYaml serverSection(final String name, final Path directory) {
        return ServerYaml.named(name).stateFile(directory.resolve("state.json")).metricsOff();
    }

    /**
     * @param extraConnection one more connection, or null
     */
    static AgentTestbed start(final Path directory, final int roundTrips, final long timeoutMillis,
                              final UnaryOperator<Connection> connectionKeys, final Connection extraConnection) throws Exception {
        final Path profiles = Path.of("../profiles").toAbsolutePath().normalize();
        final ServerYaml yaml = TestbedConfigLines.pushedWs1Ws2OnAtmPort(serverSection("MeasuredTestbed", directory)
            .thresholds("cpu_hysteresis_band_percent", 0)
            .measurement("round_trips", roundTrips).measurement("warmup_round_trips", 200)
            .measurement("timeout_millis", timeoutMillis).measurement("min_interval_millis", 0)
            .measurement("max_concurrent_measurements", 2)
            .profile(profiles.resolve("thesis-tac4-corba.json")), "ws1")
            .connection(connectionKeys.apply(Connection.of(4, "ws1", "ws2", 3).link("atm-port")))
            .connection(connectionKeys.apply(Connection.of(6, "ws1", "ws2", 4).link("atm-port").boundPercent(96)));
        if (extraConnection != null) {
            yaml.connection(extraConnection);
        }
        final Path config = yaml.writeTo(directory.resolve("measured.yaml"));
        final SystemUnderTest system = SystemUnderTest.in(directory);
        try {
            final ReadyProcess server = system.start(system.serverLaunch("server", config).args("--metrics-port", "-1"));
            final String connections = Integer.toString(extraConnection == null ? 2 : 3);
            if (!connections.equals(server.ready().fact("connections"))) {
                throw new IllegalStateException("the server serves " + server.ready().fact("connections") + " connections, not "
                    + connections + "\n" + server.child().logEnd());
            }
            return new AgentTestbed(system, server);
        } catch (Exception | Error e) {
            system.close();
            throw e;
        }
    }

    /** Starts the peer agent of ws2 and waits for its ready file. */
    ChildProcess startPeer(final String logName) throws Exception {
        return system.start(system.launch(Component.PEER_AGENT).name(logName)
            .args("--name", "ws2", "--ior-file", peerIor().toString())).child();
    }

    Path peerIor() {
        return directory.resolve("peer-ws2.ior");
    }

    /**
     * Starts a client agent (its ready file, then its subscription to measurement requests: the IDL
     * has no way to list subscriptions, so this one wait is for its log line saying so).
     */
    ChildProcess startAgent(final String logName, final String... extra) throws Exception {
        final String[] args = new String[8 + extra.length];
        System.arraycopy(new String[] {"--server", serverIor.toString(), "--peer", "ws2=" + peerIor(), "--poll-millis", "1000",
            // these tests are about requests, tickets and failures, not values: 3000 round trips of warm-up will do
            "--jit-warmup-seconds", "0"}, 0, args, 0, 8);
        System.arraycopy(extra, 0, args, 8, extra.length);
        final ChildProcess agent = system.start(system.launch(Component.CLIENT_AGENT).name(logName).args(args)).child();
        LogWatch.await(agent, "subscribed to measurement requests", SUBSCRIBED_WITHIN);
        return agent;
    }

    /**
     * Starts the profiler once ({@code profile load|learned …}, as {@code ./latency profiler} runs
     * it); each run has its own log, {@code profiler-N.log}.
     */
    ChildProcess startProfiler(final String... args) throws Exception {
        profilerRuns++;
        return system.launch(Component.PROFILER).name("profiler-" + profilerRuns).args(args).start();
    }

    /** Pushes the same MIB values for both connections, as the emulator does for every connection. */
    void push(final int clientCpuPercent, final int peerCpuPercent, final int portPercent) {
        for (final short indexRef : new short[] {4, 6}) {
            latserv.PutMibUpdates(new IdlMibUpdates(indexRef, (short) clientCpuPercent, (short) peerCpuPercent,
                (short) portPercent), indexRef);
        }
    }

    /** Stops every process of the testbed, the last started first, and the ORB. */
    @Override
    public void close() {
        system.close();
    }
}
