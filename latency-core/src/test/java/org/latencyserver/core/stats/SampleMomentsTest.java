package org.latencyserver.core.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Random;
import org.apache.commons.math3.stat.descriptive.DescriptiveStatistics;
import org.junit.jupiter.api.Test;

/** Mean and sample standard deviation against Commons Math's DescriptiveStatistics. */
class SampleMomentsTest {

    @Test
    void momentsOfAKnownDataSetMatchDescriptiveStatistics() {
        final DescriptiveStatistics reference = new DescriptiveStatistics(MeanConfidenceTest.KNOWN_MILLIS);
        final SampleMoments moments = SampleMoments.of(MeanConfidenceTest.KNOWN_MILLIS);
        assertEquals(reference.getN(), moments.count());
        assertEquals(reference.getMean(), moments.mean(), 1e-14);
        assertEquals(reference.getVariance(), moments.sampleVariance(), 1e-13);
        assertEquals(reference.getStandardDeviation(), moments.sampleStdDev(), 1e-13);
    }

    @Test
    void addingOneAtATimeFromSumsAndCombiningHalvesAllAgree() {
        final Random random = new Random(29);
        final double[] millis = new double[10_000];
        for (int i = 0; i < millis.length; i++) {
            millis[i] = 0.8 + -2.0 * Math.log(1 - random.nextDouble());
        }
        final DescriptiveStatistics reference = new DescriptiveStatistics(millis);
        SampleMoments oneByOne = SampleMoments.empty();
        double sum = 0;
        double sumOfSquares = 0;
        for (final double value : millis) {
            oneByOne = oneByOne.plus(value);
            sum += value;
            sumOfSquares += value * value;
        }
        final SampleMoments fromSums = SampleMoments.fromSums(millis.length, sum, sumOfSquares);
        final SampleMoments combined = SampleMoments.of(Arrays.copyOfRange(millis, 0, 3_333))
            .combine(SampleMoments.of(Arrays.copyOfRange(millis, 3_333, millis.length)));
        for (final SampleMoments moments : new SampleMoments[] {oneByOne, fromSums, combined}) {
            assertEquals(millis.length, moments.count());
            assertEquals(reference.getMean(), moments.mean(), 1e-12);
            assertEquals(reference.getStandardDeviation(), moments.sampleStdDev(), 1e-10);
        }
        assertEquals(combined.mean(), combined.combine(SampleMoments.empty()).mean());
        assertEquals(combined.count(), SampleMoments.empty().combine(combined).count());
    }

    @Test
    void momentsStayAccurateForATinySpreadAroundALargeMeanInNanoseconds() {
        final Random random = new Random(3);
        final double[] nanos = new double[100_000];
        for (int i = 0; i < nanos.length; i++) {
            nanos[i] = 1e9 + random.nextGaussian() * 10;
        }
        final DescriptiveStatistics reference = new DescriptiveStatistics(nanos);
        assertEquals(reference.getStandardDeviation(), SampleMoments.of(nanos).sampleStdDev(), 1e-6);
        assertEquals(reference.getMean(), SampleMoments.of(nanos).mean(), 1e-6);
        // One sample at a time (Welford) is within a few parts in 10^14 of the two-pass figures.
        SampleMoments streamed = SampleMoments.empty();
        for (final double value : nanos) {
            streamed = streamed.plus(value);
        }
        assertEquals(reference.getMean(), streamed.mean(), 1e-4);
        assertEquals(reference.getStandardDeviation(), streamed.sampleStdDev(), 1e-3);
        // The raw sums cannot do this: Σx² of 10^5 values near 10^18 loses the 100 ns² variance.
        double sum = 0;
        double sumOfSquares = 0;
        for (final double value : nanos) {
            sum += value;
            sumOfSquares += value * value;
        }
        final double raw = SampleMoments.fromSums(nanos.length, sum, sumOfSquares).sampleStdDev();
        assertTrue(Math.abs(raw - reference.getStandardDeviation()) > 1.0, "raw sums gave " + raw);
    }

    @Test
    void noSamplesHaveNoMeanAndOneSampleHasNoStandardDeviation() {
        assertEquals(0, SampleMoments.empty().count());
        assertTrue(Double.isNaN(SampleMoments.empty().mean()));
        assertTrue(Double.isNaN(SampleMoments.of().sampleStdDev()));
        final SampleMoments one = SampleMoments.of(3.0);
        assertEquals(3.0, one.mean());
        assertTrue(Double.isNaN(one.sampleStdDev()));
        assertTrue(Double.isNaN(SampleMoments.fromSums(1, 3.0, 9.0).sampleStdDev()));
        assertEquals(0.0, SampleMoments.of(2.5, 2.5, 2.5).sampleStdDev());
    }

    @Test
    void roundingNeverMakesTheVarianceFromSumsNegative() {
        // Three equal samples whose squares do not sum exactly in binary.
        final double value = 0.1;
        final SampleMoments moments = SampleMoments.fromSums(3, value + value + value, value * value * 3);
        assertTrue(moments.sampleVariance() >= 0.0, "variance " + moments.sampleVariance());
    }

    @Test
    void invalidSamplesAndSumsAreRefusedWithTheValue() {
        final IllegalArgumentException nan = assertThrows(IllegalArgumentException.class,
            () -> SampleMoments.of(1.0, Double.NaN));
        assertTrue(nan.getMessage().contains("sample[1]"), nan.getMessage());
        assertThrows(IllegalArgumentException.class, () -> SampleMoments.empty().plus(Double.POSITIVE_INFINITY));
        assertThrows(IllegalArgumentException.class, () -> SampleMoments.fromSums(-1, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> SampleMoments.fromSums(2, 1, -1));
        assertThrows(IllegalArgumentException.class, () -> SampleMoments.fromSums(0, 1, 1));
    }
}
