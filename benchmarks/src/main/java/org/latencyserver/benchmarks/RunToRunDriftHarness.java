package org.latencyserver.benchmarks;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.locks.LockSupport;
import org.apache.commons.math3.distribution.TDistribution;
import org.latencyserver.agent.load.CorePinning;
import org.latencyserver.agent.measure.CorbaRoundTrips;
import org.latencyserver.agent.measure.RoundTrip;
import org.latencyserver.idl.latency.EchoPeer;
import org.latencyserver.idl.latency.EchoPeerHelper;
import org.latencyserver.launch.Component;
import org.latencyserver.launch.ProcessKit;
import org.latencyserver.launch.ReadyFile;
import org.latencyserver.launch.TemporaryDirectory;
import org.latencyserver.orb.OrbSupport;
import org.omg.CORBA.ORB;

/**
 * How well a QoS 3 estimate's confidence interval predicts the next measurement of the same path:
 * consecutive runs, each measured as a client agent measures (200 discarded, then N round trips
 * paced one per interval, client pinned to core 0 once started, peer agent started on core 1), and
 * for each run whether the next run's mean falls inside this run's 95 % CI of the mean.
 *
 * <p>Two intervals are compared: the served one, x̄ ± 1.96·s/√n (thesis Eq. 1, which assumes
 * independent round trips), and a batch-means interval (20 consecutive batches, Student's t with 19
 * degrees of freedom), which allows for round trips that are correlated within a run. Neither can
 * allow for the machine changing between runs; the count shows how much that matters here.
 *
 * <p>The samples are kept in an array allocated before the runs; the loop allocates nothing.
 *
 * <p>Run: {@code java -cp benchmarks/target/benchmarks.jar org.latencyserver.benchmarks.RunToRunDriftHarness [SIZE_BYTES] [RUNS] [ROUND_TRIPS] [INTERVAL_MICROS] [JIT_WARMUP_ROUND_TRIPS]}
 */
public final class RunToRunDriftHarness {

    private static final int BATCHES = 20;
    private static final int WARMUP_ROUND_TRIPS = 200;

    private RunToRunDriftHarness() {
    }

    /**
     * @param args message size (default 256 B), runs (default 20), round trips per run (default
     *             1000), pacing interval in microseconds (default 2000, as the profiler), unrecorded
     *             round trips first, back to back (default 3000, as the agent's JIT warm-up)
     * @throws Exception when a process or call fails
     */
    public static void main(final String[] args) throws Exception {
        final int sizeBytes = args.length > 0 ? Integer.parseInt(args[0]) : 256;
        final int runs = args.length > 1 ? Integer.parseInt(args[1]) : 20;
        final int roundTrips = args.length > 2 ? Integer.parseInt(args[2]) : 1_000;
        final long intervalNanos = (args.length > 3 ? Long.parseLong(args[3]) : 2_000) * 1_000L;
        final int jitWarmupRoundTrips = args.length > 4 ? Integer.parseInt(args[4]) : 3_000;
        if (runs < 2 || roundTrips < BATCHES * 2) {
            throw new IllegalArgumentException("need at least 2 runs of at least " + BATCHES * 2 + " round trips");
        }
        final boolean pinned = CorePinning.available() && Runtime.getRuntime().availableProcessors() >= 2;
        if (pinned) {
            CorePinning.pinThisProcess(0);
        }
        try (TemporaryDirectory scratch = TemporaryDirectory.create("drift-harness")) {
            final Path directory = scratch.path();
            final ORB orb = OrbSupport.init(new String[0], OrbSupport.properties("127.0.0.1", 0, 10_000));
            try (ProcessKit kit = ProcessKit.fromThisClasspath(directory)) {
                // --ior-file only keeps its IOR file out of the working directory; the reference comes from the ready file.
                final ProcessKit.Launch peer = kit.launch(Component.PEER_AGENT).name("peer")
                    .args("--name", "drift", "--ior-file", directory.resolve("peer.ior").toString());
                if (pinned) {
                    peer.pinnedTo(1);
                }
                final ReadyFile ready = peer.start().awaitReady(Duration.ofSeconds(60));
                final EchoPeer echo = EchoPeerHelper.narrow(orb.string_to_object(ready.reference("peer")));
                final RoundTrip roundTrip = CorbaRoundTrips.to(echo, sizeBytes);
                for (int i = 0; i < jitWarmupRoundTrips; i++) {
                    roundTrip.once();
                }
                report(roundTrip, sizeBytes, runs, roundTrips, intervalNanos, pinned);
            } finally {
                orb.shutdown(false);
            }
        }
    }

