package org.latencyserver.core.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.apache.commons.math3.distribution.NormalDistribution;
import org.junit.jupiter.api.Test;

/** Thesis Equation 2 and the statements of section 4.2.4 built on it. */
class SampleSizeTest {

    private static final double Z95 = new NormalDistribution().inverseCumulativeProbability(0.975);

    @Test
    void fiveMillisecondSpreadAndATenthOfAMillisecondErrorNeedAboutTenThousandSamples() {
        // Section 4.2.4: "assuming the standard deviation is 5 ms, the sampling error is about .1 ms
        // for 10000 samples".
        final long n = SampleSize.forMeanHalfWidth(5.0, 0.1, 0.95);
        assertEquals(9_604, n);
        assertEquals(10_000, n, 500, "about 10,000");
        assertEquals(0.1, SampleSize.meanHalfWidth(5.0, 10_000, 0.95), 0.003);
    }

    @Test
    void aThousandSamplesGiveAnErrorBelowPointThreeOneMilliseconds() {
        // "... and less then .3 ms for 1000 samples": 1.96 * 5 / sqrt(1000) = 0.3099 ms.
        final double error = SampleSize.meanHalfWidth(5.0, 1_000, 0.95);
        assertTrue(error < 0.31, "error " + error);
        assertTrue(error > 0.30, "error " + error);
        assertEquals(MeanConfidence.normal(1.365, 5.0, 1_000, 0.95).halfWidth(), error, 1e-12);
    }

    @Test
    void sampleSizeIsTheCeilingOfTheClosedForm() {
        final Random random = new Random(37);
        for (int i = 0; i < 1000; i++) {
            final double sigma = 0.01 + random.nextDouble() * 20;
            final double error = 0.001 + random.nextDouble();
            final double exact = Math.pow(Z95 * sigma / error, 2);
            final long n = SampleSize.forMeanHalfWidth(sigma, error, 0.95);
            assertEquals(Math.max(1, (long) Math.ceil(exact)), n, "sigma " + sigma + " error " + error);
            // Enough samples give at most the error asked for, one fewer gives more.
            assertTrue(SampleSize.meanHalfWidth(sigma, n, 0.95) <= error * (1 + 1e-12));
            if (n > 1) {
                assertTrue(SampleSize.meanHalfWidth(sigma, n - 1, 0.95) > error);
            }
        }
    }

    @Test
    void proportionSampleSizeIsTheCeilingOfItsClosedForm() {
        assertEquals((long) Math.ceil(Z95 * Z95 * 0.25 / 0.0001), SampleSize.forProportionHalfWidth(0.5, 0.01, 0.95));
        assertEquals((long) Math.ceil(Z95 * Z95 * 0.93 * 0.07 / (0.0015 * 0.0015)),
            SampleSize.forProportionHalfWidth(0.93, 0.0015, 0.95));
        assertEquals(1, SampleSize.forProportionHalfWidth(1.0, 0.01, 0.95));
        final long n = SampleSize.forProportionHalfWidth(0.9, 0.005, 0.95);
        assertTrue(ProportionConfidence.wald(Math.round(0.9 * n), n, 0.95).halfWidth() <= 0.005 + 1e-6);
    }

    @Test
    void nonPositiveSpreadsAndErrorsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> SampleSize.forMeanHalfWidth(5.0, 0.0, 0.95));
        assertThrows(IllegalArgumentException.class, () -> SampleSize.forMeanHalfWidth(0.0, 0.1, 0.95));
        assertThrows(IllegalArgumentException.class, () -> SampleSize.forMeanHalfWidth(Double.NaN, 0.1, 0.95));
        assertThrows(IllegalArgumentException.class, () -> SampleSize.forProportionHalfWidth(1.5, 0.1, 0.95));
        assertThrows(IllegalArgumentException.class, () -> SampleSize.meanHalfWidth(5.0, 0, 0.95));
    }
}
