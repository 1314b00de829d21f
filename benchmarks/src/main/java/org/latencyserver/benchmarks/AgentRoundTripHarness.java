package org.latencyserver.benchmarks;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.latencyserver.agent.measure.AdaptiveTarget;
import org.latencyserver.agent.measure.CorbaRoundTrips;
import org.latencyserver.agent.measure.RoundTrip;
import org.latencyserver.agent.measure.RoundTripLoop;
import org.latencyserver.agent.measure.RunResult;
import org.latencyserver.agent.measure.SocketRoundTrips;
import org.latencyserver.idl.latency.EchoPeer;
import org.latencyserver.idl.latency.EchoPeerHelper;
import org.latencyserver.launch.ChildProcess;
import org.latencyserver.launch.Component;
import org.latencyserver.launch.ProcessKit;
import org.latencyserver.launch.ReadyFile;
import org.latencyserver.launch.TemporaryDirectory;
import org.latencyserver.orb.OrbSupport;
import org.omg.CORBA.ORB;

/**
 * What the ORB and the agent add to a round trip (the thesis's CORBA-vs-TCP decomposition, §3.4),
 * and what adaptive sampling saves, measured side by side in one run on loopback:
 * <ol>
 *   <li>the client agent's CORBA round trip ({@code fm1} arrays through JacORB) to a peer agent in
 *       its own JVM;</li>
 *   <li>plain TCP to the same peer agent's socket echo, through the same timing loop;</li>
 *   <li>{@code sockperf ping-pong --tcp} against {@code sockperf server}, a C tool with no JVM
 *       for about as long as the other runs (it reports one-way latency = half the round trip;
 *       doubled here).</li>
 * </ol>
 * Rounds alternate between the three so that machine noise falls on all alike. Then a fixed run of
 * N round trips against adaptive runs stopping at a target CI half-width (thesis Eq. 2).
 *
 * <p>Run: {@code java -cp benchmarks/target/benchmarks.jar org.latencyserver.benchmarks.AgentRoundTripHarness [SIZE_BYTES] [ROUND_TRIPS] [ROUNDS]}
 */
public final class AgentRoundTripHarness {

    private static final Pattern SOCKPERF_AVG = Pattern.compile("avg-latency=([0-9.]+)");
    private static final Pattern SOCKPERF_P50 = Pattern.compile("percentile 50\\.000 =\\s*([0-9.]+)");
    private static final Pattern SOCKPERF_P99 = Pattern.compile("percentile 99\\.000 =\\s*([0-9.]+)");

    private AgentRoundTripHarness() {
    }

