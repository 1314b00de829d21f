package org.latencyserver.systemtests.agent;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencyserver.core.profile.Profile;
import org.latencyserver.core.profile.ProfileJson;
import org.latencyserver.core.state.CpuState;
import org.latencyserver.core.state.CpuStatePair;
import org.latencyserver.idl.LatservPackage.IdlMibUpdates;
import org.latencyserver.idl.latency.ProfileCellDrift;
import org.latencyserver.launch.ChildProcess;
import org.latencyserver.testkit.config.ServerYaml.Connection;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code ./latency profile learned PROFILE --server REF --out FILE}: the client agent's probes of a
 * QoS 1 connection teach the server about its profile's cell, and the command writes that as a
 * valid profile with its provenance; before any probe it says nothing was learned.
 */
class ProfileLearnedProcessTest {

    @TempDir
    Path directory;

    @Test
    void probesOfAProfileConnectionBecomeALearnedProfileAPlannerCanWrite() throws Exception {
        try (AgentTestbed testbed = AgentTestbed.start(directory, 1000, 30_000, c -> c.calibration("thesis").probeRatePerSecond(0),
            Connection.of(1, "ws1", "ws2", 1).link("atm-port").profile("thesis-tac4-corba").probeRatePerSecond(40))) {
            testbed.latserv.PutMibUpdates(new IdlMibUpdates((short) 1, (short) 10, (short) 10, (short) 20), (short) 1);
            final Path out = directory.resolve("learned.json");
            final String[] none = learned(testbed, out);
            assertEquals("1", none[0], none[1]);
            assertTrue(none[1].contains("nothing was learned"), none[1]);

            try (ChildProcess peer = testbed.startPeer("peer");
                 ChildProcess agent = testbed.startAgent("agent", "--probe-report-millis", "500")) {
                final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
                long live = 0;
                while (live < 100 && System.nanoTime() < deadline) {
                    Thread.sleep(200);
                    for (final ProfileCellDrift drift : testbed.service.profile_drift()) {
                        live = drift.profile_name.equals("thesis-tac4-corba") && drift.message_size_bytes == 256 ? drift.live_round_trips : live;
                    }
                }
                assertTrue(live >= 100, "live probe round trips in the LOW/LOW 256 B cell: " + live + "\n" + agent.log());
            }
            final String[] written = learned(testbed, out);
            assertEquals("0", written[0], written[1]);
            assertTrue(written[1].contains("WROTE"), written[1]);
            final Profile learned = ProfileJson.read(out);
            assertEquals("thesis-tac4-corba-learned", learned.name());
            assertEquals("learned from live probes (Latency Server)", learned.provenance().source());
            final Profile base = ProfileJson.read(Path.of("../profiles/thesis-tac4-corba.json"));
            assertEquals(base.cells().size(), learned.cells().size());
            final CpuStatePair lowLow = new CpuStatePair(CpuState.LOW, CpuState.LOW);
            assertTrue(learned.cell(lowLow, 256).orElseThrow().hasHistogram(), "the learned cell carries its histogram");
            assertTrue(learned.cell(lowLow, 256).orElseThrow().sampleCount() >= 100);
            final CpuStatePair highHigh = new CpuStatePair(CpuState.HIGH, CpuState.HIGH);
            assertEquals(base.cell(highHigh, 256).orElseThrow(), learned.cell(highHigh, 256).orElseThrow(),
                "a cell the probes never reached is the profile's own");
        }
    }

    private static String[] learned(final AgentTestbed testbed, final Path out) throws Exception {
        final ChildProcess profiler = testbed.startProfiler("learned", "thesis-tac4-corba", "--server", testbed.serverIor.toString(),
            "--out", out.toString());
        return new String[] {Integer.toString(profiler.awaitExit(Duration.ofSeconds(60))), profiler.log()};
    }
}
