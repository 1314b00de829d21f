package org.latencyserver.server.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencyserver.idl.LatservPackage.IdlMibUpdates;
import org.latencyserver.idl.latency.LatencyService;
import org.latencyserver.idl.latency.LatencyServiceHelper;
import org.latencyserver.idl.latency.PairStatus;
import org.latencyserver.orb.PlainOrbs;
import org.latencyserver.server.config.TestbedConfigLines;
import org.latencyserver.testkit.FreePorts;
import org.latencyserver.testkit.config.ServerYaml;
import org.latencyserver.testkit.config.ServerYaml.Connection;
import org.omg.CORBA.ORB;

/**
 * {@code pair_status()} over real JacORB, from servers in the test's JVM (a pair over real JGroups
 * sockets on loopback, and a server without {@code server.standby}): what the console shows as
 * the server's role and whether its writes are protected.
 */
class PairStatusCallTest {

    private static final long DEADLINE_SECONDS = 60;

    @TempDir
    Path directory;
    private ORB client;
    private int portA;
    private int portB;

    @BeforeEach
    void startAClientOrbAndChoosePorts() {
        client = PlainOrbs.withoutRetries();
        portA = FreePorts.belowEphemeralRange(100); // FD_SOCK2 listens on the port + 100: below the ephemeral range too
        do {
            portB = FreePorts.belowEphemeralRange(100);
        } while (Math.abs(portB - portA) == 100 || portB == portA); // FD_SOCK2 listens on the port + 100
    }

    @AfterEach
    void stopTheClientOrb() {
        client.shutdown(true);
    }

    @Test
    void aServerWithoutStandbyIsAloneAndUnprotected() throws Exception {
        try (LatencyServerNode server = LatencyServerNode.launch(context("only", null))) {
            final PairStatus status = service(server).pair_status();
            assertEquals("alone", status.role);
            assertFalse(status.writes_protected, "its writes are on its own disk only");
            assertEquals(0, status.members);
            assertEquals(0, status.unprotected_writes, "counted only with server.standby");
        }
    }

    @Test
    void thePrimaryIsProtectedWhileItsStandbyAnswersAndAloneAndUnprotectedOnceItIsGone() throws Exception {
        final LatencyServerNode a = LatencyServerNode.launch(context("a", new int[] {portA, portB}));
        LatencyServerNode b = null;
        try {
            b = LatencyServerNode.launch(context("b", new int[] {portB, portA}));
            final LatencyService primary = service(a);
            await("the pair is protected", () -> primary.pair_status().writes_protected);
            PairStatus status = primary.pair_status();
            assertEquals("primary", status.role);
            assertEquals(2, status.members);
            assertEquals(0, status.unprotected_writes);

            b.crashStandbyChannelForTest();
            b.close();
            await("the primary sees its standby gone", () -> primary.pair_status().members == 1);
            primary.PutMibUpdates(new IdlMibUpdates((short) 1, (short) 10, (short) 80, (short) 50), (short) 1);
            status = primary.pair_status();
            assertEquals("alone", status.role, "a pair of one");
            assertFalse(status.writes_protected);
            assertEquals(1, status.unprotected_writes, "the write answered from its disk alone");
        } finally {
            a.close();
            if (b != null) {
                b.close();
            }
        }
    }

    private LatencyService service(final LatencyServerNode server) {
        return LatencyServiceHelper.narrow(client.string_to_object(server.serverIor()));
    }

    private static void await(final String what, final Callable<Boolean> condition) throws Exception {
        final long deadline = System.nanoTime() + DEADLINE_SECONDS * 1_000_000_000L;
        while (!condition.call()) {
            assertTrue(System.nanoTime() < deadline, what + " within " + DEADLINE_SECONDS + " s");
            Thread.sleep(50);
        }
    }

    /** One pushed QoS 1 connection; with {@code ports} (listen, peer) a member of a pair, without it a server alone. */
    private ServerContext context(final String name, final int[] ports) throws IOException {
        ServerYaml base = ServerYaml.named("PairStatusServer").stateFile(Path.of(name + ".state.json"))
            .profile(TestbedConfigLines.profiles().resolve("thesis-tac4-corba.json"));
        if (ports != null) {
            base = base.server("standby", java.util.Map.of("listen", "127.0.0.1:" + ports[0], "peer", "127.0.0.1:" + ports[1]));
        }
        final ServerYaml yaml = TestbedConfigLines.pushedWs1Ws2OnAtmPort(base, "ws1")
            .connection(Connection.of(1, "ws1", "ws2", 1).link("atm-port").profile("thesis-tac4-corba").calibration("thesis")
                .probeRatePerSecond(0));
        return new ServerContext().configFile(yaml.writeTo(directory.resolve(name + ".yaml"))).metricsPort(ServerContext.METRICS_OFF);
    }
}