    private static void report(final RoundTrip roundTrip, final int sizeBytes, final int runs, final int roundTrips,
                               final long intervalNanos, final boolean pinned) throws Exception {
        final long[] rttNanos = new long[roundTrips];
        final double[] meanMillis = new double[runs];
        final double[] iidHalfWidthMillis = new double[runs];
        final double[] batchHalfWidthMillis = new double[runs];
        final double tQuantile = new TDistribution(BATCHES - 1).inverseCumulativeProbability(0.975);
        System.out.printf(Locale.ROOT, "%d runs of %d round trips of %d B, one per %d us, %s (ms)%n", runs, roundTrips, sizeBytes,
            intervalNanos / 1_000, pinned ? "client core 0, peer core 1" : "not pinned");
        System.out.printf(Locale.ROOT, "%4s %8s %18s %22s%n", "run", "mean", "CI half-width Eq.1", "batch means (20) CI hw");
        for (int run = 0; run < runs; run++) {
            measure(roundTrip, rttNanos, intervalNanos);
            meanMillis[run] = mean(rttNanos, 0, roundTrips) / 1e6;
            iidHalfWidthMillis[run] = 1.96 * standardDeviation(rttNanos) / Math.sqrt(roundTrips) / 1e6;
            batchHalfWidthMillis[run] = tQuantile * batchMeansStandardError(rttNanos) / 1e6;
            System.out.printf(Locale.ROOT, "%4d %8.4f %18.4f %22.4f%n", run + 1, meanMillis[run], iidHalfWidthMillis[run],
                batchHalfWidthMillis[run]);
        }
        int insideIid = 0;
        int insideBatch = 0;
        double minMean = Double.MAX_VALUE;
        double maxMean = 0;
        for (int run = 0; run < runs; run++) {
            minMean = Math.min(minMean, meanMillis[run]);
            maxMean = Math.max(maxMean, meanMillis[run]);
            if (run + 1 < runs) {
                final double step = Math.abs(meanMillis[run + 1] - meanMillis[run]);
                insideIid += step <= iidHalfWidthMillis[run] ? 1 : 0;
                insideBatch += step <= batchHalfWidthMillis[run] ? 1 : 0;
            }
        }
        System.out.printf(Locale.ROOT, "means %.4f .. %.4f ms; the next run's mean inside this run's 95 %% CI: Eq. 1 %d of %d,"
            + " batch means %d of %d (independent, stationary runs: about 83 %% for either)%n", minMean, maxMean, insideIid, runs - 1,
            insideBatch, runs - 1);
    }

    private static void measure(final RoundTrip roundTrip, final long[] rttNanos, final long intervalNanos) throws Exception {
        for (int i = 0; i < WARMUP_ROUND_TRIPS; i++) {
            roundTrip.once();
        }
        for (int i = 0; i < rttNanos.length; i++) {
            final long startNanos = System.nanoTime();
            roundTrip.once();
            rttNanos[i] = System.nanoTime() - startNanos;
            long waitNanos;
            while ((waitNanos = startNanos + intervalNanos - System.nanoTime()) > 0) {
                LockSupport.parkNanos(waitNanos);
            }
        }
    }

    private static double mean(final long[] values, final int from, final int to) {
        double sum = 0;
        for (int i = from; i < to; i++) {
            sum += values[i];
        }
        return sum / (to - from);
    }

    private static double standardDeviation(final long[] values) {
        final double mean = mean(values, 0, values.length);
        double squares = 0;
        for (final long value : values) {
            squares += (value - mean) * (value - mean);
        }
        return Math.sqrt(squares / (values.length - 1));
    }

    /** Standard error of the mean from {@link #BATCHES} consecutive batch means (a remainder joins the last batch). */
    private static double batchMeansStandardError(final long[] values) {
        final int batchSize = values.length / BATCHES;
        final double[] batchMeans = new double[BATCHES];
        for (int b = 0; b < BATCHES; b++) {
            batchMeans[b] = mean(values, b * batchSize, b == BATCHES - 1 ? values.length : (b + 1) * batchSize);
        }
        double grand = 0;
        for (final double m : batchMeans) {
            grand += m;
        }
        grand /= BATCHES;
        double squares = 0;
        for (final double m : batchMeans) {
            squares += (m - grand) * (m - grand);
        }
        return Math.sqrt(squares / (BATCHES - 1) / BATCHES);
    }
}
