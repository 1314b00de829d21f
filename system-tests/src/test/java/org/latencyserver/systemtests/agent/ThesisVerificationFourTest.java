package org.latencyserver.systemtests.agent;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;
import org.latencyserver.agent.load.CorePinning;
import org.latencyserver.agent.load.CoreUtilisation;
import org.latencyserver.agent.load.LoadDriver;
import org.latencyserver.agent.profiler.DriveCorrection;
import org.latencyserver.core.state.CpuState;
import org.latencyserver.core.state.CpuStateClassifier;
import org.latencyserver.idl.Latserv;
import org.latencyserver.idl.LatservHelper;
import org.latencyserver.idl.LatservPackage.IdlMibUpdates;
import org.latencyserver.idl.LatservPackage.TableRow;
import org.latencyserver.idl.latency.ConfidenceInterval;
import org.latencyserver.idl.latency.Estimate;
import org.latencyserver.idl.latency.LatencyService;
import org.latencyserver.idl.latency.LatencyServiceHelper;
import org.latencyserver.launch.ChildProcess;
import org.latencyserver.launch.Component;
import org.latencyserver.orb.OrbSupport;
import org.latencyserver.systemtests.kit.LogWatch;
import org.latencyserver.systemtests.kit.MachineContention;
import org.latencyserver.systemtests.kit.MachineContention.OtherWork;
import org.latencyserver.systemtests.kit.ReadyProcess;
import org.latencyserver.systemtests.kit.SystemUnderTest;
import org.latencyserver.testkit.config.ServerYaml.Connection;
import org.latencyserver.testkit.config.ServerYaml.Link;
import org.latencyserver.testkit.config.ServerYaml.Node;
import org.omg.CORBA.ORB;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Thesis verification test 4 (§4.3): "for QoS 3 the Latency Server provided latency estimates that
 * were consistent with the QoS 1 estimates … for all the CPU states", with the port below 90 %.
 *
 * <p>QoS 1 comes from a profile the profiler measures on this machine at the start of the test
 * ({@code profile measure --sizes 256}, as a planner would), QoS 3 from a client agent measuring
 * under the same load, set up as the profiler set up its run: the client agent pinned to core 0 once
 * started ({@code --pin-core}), the peer agent started pinned to core 1, round trips paced one per
 * 2 ms, and each core driven to its state by a pinned load driver set to target minus what the
 * round trips cost alone. The achieved utilisation of each core is read from /proc/stat over the
 * measurement itself; a measurement whose load missed its state is not compared but repeated with
 * the drivers corrected, as the profiler repeats a pair.
 *
 * <p>Why a fresh profile and not the shipped one: this shared machine drifts from day to day by
 * more than the difference under test (on 2026-11-23 every 256 B cell read 21–46 % below the
 * shipped profile of the day before; {@code docs/benchmarks.md}), and within a minute by up to 2×
 * ({@code RunToRunDriftHarness}). "Consistent", as in the thesis, is therefore a tolerance and not
 * a CI test, in two parts: the geometric mean of the six ratios QoS 3 / QoS 1 lies within 1.5× of
 * 1 (a systematic difference between the agent's path and the profiler's), and each pair's ratio
 * within 2.5× (a gross error in one state). Seen on 2026-11-23: ratios 0.69–1.85, geometric means
 * 0.96–1.16 in three runs. Measurements made the way the profile was not read 1.3–2.3 times it
 * (agent JVM started pinned) or 0.56–0.73 times it (a profiler JVM started fresh for each pair
 * against a long-running agent), which the geometric mean catches.
 *
 * <p>On a busy machine: the test first waits (up to 60 s) for quiet cores. Other work that goes on
 * beside it can keep a core out of a state ({@link MachineContention}); the profiler then refuses
 * that pair, and a pair whose load missed three times here is not compared. Both are accepted only
 * when other work was measured beside them, the profiler's refusal only as its documented one; the
 * test says on its output what it could not compare, and checks the geometric mean only over all
 * six pairs. A profile measured while other work contended for the cores can hold a cell off by
 * more than the tolerance (seen: HIGH/HIGH at 2.8 ms beside a compiler, 0.43 ms quiet): a ratio or
 * geometric mean outside it is then said NOT COMPARED / NOT CHECKED with the other work measured.
 * On a quiet machine a miss, or a ratio outside the tolerance, still fails the test.
 */
