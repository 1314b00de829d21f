package org.latencyserver.core.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.apache.commons.math3.distribution.NormalDistribution;
import org.apache.commons.math3.distribution.TDistribution;
import org.apache.commons.math3.stat.descriptive.DescriptiveStatistics;
import org.junit.jupiter.api.Test;

/** Thesis Equation 1 and Student's t, against closed forms with Commons Math quantiles. */
class MeanConfidenceTest {

    /** Round trips in ms, right-skewed as latencies are. */
    static final double[] KNOWN_MILLIS = {1.2, 1.4, 1.1, 2.9, 1.3, 1.25, 7.5, 1.05, 1.6, 1.35, 1.22, 1.31, 3.8, 1.18};

    @Test
    void normalIntervalIsMeanPlusOrMinusZTimesStdDevOverRootN() {
        final double z = new NormalDistribution().inverseCumulativeProbability(0.975);
        final ConfidenceInterval ci = MeanConfidence.normal(1.365, 5.0, 10_000, 0.95);
        assertEquals(1.365 - z * 5.0 / 100.0, ci.lower(), 1e-12);
        assertEquals(1.365 + z * 5.0 / 100.0, ci.upper(), 1e-12);
        assertEquals(0.95, ci.confidenceLevel());
        assertEquals("normal (thesis Eq. 1)", ci.method());
        final double z99 = new NormalDistribution().inverseCumulativeProbability(0.995);
        assertEquals(z99 * 2.0 / Math.sqrt(37), MeanConfidence.normal(0, 2.0, 37, 0.99).halfWidth(), 1e-12);
    }

    @Test
    void batchMeansIntervalIsStudentsTOverTheBatchMeansCentredOnTheRunsMean() {
        // Four batches of 1, 2, 3, 4 ms: standard deviation sqrt(5/3), t(3) at 97.5 % = 3.182446
        final ConfidenceInterval ci = MeanConfidence.batchMeans(2.6, List.of(1.0, 2.0, 3.0, 4.0), 0.95);
        final double halfWidth = 3.182446305284263 * Math.sqrt(5.0 / 3.0) / 2.0;
        assertEquals(2.6 - halfWidth, ci.lower(), 1e-9);
        assertEquals(2.6 + halfWidth, ci.upper(), 1e-9);
        assertEquals("batch means (4 batches of consecutive round trips)", ci.method());
    }

    @Test
    void batchMeansIntervalIsWiderThanEquationOneWhenConsecutiveRoundTripsAreCorrelated() {
        // 1000 round trips: 500 at 0.2 ms, then a busy spell of 500 at 0.6 ms. Eq. 1 treats them as
        // independent draws; the batches see that the run's halves disagree.
        final double[] millis = new double[1000];
        final List<Double> batchMeans = new ArrayList<>();
        for (int i = 0; i < millis.length; i++) {
            millis[i] = i < 500 ? 0.2 : 0.6;
        }
        for (int b = 0; b < 20; b++) {
            batchMeans.add(b < 10 ? 0.2 : 0.6);
        }
        final SampleMoments run = SampleMoments.of(millis);
        final ConfidenceInterval eq1 = MeanConfidence.normal(run, 0.95);
        final ConfidenceInterval batches = MeanConfidence.batchMeans(run.mean(), batchMeans, 0.95);
        assertTrue(batches.halfWidth() > 4 * eq1.halfWidth(), eq1 + " vs " + batches);
    }

    @Test
    void batchMeansNeedTwoFiniteBatches() {
        assertThrows(IllegalArgumentException.class, () -> MeanConfidence.batchMeans(1.0, List.of(1.0), 0.95));
        final IllegalArgumentException nan = assertThrows(IllegalArgumentException.class,
            () -> MeanConfidence.batchMeans(1.0, List.of(1.0, Double.NaN), 0.95));
        assertTrue(nan.getMessage().contains("NaN"), nan.getMessage());
    }