    /**
     * @param args message size (default 256 B), round trips per run (default 20,000), rounds (default 3)
     * @throws Exception when a process or call fails
     */
    public static void main(final String[] args) throws Exception {
        final int sizeBytes = args.length > 0 ? Integer.parseInt(args[0]) : 256;
        final int roundTrips = args.length > 1 ? Integer.parseInt(args[1]) : 20_000;
        final int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        try (TemporaryDirectory scratch = TemporaryDirectory.create("agent-harness")) {
            final Path directory = scratch.path();
            final int sockperfPort = 17_000 + (int) (ProcessHandle.current().pid() % 1000);
            final ORB orb = OrbSupport.init(new String[0], OrbSupport.properties("127.0.0.1", 0, 10_000));
            try (ProcessKit kit = ProcessKit.fromThisClasspath(directory)) {
                // --ior-file only keeps its IOR file out of the working directory; the reference comes from the ready file.
                final ChildProcess peer = kit.launch(Component.PEER_AGENT).name("peer")
                    .args("--name", "bench", "--ior-file", directory.resolve("peer.ior").toString(), "--tcp-port", "0").start();
                kit.launchProgram("sockperf", List.of("sockperf", "server", "--tcp", "-i", "127.0.0.1", "-p",
                    Integer.toString(sockperfPort))).start();
                final ReadyFile ready = peer.awaitReady(Duration.ofSeconds(60));
                final EchoPeer echo = EchoPeerHelper.narrow(orb.string_to_object(ready.reference("peer")));
                final RoundTrip corba = CorbaRoundTrips.to(echo, sizeBytes);
                final RoundTripLoop loop = new RoundTripLoop();
                System.out.printf(Locale.ROOT, "Round trips of %d B on loopback, %d per run, %d rounds (times in us)%n", sizeBytes,
                    roundTrips, rounds);
                System.out.printf(Locale.ROOT, "%-44s %9s %9s %9s %10s%n", "path", "mean", "p50", "p99", "vs sockperf");
                try (SocketRoundTrips.SocketRoundTrip plainTcp = SocketRoundTrips.tcp("127.0.0.1", ready.port("tcp"),
                    sizeBytes, 10_000)) {
                    loop.run(corba, 5_000, 1, null);
                    loop.run(plainTcp, 5_000, 1, null);
                    for (int round = 1; round <= rounds; round++) {
                        final double[] sockperf = sockperf(kit, round, sockperfPort, sizeBytes, roundTrips);
                        final RunResult orbRun = loop.run(corba, 0, roundTrips, null);
                        final RunResult tcpRun = loop.run(plainTcp, 0, roundTrips, null);
                        print("round " + round + ": client agent, CORBA (JacORB, fm1)", orbRun, sockperf[0]);
                        print("round " + round + ": same loop, plain TCP to the peer agent", tcpRun, sockperf[0]);
                        System.out.printf(Locale.ROOT, "%-44s %9.1f %9.1f %9.1f %10s%n", "round " + round + ": sockperf ping-pong --tcp (x2)",
                            sockperf[0], sockperf[1], sockperf[2], "1.00");
                    }
                }
                System.out.println();
                System.out.println("Adaptive sampling (stop when the 95 % CI half-width of the mean reaches the target):");
                final RunResult fixed = loop.run(corba, 1_000, 10_000, null);
                System.out.printf(Locale.ROOT, "  fixed 10000: mean %.1f us +/- %.2f us, %d round trips%n", fixed.meanNanos() / 1e3,
                    fixed.halfWidthMillis() * 1e3, fixed.recordedRoundTrips());
                for (final double relative : new double[] {0.10, 0.05, 0.02}) {
                    final double targetMillis = fixed.meanMillis() * relative;
                    final RunResult adaptive = loop.run(corba, 0, 10_000, AdaptiveTarget.halfWidth(targetMillis));
                    System.out.printf(Locale.ROOT, "  target +/- %2.0f %% of the mean (%.2f us): mean %.1f us +/- %.2f us, %d round trips,"
                            + " %d saved (%.0f %%)%n", relative * 100, targetMillis * 1e3, adaptive.meanNanos() / 1e3,
                        adaptive.halfWidthMillis() * 1e3, adaptive.recordedRoundTrips(), adaptive.savedRoundTrips(),
                        100.0 * adaptive.savedRoundTrips() / 10_000);
                }
            } finally {
                orb.shutdown(false);
            }
        }
    }

    private static void print(final String label, final RunResult run, final double sockperfMeanMicros) {
        System.out.printf(Locale.ROOT, "%-44s %9.1f %9.1f %9.1f %10.2f%n", label, run.meanNanos() / 1e3,
            run.histogramNanos().getValueAtPercentile(50) / 1e3, run.histogramNanos().getValueAtPercentile(99) / 1e3,
            run.meanNanos() / 1e3 / sockperfMeanMicros);
    }

    /**
     * Runs one {@code sockperf ping-pong} to its end; sockperf is not ours, so its report (its log)
     * is the only place its figures are.
     *
     * @return mean, p50 and p99 round trip in us (sockperf's one-way figures doubled)
     */
    private static double[] sockperf(final ProcessKit kit, final int round, final int port, final int sizeBytes,
                                     final int roundTrips) throws IOException, InterruptedException {
        final int seconds = Math.max(2, roundTrips / 5_000);
        final ChildProcess pingPong = kit.launchProgram("sockperf-ping-pong-" + round, List.of("sockperf", "ping-pong", "--tcp",
            "-i", "127.0.0.1", "-p", Integer.toString(port), "-m", Integer.toString(sizeBytes),
            // sockperf 3.7 runs for a time, not a count: about as long as the other runs take here.
            "-t", Integer.toString(seconds))).start();
        pingPong.awaitSuccess(Duration.ofSeconds(seconds + 60L));
        kit.stop(pingPong);
        final String output = pingPong.log();
        return new double[] {2 * number(SOCKPERF_AVG, output), 2 * number(SOCKPERF_P50, output), 2 * number(SOCKPERF_P99, output)};
    }

    private static double number(final Pattern pattern, final String output) {
        final Matcher matcher = pattern.matcher(output);
        if (!matcher.find()) {
            throw new IllegalStateException("sockperf printed no " + pattern + ":\n" + output);
        }
        return Double.parseDouble(matcher.group(1));
    }
}
