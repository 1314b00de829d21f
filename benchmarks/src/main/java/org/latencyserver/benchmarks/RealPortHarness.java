package org.latencyserver.benchmarks;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.latencyserver.benchmarks.accuracy.DemoProcess;
import org.latencyserver.benchmarks.realport.BesideWork;
import org.latencyserver.benchmarks.realport.BottleneckShare;
import org.latencyserver.benchmarks.realport.PortRun;
import org.latencyserver.benchmarks.realport.RealPortAnalysis;
import org.latencyserver.benchmarks.realport.RunRecord;
import org.latencyserver.demo.DemoReady;
import org.latencyserver.launch.ChildProcess;
import org.latencyserver.launch.ProcessKit;
import org.latencyserver.launch.ReadinessException;
import org.latencyserver.launch.ReadyFile;
import org.latencyserver.testbed.Prerequisites;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * A real port on the testbed: how fast a real load change becomes an estimate for the new band, whether any
 * result stays filed under a state that did not hold throughout it, and what share of the bottleneck the agents
 * take while measuring and probing.
 *
 * <p>Runs {@code ./latency demo --real-network} (root) on a testbed of its own name ({@code --name}, default
 * {@code rp}: namespaces {@code lt-rp-*}) with an idle scenario and no CPU load — the demo's configuration: port
 * bands, the switch's tbf drops as {@code discards_oid}, {@code settle_millis} 5100, {@code path_share_percent}
 * 5; QoS 1–4 from ws1 to ws2 across the 20 Mbit/s port — and beside it {@link PortRun} in srv's namespace, which
 * drives the port through idle → 95 % → overload (115 %) → idle N times with the testbed's iperf3 load and
 * records, typed, what the server showed ({@link RunRecord}). Then once more, shorter, with another
 * {@code path_share_percent} ({@code --second-share}), for the agents' share only. Prints the figures
 * ({@link RealPortAnalysis}) as tables and writes them to {@code report.md} in the output directory, with each
 * run's {@value RunRecord#FILE_NAME} and logs.
 *
 * <p>Every exit path (the end, a failure, Ctrl-C) stops the run in srv and the demo, which removes its testbed
 * (namespaces, snmpd, iperf3); the harness checks that no namespace of it is left. Without root or one of
 * {@code ip}, {@code tc}, {@code snmpd}, {@code iperf3} it says what is missing and exits 2.
 *
 * <p>Run: {@code java -cp benchmarks/target/benchmarks.jar org.latencyserver.benchmarks.RealPortHarness [CYCLES]} from
 * the repository root.
 */
@Command(name = "RealPortHarness", mixinStandardHelpOptions = true,
    description = "Real port changes on the testbed: time to a new-band estimate, results filed, the agents' share of the port.")
public final class RealPortHarness implements Callable<Integer> {

    static final int EXIT_CANNOT_RUN = 2;
    /** The demo's server, as its ready file names it in the work directory. */
    private static final String SERVER_READY = "server.ready.json";
    /** The link of the demo's configuration: switch sw1's port toward ws2. */
    static final String LINK = "sw1-ws2";

    @Parameters(index = "0", defaultValue = "10", paramLabel = "CYCLES",
        description = "How often the port goes idle → 95 % → overload → idle (default: ${DEFAULT-VALUE}; at least 10 for the figures).")
    private int cycles;

    @Option(names = "--hold-seconds", description = "How long each load step holds (default: ${DEFAULT-VALUE}).")
    private long holdSeconds = 15;

    @Option(names = "--second-share", description = "path_share_percent of the second, shorter run (default: ${DEFAULT-VALUE}; 0: none).")
    private double secondShare = 20;

    @Option(names = "--second-cycles", description = "Cycles of the second run (default: ${DEFAULT-VALUE}).")
    private int secondCycles = 3;

    @Option(names = "--name", description = "The testbed's name (default: ${DEFAULT-VALUE}; namespaces lt-NAME-*).")
    private String name = "rp";

    @Option(names = "--out", paramLabel = "DIR", description = "Output directory (default: benchmarks/target/real-port/TIMESTAMP).")
    private Path outputDirectory;

    @Option(names = "--no-build", description = "Do not let ./latency rebuild (the build is fresh, or another module is mid-change).")
    private boolean noBuild;

    @Option(names = "--analyse", paramLabel = "DIR", description = "Only print the figures of an earlier run's directory.")
    private Path analyseDirectory;

    private final Object lifecycle = new Object();
    private DemoProcess demo;
    private ProcessKit kit;

