package org.latencyserver.systemtests.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.latencyserver.server.config.TestbedConfigLines;
import org.latencyserver.systemtests.kit.ReadyProcess;
import org.latencyserver.systemtests.kit.SystemUnderTest;
import org.latencyserver.testkit.MetricsText;
import org.latencyserver.testkit.config.ServerYaml;
import org.latencyserver.testkit.config.ServerYaml.Connection;

/**
 * The shared fixture of the process tests of a hot-standby pair: one QoS 1 connection on pushed workstations and port,
 * server processes of the pair named by the naming service, and the wait for the pair's writes to be protected.
 */
final class StandbyPairProcesses {

    /** How long a pair may take to become protected. */
    static final long PROTECTED_DEADLINE_NANOS = TimeUnit.SECONDS.toNanos(60);

    private StandbyPairProcesses() {
    }

    /**
     * @return two free TCP ports for the pair's replication, neither equal to the other nor 100 from it (the failure
     *         detector listens on a replication port + 100)
     */
    static int[] replicationPorts() throws java.io.IOException {
        final int portA = SystemUnderTest.freeTcpPort();
        int portB = SystemUnderTest.freeTcpPort();
        while (Math.abs(portB - portA) == 100 || portB == portA) {
            portB = SystemUnderTest.freeTcpPort();
        }
        return new int[] {portA, portB};
    }

    /**
     * A pair started and protected: server "a" (the primary) then "b" (standing by), on free replication ports.
     *
     * @param primary the first started, primary once the pair is protected
     * @param standby the second, standing by
     */
    record Pair(ReadyProcess primary, ReadyProcess standby) {
    }

    /** Starts "a" and "b" in {@code directory} through {@code naming} and waits until "a" acknowledges writes protected. */
    static Pair startProtected(final SystemUnderTest system, final Path directory, final String naming) throws Exception {
        final int[] ports = replicationPorts();
        final ReadyProcess a = start(system, "a", config(directory, "a", ports[0], ports[1]), naming);
        final ReadyProcess b = start(system, "b", config(directory, "b", ports[1], ports[0]), naming);
        assertEquals("standing by", b.ready().fact("standby"), b.child().log());
        awaitProtected(a);
        return new Pair(a, b);
    }

    /** Starts server {@code name} of the pair with its configuration, metrics on a free port, bound through {@code naming}. */
    static ReadyProcess start(final SystemUnderTest system, final String name, final Path config, final String naming)
        throws Exception {
        return system.start(system.serverLaunch(name, config).args("--metrics-port", "0", "--naming", naming));
    }

    /** Waits until the primary's metrics say a standby holds every write it acknowledges. */
    static void awaitProtected(final ReadyProcess primary) throws Exception {
        final long deadline = System.nanoTime() + PROTECTED_DEADLINE_NANOS;
        while (MetricsText.scrape(primary.ready().url("metrics")).get("latency_server_standby_protected") != 1) {
            assertTrue(System.nanoTime() < deadline, "the pair protected within 60 s\n" + primary.child().log());
            Thread.sleep(50);
        }
    }

    /** Writes server {@code name}'s configuration into {@code directory}: listening on LISTEN, its peer on PEER. */
    static Path config(final Path directory, final String name, final int listen, final int peer) {
        final ServerYaml yaml = TestbedConfigLines.pushedWs1Ws2OnAtmPort(ServerYaml.named("StandbyPair")
                .stateFile(Path.of(name + ".state.json"))
                .server("standby", Map.of("listen", "127.0.0.1:" + listen, "peer", "127.0.0.1:" + peer))
                .profile(Path.of("../profiles/thesis-tac4-corba.json").toAbsolutePath().normalize()), "ws1")
            .connection(Connection.of(1, "ws1", "ws2", 1).link("atm-port").profile("thesis-tac4-corba").calibration("thesis")
                .probeRatePerSecond(0));
        return yaml.writeTo(directory.resolve(name + ".yaml"));
    }
}
