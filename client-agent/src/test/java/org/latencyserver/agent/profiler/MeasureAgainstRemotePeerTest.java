package org.latencyserver.agent.profiler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jacorb.orb.util.CorbaLoc;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencyserver.core.profile.Profile;
import org.latencyserver.core.profile.ProfileCell;
import org.latencyserver.core.profile.ProfileJson;
import org.latencyserver.core.state.CpuState;
import org.latencyserver.core.state.CpuStatePair;
import org.latencyserver.launch.ChildProcess;
import org.latencyserver.launch.Component;
import org.latencyserver.launch.ProcessKit;
import org.latencyserver.orb.CommandRun;
import org.latencyserver.orb.OrbSupport;
import org.latencyserver.peer.PeerAgent;
import org.latencyserver.peer.PeerAgentContext;
import org.omg.CORBA.ORB;

/**
 * {@code profile measure --peer REF --peer-state STATE} against a real peer agent (in this JVM, reached over loopback IIOP
 * at a corbaloc, as a peer agent on another host would be), with the profiler in its own JVM as a planner runs it: it
 * pins itself and drives its own core with stress-ng, and starts no peer agent of its own. Kept short: one size, few
 * round trips, no JIT warm-up, and this host driven to HIGH, the state other work on the machine cannot push it out of.
 */
class MeasureAgainstRemotePeerTest {

    /** Round trips of the cell measured; the seeded cells have {@link #SEEDED_ROUND_TRIPS}, so the two are told apart. */
    private static final int ROUND_TRIPS = 20;
    private static final int SEEDED_ROUND_TRIPS = 7;
    /** The reference the seeded cells were measured with: the peer agent's IOR file of an earlier run. */
    private static final String EARLIER_PEER = "/tmp/ws2-before-restart.ior";

    @TempDir
    Path directory;

    private PeerAgent peerAgent;
    private ORB orb;
    private String corbaloc;
    private String peerHost;

    @BeforeEach
    void startPeerAgent() throws Exception {
        peerAgent = PeerAgent.launch(new PeerAgentContext().node("ws2"));
        orb = OrbSupport.init(new String[0], OrbSupport.properties("127.0.0.1", 0, 10_000));
        // JacORB writes the address part alone ("iiop:1.2@HOST:PORT/KEY")
        corbaloc = "corbaloc:" + CorbaLoc.generateCorbaloc(orb, orb.string_to_object(peerAgent.ior()));
        final Matcher address = Pattern.compile("@([0-9.]+):(\\d+)/").matcher(corbaloc);
        assertTrue(address.find(), corbaloc);
        peerHost = address.group(1) + ":" + address.group(2);
    }

    @AfterEach
    void stop() {
        if (orb != null) {
            orb.shutdown(false);
        }
        if (peerAgent != null) {
            peerAgent.close();
        }
    }

    @Test
    void theRunMeasuresThisHostsStateAgainstTheAssertedPeerStateAndItsProfileNamesThePeer() throws Exception {
        final Path out = directory.resolve("two-hosts.json");
        // the other five pairs, as earlier runs with --peer-state LOW, MEDIUM and HIGH kept them against this peer host,
        // whose peer agent listened on another port then (restarted between the runs)
        seedPartial(out, List.of(seeded("LOW/LOW", "LOW"), seeded("LOW/MEDIUM", "LOW"), seeded("MEDIUM/MEDIUM", "MEDIUM"),
            seeded("MEDIUM/HIGH", "MEDIUM"), seeded("HIGH/HIGH", "HIGH")));
        final long echoesBefore = peerAgent.echoCount();

        final String log;
        final int exit;
        try (ProcessKit kit = ProcessKit.fromThisClasspath(directory)) {
            final ChildProcess profiler = kit.launch(Component.PROFILER).name("measure").args("measure", "--out", out.toString(),
                "--peer", corbaloc, "--peer-state", "LOW", "--pairs", "LOW/HIGH", "--resume", "--sizes", "64", "--round-trips",
                Integer.toString(ROUND_TRIPS), "--warmup", "0", "--jit-warmup-seconds", "2").start();
            exit = profiler.awaitExit(Duration.ofSeconds(120));
            log = profiler.log().replace('\r', '\n');
        }

        assertEquals(0, exit, log);
        assertTrue(log.contains("against the peer agent " + corbaloc + " on " + peerHost + ", its CPU asserted LOW"), log);
        assertTrue(log.contains("measured by this run, at 64 B: LOW/HIGH (this host HIGH, peer LOW)"), log);
        assertTrue(log.contains("left to other runs (with --resume): none"), log);
        assertTrue(peerAgent.echoCount() - echoesBefore >= ROUND_TRIPS, "the round trips went to the peer agent given");

        final Profile profile = ProfileJson.read(out);
        assertEquals(6, profile.cells().size());
        final ProfileCell measured = profile.cell(new CpuStatePair(CpuState.LOW, CpuState.HIGH), 64).orElseThrow();
        assertEquals(ROUND_TRIPS, measured.sampleCount());
        for (final ProfileCell cell : profile.cells()) {
            if (cell != measured) {
                assertEquals(SEEDED_ROUND_TRIPS, cell.sampleCount(), cell.label());
            }
        }
        assertEquals("latency profile measure --peer --peer-state", profile.provenance().source());
        assertTrue(profile.provenance().hardware().contains("the peer side: the peer agent " + EARLIER_PEER + " on 127.0.0.1:1 and"
            + " the peer agent " + corbaloc + " on " + peerHost), profile.provenance().hardware());
        final String method = profile.provenance().method();
        assertTrue(method.contains("LOW/HIGH: this host HIGH (read "), method);
        assertTrue(method.contains("the peer host asserted LOW"), method);
        assertTrue(method.contains("HIGH/HIGH: this host HIGH (read "), method);
        assertFalse(Files.exists(directory.resolve("two-hosts.json.partial.json")), "the partial file goes once the profile is written");
    }

