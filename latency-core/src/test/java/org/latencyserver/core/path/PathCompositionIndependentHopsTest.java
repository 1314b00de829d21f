package org.latencyserver.core.path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.latencyserver.core.path.SimulatedHops.MS;

import java.util.List;
import org.apache.commons.math3.distribution.GammaDistribution;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.latencyserver.core.histogram.LatencyHistogram;

/**
 * Independent hops: the convolution's quantile matches the path's true quantile within a
 * tolerance derived from the sample sizes, and the union bound covers but is wider.
 *
 * <p>Three hops of shift plus exponential tail with one mean, so the path's latency is the shifts
 * plus a Gamma(3, mean) variable with a known quantile function. Each hop's histogram holds
 * {@value #HOP_SAMPLES} draws in bins of 10 µs; the path's coverage is checked on
 * {@value #PATH_SAMPLES} fresh sums.
 *
 * <p>Tolerances (each holds with probability at least {@code 1 - 1e-6} per histogram, by the
 * Dvoretzky–Kiefer–Wolfowitz inequality; the seeds are fixed, so the test is deterministic): each
 * hop's empirical CDF is within {@code eps} of its true CDF, so the convolution of the empirical
 * CDFs is within {@code 3 eps} of the true path CDF, and its exact x % quantile lies in
 * {@code [q(x - 3 eps), q(x + 3 eps)]}; binning and the grid add at most the result's slack.
 */
class PathCompositionIndependentHopsTest {

    private static final int HOP_SAMPLES = 1_000_000;
    private static final int PATH_SAMPLES = 1_000_000;
    private static final double ALPHA = 1e-6;
    private static final long BIN_NANOS = 10_000L;
    private static final int BINS = 4_000;
    private static final double PERCENT = 96.0;
    private static final double X = PERCENT / 100.0;
    private static final long[] SHIFTS_NANOS = {200_000L, 500_000L, 300_000L};
    private static final double TAIL_MEAN_NANOS = MS;

    private static final SimulatedHops MODEL = new SimulatedHops(SHIFTS_NANOS,
        new double[] {TAIL_MEAN_NANOS, TAIL_MEAN_NANOS, TAIL_MEAN_NANOS});
    /** The path's tail: the sum of three independent exponentials of one mean. */
    private static final GammaDistribution TAIL_SUM = new GammaDistribution(3, TAIL_MEAN_NANOS);
    private static final long SHIFT_SUM_NANOS = 1_000_000L;

    private static PathComposition path;
    private static long[] freshSums;

    @BeforeAll
    static void simulate() {
        path = PathComposition.of(SimulatedHops.hops(MODEL.independentDraws(HOP_SAMPLES, 11L), BIN_NANOS, BINS));
        freshSums = SimulatedHops.sums(MODEL.independentDraws(PATH_SAMPLES, 12L));
    }

    /** @return the path's true quantile at {@code p}, ns */
    private static double trueQuantileNanos(final double p) {
        return SHIFT_SUM_NANOS + TAIL_SUM.inverseCumulativeProbability(p);
    }

    /** @return the path's true CDF at {@code nanos} */
    private static double trueCdf(final double nanos) {
        return TAIL_SUM.cumulativeProbability(nanos - SHIFT_SUM_NANOS);
    }

    @Test
    void theIndependentBoundIsThePathsTrueQuantileWithinTheSamplingTolerance() {
        final PathBound independent = path.independentBound(PERCENT);
        final double hopsEps = 3 * SimulatedHops.dkwHalfWidth(HOP_SAMPLES, ALPHA);
        final double low = trueQuantileNanos(X - hopsEps);
        final double high = trueQuantileNanos(X + hopsEps) + independent.slackNanos();
        assertTrue(independent.boundNanos() >= low && independent.boundNanos() <= high,
            independent.boundNanos() + " ns outside [" + low + ", " + high + "] around the true "
                + trueQuantileNanos(X) + " ns");
        assertTrue(independent.slackNanos() < 100_000L, "bins of 10 µs and a 4096-cell grid: " + independent.slackNanos());
        assertEquals(BoundMethod.INDEPENDENT, independent.method());
        assertTrue(independent.reason().contains("independent"), independent.reason());
        assertTrue(independent.hopQuantiles().isEmpty());
    }

