package org.latencyserver.agent.profiler;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.latencyserver.agent.load.CoreUtilisation;
import org.latencyserver.agent.load.LoadDriver;
import org.latencyserver.agent.measure.RoundTripRunner;
import org.latencyserver.agent.measure.RunResult;
import org.latencyserver.core.histogram.LatencyHistogram;
import org.latencyserver.core.profile.Profile;
import org.latencyserver.core.profile.ProfileJson;
import org.latencyserver.core.state.CpuState;
import org.latencyserver.core.state.CpuStateClassifier;
import org.latencyserver.core.state.CpuStatePair;
import org.latencyserver.idl.latency.EchoPeer;

/**
 * One profiling run: for each CPU state pair, drive each side's core to the pair's utilisation,
 * check that it got there, and measure every message size; then write the profile.
 *
 * <p>Load is set per side as {@code target − baseline}, the baseline being what the round trips
 * themselves cost each core (measured first, without drivers), so the achieved utilisation — what
 * the state is about — lands in the target band. It is checked over a window of continuous round
 * trips before and after the pair's sizes; a pair whose achieved load missed its state on either
 * check is retried with the drivers corrected ({@link DriveCorrection}), up to four times, and otherwise refused: its cells
 * are not recorded and the profile is not written (the cells done are kept for {@code --resume}).
 *
 * <p>Against a peer agent on another host ({@link ProfileSettings#remotePeer()}) only this host's side is
 * driven and checked: the peer host's CPU is held by the planner in the state they assert, so a run
 * measures the pairs of that state ({@link PeerStatePlan}), says so before the first round trip, and
 * records the peer and the asserted state with each cell. A resumed run must be against the same peer host.
 *
 * <p>Public for its two constants, which the system tests of {@code profile measure} read (the
 * pairs it measures, the tries a pair gets before its refusal); the run itself is the profiler's.
 *
 * <p>Runs on one thread; not thread-safe.
 */
public final class ProfileRun {

    /** Targets per state, percent of one core: the middle of the thesis's LOW and HIGH bands, and MEDIUM. */
    static final Map<CpuState, Integer> TARGET_PERCENT = Map.of(CpuState.LOW, 15, CpuState.MEDIUM, 50, CpuState.HIGH, 85);
    /** The CPU state pairs a run measures unless told fewer ({@code --pairs}), in this order. */
    public static final List<CpuStatePair> PAIRS = List.of(
        new CpuStatePair(CpuState.LOW, CpuState.LOW), new CpuStatePair(CpuState.LOW, CpuState.MEDIUM),
        new CpuStatePair(CpuState.LOW, CpuState.HIGH), new CpuStatePair(CpuState.MEDIUM, CpuState.MEDIUM),
        new CpuStatePair(CpuState.MEDIUM, CpuState.HIGH), new CpuStatePair(CpuState.HIGH, CpuState.HIGH));

    private static final long CHECK_WINDOW_MILLIS = 1_500;
    /** Tries per pair: the drivers are corrected by each miss ({@link DriveCorrection}; stress-ng's duty cycle is not exact). */
    public static final int ATTEMPTS = 4;

    private final ProfileSettings settings;
    private final EchoPeer peer;
    private final PrintStream progress;
    private final CpuStateClassifier classifier = CpuStateClassifier.withDefaults();
    private final ObjectMapper json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private final Map<String, CellResult> done = new LinkedHashMap<>();
    private final List<String> refused = new ArrayList<>();
    private double baselineClientPercent;
    private double baselinePeerPercent;
    private boolean prepared;

    ProfileRun(final ProfileSettings settings, final EchoPeer peer, final PrintStream progress) {
        this.settings = settings;
        this.peer = peer;
        this.progress = progress;
    }