@Isolated // runs alone (junit-platform.properties): drives CPU load with stress-ng and measures round trips
class ThesisVerificationFourTest {

    private static final String PROFILE = "fresh-loopback";
    private static final int CLIENT_CORE = 0;
    private static final int PEER_CORE = 1;
    /** Utilisation aimed at per state, as the profiler's targets: LOW, MEDIUM, HIGH. */
    private static final int[] TARGET_PERCENT = {15, 50, 85};
    private static final CpuState[] STATES = {CpuState.LOW, CpuState.MEDIUM, CpuState.HIGH};
    private static final int PORT_NORMAL_PERCENT = 20;
    /** Pushed only to make the server ask for another measurement (the state changes); never compared. */
    private static final int PORT_LOADED_PERCENT = 95;
    private static final int ATTEMPTS = 3;
    /**
     * Round trips of a profile cell: 500 (the profiler's default is 1000), 1 s at 2 ms each. With 1000
     * a cell's 95 % interval was about ±14 % of its mean, with 500 about ±20 %: the log of a ratio then
     * has a sampling standard deviation near 0.13 against the 2.5× tolerance's 0.92, and the geometric
     * mean of six near 0.05 against the 1.5× tolerance's 0.41. The profiler's cells follow its 15 s
     * warm-up, so fewer round trips move no cell one way.
     */
    private static final int PROFILE_ROUND_TRIPS = 500;
    /**
     * Round trips of a QoS 3 measurement: 1000, the server's default. Not fewer: one run with 500 read
     * QoS 3 at 1.2–1.7 times the profile (geometric mean 1.40, near the 1.5× tolerance) against
     * 0.91–1.09 (1.00) with 1000 the run before; whether from the client agent's JVM, warmed only by
     * its own measurements, or from other work beside it, that margin is too thin to spend.
     */
    private static final int MEASUREMENT_ROUND_TRIPS = 1000;
    /** Marks a pair whose load other work kept out of its state. */
    private static final String NOT_COMPARED = "NOT COMPARED";

    private final CpuStateClassifier classifier = CpuStateClassifier.withDefaults();
    /** ln(QoS 3 / QoS 1) per pair compared. */
    private final List<Double> logRatios = new ArrayList<>();
    /**
     * What other work ran beside the profiler, when it contended for the cores (null when it did not): a
     * profile cell measured beside it may be off by more than the tolerance, so a comparison that fails
     * then is said NOT COMPARED with that reason instead of failing; on a quiet machine it fails.
     */
    private String profileOtherWork;

    @TempDir
    Path directory;

