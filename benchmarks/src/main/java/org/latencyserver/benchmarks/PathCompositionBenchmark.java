package org.latencyserver.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.latencyserver.core.histogram.LatencyHistogram;
import org.latencyserver.core.path.PathBound;
import org.latencyserver.core.path.PathComposition;
import org.latencyserver.core.path.PathHop;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * The cost of a path's 96 % bound composed from its hops' histograms: the union bound (one lookup
 * per hop) and the independent bound (the hops re-binned onto the default grid and convolved).
 * Computed once per state change of any hop, on the server's update thread.
 *
 * <p>Three hops, each a fixed-seed sample of 200,000 round trips (0.1 ms plus an exponential tail
 * of 1 ms mean) in equal-width bins: 100 bins of 1 ms (the thesis's layout) or 20,000 bins of 1 µs.
 *
 * <p>Run: {@code java -jar benchmarks/target/benchmarks.jar PathCompositionBenchmark}
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class PathCompositionBenchmark extends JmhProtocol {

    private static final int HOPS = 3;
    private static final int SAMPLES_PER_HOP = 200_000;

    /** Bins per hop: 100 of 1 ms, or 20,000 of 1 µs. */
    @Param({"100", "20000"})
    public int binsPerHop;

    private PathComposition path;

    /** Builds the hops' histograms from fixed-seed samples (ns). */
    @Setup
    public void setUp() {
        final long binWidthNanos = 20_000_000L / binsPerHop;
        final Random random = new Random(42);
        final List<PathHop> hops = new ArrayList<>();
        for (int hop = 0; hop < HOPS; hop++) {
            final long[] counts = new long[binsPerHop];
            long overflow = 0;
            for (int i = 0; i < SAMPLES_PER_HOP; i++) {
                final long rttNanos = 100_000L + (long) Math.ceil(-1_000_000.0 * Math.log1p(-random.nextDouble()));
                final long bin = (rttNanos + binWidthNanos - 1) / binWidthNanos - 1;
                if (bin < binsPerHop) {
                    counts[(int) bin]++;
                } else {
                    overflow++;
                }
            }
            hops.add(new PathHop("sw" + (hop + 1) + "-p1", LatencyHistogram.uniform(binWidthNanos, counts, overflow)));
        }
        path = PathComposition.of(hops);
    }

    /** @return the union bound at 96 %, so the JIT cannot drop it */
    @Benchmark
    public PathBound unionBound() {
        return path.unionBound(96);
    }

    /** @return the independent bound at 96 % on the default grid */
    @Benchmark
    public PathBound independentBound() {
        return path.independentBound(96);
    }
}
