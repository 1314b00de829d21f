package org.latencyserver.core.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.apache.commons.math3.distribution.BinomialDistribution;
import org.apache.commons.math3.distribution.NormalDistribution;
import org.apache.commons.math3.distribution.TDistribution;
import org.apache.commons.math3.stat.descriptive.DescriptiveStatistics;
import org.junit.jupiter.api.Test;

/** Every statistic against an independent computation: Commons Math or a closed form. */
class StatisticsTest {

    private static final double[] KNOWN = {1.2, 1.4, 1.1, 2.9, 1.3, 1.25, 7.5, 1.05, 1.6, 1.35};

    @Test
    void zForNinetyFivePercentIsTheStandardNormalQuantile() {
        assertEquals(new NormalDistribution().inverseCumulativeProbability(0.975), NormalQuantile.zTwoSided(0.95), 1e-12);
        assertEquals(1.96, NormalQuantile.zTwoSided(0.95), 5e-5);
        assertThrows(IllegalArgumentException.class, () -> NormalQuantile.zTwoSided(1.0));
    }

    @Test
    void meanIntervalIsThesisEquationOneOnKnownData() {
        final DescriptiveStatistics reference = new DescriptiveStatistics(KNOWN);
        final SampleMoments moments = SampleMoments.of(KNOWN);
        assertEquals(reference.getMean(), moments.mean(), 1e-12);
        assertEquals(reference.getStandardDeviation(), moments.sampleStdDev(), 1e-12);
        final ConfidenceInterval ci = MeanConfidence.normal(moments.mean(), moments.sampleStdDev(), KNOWN.length, 0.95);
        final double halfWidth = new NormalDistribution().inverseCumulativeProbability(0.975)
            * reference.getStandardDeviation() / Math.sqrt(KNOWN.length);
        assertEquals(reference.getMean() - halfWidth, ci.lower(), 1e-12);
        assertEquals(reference.getMean() + halfWidth, ci.upper(), 1e-12);
    }

    @Test
    void thesisAssumptionGivesAboutATenthOfAMillisecondForTenThousandSamples() {
        // Section 4.2.4: s = 5 ms, n = 10,000 -> error about 0.1 ms; n = 1000 -> less than 0.3 ms (0.31).
        assertEquals(0.098, MeanConfidence.normal(1.365, 5.0, 10_000, 0.95).halfWidth(), 5e-4);
        assertEquals(0.31, MeanConfidence.normal(1.365, 5.0, 1_000, 0.95).halfWidth(), 5e-3);
    }

    @Test
    void singleSampleHasAZeroWidthNormalIntervalAndNoStandardDeviation() {
        assertTrue(Double.isNaN(SampleMoments.of(3.0).sampleStdDev()));
        final ConfidenceInterval ci = MeanConfidence.normal(3.0, 0.0, 1, 0.95);
        assertEquals(3.0, ci.lower());
        assertEquals(3.0, ci.upper());
        assertThrows(IllegalArgumentException.class, () -> MeanConfidence.studentT(3.0, 0.0, 1, 0.95));
        assertThrows(IllegalArgumentException.class, () -> MeanConfidence.normal(3.0, Double.NaN, 10, 0.95));
        assertThrows(IllegalArgumentException.class, () -> MeanConfidence.normal(3.0, 1.0, 0, 0.95));
    }

    @Test
    void studentTIntervalUsesNMinusOneDegreesOfFreedom() {
        final DescriptiveStatistics reference = new DescriptiveStatistics(KNOWN);
        final double t = new TDistribution(KNOWN.length - 1).inverseCumulativeProbability(0.975);
        final ConfidenceInterval ci = MeanConfidence.studentT(reference.getMean(), reference.getStandardDeviation(),
            KNOWN.length, 0.95);
        assertEquals(t * reference.getStandardDeviation() / Math.sqrt(KNOWN.length), ci.halfWidth(), 1e-12);
        assertTrue(ci.halfWidth() > MeanConfidence.normal(reference.getMean(), reference.getStandardDeviation(),
            KNOWN.length, 0.95).halfWidth());
    }

    @Test
    void momentsStayAccurateForSmallSpreadAroundALargeMean() {
        final Random random = new Random(3);
        final double[] nanos = new double[100_000];
        for (int i = 0; i < nanos.length; i++) {
            nanos[i] = 1e9 + random.nextGaussian() * 10;
        }
        assertEquals(new DescriptiveStatistics(nanos).getStandardDeviation(), SampleMoments.of(nanos).sampleStdDev(), 1e-6);
    }

    @Test
    void waldIntervalIsThesisEquationThree() {
        final double p = 0.93679;
        final double halfWidth = 1.959963984540054 * Math.sqrt(p * (1 - p) / 100_000);
        final ConfidenceInterval ci = ProportionConfidence.wald(93_679, 100_000, 0.95);
        assertEquals(p - halfWidth, ci.lower(), 1e-12);
        assertEquals(p + halfWidth, ci.upper(), 1e-12);
    }

