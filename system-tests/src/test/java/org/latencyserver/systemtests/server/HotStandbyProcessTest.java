package org.latencyserver.systemtests.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencyserver.idl.Latserv;
import org.latencyserver.idl.LatservHelper;
import org.latencyserver.idl.LatservPackage.IdlMibUpdates;
import org.latencyserver.idl.LatservPackage.TableRow;
import org.latencyserver.launch.Component;
import org.latencyserver.orb.References;
import org.latencyserver.server.config.TestbedConfigLines;
import org.latencyserver.systemtests.kit.ReadyProcess;
import org.latencyserver.systemtests.kit.SystemUnderTest;
import org.latencyserver.testkit.MetricsText;
import org.latencyserver.testkit.config.ServerYaml;
import org.latencyserver.testkit.config.ServerYaml.Connection;
import org.omg.CORBA.ORB;

/**
 * A pair of server processes ({@code server.standby}) and a naming service: the primary is killed
 * with {@code kill -9} again and again, each time right after a write it acknowledged; the
 * standby takes over and serves that write, and the killed one is started again and stands by.
 * Prints the time from each kill to the first successful call by name (p50, max) — a figure, not
 * an assertion (two shared cores); asserts that no acknowledged write was lost and that every
 * takeover happened within a generous deadline.
 */
class HotStandbyProcessTest {

    /**
     * Kills in the suite: enough for each server to be killed as primary and to come back as standby twice; the twenty
     * of the figures are {@code StandbyKillHarness}'s.
     */
    private static final int KILLS = 4;
    private static final long TAKEOVER_DEADLINE_NANOS = 60_000_000_000L;

    @TempDir
    Path directory;

    @Test
    void everyWriteThePrimaryAcknowledgedBeforeAKillIsServedByTheStandbyThatTookOver() throws Exception {
        try (SystemUnderTest system = SystemUnderTest.in(directory)) {
            final String naming = system.start(system.launch(Component.NAMING_SERVICE).args("--port",
                Integer.toString(SystemUnderTest.freeTcpPort()), "--db-dir", directory.resolve("nsdb").toString()))
                .ready().reference("naming");
            final int portA = SystemUnderTest.freeTcpPort();
            int chosen = SystemUnderTest.freeTcpPort();
            while (Math.abs(chosen - portA) == 100) {
                chosen = SystemUnderTest.freeTcpPort();
            }
            final int portB = chosen;
            final Path configA = config("a", portA, portB);
            final Path configB = config("b", portB, portA);
            final ORB orb = system.orb();

            ReadyProcess primary = start(system, "a", configA, naming);
            ReadyProcess standby = start(system, "b", configB, naming);
            Path primaryConfig = configA;
            Path standbyConfig = configB;
            assertEquals("standing by", standby.ready().fact("standby"), standby.child().log());
            final List<Long> takeoverMillis = new ArrayList<>();
            int lost = 0;
            int failedCalls = 0;
            for (int kill = 0; kill < KILLS; kill++) {
                awaitProtected(primary);
                final short cpu = (short) (1 + kill % 99);
                LatservHelper.narrow(orb.string_to_object(primary.ready().reference("server")))
                    .PutMibUpdates(new IdlMibUpdates((short) 1, cpu, (short) 50, (short) 10), (short) 1);
                primary.child().kill();
                final long killed = System.nanoTime();
                TableRow row = null;
                while (row == null) {
                    assertFalse(System.nanoTime() - killed > TAKEOVER_DEADLINE_NANOS, "a takeover within 60 s\n" + standby.child().log());
                    try {
                        // As an application does: resolve the name, call; on a failure, resolve again.
                        final Latserv byName = LatservHelper.narrow(References.resolve(orb, "StandbyPair", naming));
                        row = byName.RequestTableStatus((short) 1);
                    } catch (org.omg.CORBA.SystemException | References.ReferenceException e) {
                        failedCalls++;
                        Thread.sleep(20);
                    }
                }
                takeoverMillis.add((System.nanoTime() - killed) / 1_000_000);
                if (row.latest_client_mib_cpu != cpu) {
                    lost++;
                }
                // The killed server comes back and stands by; the one that took over is the primary now.
                final ReadyProcess tookOver = standby;
                final Path killedConfig = primaryConfig;
                standby = start(system, "restarted-" + kill, killedConfig, naming);
                assertEquals("standing by", standby.ready().fact("standby"), standby.child().log());
                primary = tookOver;
                primaryConfig = standbyConfig;
                standbyConfig = killedConfig;
            }
            Collections.sort(takeoverMillis);
            System.out.printf("hot standby: %d kills, kill to first successful call by name p50 %d ms, max %d ms; %d calls"
                + " failed meanwhile; %d acknowledged writes lost%n", KILLS, takeoverMillis.get(KILLS / 2),
                takeoverMillis.get(KILLS - 1), failedCalls, lost);
            assertEquals(0, lost, "acknowledged writes lost");
        }
    }

    private static ReadyProcess start(final SystemUnderTest system, final String name, final Path config, final String naming)
        throws Exception {
        return system.start(system.serverLaunch(name, config).args("--metrics-port", "0", "--naming", naming));
    }

    private static void awaitProtected(final ReadyProcess primary) throws Exception {
        final long deadline = System.nanoTime() + TAKEOVER_DEADLINE_NANOS;
        while (MetricsText.scrape(primary.ready().url("metrics")).get("latency_server_standby_protected") != 1) {
            assertTrue(System.nanoTime() < deadline, "the pair protected within 60 s\n" + primary.child().log());
            Thread.sleep(50);
        }
    }

    private Path config(final String name, final int listen, final int peer) {
        final ServerYaml yaml = TestbedConfigLines.pushedWs1Ws2OnAtmPort(ServerYaml.named("StandbyPair")
                .stateFile(Path.of(name + ".state.json"))
                .server("standby", Map.of("listen", "127.0.0.1:" + listen, "peer", "127.0.0.1:" + peer))
                .profile(Path.of("../profiles/thesis-tac4-corba.json").toAbsolutePath().normalize()), "ws1")
            .connection(Connection.of(1, "ws1", "ws2", 1).link("atm-port").profile("thesis-tac4-corba").calibration("thesis")
                .probeRatePerSecond(0));
        return yaml.writeTo(directory.resolve(name + ".yaml"));
    }
}