    /**
     * Reads the cells an earlier run kept, when resuming, and says what this run will do; done once, before the
     * process pins itself, so that a run that cannot go on stops having changed nothing.
     *
     * @return true when the run can go on; false when the kept cells were measured against another peer (said on
     *         the progress stream)
     */
    boolean prepare() throws IOException {
        if (prepared) {
            return true;
        }
        if (settings.resume() && Files.exists(settings.partialFile())) {
            for (final CellResult cell : json.readValue(settings.partialFile().toFile(), CellResult[].class)) {
                done.put(key(cell.pair(), cell.messageSizeBytes()), cell);
            }
            progress.printf(Locale.ROOT, "resuming: %d cells already measured in %s%n", done.size(), settings.partialFile());
        }
        final String otherPeer = cellsOfAnotherPeer();
        if (otherPeer != null) {
            progress.println("latency profile measure: --resume: " + settings.partialFile() + " holds cells measured against "
                + otherPeer + ", this run measures against " + peerWords() + "; one profile is measured against one peer (measure"
                + " against that one, or move the partial file away to start afresh)");
            return false;
        }
        if (settings.remote()) {
            final PeerStatePlan plan = PeerStatePlan.of(settings.remotePeer().assertedState().name(), settings.pairs().stream()
                .map(CpuStatePair::canonical).toList());
            plan.describe(settings.remotePeer(), settings.sizesBytes(), fullyDonePairs()).forEach(progress::println);
        }
        prepared = true;
        return true;
    }

    /**
     * Measures ({@link #prepare()} first, when not called yet).
     *
     * @return 0 when the profile was written, or the chosen pairs were measured and kept for a later
     *         {@code --resume}; 1 when cells were refused (the partial file keeps the rest) or the kept cells
     *         were measured against another peer
     */
    int run() throws Exception {
        if (!prepare()) {
            return 1;
        }
        measureBaseline();
        final int total = settings.pairs().size() * settings.sizesBytes().size();
        final long startNanos = System.nanoTime();
        int measuredNow = 0;
        // Against a remote peer there is no peer core here to drive: its driver is never started.
        try (LoadDriver client = new LoadDriver(settings.clientCore()); LoadDriver peerLoad = new LoadDriver(settings.peerCore())) {
            for (final CpuStatePair pair : settings.pairs()) {
                if (settings.sizesBytes().stream().allMatch(size -> done.containsKey(key(pair, size)))) {
                    continue;
                }
                final int measured = measurePair(pair, client, peerLoad, total, startNanos, measuredNow);
                measuredNow += measured;
            }
        }
        progress.println();
        if (!refused.isEmpty()) {
            progress.println("REFUSED: the achieved load missed its state, so these were not recorded:");
            refused.forEach(line -> progress.println("  " + line));
            progress.println("The cells that were measured are kept in " + settings.partialFile() + "; run again with --resume.");
            return 1;
        }
        final long missing = PAIRS.stream().flatMap(pair -> settings.sizesBytes().stream().map(size -> key(pair, size)))
            .filter(k -> !done.containsKey(k)).count();
        if (missing > 0) {
            progress.printf(Locale.ROOT, "%d cells measured and kept in %s; a profile needs all six CPU state pairs of every size,"
                + " so it is written when the other %d are measured (run again with --resume)%n", done.size(),
                settings.partialFile(), missing);
            return 0;
        }
        final Profile profile = MeasuredProfile.of(settings, done.values(), baselineClientPercent, baselinePeerPercent);
        ProfileJson.write(profile, settings.out());
        Files.deleteIfExists(settings.partialFile());
        progress.printf(Locale.ROOT, "wrote %s: %d cells, measured in %.0f s%n", settings.out(), profile.cells().size(),
            (System.nanoTime() - startNanos) / 1e9);
        return 0;
    }

    private void measureBaseline() throws Exception {
        final RoundTripRunner runner = new RoundTripRunner(peer, 256);
        // Warm both JVMs first. A baseline taken while the JIT works would read too high, and
        // every driver set against it too low; and a fresh pair of JVMs (this one and the peer
        // agent's) measured paced round trips 1.3-1.5 times slower for its first 10-15 s here,
        // even after 30,000 round trips (RunToRunDriftHarness with its JIT warm-up argument).
        progress.printf(Locale.ROOT, "warming up: round trips back to back for %d s%n", settings.jitWarmupSeconds());
        runner.warmUntil(3_000, System.nanoTime() + settings.jitWarmupSeconds() * 1_000_000_000L);
        final double[] achieved = checkWindow(runner);
        baselineClientPercent = achieved[0];
        baselinePeerPercent = achieved[1];
        if (settings.remote()) {
            progress.printf(Locale.ROOT, "baseline: round trips alone keep the client core at %.0f %% (the peer host's is not read"
                + " from here)%n", baselineClientPercent);
        } else {
            progress.printf(Locale.ROOT, "baseline: round trips alone keep the client core at %.0f %% and the peer core at %.0f %%%n",
                baselineClientPercent, baselinePeerPercent);
        }
    }