    @Test
    void normalIntervalOnAKnownDataSetMatchesDescriptiveStatistics() {
        final DescriptiveStatistics reference = new DescriptiveStatistics(KNOWN_MILLIS);
        final double halfWidth = new NormalDistribution().inverseCumulativeProbability(0.975)
            * reference.getStandardDeviation() / Math.sqrt(reference.getN());
        final ConfidenceInterval ci = MeanConfidence.normal(SampleMoments.of(KNOWN_MILLIS), 0.95);
        assertEquals(reference.getMean() - halfWidth, ci.lower(), 1e-12);
        assertEquals(reference.getMean() + halfWidth, ci.upper(), 1e-12);
        assertTrue(ci.contains(reference.getMean()));
    }

    @Test
    void studentTIntervalUsesNMinusOneDegreesOfFreedom() {
        final DescriptiveStatistics reference = new DescriptiveStatistics(KNOWN_MILLIS);
        final int n = KNOWN_MILLIS.length;
        final double t = new TDistribution(n - 1).inverseCumulativeProbability(0.975);
        final ConfidenceInterval ci = MeanConfidence.studentT(reference.getMean(), reference.getStandardDeviation(), n, 0.95);
        assertEquals(reference.getMean() - t * reference.getStandardDeviation() / Math.sqrt(n), ci.lower(), 1e-12);
        assertEquals(reference.getMean() + t * reference.getStandardDeviation() / Math.sqrt(n), ci.upper(), 1e-12);
        assertEquals("Student's t", ci.method());
        final ConfidenceInterval fromMoments = MeanConfidence.studentT(SampleMoments.of(KNOWN_MILLIS), 0.95);
        assertEquals(ci.lower(), fromMoments.lower(), 1e-12);
        assertEquals(ci.upper(), fromMoments.upper(), 1e-12);
        assertTrue(ci.halfWidth() > MeanConfidence.normal(reference.getMean(), reference.getStandardDeviation(), n, 0.95)
            .halfWidth(), "t is wider than z for small n");
    }

    @Test
    void studentTApproachesTheNormalIntervalForLargeSamples() {
        final double t = MeanConfidence.studentT(0, 5.0, 100_000, 0.95).halfWidth();
        final double z = MeanConfidence.normal(0, 5.0, 100_000, 0.95).halfWidth();
        assertEquals(z, t, z * 1e-4);
    }

    @Test
    void singleSampleHasAZeroWidthNormalIntervalButNoStudentT() {
        final ConfidenceInterval ci = MeanConfidence.normal(3.0, 0.0, 1, 0.95);
        assertEquals(3.0, ci.lower());
        assertEquals(3.0, ci.upper());
        assertThrows(IllegalArgumentException.class, () -> MeanConfidence.studentT(3.0, 0.0, 1, 0.95));
        assertThrows(IllegalArgumentException.class, () -> MeanConfidence.normal(SampleMoments.of(3.0), 0.95));
    }

    @Test
    void invalidArgumentsAreRefusedWithTheValue() {
        final IllegalArgumentException nan = assertThrows(IllegalArgumentException.class,
            () -> MeanConfidence.normal(3.0, Double.NaN, 10, 0.95));
        assertTrue(nan.getMessage().contains("NaN"), nan.getMessage());
        assertThrows(IllegalArgumentException.class, () -> MeanConfidence.normal(3.0, -1.0, 10, 0.95));
        assertThrows(IllegalArgumentException.class, () -> MeanConfidence.normal(Double.POSITIVE_INFINITY, 1.0, 10, 0.95));
        final IllegalArgumentException none = assertThrows(IllegalArgumentException.class,
            () -> MeanConfidence.normal(3.0, 1.0, 0, 0.95));
        assertTrue(none.getMessage().contains("had 0"), none.getMessage());
        assertThrows(IllegalArgumentException.class, () -> MeanConfidence.normal(3.0, 1.0, 10, 1.0));
        assertThrows(IllegalArgumentException.class, () -> MeanConfidence.studentT(3.0, 1.0, 10, 0.0));
    }
}