    @Test
    void theIndependentBoundIsCloseToTheEmpiricalQuantileOfSimulatedSumsAndCoversAboutX() {
        final PathBound independent = path.independentBound(PERCENT);
        final double hopsEps = 3 * SimulatedHops.dkwHalfWidth(HOP_SAMPLES, ALPHA);
        final double sumsEps = SimulatedHops.dkwHalfWidth(PATH_SAMPLES, ALPHA);
        final long empirical = SimulatedHops.empiricalQuantile(freshSums, X);
        final double tolerance = trueQuantileNanos(X + hopsEps + sumsEps) - trueQuantileNanos(X - hopsEps - sumsEps)
            + independent.slackNanos();
        assertEquals(empirical, independent.boundNanos(), tolerance, "empirical p96 of the simulated sums");
        final double coverage = SimulatedHops.coverage(freshSums, independent.boundNanos());
        final double highestCoverage = trueCdf(trueQuantileNanos(X + hopsEps) + independent.slackNanos()) + sumsEps;
        assertTrue(coverage >= X - hopsEps - sumsEps && coverage <= highestCoverage,
            "coverage " + coverage + " of the independent bound, expected about " + X);
    }

    @Test
    void theUnionBoundCoversTheSimulatedSumsAndIsAboveTheIndependentBound() {
        final PathBound union = path.unionBound(PERCENT);
        final PathBound independent = path.independentBound(PERCENT);
        final long empirical = SimulatedHops.empiricalQuantile(freshSums, X);
        assertTrue(union.boundNanos() >= empirical, union.boundNanos() + " ns below the empirical p96 " + empirical);
        assertTrue(SimulatedHops.coverage(freshSums, union.boundNanos()) >= X);
        assertTrue(union.boundNanos() > independent.boundNanos(),
            "union " + union.boundNanos() + " ns, independent " + independent.boundNanos() + " ns");
        assertEquals(3, union.hopQuantiles().size());
        long sum = 0;
        for (final HopQuantile hop : union.hopQuantiles()) {
            assertEquals(98.666666667, hop.hopPercent(), 1e-12, "1 - 0.04 / 3, rounded up for display");
            assertTrue(hop.bound().proportionAtOrBelow() >= 1 - 0.04 / 3, hop.toString());
            sum += hop.bound().boundNanos();
        }
        assertEquals(sum, union.boundNanos(), "the sum of the hops' quantiles");
        assertTrue(union.reason().contains("whatever the dependence"), union.reason());
    }

    @Test
    void addingTheHopsX96QuantilesOverCoversForTheseIndependentLightTailedHops() {
        // True here, not in general: for independent exponential hops the sum of the per-hop p96
        // lies far in the path's tail (about its p99.6). See the rare-spike case for the opposite.
        long naive = 0;
        for (final PathHop hop : path.hops()) {
            naive += hop.histogram().boundAt(PERCENT).boundNanos();
        }
        assertTrue(SimulatedHops.coverage(freshSums, naive) > X + 0.02,
            "coverage " + SimulatedHops.coverage(freshSums, naive));
        assertTrue(naive < path.unionBound(PERCENT).boundNanos());
    }

