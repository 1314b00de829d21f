package org.latencyserver.core.path;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.latencyserver.core.path.SimulatedHops.MS;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Comonotone hops — one uniform drives every hop, as when the same burst crosses every switch:
 * the union bound still covers, the independent bound under-covers (which is why it is labelled),
 * and the sum of the per-hop x % quantiles is exactly the path's x % quantile.
 *
 * <p>Hops: shifts of 0.2, 0.5 and 0.3 ms plus exponential tails of mean 0.5, 1 and 2 ms driven by
 * one uniform, so the path is 1 ms plus an exponential of mean 3.5 ms. Histograms of
 * {@value #HOP_SAMPLES} draws in 10 µs bins; coverage on {@value #PATH_SAMPLES} fresh sums.
 */
class PathCompositionDependentHopsTest {

    private static final int HOP_SAMPLES = 1_000_000;
    private static final int PATH_SAMPLES = 1_000_000;
    private static final double ALPHA = 1e-6;
    private static final long BIN_NANOS = 10_000L;
    private static final int BINS = 8_000;
    private static final double PERCENT = 96.0;
    private static final double X = PERCENT / 100.0;

    private static final SimulatedHops MODEL = new SimulatedHops(new long[] {200_000L, 500_000L, 300_000L},
        new double[] {0.5 * MS, 1.0 * MS, 2.0 * MS});

    private static PathComposition path;
    private static long[] freshSums;

    @BeforeAll
    static void simulate() {
        path = PathComposition.of(SimulatedHops.hops(MODEL.comonotoneDraws(HOP_SAMPLES, 21L), BIN_NANOS, BINS));
        freshSums = SimulatedHops.sums(MODEL.comonotoneDraws(PATH_SAMPLES, 22L));
    }

    @Test
    void theUnionBoundCoversComonotoneHops() {
        final PathBound union = path.unionBound(PERCENT);
        final double coverage = SimulatedHops.coverage(freshSums, union.boundNanos());
        assertTrue(coverage >= X, "union bound coverage " + coverage);
        assertTrue(union.boundNanos() >= SimulatedHops.empiricalQuantile(freshSums, X));
    }

    @Test
    void theIndependentBoundUnderCoversComonotoneHops() {
        // The convolution treats the hops' tails as cancelling out; here they add. True p96 of the
        // path: 1 ms + 3.5 ms x ln 25 = 12.27 ms; the independent bound is about 9 ms, which the
        // comonotone path stays within only about 90 % of the time.
        final PathBound independent = path.independentBound(PERCENT);
        final double coverage = SimulatedHops.coverage(freshSums, independent.boundNanos());
        final double sumsEps = SimulatedHops.dkwHalfWidth(PATH_SAMPLES, ALPHA);
        assertTrue(coverage < X - 0.03 - sumsEps, "independent bound coverage " + coverage + " should be well below " + X);
        assertTrue(independent.boundNanos() < path.unionBound(PERCENT).boundNanos());
    }

    @Test
    void addingTheHopsQuantilesIsExactForComonotoneHops() {
        // Quantiles add under comonotonicity: the path's p96 is the sum of the hops' p96. Each hop's
        // bound is within its DKW half-width of p96 (in probability) plus one 10 µs bin, where the
        // steepest hop's density (0.04 / 0.5 ms) moves the share by at most 0.0008.
        long naive = 0;
        for (final PathHop hop : path.hops()) {
            naive += hop.histogram().boundAt(PERCENT).boundNanos();
        }
        final double coverage = SimulatedHops.coverage(freshSums, naive);
        final double tolerance = SimulatedHops.dkwHalfWidth(HOP_SAMPLES, ALPHA)
            + SimulatedHops.dkwHalfWidth(PATH_SAMPLES, ALPHA) + 0.0008;
        assertTrue(Math.abs(coverage - X) <= tolerance, "per-hop sum coverage " + coverage + ", tolerance " + tolerance);
        // And so it lies below the union bound, which pays for not knowing the dependence.
        assertTrue(naive < path.unionBound(PERCENT).boundNanos());
    }
}