    /** @param args see {@code --help} */
    public static void main(final String[] args) {
        System.exit(new CommandLine(new RealPortHarness()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        if (analyseDirectory != null) {
            final List<Path> runs;
            try (var entries = Files.list(analyseDirectory)) {
                runs = entries.filter(p -> Files.exists(p.resolve(RunRecord.FILE_NAME))).sorted().toList();
            }
            final StringBuilder report = new StringBuilder();
            for (final Path run : runs) {
                report.append(report(RunRecord.read(run), run.getFileName().toString(), null));
            }
            System.out.print(report);
            return 0;
        }
        final List<String> missing = new ArrayList<>(Prerequisites.missing(EnumSet.allOf(Prerequisites.Tool.class)));
        if (!missing.isEmpty()) {
            System.err.println("RealPortHarness: cannot run here; missing: " + String.join("; ", missing));
            return EXIT_CANNOT_RUN;
        }
        if (cycles < 1 || holdSeconds < 5) {
            System.err.println("RealPortHarness: CYCLES must be at least 1 and --hold-seconds at least 5");
            return EXIT_CANNOT_RUN;
        }
        final Path root = RepositoryFiles.locate("latency").toAbsolutePath().normalize().getParent();
        final Path out = (outputDirectory != null ? outputDirectory : root.resolve("benchmarks/target/real-port")
            .resolve(LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")))).toAbsolutePath();
        Files.createDirectories(out);
        Runtime.getRuntime().addShutdownHook(new Thread(this::stopEverything, "real-port-stop"));
        final StringBuilder report = new StringBuilder();
        report.append("RealPortHarness ").append(cycles).append(" (hold ").append(holdSeconds).append(" s; output ").append(out)
            .append(")\n\n");
        try {
            report.append(runOnce(root, out.resolve("share-" + plain(5)), 5, cycles));
            Files.writeString(out.resolve("report.md"), report);
            if (secondShare > 0) {
                report.append(runOnce(root, out.resolve("share-" + plain(secondShare)), secondShare, secondCycles));
            }
        } catch (IOException | ReadinessException e) {
            System.err.println("RealPortHarness: " + e.getMessage());
            Files.writeString(out.resolve("report.md"), report);
            return 1;
        } finally {
            stopEverything();
        }
        Files.writeString(out.resolve("report.md"), report);
        System.out.print(report);
        return 0;
    }

    /** One demo, one recorded run in srv, stopped; the figures of it. */
    private String runOnce(final Path root, final Path directory, final double share, final int runCycles) throws Exception {
        Files.createDirectories(directory);
        final Path scenario = directory.resolve("idle-scenario.yaml");
        // One idle step that outlasts the run: the port load is the harness's own, CPU load none.
        Files.writeString(scenario, String.join("\n", "step_seconds: 86400", "loop: false", "steps:",
            "  - { cpu: { ws1: 0, ws2: 0 }, port: { ws2: 0 } }", ""));
        final long runSeconds = 90 + runCycles * 3 * holdSeconds + 60;
        final BesideWork beside = new BesideWork("lt-" + name + "-");
        beside.begin();
        System.out.printf(Locale.ROOT, "RealPortHarness: starting ./latency demo --real-network (testbed %s, path_share_percent %s)%n",
            name, plain(share));
        final DemoProcess started = DemoProcess.start(root, runSeconds + 300, directory, noBuild, List.of("--real-network", "--testbed-name",
            name, "--scenario", scenario.toString(), "--no-load", "--path-share-percent", plain(share)));
        synchronized (lifecycle) {
            demo = started;
        }
        final DemoReady ready = started.awaitReady(Duration.ofSeconds(240));
        final ReadyFile server = ReadyFile.read(ready.workDir().resolve(SERVER_READY));
        final Path testbedState = ready.file().file(DemoReady.TESTBED_STATUS).getParent();
        final String srv = ready.namespaceOf("server").orElseThrow(() -> new IOException("the demo's ready file names no server namespace"));
        final ChildProcess run;
        synchronized (lifecycle) {
            kit = ProcessKit.fromThisClasspath(directory);
            run = kit.launchClass("port-run", PortRun.class.getName()).args("--naming", ready.naming(), "--server", ready.serverName(),
                "--metrics-url", server.url("metrics"), "--testbed-state", testbedState.toString(), "--cycles", Integer.toString(runCycles),
                "--hold-seconds", Long.toString(holdSeconds), "--path-share-percent", plain(share), "--out", directory.toString())
                .inNetworkNamespace(srv).start();
        }
        System.out.printf(Locale.ROOT, "RealPortHarness: recording %d cycles of %d s in %s (log %s)%n", runCycles, 3 * holdSeconds, srv,
            run.logFile());
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(runSeconds + 120);
        while (run.isAlive()) {
            if (!started.isAlive()) {
                throw new IOException("the demo stopped during the run; its log: " + started.log());
            }
            if (System.nanoTime() - deadline > 0) {
                throw new IOException("the run in srv did not end in time; its log: " + run.logFile());
            }
            Thread.sleep(500);
        }
        final int exit = run.awaitExit(Duration.ofSeconds(5));
        final BesideWork.Report besides = beside.end(5);
        final List<ProcessHandle> leftOver = started.stop(Duration.ofSeconds(60));
        if (exit != 0) {
            throw new IOException("the run in srv exited " + exit + "; " + run.logEnd());
        }
        final String demoLog = Files.readString(started.log(), StandardCharsets.UTF_8);
        final List<String> namespaces = testbedNamespaces();
        final String stopped = (leftOver.isEmpty() && namespaces.isEmpty() && demoLog.contains("nothing left running"))
            ? "the demo stopped everything (no process, no namespace of testbed " + name + " left)"
            : "NOT everything stopped: processes " + leftOver + ", namespaces " + namespaces;
        return report(RunRecord.read(directory), "path_share_percent " + plain(share), besides.describe() + "; " + stopped);
    }

    /** @return the namespaces of this harness's testbed that exist */
    private List<String> testbedNamespaces() throws IOException, InterruptedException {
        final Process ip = new ProcessBuilder("ip", "netns", "list").redirectErrorStream(true).start();
        final String text = new String(ip.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        ip.waitFor();
        return text.lines().map(l -> l.split(" ")[0]).filter(n -> n.startsWith("lt-" + name + "-")).toList();
    }

    /** Stops the run in srv and the demo (which removes its testbed); safe to call twice, from any thread. */
    private void stopEverything() {
        synchronized (lifecycle) {
            if (kit != null) {
                kit.stopAll();
                kit = null;
            }
            if (demo != null) {
                try {
                    demo.stop(Duration.ofSeconds(60));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                demo = null;
            }
        }
    }

    /** @return the figures of one run as Markdown */
    static String report(final RunRecord record, final String title, final String beside) {
        final StringBuilder out = new StringBuilder();
        final double refresh = RealPortAnalysis.refreshSeconds(record, LINK);
        final double targetMillis = (refresh + record.pollIntervalMillis() / 1000.0 + 1) * 1000;
        final long cyclesRun = record.changes().stream().mapToInt(RunRecord.Change::cycle).max().orElse(0);
        out.append(String.format(Locale.ROOT, "### %s: %d cycles, %.0f s recorded%n%n", title, cyclesRun,
            (record.endEpochMillis() - record.startEpochMillis()) / 1000.0));
        out.append(String.format(Locale.ROOT, "Link %s: counter refresh %.2f s (latency_server_snmp_counter_refresh_seconds, median of"
            + " the run's readings), poll %d ms: target refresh + 1 poll + 1 s = %.2f s. Reads every %d ms.%n%n", LINK, refresh,
            record.pollIntervalMillis(), targetMillis / 1000, record.samplePeriodMillis()));
        out.append("| change | n (already shown) | port_state shows it: reached, p50, max | first state shown | QoS 1 estimate for it:"
            + " reached, p50, max | value unchanged | p50 / max ≤ target |\n|---|---|---|---|---|---|---|\n");
        for (final RealPortAnalysis.KindSummary k : RealPortAnalysis.summarise(RealPortAnalysis.timeChanges(record, 1))) {
            out.append(String.format(Locale.ROOT, "| %s | %d (%d) | %d, %s, %s | %s | %d, %s, %s | %d | %s / %s |%n", k.kind().label(),
                k.changes(), k.alreadyShown(), k.stateReached(), seconds(k.stateP50Millis()), seconds(k.stateMaxMillis()),
                k.firstStates().entrySet().stream().map(e -> stateName(e.getKey()) + " ×" + e.getValue()).collect(Collectors.joining(", ")),
                k.estimateReached(), seconds(k.estimateP50Millis()), seconds(k.estimateMaxMillis()), k.valueUnchanged(),
                k.timed() == 0 ? "—" : k.estimateP50Millis() <= targetMillis ? "yes" : "no",
                k.timed() == 0 ? "—" : k.estimateMaxMillis() <= targetMillis && k.estimateReached() == k.timed() ? "yes" : "no"));
        }
        for (final int load : record.changes().stream().mapToInt(RunRecord.Change::toPercent).filter(p -> p > 0).distinct().sorted()
            .toArray()) {
            final double[] drops = RealPortAnalysis.dropsAt(record, load);
            out.append(String.format(Locale.ROOT, "%nAt %d %% offered: the tbf dropped %.0f of %.0f packets (%.2f %%); QoS 1's reads showed"
                + " SATURATED %s of the time.", load, drops[0], drops[0] + drops[1], drops[1] + drops[0] > 0 ? 100 * drops[0]
                / (drops[0] + drops[1]) : 0, percent(drops[2])));
        }
        out.append('\n');
        appendFiled(out, record);
        appendAgentsShare(out, record);
        if (beside != null) {
            out.append("\nBeside it: ").append(beside).append('\n');
        }
        out.append('\n');
        return out.toString();
    }

    /** The QoS 3/4 results accepted, taken back and still filed, and those that span a real change. */
    private static void appendFiled(final StringBuilder out, final RunRecord record) {
        final RealPortAnalysis.FiledCheck filed = RealPortAnalysis.checkFiled(record);
        out.append(String.format(Locale.ROOT, "%nQoS 3/4 results: %d accepted during the run; %d taken back (the state they were filed"
                + " under reverted, read through calibration()), %d seen served but taken back before a read, %d still filed;"
                + " latency_server_measurements_taken_back_total rose by %s. Of the taken-back ones, %d spanned a real change.%n%n",
            filed.accepted(), filed.takenBack(), filed.servedNeverFiled(), filed.stillFiled(), plain(filed.metricTakenBack()),
            filed.takenBackSpanning()));
        out.append("| still-filed results that | count | target |\n|---|---|---|\n");
        out.append(String.format(Locale.ROOT, "| span a real change within their run (arrival − time budget − %d ms, or the request's issue"
            + " if later, to arrival) | %d | 0 |%n", RealPortAnalysis.RUN_MARGIN_MILLIS, filed.spanningRun()));
        out.append(String.format(Locale.ROOT, "| span a real change between their request's issue and their arrival (warm-up and"
            + " queueing included: stricter than needed) | %d | — |%n", filed.spanningWide()));
        out.append(String.format(Locale.ROOT, "| sit under a port state the real load does not show (no change in their run) | %d | 0 |%n",
            filed.filedUnderOtherState()));
        for (final RealPortAnalysis.Result r : filed.offenders()) {
            out.append(String.format(Locale.ROOT, "%n- offender: connection %d, accepted at +%.1f s under port state %d, request issued at"
                    + " +%s s; load then %d %%", r.indexRef(), (r.acceptedMillis() - record.startEpochMillis()) / 1000.0, r.portState(),
                r.requestIssuedMillis() == null ? "?" : String.format(Locale.ROOT, "%.1f", (r.requestIssuedMillis() - record.startEpochMillis())
                    / 1000.0), RealPortAnalysis.loadAt(record, r.acceptedMillis())));
        }
    }

    /** The agents' share of the port while no iperf3 load runs. */
    private static void appendAgentsShare(final StringBuilder out, final RunRecord record) {
        final BottleneckShare.AgentsShare share = BottleneckShare.agentsShare(record);
        out.append(String.format(Locale.ROOT, "%nThe agents' share of the %s Mbit/s port, no iperf3 load (%d idle steps after a load,"
            + " from %d ms after it stopped), from the tbf's byte counter (tc -s, every %d ms):%n%n", plain(record.rateMbit()),
            share.idleSteps(), BottleneckShare.SETTLE_AFTER_STOP_MILLIS, 250));
        out.append("| path_share_percent | idle steps in all: time, share, highest 1 s, mean frame | while a QoS 3/4 request was open"
            + " | while none was (probes; a superseded run finishing) | pace the requests carried (share at it, per size) |\n"
            + "|---|---|---|---|---|\n");
        out.append(String.format(Locale.ROOT, "| %s %% | %.0f s, %s, %s, %.0f B | %.0f s, %s, %s, %.0f B | %.0f s, %s, %s, %.0f B | %s |%n",
            plain(record.pathSharePercent()), share.all().seconds(), percent(share.all().share()), percent(share.all().maxSecondShare()),
            share.all().bytesPerFrame(), share.measuring().seconds(), percent(share.measuring().share()),
            percent(share.measuring().maxSecondShare()), share.measuring().bytesPerFrame(), share.probing().seconds(),
            percent(share.probing().share()), percent(share.probing().maxSecondShare()), share.probing().bytesPerFrame(),
            share.paces().entrySet().stream().map(e -> e.getKey() + " B " + percent(e.getValue())).collect(Collectors.joining(", "))));
    }

    private static String stateName(final int code) {
        return code == 0 ? "NORMAL" : code == 101 ? "SATURATED" : "LOADED " + code;
    }

    private static String seconds(final double millis) {
        return Double.isNaN(millis) ? "—" : String.format(Locale.ROOT, "%.2f s", millis / 1000);
    }

    private static String percent(final double ratio) {
        return Double.isNaN(ratio) ? "—" : String.format(Locale.ROOT, "%.1f %%", ratio * 100);
    }

    static String plain(final double value) {
        return Double.isNaN(value) ? "n/a" : value == Math.rint(value) ? Long.toString((long) value) : Double.toString(value);
    }
}