    @Test
    void proportionOfOneCollapsesWaldButNotWilson() {
        final ConfidenceInterval wald = ProportionConfidence.wald(1000, 1000, 0.95);
        assertEquals(1.0, wald.lower());
        assertEquals(1.0, wald.upper());
        final ConfidenceInterval wilson = ProportionConfidence.wilson(1000, 1000, 0.95);
        final double z = new NormalDistribution().inverseCumulativeProbability(0.975);
        // Closed form at p = 1: lower = n / (n + z²).
        assertEquals(1000 / (1000 + z * z), wilson.lower(), 1e-12);
        assertEquals(1.0, wilson.upper(), 1e-12);
    }

    @Test
    void wilsonMatchesItsClosedFormAndContainsTheProportion() {
        final Random random = new Random(5);
        for (int i = 0; i < 200; i++) {
            final long n = 1 + random.nextInt(20_000);
            final long x = random.nextInt((int) n + 1);
            final double p = (double) x / n;
            final double z = new NormalDistribution().inverseCumulativeProbability(0.975);
            final double centre = (x + z * z / 2) / (n + z * z);
            final double half = z * Math.sqrt(n) / (n + z * z) * Math.sqrt(p * (1 - p) + z * z / (4.0 * n));
            final ConfidenceInterval ci = ProportionConfidence.wilson(x, n, 0.95);
            assertEquals(Math.max(0, centre - half), ci.lower(), 1e-9);
            assertEquals(Math.min(1, centre + half), ci.upper(), 1e-9);
            assertTrue(ci.contains(p));
        }
        assertThrows(IllegalArgumentException.class, () -> ProportionConfidence.wilson(5, 4, 0.95));
        assertThrows(IllegalArgumentException.class, () -> ProportionConfidence.wald(0, 0, 0.95));
    }

    @Test
    void orderStatisticRanksReachTheirCoverageRecomputedFromTheBinomial() {
        for (final long n : new long[] {100, 1000, 10_000}) {
            for (final double q : new double[] {0.5, 0.9, 0.96, 0.99}) {
                if (n < QuantileConfidence.minimumSampleSize(q, 0.95)) {
                    final long tooFew = n;
                    assertThrows(IllegalArgumentException.class, () -> QuantileConfidence.ranks(tooFew, q, 0.95));
                    continue;
                }
                final OrderStatisticInterval ranks = QuantileConfidence.ranks(n, q, 0.95);
                final BinomialDistribution b = new BinomialDistribution((int) n, q);
                final double coverage = b.cumulativeProbability((int) ranks.upperRank() - 1)
                    - b.cumulativeProbability((int) ranks.lowerRank() - 1);
                assertEquals(coverage, ranks.achievedCoverage(), 1e-12);
                assertTrue(coverage >= 0.95, n + " " + q + " coverage " + coverage);
                assertTrue(ranks.lowerRank() >= 1 && ranks.upperRank() <= n && ranks.lowerRank() < ranks.upperRank());
                // Narrowest from each tail: moving either rank inward loses coverage in that tail.
                assertTrue(b.cumulativeProbability((int) ranks.lowerRank()) > 0.025);
                assertTrue(1 - b.cumulativeProbability((int) ranks.upperRank() - 2) > 0.025);
            }
        }
    }

    @Test
    void orderStatisticIntervalNeedsEnoughSamplesAndSaysHowMany() {
        final long minimum = QuantileConfidence.minimumSampleSize(0.96, 0.95);
        assertEquals((long) Math.ceil(Math.log(0.025) / Math.log(0.96)), minimum);
        QuantileConfidence.ranks(minimum, 0.96, 0.95);
        final IllegalArgumentException error =
            assertThrows(IllegalArgumentException.class, () -> QuantileConfidence.ranks(minimum - 1, 0.96, 0.95));
        assertTrue(error.getMessage().contains("need at least " + minimum), error.getMessage());
    }

    @Test
    void sampleSizeIsThesisEquationTwo() {
        final double z = new NormalDistribution().inverseCumulativeProbability(0.975);
        assertEquals((long) Math.ceil(Math.pow(z * 5.0 / 0.1, 2)), SampleSize.forMeanHalfWidth(5.0, 0.1, 0.95));
        assertEquals(9604, SampleSize.forMeanHalfWidth(5.0, 0.1, 0.95));
        // Enough samples give at most the error asked for.
        final long n = SampleSize.forMeanHalfWidth(2.0, 0.05, 0.95);
        assertTrue(MeanConfidence.normal(0, 2.0, n, 0.95).halfWidth() <= 0.05);
        assertTrue(MeanConfidence.normal(0, 2.0, n - 1, 0.95).halfWidth() > 0.05);
        assertEquals((long) Math.ceil(z * z * 0.25 / 0.0001), SampleSize.forProportionHalfWidth(0.5, 0.01, 0.95));
        assertThrows(IllegalArgumentException.class, () -> SampleSize.forMeanHalfWidth(5.0, 0.0, 0.95));
    }
}