    @Test
    void anUnreachablePeerIsRefusedNamingTheReferenceAndTheError() {
        final String unreachable = "corbaloc::127.0.0.1:1/peer";
        final Refusal refusal = measure("--peer", unreachable, "--peer-state", "LOW");
        assertEquals(1, refusal.exit, refusal.errors);
        assertTrue(refusal.errors.startsWith("latency profile measure: --peer " + unreachable + ": the peer agent at 127.0.0.1:1"
            + " cannot be reached (TRANSIENT"), refusal.errors);
    }

    @Test
    void aPeerNameWithoutANamingServiceIsRefusedNamingTheReference() {
        final Refusal refusal = measure("--peer", "peers/ws2", "--peer-state", "LOW");
        assertEquals(1, refusal.exit, refusal.errors);
        assertTrue(refusal.errors.startsWith("latency profile measure: --peer peers/ws2: 'peers/ws2' is neither a reference nor an"
            + " existing file, and no naming service was given"), refusal.errors);
    }

    @Test
    void aPeerStateThatIsNoStateIsRefusedBeforeThePeerIsContacted() {
        final long echoesBefore = peerAgent.echoCount();
        final Refusal refusal = measure("--peer", corbaloc, "--peer-state", "IDLE");
        assertEquals(2, refusal.exit, refusal.errors);
        assertEquals("latency profile measure: --peer-state: 'IDLE' is not a CPU state; give LOW, MEDIUM or HIGH (the peer host's CPU"
            + " utilisation bands 0-33, 34-66, 67-100 %)", refusal.errors.strip());
        assertEquals(echoesBefore, peerAgent.echoCount());
    }

    @Test
    void aPeerStateNeedsAPeerAndIsNoPortRunsOption() {
        final Refusal noPeer = measure("--peer-state", "LOW");
        assertEquals(2, noPeer.exit, noPeer.errors);
        assertTrue(noPeer.errors.startsWith("latency profile measure: --peer-state needs --peer REF"), noPeer.errors);
        final Refusal withPortLoads = measure("--peer", corbaloc, "--peer-state", "LOW", "--port-loads", "0,95");
        assertEquals(2, withPortLoads.exit, withPortLoads.errors);
        assertTrue(withPortLoads.errors.startsWith("latency profile measure: --peer-state measures CPU cells and cannot be combined"
            + " with --port-loads"), withPortLoads.errors);
    }

    @Test
    void aResumeOfCellsMeasuredAgainstAnotherPeerIsRefused() throws Exception {
        final Path out = directory.resolve("p.json");
        seedPartial(out, List.of(new CellResult("LOW/LOW", 64, SEEDED_ROUND_TRIPS, 0.5, 0.1, 0.9, new long[] {1_000_000},
            new long[] {SEEDED_ROUND_TRIPS}, 15, Double.NaN, 0, "corbaloc::198.18.0.3:4711/peer", "198.18.0.3:4711", "LOW")));
        final int processors = Runtime.getRuntime().availableProcessors();
        final Refusal refusal = measure("--out", out.toString(), "--peer", corbaloc, "--peer-state", "LOW", "--resume", "--sizes", "64");
        assertEquals(1, refusal.exit, refusal.errors);
        assertEquals(processors, Runtime.getRuntime().availableProcessors(), "refused before the process pinned itself to a core");
        assertTrue(refusal.errors.contains("--resume: " + directory.resolve("p.json.partial.json") + " holds cells measured against"
            + " the peer agent corbaloc::198.18.0.3:4711/peer on 198.18.0.3:4711, this run measures against the peer agent "
            + corbaloc + " on " + peerHost), refusal.errors);
    }

    private static CellResult seeded(final String pair, final String peerState) {
        return new CellResult(pair, 64, SEEDED_ROUND_TRIPS, 0.5, 0.1, 0.9, new long[] {1_000_000}, new long[] {SEEDED_ROUND_TRIPS},
            15, Double.NaN, 0, EARLIER_PEER, "127.0.0.1:1", peerState);
    }

    private static void seedPartial(final Path out, final List<CellResult> cells) throws Exception {
        new ObjectMapper().writeValue(out.resolveSibling(out.getFileName() + ".partial.json").toFile(), new ArrayList<>(cells));
    }

    /** Runs {@code profile measure} in this JVM, for refusals said before it pins itself or measures anything. */
    private Refusal measure(final String... args) {
        final List<String> all = new ArrayList<>(List.of(args));
        if (!all.contains("--out")) {
            all.addAll(List.of("--out", directory.resolve("p.json").toString()));
        }
        final CommandRun run = CommandRun.of(new ProfilerMain.Measure(), all.toArray(String[]::new));
        return new Refusal(run.exit(), run.standardError());
    }

    private record Refusal(int exit, String errors) {
    }
}
