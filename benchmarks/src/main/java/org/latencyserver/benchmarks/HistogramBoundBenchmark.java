package org.latencyserver.benchmarks;

import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.latencyserver.core.histogram.BoundResult;
import org.latencyserver.core.histogram.LatencyHistogram;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * The cost of the thesis's bound lookup (section 4.2.4) — what QoS 2 and 4 do whenever a state
 * changes or an application asks for another percentile.
 *
 * <p>Two shapes: the thesis's 100 bins of 1 ms, and a fine export of an HdrHistogram of 100,000
 * round trips (3 significant digits: a few thousand non-empty bins), the worst case for the
 * linear cumulative scan.
 *
 * <p>Run: {@code java -jar benchmarks/target/benchmarks.jar HistogramBoundBenchmark}
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class HistogramBoundBenchmark extends JmhProtocol {

    /** Which histogram to search. */
    @Param({"thesis-100x1ms", "hdr-fine"})
    public String shape;

    /** The bound percentage asked for. */
    @Param({"93", "99.9"})
    public double boundPercent;

    private LatencyHistogram histogram;

    /** Builds the histogram from a fixed-seed, right-skewed latency sample (ns). */
    @Setup
    public void setUp() {
        final Histogram hdr = new Histogram(3_600_000_000_000L, 3);
        final Random random = new Random(42);
        for (int i = 0; i < 100_000; i++) {
            // 1 ms base plus an exponential tail with a 2 ms mean: like the thesis's loaded cells.
            final long rttNanos = 1_000_000L + (long) (-2_000_000.0 * Math.log(1.0 - random.nextDouble()));
            hdr.recordValue(rttNanos);
        }
        histogram = "hdr-fine".equals(shape)
            ? LatencyHistogram.fromHdr(hdr)
            : LatencyHistogram.fromHdr(hdr, 1_000_000L, 100);
    }

    /** @return the bound, so the JIT cannot drop the lookup */
    @Benchmark
    public BoundResult boundAt() {
        return histogram.boundAt(boundPercent);
    }
}
