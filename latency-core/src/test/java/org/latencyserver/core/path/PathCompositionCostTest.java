package org.latencyserver.core.path;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.latencyserver.core.path.SimulatedHops.MS;

import org.apache.commons.math3.distribution.GammaDistribution;
import org.junit.jupiter.api.Test;

/**
 * The size the server will compose: three hops of 20,000 bins each (1 µs bins over 20 ms). The
 * convolution works on its fixed grid whatever the bins, and its result is still the path's
 * quantile within the sampling tolerance (see {@link PathCompositionIndependentHopsTest}). Its
 * cost is measured by the benchmarks module's {@code PathCompositionBenchmark}, not here.
 */
class PathCompositionCostTest {

    private static final int HOP_SAMPLES = 200_000;
    private static final int BINS = 20_000;
    private static final long BIN_NANOS = 1_000L;

    @Test
    void threeHopsOfTwentyThousandBinsComposeOnTheGridToThePathsQuantile() {
        final SimulatedHops model = new SimulatedHops(new long[] {100_000L, 100_000L, 100_000L},
            new double[] {MS, MS, MS});
        final PathComposition path = PathComposition.of(SimulatedHops.hops(model.independentDraws(HOP_SAMPLES, 31L),
            BIN_NANOS, BINS));
        for (final PathHop hop : path.hops()) {
            assertTrue(hop.histogram().binCount() == BINS && hop.histogram().overflowCount() == 0, hop.toString());
        }
        final GammaDistribution tail = new GammaDistribution(3, MS);
        final double eps = 3 * SimulatedHops.dkwHalfWidth(HOP_SAMPLES, 1e-6);
        for (final double percent : new double[] {50, 96, 99.9}) {
            final double x = percent / 100;
            final PathBound independent = path.independentBound(percent);
            final double low = 300_000 + tail.inverseCumulativeProbability(Math.max(1e-9, x - eps));
            final double high = 300_000 + tail.inverseCumulativeProbability(Math.min(1 - 1e-12, x + eps))
                + independent.slackNanos();
            assertTrue(independent.boundNanos() >= low && independent.boundNanos() <= high,
                percent + " %: " + independent.boundNanos() + " ns outside [" + low + ", " + high + "]");
            assertTrue(path.unionBound(percent).boundNanos() >= independent.boundNanos());
        }
    }
}
