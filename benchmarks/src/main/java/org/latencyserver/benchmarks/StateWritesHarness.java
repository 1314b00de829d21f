package org.latencyserver.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.latencyserver.benchmarks.accuracy.DemoProcess;
import org.latencyserver.core.histogram.LatencyHistogram;
import org.latencyserver.demo.DemoReady;
import org.latencyserver.idl.Latserv;
import org.latencyserver.idl.LatservHelper;
import org.latencyserver.idl.LatservPackage.IdlMibUpdates;
import org.latencyserver.idl.latency.HistogramBins;
import org.latencyserver.idl.latency.LatencyService;
import org.latencyserver.idl.latency.LatencyServiceHelper;
import org.latencyserver.idl.latency.MeasuredResult;
import org.latencyserver.idl.latency.MeasurementRequest;
import org.latencyserver.launch.ChildProcess;
import org.latencyserver.launch.Component;
import org.latencyserver.launch.ProcessKit;
import org.latencyserver.launch.ReadyFile;
import org.latencyserver.launch.TemporaryDirectory;
import org.latencyserver.orb.OrbSupport;
import org.latencyserver.testkit.MetricsText;
import org.omg.CORBA.ORB;

/**
 * How much the server writes to its state file and journal per change of its table, read from its
 * own counters ({@code latency_server_state_changes_total}, {@code _saves_total},
 * {@code _saved_bytes_total}, the last two split by {@code file="journal"|"state_file"}):
 * <ul>
 *   <li>{@code testbed}: {@code examples/thesis-testbed.yaml} (with {@code min_interval_millis: 0}
 *       so that the measurements come at once), QoS 3/4 connections measured in three load states
 *       each with 1000-round-trip histograms as an agent sends them, then the thesis emulator's
 *       push mode — {@code PutMibUpdates} for all six connections every 100 ms, one caller — for
 *       the given seconds. Also the time of each {@code PutMibUpdates} (it is answered once its change is in the journal)
 *       beside a {@code RequestStatus} (a read) in the same run.</li>
 *   <li>{@code demo}: {@code ./latency demo} (examples/demo/demo.yaml: SNMP polling at 10 Hz, real
 *       agents measuring QoS 3/4 and probing), counters read after a warm-up in which measurements
 *       were made, and again the given seconds later.</li>
 * </ul>
 *
 * <p>Run from the repository root: {@code java -cp benchmarks/target/benchmarks.jar
 * org.latencyserver.benchmarks.StateWritesHarness [testbed|demo|both] [SECONDS]}. With
 * {@code -Dstate.writes.server.classpath=CP} the testbed's server runs from another build (to
 * compare with an earlier version; its counters read n/a where it has none). The server is started
 * through the process kit; its log and ready file are in the run's temporary directory.
 */
public final class StateWritesHarness {