    private int measurePair(final CpuStatePair pair, final LoadDriver client, final LoadDriver peerLoad, final int total,
                            final long startNanos, final int measuredBefore) throws Exception {
        int clientDrive = drive(pair.client(), baselineClientPercent);
        int peerDrive = settings.remote() ? 0 : drive(pair.peer(), baselinePeerPercent);
        final DriveCorrection clientCorrection = new DriveCorrection(TARGET_PERCENT.get(pair.client()));
        final DriveCorrection peerCorrection = new DriveCorrection(TARGET_PERCENT.get(pair.peer()));
        for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
            client.drive(clientDrive);
            if (!settings.remote()) {
                peerLoad.drive(peerDrive);
            }
            Thread.sleep(1_000); // the drivers reach their duty cycle
            final RoundTripRunner probe = new RoundTripRunner(peer, 256);
            final double[] before = checkWindow(probe);
            final Optional<LoadMiss> missBefore = miss(pair, before);
            if (missBefore.isEmpty()) {
                final Map<String, CellResult> cells = new LinkedHashMap<>();
                int measured = 0;
                for (final int size : settings.sizesBytes()) {
                    if (done.containsKey(key(pair, size))) {
                        continue;
                    }
                    final RunResult run = new RoundTripRunner(peer, size).runPaced(settings.warmupRoundTrips(), settings.roundTrips(),
                        settings.intervalMicros() * 1_000L);
                    cells.put(key(pair, size), cell(pair, size, run, before));
                    measured++;
                    progressLine(pair, size, doneAmongChosen() + cells.size(), total, startNanos, measuredBefore + measured);
                }
                final double[] after = checkWindow(probe);
                final Optional<LoadMiss> missAfter = miss(pair, after);
                if (missAfter.isEmpty()) {
                    done.putAll(cells);
                    savePartial();
                    return measured;
                }
                progress.printf(Locale.ROOT, "%n%s: after its sizes the load read %s; measuring the pair again%n", label(pair),
                    missAfter.get().detail());
                clientDrive = clientCorrection.next(clientDrive, after[0]);
                peerDrive = peerCorrection.next(peerDrive, after[1]);
            } else {
                progress.printf(Locale.ROOT, "%n%s: the load read %s; correcting the drivers and trying again%n", label(pair),
                    missBefore.get().detail());
                clientDrive = clientCorrection.next(clientDrive, before[0]);
                peerDrive = peerCorrection.next(peerDrive, before[1]);
            }
        }
        refused.add(String.format(Locale.ROOT, "%s (every size): the achieved load missed %s %d times", label(pair),
            settings.remote() ? pair.client() + " on this host" : pair.toString(), ATTEMPTS));
        return 0;
    }

    /** @return the pair as a profile names it, and against a remote peer which side is this host */
    private String label(final CpuStatePair pair) {
        return settings.remote() ? pair.canonical() + " (this host " + pair.client() + ", peer host asserted " + pair.peer() + ")"
            : pair.toString();
    }

    private static int drive(final CpuState state, final double baselinePercent) {
        return (int) Math.max(0, Math.min(100, Math.round(TARGET_PERCENT.get(state) - baselinePercent)));
    }

    /** @return empty when both sides (against a remote peer: this host's) are in their state's band, else what they read */
    private Optional<LoadMiss> miss(final CpuStatePair pair, final double[] achieved) {
        final CpuState client = classifier.classifyPlain(achieved[0]);
        if (settings.remote()) {
            return client == pair.client() ? Optional.empty() : Optional.of(new LoadMiss(LoadMiss.Kind.CPU_OUT_OF_BAND,
                String.format(Locale.ROOT, "this host %.0f %% (%s)", achieved[0], client)));
        }
        final CpuState peerState = classifier.classifyPlain(achieved[1]);
        if (client == pair.client() && peerState == pair.peer()) {
            return Optional.empty();
        }
        return Optional.of(new LoadMiss(LoadMiss.Kind.CPU_OUT_OF_BAND, String.format(Locale.ROOT, "client %.0f %% (%s), peer %.0f %% (%s)",
            achieved[0], client, achieved[1], peerState)));
    }

    /** Continuous 256 B round trips for the window, as a measurement runs: each side's utilisation (the peer's NaN when remote). */
    private double[] checkWindow(final RoundTripRunner runner) throws Exception {
        final CoreUtilisation start = CoreUtilisation.read();
        final long endNanos = System.nanoTime() + CHECK_WINDOW_MILLIS * 1_000_000L;
        while (System.nanoTime() < endNanos) {
            runner.runPaced(0, 200, settings.intervalMicros() * 1_000L);
        }
        final CoreUtilisation end = CoreUtilisation.read();
        return new double[] {end.percentSince(start, settings.clientCore()),
            settings.remote() ? Double.NaN : end.percentSince(start, settings.peerCore())};
    }

    private CellResult cell(final CpuStatePair pair, final int size, final RunResult run, final double[] achieved) {
        final LatencyHistogram histogram = LatencyHistogram.fromHdr(run.histogramNanos());
        final RemotePeer remote = settings.remotePeer();
        return new CellResult(pair.canonical().toString(), size, run.recordedRoundTrips(), run.meanMillis(), run.stdDevMillis(),
            Math.max(run.maxMillis(), run.meanMillis()), histogram.upperEdgesNanos(), histogram.counts(), achieved[0], achieved[1],
            run.gcPauseOverlapNanos(), remote == null ? null : remote.reference(), remote == null ? null : remote.host(),
            remote == null ? null : remote.assertedState().name());
    }

    /**
     * @return the peer a kept cell was measured against when its host is not this run's, in words; null when all agree (a
     *         peer agent restarted on its host between runs listens on another port, and is the same peer host)
     */
    private String cellsOfAnotherPeer() {
        final String host = settings.remote() ? withoutPort(settings.remotePeer().host()) : null;
        for (final CellResult cell : done.values()) {
            if (!Objects.equals(cell.peerHost() == null ? null : withoutPort(cell.peerHost()), host)) {
                return cell.peerHost() == null ? "the peer agent a run without --peer started on this machine"
                    : "the peer agent " + cell.peerReference() + " on " + cell.peerHost();
            }
        }
        return null;
    }

    /** @return {@code HOST} of {@code HOST:PORT} */
    private static String withoutPort(final String hostAndPort) {
        final int colon = hostAndPort.lastIndexOf(':');
        return colon < 0 ? hostAndPort : hostAndPort.substring(0, colon);
    }

    private String peerWords() {
        return settings.remote() ? settings.remotePeer().describe() : "a peer agent it starts on this machine (no --peer)";
    }

    /** @return the canonical pairs whose every size of this run is kept already */
    private Set<String> fullyDonePairs() {
        final Set<String> pairs = new TreeSet<>();
        for (final CpuStatePair pair : PAIRS) {
            if (settings.sizesBytes().stream().allMatch(size -> done.containsKey(key(pair, size)))) {
                pairs.add(pair.toString());
            }
        }
        return pairs;
    }

    /** Cells of this run's pairs already measured (a resumed file may hold other pairs' too). */
    private int doneAmongChosen() {
        int count = 0;
        for (final CpuStatePair pair : settings.pairs()) {
            for (final int size : settings.sizesBytes()) {
                count += done.containsKey(key(pair, size)) ? 1 : 0;
            }
        }
        return count;
    }

    private void savePartial() throws IOException {
        final Path partial = settings.partialFile();
        final Path temporary = partial.resolveSibling(partial.getFileName() + ".tmp");
        json.writeValue(temporary.toFile(), done.values());
        Files.move(temporary, partial, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    private void progressLine(final CpuStatePair pair, final int size, final int cellsDone, final int total, final long startNanos,
                              final int measuredNow) {
        final int width = 30;
        final int filled = (int) ((long) width * cellsDone / total);
        final double elapsedSeconds = (System.nanoTime() - startNanos) / 1e9;
        final double etaSeconds = measuredNow == 0 ? 0 : elapsedSeconds / measuredNow * (total - cellsDone);
        progress.printf(Locale.ROOT, "\r[%s%s] %2d/%d cells  %-13s %5d B  ETA %3.0f s ", "#".repeat(filled), ".".repeat(width - filled),
            cellsDone, total, pair.canonical(), size, etaSeconds);
        progress.flush();
    }

    private static String key(final String pair, final int size) {
        return pair + "@" + size;
    }

    /** @return the key of a pair in either orientation: the profile's cell is the canonical pair's */
    private static String key(final CpuStatePair pair, final int size) {
        return key(pair.canonical().toString(), size);
    }

    @Override
    public String toString() {
        return "ProfileRun" + Arrays.asList(settings.out(), done.size());
    }
}