    @Test
    void qos3MeasuredUnderEachCpuStatePairIsConsistentWithQos1FromTheMeasuredProfile() throws Exception {
        assertTrue(CorePinning.available() && LoadDriver.available(), "taskset and stress-ng pin and drive the load (.ci/run installs them)");
        assertTrue(CoreUtilisation.read().coreCount() >= 2, "the two workstations are emulated on two cores");
        final List<String> report = new ArrayList<>();
        report.add(MachineContention.awaitQuietCores(Duration.ofSeconds(60)).describe());
        final Path profile = measureProfile(report);
        if (profile == null) {
            System.out.println("Thesis verification test 4: NOT COMPARED, no profile could be measured here:\n  "
                + String.join("\n  ", report));
            return;
        }
        // The thesis's test compares the thesis's values: no correction, no probes disturbing the measurement.
        final Path config = AgentTestbed.serverSection("Verification4", directory)
            .thresholds("cpu_hysteresis_band_percent", 0).thresholds("port_hysteresis_band_percent", 0)
            .measurement("round_trips", MEASUREMENT_ROUND_TRIPS).measurement("warmup_round_trips", 200).measurement("timeout_millis", 60000)
            .measurement("min_interval_millis", 0)
            .profile(profile)
            .node(Node.of("lab1", 5, "LOCAL-2CORE").with("mib_source", "push"))
            .node(Node.of("lab2", 6, "LOCAL-2CORE").with("mib_source", "push"))
            .link(Link.named("lab-port").with("mib_source", "push"))
            .connection(Connection.of(1, "lab1", "lab2", 1).link("lab-port").profile(PROFILE).calibration("thesis").probeRatePerSecond(0))
            .connection(Connection.of(3, "lab1", "lab2", 3).link("lab-port").calibration("thesis").probeRatePerSecond(0))
            .writeTo(directory.resolve("verification4.yaml"));
        final Path serverIor = directory.resolve("server.ior");
        final Path peerIor = directory.resolve("peer.ior");
        int notCompared = 0;
        final ORB orb = OrbSupport.init(new String[0], OrbSupport.properties("127.0.0.1", 0, 30_000));
        try (SystemUnderTest system = SystemUnderTest.measuringIn(directory);
             LoadDriver clientLoad = new LoadDriver(CLIENT_CORE);
             LoadDriver peerLoad = new LoadDriver(PEER_CORE)) {
            // The peer agent's JVM starts beside the server's (nothing is measured before the agent is subscribed).
            final ChildProcess peerStarting = system.launch(Component.PEER_AGENT).name("peer").pinnedTo(PEER_CORE)
                .args("--name", "lab2", "--ior-file", peerIor.toString()).start();
            final ReadyProcess server = system.start(system.serverLaunch("server", config).args("--metrics-port", "-1"));
            assertEquals("2", server.ready().fact("connections"), server.log());
            peerStarting.awaitReady(SystemUnderTest.READY_TIMEOUT);
            try (ChildProcess peer = peerStarting;
                 ChildProcess agent = startAgent(system, serverIor, peerIor)) {
                final String ior = Files.readString(serverIor).trim();
                final Bench bench = new Bench(LatservHelper.narrow(orb.string_to_object(ior)),
                    LatencyServiceHelper.narrow(orb.string_to_object(ior)));
                // The agent's first measurement compiles its round-trip path; the second, without
                // drivers, is what the paced round trips cost each core alone.
                bench.measure(TARGET_PERCENT[0], TARGET_PERCENT[0], PORT_LOADED_PERCENT);
                final double[] baseline = bench.measure(TARGET_PERCENT[2], TARGET_PERCENT[2], PORT_LOADED_PERCENT);
                report.add(String.format(Locale.ROOT, "baseline: client core %.0f %%, peer core %.0f %%", baseline[0], baseline[1]));
                for (int client = 0; client < 3; client++) {
                    for (int peerState = client; peerState < 3; peerState++) {
                        final String line = verifyPair(bench, client, peerState, baseline, clientLoad, peerLoad);
                        notCompared += line.contains(NOT_COMPARED) ? 1 : 0;
                        report.add(line);
                    }
                }
                if (notCompared == 0) {
                    final double geometricMeanRatio = Math.exp(logRatios.stream().mapToDouble(Double::doubleValue).average()
                        .orElseThrow());
                    report.add(String.format(Locale.ROOT, "geometric mean of the ratios QoS 3 / QoS 1: %.2f", geometricMeanRatio));
                    final boolean within = geometricMeanRatio >= 1 / 1.5 && geometricMeanRatio <= 1.5;
                    if (!within && profileOtherWork != null) {
                        report.add("geometric mean NOT CHECKED: outside 1.5 times, and the profile was measured beside other work ("
                            + profileOtherWork + ")");
                    } else {
                        assertTrue(within, "QoS 3 differs from QoS 1 systematically: " + String.join("\n", report));
                    }
                } else {
                    // the systematic check is a mean over all six states; fewer would weigh whichever were reachable
                    report.add("geometric mean NOT CHECKED: " + notCompared + " of 6 pairs not compared (their load missed its"
                        + " state beside other work)");
                }
            }
        } finally {
            orb.shutdown(false);
            System.out.println("Thesis verification test 4 (QoS 3 measured vs QoS 1 from " + PROFILE + ", 256 B):\n  "
                + String.join("\n  ", report));
        }
        assertEquals(6, logRatios.size() + notCompared, "every CPU state pair was compared or missed its state under other work");
    }