    @Test
    void independentHopsWithARareSpikeEachMakeTheSumOfHopQuantilesUnderCover() {
        // Each hop: 1 ms for 97 of 100 round trips, 10 ms for 3. Each hop's 96 % bound is 1 ms, so the
        // per-hop sum is 3 ms; but the path avoids every spike only 0.97^3 = 91.27 % of the time.
        final LatencyHistogram spiky = LatencyHistogram.uniform(MS, new long[] {97, 0, 0, 0, 0, 0, 0, 0, 0, 3}, 0);
        final PathComposition spikes = PathComposition.of(List.of(new PathHop("a", spiky), new PathHop("b", spiky),
            new PathHop("c", spiky)));
        long naive = 0;
        for (final PathHop hop : spikes.hops()) {
            naive += hop.histogram().boundAt(PERCENT).boundNanos();
        }
        assertEquals(3 * MS, naive);
        final double naiveCoverage = Math.pow(0.97, 3);
        assertTrue(naiveCoverage < X, "exact coverage of the per-hop sum: " + naiveCoverage);
        // The convolution on a grid of 1 ms (27 cells over the 27 ms spread) is exact: P(S <= 12 ms) =
        // 0.97^3 + 3 x 0.03 x 0.97^2 = 99.74 %, P(S <= 3 ms) = 91.27 %.
        assertEquals(12 * MS, spikes.independentBound(PERCENT, 27).boundNanos());
        assertEquals(3 * MS, spikes.independentBound(PERCENT, 27).slackNanos(),
            "one bin width per hop; the 1 ms grid moves no sample");
        assertEquals(12 * MS, spikes.independentBound(PERCENT).boundNanos(), "the default grid: the bins' common 1 ms step");
        // The union bound reads each hop at 98.67 %: 99 of 100 samples, the 10 ms bin.
        assertEquals(30 * MS, spikes.unionBound(PERCENT).boundNanos());
    }

    @Test
    void theConvolutionOfTwoPointMassHopsIsExactOnTheirCommonStep() {
        // Each hop 1 ms or 2 ms, half and half: the path is 2 ms (1/4), 3 ms (1/2) or 4 ms (1/4).
        final LatencyHistogram coin = LatencyHistogram.uniform(MS, new long[] {50, 50}, 0);
        final PathComposition two = PathComposition.of(List.of(new PathHop("a", coin), new PathHop("b", coin)));
        assertEquals(2 * MS, two.independentBound(25, 2).boundNanos());
        assertEquals(3 * MS, two.independentBound(25.1, 2).boundNanos());
        assertEquals(3 * MS, two.independentBound(75, 2).boundNanos(), "exactly 75 %: the tolerance keeps 3 ms");
        assertEquals(4 * MS, two.independentBound(75.1, 2).boundNanos());
        assertEquals(4 * MS, two.independentBound(100, 2).boundNanos());
        final PathBound onCommonStep = two.independentBound(75);
        assertEquals(3 * MS, onCommonStep.boundNanos(), "the default grid takes the bins' common 1 ms step");
        assertEquals(2 * MS, onCommonStep.slackNanos(), "only the bins' widths: the grid moves no sample");
    }

    @Test
    void offTheCommonStepTheGridRoundsUpWithinItsSlack() {
        // b's second edge is 1 ns off a's: the edges share no step coarser than 1 ns, so the default
        // grid's step is ceil(2,000,001 ns / 4096) = 489 ns and each hop's second value rounds up.
        final PathComposition two = PathComposition.of(List.of(
            new PathHop("a", LatencyHistogram.of(new long[] {MS, 2 * MS}, new long[] {50, 50}, 0)),
            new PathHop("b", LatencyHistogram.of(new long[] {MS, 2 * MS + 1}, new long[] {50, 50}, 0))));
        final PathBound gridded = two.independentBound(75);
        assertTrue(gridded.boundNanos() > 3 * MS && gridded.boundNanos() <= 3 * MS + 1 + gridded.slackNanos(),
            gridded.toString());
        assertEquals(MS + (MS + 1) + 2 * 488, gridded.slackNanos(), "the widest bins plus a grid step less 1 ns per hop");
        assertTrue(gridded.reason().contains("grid of 489 ns"), gridded.reason());
    }

    @Test
    void thePathMeanIsTheSumOfTheHopsMeans() {
        final PathMean mean = path.mean();
        double sum = 0;
        for (final PathHop hop : path.hops()) {
            sum += hop.histogram().meanNanosFromBinMidpoints();
        }
        assertEquals(sum, mean.meanNanos(), 1e-6);
        assertEquals(3, mean.hopMeansNanos().size());
        assertEquals(1.5 * BIN_NANOS, mean.slackNanos(), 1e-9, "half a 10 µs bin per hop");
        // And it is the true mean (1 ms of shifts + 3 x 1 ms of tail) within the slack and sampling error.
        assertEquals(4.0 * MS, mean.meanNanos(), mean.slackNanos() + 10_000.0);
        assertEquals(4.0, mean.meanMillis(), 0.03);
    }
}