    private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);

    private StateWritesHarness() {
    }

    /**
     * @param args {@code testbed}, {@code demo} or {@code both} (default), then seconds of steady
     *             load to count over (default 30)
     * @throws Exception when a process or call fails
     */
    public static void main(final String[] args) throws Exception {
        final String which = args.length > 0 ? args[0] : "both";
        final int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 30;
        if (!which.equals("demo")) {
            testbed(seconds);
        }
        if (!which.equals("testbed")) {
            demo(seconds);
        }
    }

    private static void testbed(final int seconds) throws Exception {
        try (TemporaryDirectory scratch = TemporaryDirectory.create("state-writes-testbed")) {
            final Path work = scratch.path();
            final Path config = RepositoryFiles.testbedConfig(work);
            Files.writeString(config, Files.readString(config).replace("min_interval_millis: 5000", "min_interval_millis: 0"));
            final Path ior = work.resolve("server.ior");
            final String otherBuild = System.getProperty("state.writes.server.classpath");
            final ORB orb = OrbSupport.init(new String[0], OrbSupport.properties("127.0.0.1", 0, 10_000));
            try (ProcessKit kit = ProcessKit.fromThisClasspath(work)) {
                final TestbedServer server = startTestbedServer(kit, config, ior, otherBuild);
                final String reference = server.reference();
                final String metricsUrl = server.metricsUrl();
                final Latserv latserv = LatservHelper.narrow(orb.string_to_object(reference));
                final LatencyService service = LatencyServiceHelper.narrow(orb.string_to_object(reference));
                final Random random = new Random(12);
                int measurements = 0;
                for (final int cpu : new int[] {10, 50, 90}) {
                    for (short ref = 1; ref <= 6; ref++) {
                        push(latserv, ref, cpu, cpu, 20);
                    }
                    measurements += submitOpenRequests(service, random);
                }
                final Counters before = Counters.read(metricsUrl);
                final long countStartNanos = System.nanoTime();
                final Histogram puts = new Histogram(3_600_000_000_000L, 3);
                final Histogram reads = new Histogram(3_600_000_000_000L, 3);
                steadyPushes(latserv, seconds, puts, reads);
                final Counters after = Counters.read(metricsUrl);
                final long countedNanos = System.nanoTime() - countStartNanos;
                System.out.printf(Locale.ROOT, "thesis testbed, %d measurements (1000 round trips each) in the file, then %d s of "
                    + "PutMibUpdates for 6 connections at 10 Hz:%n", measurements, seconds);
                after.minus(before).print(work.resolve("thesis-testbed.state.json"), (countedNanos) / 1e9);
                System.out.printf(Locale.ROOT, "  PutMibUpdates (answered once saved): p50 %.0f us, p99 %.0f us, max %.0f us; "
                    + "RequestStatus: p50 %.0f us, p99 %.0f us%n", puts.getValueAtPercentile(50) / 1e3, puts.getValueAtPercentile(99) / 1e3,
                    puts.getMaxValue() / 1e3, reads.getValueAtPercentile(50) / 1e3, reads.getValueAtPercentile(99) / 1e3);
            } finally {
                orb.shutdown(false);
            }
        }
    }

    /** The testbed's server: its IOR and its metrics address. */
    private record TestbedServer(String reference, String metricsUrl) {
    }

    /** Starts this build's server, or another build's when {@code otherBuild} (a classpath) is given. */
    private static TestbedServer startTestbedServer(final ProcessKit kit, final Path config, final Path ior, final String otherBuild)
        throws IOException, InterruptedException {
        if (otherBuild == null) {
            final ReadyFile ready = kit.launch(Component.SERVER)
                .args("--config", config.toString(), "--ior-file", ior.toString(), "--metrics-port", "0")
                .start().awaitReady(READY_TIMEOUT);
            return new TestbedServer(ready.reference("server"), ready.url("metrics"));
        }
        final int metricsPort = freePort();
        final String reference = startOtherBuild(kit, otherBuild, config, ior, metricsPort);
        return new TestbedServer(reference, "http://127.0.0.1:" + metricsPort + "/metrics");
    }

    /**
     * Pushes the six connections at 10 Hz for {@code seconds}, each followed by a RequestStatus;
     * their times go to {@code puts} and {@code reads}, ns.
     */
    private static void steadyPushes(final Latserv latserv, final int seconds, final Histogram puts, final Histogram reads)
        throws InterruptedException {
        final long endNanos = System.nanoTime() + seconds * 1_000_000_000L;
        long nextRoundNanos = System.nanoTime();
        int step = 0;
        while (System.nanoTime() < endNanos) {
            // Within MEDIUM/MEDIUM and a NORMAL port: every push changes its row, none changes a state.
            final int cpu = 45 + step % 10;
            for (short ref = 1; ref <= 6; ref++) {
                long start = System.nanoTime();
                push(latserv, ref, cpu, cpu, 20 + step % 5);
                puts.recordValue(System.nanoTime() - start);
                start = System.nanoTime();
                latserv.RequestStatus(ref);
                reads.recordValue(System.nanoTime() - start);
            }
            step++;
            nextRoundNanos += 100_000_000L;
            TimeUnit.NANOSECONDS.sleep(Math.max(0, nextRoundNanos - System.nanoTime()));
        }
    }

    /**
     * Starts the server of another build (its classes on {@code classpath}), by the registry's main
     * class, and waits for its IOR file: builds from before the ready file (docs/ready-files.md), such
     * as the "before" of docs/benchmarks.md, have no other way to say that they serve.
     *
     * @return the server's IOR
     */
    private static String startOtherBuild(final ProcessKit kit, final String classpath, final Path config, final Path ior,
                                          final int metricsPort) throws IOException, InterruptedException {
        final ChildProcess server = kit.launchProgram("server", List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-cp", classpath, Component.SERVER.mainClass()))
            .args("--config", config.toString(), "--ior-file", ior.toString(), "--metrics-port", Integer.toString(metricsPort))
            .start();
        final long deadlineNanos = System.nanoTime() + READY_TIMEOUT.toNanos();
        while (!(Files.exists(ior) && Files.readString(ior).startsWith("IOR:"))) {
            if (!server.isAlive() || System.nanoTime() > deadlineNanos) {
                throw new IllegalStateException("the server of " + classpath + " wrote no IOR to " + ior + "; " + server.logEnd());
            }
            Thread.sleep(50);
        }
        return Files.readString(ior).trim();
    }

    /** @return a TCP port that was free a moment ago (another build's server may not take 0) */
    private static int freePort() throws IOException {
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static void demo(final int seconds) throws Exception {
        try (TemporaryDirectory scratch = TemporaryDirectory.create("state-writes-demo")) {
            final Path work = scratch.path();
            final DemoProcess demo = DemoProcess.start(Path.of("").toAbsolutePath(), 3600, work, false);
            try {
                final DemoReady ready = demo.awaitReady(Duration.ofMinutes(10));
                final String metricsUrl = ready.metricsUrl()
                    .orElseThrow(() -> new IllegalStateException("the demo's server has no metrics endpoint"));
                // The scenario changes load every 12 s; a minute gives each measured connection a few measurements.
                Thread.sleep(60_000);
                final Counters before = Counters.read(metricsUrl);
                Thread.sleep(seconds * 1000L);
                final Counters after = Counters.read(metricsUrl);
                System.out.printf(Locale.ROOT, "demo (SNMP at 10 Hz, agents measuring and probing), %.0f measurements accepted so far, "
                    + "counted over %d s after a 60 s warm-up:%n", after.measurements, seconds);
                after.minus(before).print(ready.workDir().resolve("demo.state.json"), seconds);
            } finally {
                demo.stop(Duration.ofSeconds(20));
            }
        }
    }

    /**
     * Measures, as an agent would, each of the three measured connections (4, 5: QoS 3; 6: QoS 4)
     * once their requests open: at most two are open at a time (max_concurrent_measurements), so
     * the third opens when one of the others is answered.
     */
    private static int submitOpenRequests(final LatencyService service, final Random random) throws Exception {
        final long deadline = System.nanoTime() + 10_000_000_000L;
        final java.util.Set<Long> answered = new java.util.HashSet<>();
        while (answered.size() < 3 && System.nanoTime() < deadline) {
            for (final MeasurementRequest request : service.pending_measurements()) {
                if (answered.add(request.ticket)) {
                    service.submit_measurement(result(request, random));
                }
            }
            Thread.sleep(50);
        }
        return answered.size();
    }

    /** A plausible 1000-round-trip result with a fine histogram, as an agent sends it. */
    private static MeasuredResult result(final MeasurementRequest request, final Random random) {
        final Histogram hdr = new Histogram(1, 60_000_000_000L, 3);
        for (int i = 0; i < 1000; i++) {
            hdr.recordValue(150_000 + (long) (Math.abs(random.nextGaussian()) * 80_000));
        }
        final LatencyHistogram histogram = LatencyHistogram.fromHdr(hdr);
        return new MeasuredResult(request.index_ref, request.ticket,
            new HistogramBins(histogram.upperEdgesNanos(), histogram.counts(), histogram.overflowCount()), hdr.getTotalCount(),
            hdr.getMean() / 1e6, hdr.getStdDeviation() / 1e6, hdr.getMaxValue() / 1e6, 20, 0, "state-writes-harness", new double[0]);
    }

    private static void push(final Latserv latserv, final short ref, final int client, final int peer, final int port) {
        latserv.PutMibUpdates(new IdlMibUpdates(ref, (short) client, (short) peer, (short) port), ref);
    }

    /**
     * The state store's counters and the measurements accepted, from the Prometheus text endpoint;
     * the split between journal and state file is NaN for a server that has no journal.
     */
    private record Counters(double changes, double saves, double bytes, double journalSaves, double journalBytes,
                            double stateFileSaves, double stateFileBytes, double measurements) {

        static Counters read(final String metricsUrl) throws IOException, InterruptedException {
            final MetricsText scrape = MetricsText.scrape(metricsUrl);
            return new Counters(sum(scrape, "latency_server_state_changes_total"),
                sum(scrape, "latency_server_state_saves_total"), sum(scrape, "latency_server_state_saved_bytes_total"),
                sum(scrape, "latency_server_state_saves_total", "file", "journal"),
                sum(scrape, "latency_server_state_saved_bytes_total", "file", "journal"),
                sum(scrape, "latency_server_state_saves_total", "file", "state_file"),
                sum(scrape, "latency_server_state_saved_bytes_total", "file", "state_file"),
                sum(scrape, "latency_server_calls_total", "operation", "submit_measurement"));
        }

        Counters minus(final Counters earlier) {
            return new Counters(changes - earlier.changes, saves - earlier.saves, bytes - earlier.bytes,
                journalSaves - earlier.journalSaves, journalBytes - earlier.journalBytes, stateFileSaves - earlier.stateFileSaves,
                stateFileBytes - earlier.stateFileBytes, measurements - earlier.measurements);
        }

        void print(final Path stateFile, final double seconds) throws IOException {
            final Path journal = stateFile.resolveSibling(stateFile.getFileName() + ".journal");
            System.out.printf(Locale.ROOT, "  changes %.0f (%.1f/s), saves %.0f (%.3f per change), %.0f bytes written (%.0f bytes/s): "
                + "%.0f bytes per save, %.0f bytes per change; state file now %d bytes, journal %d bytes%n", changes,
                changes / seconds, saves, saves / changes, bytes, bytes / seconds, bytes / saves, bytes / changes,
                Files.size(stateFile), Files.exists(journal) ? Files.size(journal) : 0);
            if (!Double.isNaN(journalSaves)) {
                System.out.printf(Locale.ROOT, "  journal: %.0f appends, %.0f bytes (%.0f per append, %.0f per change); state files: "
                    + "%.0f, %.0f bytes (%.0f each, %.0f per change)%n", journalSaves, journalBytes, journalBytes / journalSaves,
                    journalBytes / changes, stateFileSaves, stateFileBytes, stateFileBytes / stateFileSaves, stateFileBytes / changes);
            }
        }

        /** @return the sum of the samples of {@code name} carrying these labels (name, value…); NaN when none */
        private static double sum(final MetricsText scrape, final String name, final String... labels) {
            return scrape.has(name, labels) ? scrape.sum(name, labels) : Double.NaN;
        }
    }
}