    private String verifyPair(final Bench bench, final int client, final int peer, final double[] baseline, final LoadDriver clientLoad,
                              final LoadDriver peerLoad) throws Exception {
        final String pair = STATES[client] + "/" + STATES[peer];
        int clientDrive = clamp(TARGET_PERCENT[client] - baseline[0]);
        int peerDrive = clamp(TARGET_PERCENT[peer] - baseline[1]);
        final DriveCorrection clientCorrection = new DriveCorrection(TARGET_PERCENT[client]);
        final DriveCorrection peerCorrection = new DriveCorrection(TARGET_PERCENT[peer]);
        final List<String> misses = new ArrayList<>();
        try (OtherWork otherWork = MachineContention.sampleOtherWork()) {
            for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
                clientLoad.drive(clientDrive);
                peerLoad.drive(peerDrive);
                if (attempt == 1) {
                    Thread.sleep(1_000); // the drivers reach their duty cycle
                } else {
                    // The same CPU state pair again is no state change: a loaded port makes one (and
                    // gives the drivers time to settle); its measurement is not compared.
                    bench.measure(TARGET_PERCENT[client], TARGET_PERCENT[peer], PORT_LOADED_PERCENT);
                }
                final double[] achieved = bench.measure(TARGET_PERCENT[client], TARGET_PERCENT[peer], PORT_NORMAL_PERCENT);
                final CpuState clientState = classifier.classifyPlain(achieved[0]);
                final CpuState peerState = classifier.classifyPlain(achieved[1]);
                if (clientState == STATES[client] && peerState == STATES[peer]) {
                    final Estimate qos1 = bench.service.current_estimate((short) 1);
                    final Estimate qos3 = bench.service.current_estimate((short) 3);
                    // The agent's batches give the interval that allows for correlated round trips.
                    final ConfidenceInterval batches = Stream.of(qos3.alternatives).filter(a -> a.method.startsWith("batch means (20"))
                        .findFirst().orElseThrow(() -> new AssertionError(pair + ": the agent's result carried no 20 batch means"));
                    final String line = String.format(Locale.ROOT,
                        "%-13s load %2.0f/%2.0f %%  QoS 1 (profile) %.3f ms [%.3f, %.3f]  QoS 3 (measured) %.3f ms [%.3f, %.3f],"
                            + " batch means [%.3f, %.3f]  ratio %.2f%s",
                        pair, achieved[0], achieved[1], qos1.value_ms, qos1.interval.lower, qos1.interval.upper, qos3.value_ms,
                        qos3.interval.lower, qos3.interval.upper, batches.lower, batches.upper, qos3.value_ms / qos1.value_ms,
                        misses.isEmpty() ? "" : "  (after " + String.join("; ", misses) + ")");
                    assertTrue(batches.lower < qos3.value_ms && qos3.value_ms < batches.upper, line);
                    final double ratio = qos3.value_ms / qos1.value_ms;
                    if (ratio < 1 / 2.5 || ratio > 2.5) {
                        if (profileOtherWork == null) {
                            throw new AssertionError("QoS 3 is not within 2.5 times QoS 1: " + line);
                        }
                        return line + "  " + NOT_COMPARED + ": not within 2.5 times, and the profile was measured beside other work ("
                            + profileOtherWork + ")";
                    }
                    logRatios.add(Math.log(ratio));
                    return line;
                }
                misses.add(String.format(Locale.ROOT, "load %.0f/%.0f %% missed", achieved[0], achieved[1]));
                clientDrive = clientCorrection.next(clientDrive, achieved[0]);
                peerDrive = peerCorrection.next(peerDrive, achieved[1]);
            }
            if (!otherWork.contended()) {
                throw new AssertionError(pair + ": the achieved load missed its state " + ATTEMPTS + " times with no other work beside it ("
                    + otherWork.describe() + "): " + misses);
            }
            return String.format(Locale.ROOT, "%-13s %s: the achieved load missed its state %d times beside other work (%s): %s", pair,
                NOT_COMPARED, ATTEMPTS, otherWork.describe(), misses);
        }
    }

    /**
     * Runs the profiler for the 256 B cells of all six CPU state pairs, as a planner would.
     *
     * @return the profile; null when the profiler refused pairs other work made unreachable (checked
     *         to be its documented refusal, and said in the report)
     */
    private Path measureProfile(final List<String> report) throws Exception {
        final Path profile = directory.resolve(PROFILE + ".json");
        try (OtherWork otherWork = MachineContention.sampleOtherWork();
             SystemUnderTest system = SystemUnderTest.measuringIn(directory)) {
            final ChildProcess profiler = system.launch(Component.PROFILER).name("profiler").args("measure",
                "--sizes", "256", "--round-trips", Integer.toString(PROFILE_ROUND_TRIPS), "--workstation-type", "LOCAL-2CORE", "--name", PROFILE,
                "--out", profile.toString()).start();
            final int exit = profiler.awaitExit(Duration.ofSeconds(300));
            final String output = profiler.log().replace('\r', '\n');
            final Set<String> refused = ProfilerRefusal.assertMeasuredOrRefusedUnderOtherWork(exit, output, otherWork);
            if (!refused.isEmpty()) {
                report.add("profile measure refused " + refused + " beside other work (" + otherWork.describe() + ")");
                return null;
            }
            assertTrue(output.contains("wrote " + profile + ": 6 cells"), output);
            report.add("profile measured: " + otherWork.describe());
            profileOtherWork = otherWork.contended() ? otherWork.describe() : null;
        }
        return profile;
    }

    private static int clamp(final double percent) {
        return (int) Math.max(0, Math.min(100, Math.round(percent)));
    }

    /** The client agent, ready and (the IDL lists no subscriptions: by its log line) subscribed to measurement requests. */
    private static ChildProcess startAgent(final SystemUnderTest system, final Path serverIor, final Path peerIor) throws Exception {
        final ChildProcess agent = system.start(system.launch(Component.CLIENT_AGENT).name("agent").args(
            "--server", serverIor.toString(), "--peer", "lab2=" + peerIor, "--poll-millis", "1000",
            "--pin-core", Integer.toString(CLIENT_CORE), "--interval-micros", "2000")).child();
        LogWatch.await(agent, "subscribed to measurement requests", Duration.ofSeconds(30));
        return agent;
    }


    /** The server as the thesis's emulator and an application see it. */
    private record Bench(Latserv latserv, LatencyService service) {

        /**
         * Pushes MIB values for both connections and waits until the QoS 3 connection has been
         * measured in the state they make.
         *
         * @return each core's utilisation over the measurement, percent: client, peer
         */
        double[] measure(final int clientCpuPercent, final int peerCpuPercent, final int portPercent) throws Exception {
            final CoreUtilisation start = CoreUtilisation.read();
            for (final short indexRef : new short[] {1, 3}) {
                latserv.PutMibUpdates(new IdlMibUpdates(indexRef, (short) clientCpuPercent, (short) peerCpuPercent, (short) portPercent),
                    indexRef);
            }
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
            TableRow row = latserv.RequestTableStatus((short) 3);
            while (!(row.latest_client_mib_cpu == clientCpuPercent && row.latest_peer_mib_cpu == peerCpuPercent
                && row.latest_mib_port == portPercent && row.update_required_flag == 0)) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("no measurement within 90 s of pushing " + clientCpuPercent + "/" + peerCpuPercent
                        + " % CPU, port " + portPercent + " %: flag " + row.update_required_flag);
                }
                Thread.sleep(50);
                row = latserv.RequestTableStatus((short) 3);
            }
            final CoreUtilisation end = CoreUtilisation.read();
            return new double[] {end.percentSince(start, CLIENT_CORE), end.percentSince(start, PEER_CORE)};
        }
    }
}
