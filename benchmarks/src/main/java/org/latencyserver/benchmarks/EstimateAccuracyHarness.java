package org.latencyserver.benchmarks;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.latencyserver.benchmarks.accuracy.AccuracyAnalysis;
import org.latencyserver.benchmarks.accuracy.AccuracyReport;
import org.latencyserver.benchmarks.accuracy.AccuracyTargets;
import org.latencyserver.benchmarks.accuracy.ApplicationShape;
import org.latencyserver.benchmarks.accuracy.ApplicationPlayer;
import org.latencyserver.benchmarks.accuracy.BurstRecord;
import org.latencyserver.benchmarks.accuracy.ConnectionAccuracy;
import org.latencyserver.benchmarks.accuracy.DemoProcess;
import org.latencyserver.benchmarks.accuracy.MeanErrorSources;
import org.latencyserver.benchmarks.accuracy.PathAnalysis;
import org.latencyserver.benchmarks.accuracy.PathReport;
import org.latencyserver.benchmarks.accuracy.PlayOptions;
import org.latencyserver.benchmarks.accuracy.ProbeCost;
import org.latencyserver.benchmarks.accuracy.ProbeCostMeter;
import org.latencyserver.benchmarks.accuracy.ShapeAnalysis;
import org.latencyserver.benchmarks.accuracy.ShapePlan;
import org.latencyserver.benchmarks.accuracy.ShapeReport;
import org.latencyserver.benchmarks.accuracy.ShapeTargets;
import org.latencyserver.demo.DemoReady;
import org.latencyserver.launch.ChildProcess;
import org.latencyserver.launch.ProcessKit;
import org.latencyserver.launch.ReadinessException;
import org.latencyserver.testbed.Prerequisites;
import org.latencyserver.benchmarks.accuracy.BesideSampler;
import org.latencyserver.benchmarks.accuracy.RealNetworkOptions;
import java.util.EnumSet;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * "Estimates that hold": do the estimates the server serves hold for the messages that follow them?
 * Runs {@code ./latency demo} (real CPU load by stress-ng on the agents' pinned cores, the scenario
 * walking all six CPU state pairs and a port step every 12 s) and, beside it, an independent
 * application ({@link ApplicationPlayer}, its own JVM on the client agent's core) that at
 * exponentially spaced moments reads each connection's estimate and at once sends a burst of round
 * trips of the connection's size to its peer agent. Each burst tests the estimate read just before
 * it, in the load state read before it; a burst during which the state changed is discarded.
 *
 * <p>Prints, per connection and per load state and pooled, for the served value and the thesis's
 * value of the same estimates: for bounds the coverage of the following round trips with a 95 %
 * interval over bursts as blocks, and served bound / nominal percentile of what followed; for means
 * the median relative error against each burst's mean, and the share of burst means inside the
 * served interval; the share of time without an estimate for the current state; and what probing
 * cost (probe round trips per second from the server's metrics, the client agent's CPU). Writes the
 * same as {@code accuracy.csv} beside the raw records ({@value BurstRecord#FILE_NAME}).
 *
 * <p>With {@code --applications} the application plays several shapes in one run ({@link ApplicationShape}: as the
 * agent probes, fast bursts, slow bursts, calls alternating, bursts drawn from the default traffic family), one after
 * another or interleaved ({@code --play}, {@link ShapePlan}), each burst recording its shape; every figure is then
 * also reported per shape and judged PASS or MISS ({@link ShapeAnalysis}, {@link ShapeReport}, {@link ShapeTargets}),
 * with one CSV per shape. Without it the one shape played is {@code custom}: the burst size, {@code --spacing-micros}
 * and {@code --round-trip}.
 *
 * <p>With {@code --mean-sources} it also prints where the QoS 1/3 served means' error comes from ({@link MeanErrorSources}:
 * other predictors on the same served means, the target's own noise).
 *
 * <p>Run: {@code java -cp benchmarks/target/benchmarks.jar org.latencyserver.benchmarks.EstimateAccuracyHarness [DURATION_SECONDS] [BURST_SIZE]}
 * from the repository root; {@code --help} for the options. Connection 1 of the demo (emulated TAC-4
 * workstations, no agents) is read but reported as not checkable.
 *
 * <p>With {@code --real-network} (root; {@link RealNetworkOptions}) it waits for a quiet machine, measures a
 * profile with port cells on a testbed of its own, runs {@code ./latency demo --real-network} with that profile
 * and a scenario of port phases, plays the application from ws1's namespace across the bottleneck, and reports
 * per port band too, against the real network's targets ({@link AccuracyTargets#realNetwork}); see
 * docs/benchmarks.md, "Estimates that hold on a real network". With {@code --topology two-switches} the demo's
 * connections cross two bottlenecks and the harness also reports, per loading pattern of the path, how the QoS 2
 * union, independent-hops and served bounds held ({@link PathAnalysis}; docs/benchmarks.md, "Paths through two
 * switches (harness)").
 */
@Command(name = "EstimateAccuracyHarness", mixinStandardHelpOptions = true,
    description = "Run the demo under real load with an application beside it and report how well served estimates held.")
public final class EstimateAccuracyHarness implements Callable<Integer> {

    @Parameters(index = "0", defaultValue = "660", paramLabel = "DURATION_SECONDS",
        description = "How long the application records (default: ${DEFAULT-VALUE}; the demo's scenario loops every 96 s).")
    private long durationSeconds;

    @Parameters(index = "1", defaultValue = "50", paramLabel = "BURST_SIZE", description = "Round trips per burst (default: ${DEFAULT-VALUE}).")
    private int burstSize;

    @Option(names = "--out", paramLabel = "DIR", description = "Output directory (default: benchmarks/target/estimate-accuracy/TIMESTAMP).")
    private Path outputDirectory;

    @Mixin
    private PlayOptions play = new PlayOptions();

    @Option(names = "--min-bursts", description = "Bursts (or reads) a state needs to be judged against the targets (default: ${DEFAULT-VALUE}).")
    private int minBursts = 20;

    @Option(names = "--shape-min-bursts", description = "Bursts a load state needs for the per-shape figures to be judged"
        + " (default: ${DEFAULT-VALUE}).")
    private int shapeMinBursts = ShapeTargets.DEFAULT_MIN_BURSTS;

    @Option(names = "--no-build", description = "Do not let ./latency rebuild (the build is fresh, or another module is mid-change).")
    private boolean noBuild;

    @Option(names = "--analyse", paramLabel = "DIR", description = "Only analyse the records of an earlier run in DIR (no demo is started).")
    private Path analyseDirectory;

    @Option(names = "--mean-sources", description = "Also print where the served means' error comes from: other predictors"
        + " (hindsight oracles, the state's earlier occurrences, this occurrence's earlier bursts) on the same served means.")
    private boolean meanSources;

    @Mixin
    private RealNetworkOptions realNetwork = new RealNetworkOptions();

    private volatile DemoProcess demo;
    /** Starts and stops the application (the demo has its own, in {@link DemoProcess}). */
    private volatile ProcessKit playerKit;
    private volatile ChildProcess player;
    private volatile boolean interrupted;

    /**
     * @param args see {@code --help}
     */
    public static void main(final String[] args) {
        System.exit(new CommandLine(new EstimateAccuracyHarness()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        final ShapePlan plan;
        try {
            plan = play.plan(burstSize);
        } catch (IllegalArgumentException e) {
            System.err.println("estimate accuracy: " + e.getMessage());
            return 2;
        }
        if (analyseDirectory != null) {
            final Path costFile = analyseDirectory.resolve("cost.json");
            final ProbeCost cost;
            if (Files.exists(costFile)) {
                cost = new ObjectMapper().readValue(costFile.toFile(), ProbeCost.class);
            } else {
                // A run that ended early (its player overran) wrote records but no cost: analyse without it.
                System.out.println("estimate accuracy: no " + costFile + " (the run did not finish): the cost is not reported");
                cost = new ProbeCost(Double.NaN, Map.of(), Double.NaN);
            }
            report(analyseDirectory, cost, null);
            return 0;
        }
        if (realNetwork.enabled()) {
            final List<String> missing = Prerequisites.missing(EnumSet.allOf(Prerequisites.Tool.class));
            if (!missing.isEmpty()) {
                System.err.println("estimate accuracy --real-network: cannot run here; missing: " + String.join("; ", missing));
                return 2;
            }
        }
        final Path root = repositoryRoot();
        final Path out = (outputDirectory != null ? outputDirectory
            : root.resolve("benchmarks/target/estimate-accuracy").resolve(LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"))))
            .toAbsolutePath();
        Files.createDirectories(out);
        playerKit = ProcessKit.fromThisClasspath(out);
        // Ctrl-C: the hook stops the application and the demo (whose own hook stops its parts).
        final Thread stopper = new Thread(() -> {
            interrupted = true;
            stopEverything();
        }, "accuracy-harness-stop");
        Runtime.getRuntime().addShutdownHook(stopper);
        BesideSampler beside = null;
        try {
            final List<String> demoOptions = realNetwork.enabled() ? realNetwork.prepare(root, out, System.out) : List.of();
            System.out.println("estimate accuracy: starting ./latency demo " + String.join(" ", demoOptions)
                + " (it builds on first use); output in " + out);
            // The demo's own --duration is only a backstop: the harness stops it when the application is done.
            demo = DemoProcess.start(root, play.warmupSeconds() + durationSeconds + 300, out, noBuild, demoOptions);
            if (realNetwork.enabled()) {
                beside = BesideSampler.start(realNetwork.quietMachine(), out.resolve("beside.log"));
            }
            final DemoReady ready = demo.awaitReady(Duration.ofMinutes(15));
            System.out.println("estimate accuracy: demo ready (console " + ready.consoleUrl() + "); real CPU load "
                + (ready.loadDriven() ? "driven on the agents' cores" : "NOT driven (no stress-ng, taskset or second core): figures are not under load"));
            System.out.println("estimate accuracy: application shapes " + plan.label());
            final ProbeCost cost = play(out, ready);
            if (beside != null) {
                beside.stop();
            }
            stopDemo();
            report(out, cost, ready);
            return 0;
        } catch (IOException | IllegalStateException e) {
            System.err.println("estimate accuracy: " + e.getMessage());
            return 1;
        } finally {
            if (beside != null) {
                beside.stop();
            }
            stopEverything();
            try {
                Runtime.getRuntime().removeShutdownHook(stopper);
            } catch (IllegalStateException e) {
                // already shutting down: the hook runs anyway
            }
        }
    }

    /** Runs the application to its end; the cost is measured over exactly its recording window. */
    private ProbeCost play(final Path out, final DemoReady ready) throws IOException, InterruptedException {
        final Path records = out.resolve(BurstRecord.FILE_NAME);
        Files.deleteIfExists(records);
        final ProcessKit.Launch launch = playerKit.launchClass("player", ApplicationPlayer.class.getName())
            // its GC pauses land in its round trips: logged, so a slow burst can be told from a slow path
            .jvmOption("-Xlog:gc:file=" + out.resolve("player-gc.log"))
            .args("--ready", out.resolve("ready.json").toString(), "--records", records.toString(),
                "--duration-seconds", Long.toString(durationSeconds), "--burst-size", Integer.toString(burstSize))
            .args(play.asArguments());
        if (realNetwork.enabled()) {
            // On the client workstation's host, as an application there would be: its bursts cross the bottleneck to ws2.
            final String namespace = RealNetworkOptions.clientNamespace(ready);
            launch.inNetworkNamespace(namespace);
            System.out.println("estimate accuracy: the application runs in " + namespace + " (ws1), its bursts go to the peer agent in ws2");
        }
        player = launch.start();
        final ProbeCostMeter meter = new ProbeCostMeter(ready);
        // The player creates its records file when it starts recording (after its warm-up).
        final long startDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(play.warmupSeconds() + 120);
        while (!Files.exists(records)) {
            if (!player.isAlive() || System.nanoTime() - startDeadline > 0) {
                throw new IOException("the application did not start recording; " + player.logFile() + " says:\n" + player.log());
            }
            Thread.sleep(100);
        }
        meter.start();
        System.out.printf(Locale.ROOT, "estimate accuracy: recording for %d s (mean gap %.0f ms per connection; shapes as the player"
            + " logs in %s)%n", durationSeconds, play.gapMeanMillis(), player.logFile());
        final int exit;
        try {
            exit = player.awaitExit(Duration.ofSeconds(durationSeconds + 120));
        } catch (ReadinessException e) {
            throw new IOException("the application did not finish in time; see " + player.logFile(), e);
        }
        final ProbeCost cost = meter.finish();
        new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(out.resolve("cost.json").toFile(), cost);
        if (exit != 0 && interrupted) {
            throw new IOException("stopped before the end (Ctrl-C); the records so far are in " + records
                + ", to be analysed with --analyse " + out);
        }
        if (exit != 0) {
            throw new IOException("the application failed (exit " + exit + "); " + player.logFile() + " says:\n" + player.log());
        }
        return cost;
    }

    private void report(final Path directory, final ProbeCost cost, final DemoReady ready) throws IOException {
        final List<BurstRecord> records = BurstRecord.readAll(directory.resolve(BurstRecord.FILE_NAME));
        final List<ConnectionAccuracy> connections = AccuracyAnalysis.analyse(records, realNetwork.enabled());
        final long tested = records.stream().filter(r -> r.estimateAvailable() && r.stateHeld() && r.rttNanos().length > 0).count();
        final long discarded = records.stream().filter(r -> r.rttNanos().length > 0 && !r.stateHeld()).count();
        final AccuracyTargets targets = realNetwork.enabled() ? AccuracyTargets.realNetwork(minBursts) : new AccuracyTargets(minBursts);
        System.out.println();
        System.out.println("Estimates that hold: served estimates against the round trips that followed them (every application shape"
            + " together; per shape below)");
        System.out.printf(Locale.ROOT, "  %.0f s recorded: %d plays; %d bursts tested an estimate, %d discarded (the load state changed during"
            + " the burst)%n", cost.seconds(), records.size(), tested, discarded);
        if (ready != null) {
            System.out.println("  real CPU load: " + (ready.loadDriven() ? "stress-ng following the scenario on the agents' cores" : "NOT driven"));
        }
        System.out.println("  served = value_ms as served; thesis = thesis_value_ms of the same estimate, tested by the same bursts");
        if (realNetwork.enabled()) {
            System.out.printf(Locale.ROOT, "  targets (real network): coverage within nominal ± %.1f points, bound <= %.1f x the nominal"
                + " percentile of what followed, served mean within ± %.0f %% of the pooled mean of what followed, a loaded port state"
                + " served a value of another band %.0f %% of the time (median error and no estimate: shown, not judged)%n",
                targets.coverageTolerance() * 100, targets.maxBoundRatio(), targets.maxPooledMeanError() * 100,
                targets.maxOtherBandShare() * 100);
            System.out.println("  rows \"port X\": every CPU state together in that port state (band: LOADED N = the band up to N %;"
                + " SATURATED = carries its rate and drops); other band = reads served a value whose data describe another band only");
        } else {
            System.out.printf(Locale.ROOT, "  targets: coverage within nominal ± %.1f points, bound <= %.1f x the nominal percentile of what"
                + " followed, median error of the mean <= %.0f %%, no estimate for the current state <= %.0f %% of the time%n",
                targets.coverageTolerance() * 100, targets.maxBoundRatio(), targets.maxMedianRelativeError() * 100,
                targets.maxNoEstimateShare() * 100);
        }
        System.out.printf(Locale.ROOT, "  a state is judged with at least %d bursts (accuracy) or reads (no estimate); fewer: \"few data\"."
            + " no estimate = unavailable or the previous state's; pending = a measurement awaited; disc = discarded bursts%n", minBursts);
        final AccuracyReport report = new AccuracyReport(connections, cost, targets);
        report.print(System.out);
        final Path csv = directory.resolve("accuracy.csv");
        report.writeCsv(csv);
        final var paths = PathAnalysis.analyse(records);
        if (!paths.isEmpty()) {
            final double nominal = records.stream().filter(BurstRecord::isBound).mapToDouble(BurstRecord::boundPercent).findFirst()
                .orElse(96) / 100;
            final PathReport pathReport = new PathReport(paths, nominal, minBursts);
            pathReport.print(System.out);
            pathReport.writeCsv(directory.resolve(PathReport.CSV_FILE));
            System.out.println("  per pattern as CSV: " + directory.resolve(PathReport.CSV_FILE));
        }
        final List<ShapeAnalysis.ShapeAccuracy> shapes = ShapeAnalysis.analyse(records, realNetwork.enabled());
        final ShapeReport shapeReport = new ShapeReport(shapes, cost,
            realNetwork.enabled() ? ShapeTargets.realNetwork(shapeMinBursts) : ShapeTargets.loopback(shapeMinBursts));
        shapeReport.print(System.out);
        final List<Path> shapeCsvs = shapeReport.writeCsv(directory);
        if (meanSources) {
            MeanErrorSources.print(MeanErrorSources.analyse(records), System.out);
        }
        System.out.println();
        System.out.println("  raw records: " + directory.resolve(BurstRecord.FILE_NAME) + "; figures as CSV: " + csv
            + " (every shape together); per shape: " + String.join(", ", shapeCsvs.stream().map(file -> file.getFileName().toString()).toList()));
    }

    private void stopDemo() throws InterruptedException {
        final DemoProcess running = demo;
        if (running == null || running.stopped()) {
            return;
        }
        final List<ProcessHandle> killed = running.stop(Duration.ofSeconds(60));
        System.out.println("estimate accuracy: demo stopped" + (killed.isEmpty() ? "; nothing left running"
            : "; had to kill " + killed.stream().map(handle -> Long.toString(handle.pid())).toList()));
    }

    private synchronized void stopEverything() {
        final ProcessKit kit = playerKit;
        if (kit != null) {
            kit.stopAll();
        }
        try {
            stopDemo();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The directory holding ./latency: the working directory or its parent (run from the root or from benchmarks/). */
    private static Path repositoryRoot() throws IOException {
        for (final Path candidate : List.of(Path.of("").toAbsolutePath(), Path.of("").toAbsolutePath().getParent())) {
            if (candidate != null && Files.isExecutable(candidate.resolve("latency")) && Files.exists(candidate.resolve("pom.xml"))) {
                return candidate;
            }
        }
        throw new IOException("run from the repository root: no ./latency here or in the parent directory");
    }
}
