package org.latencyserver.core.path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The two ways of convolving the hops' grid distributions — direct for small ones, by Fourier
 * transform for large ones — give the same shares, to far below the tail tolerance.
 */
class PathConvolutionTransformTest {

    @Test
    void theTransformAndTheDirectConvolutionAgreeOnRandomSparseAndDenseHops() {
        final Random random = new Random(7L);
        for (int trial = 0; trial < 40; trial++) {
            final int hops = 2 + random.nextInt(3);
            final double[][] masses = new double[hops][];
            for (int h = 0; h < hops; h++) {
                masses[h] = randomShares(random, 1 + random.nextInt(1500), random.nextBoolean());
            }
            final double[] direct = IndependentConvolution.convolveAll(masses, false);
            final double[] transformed = IndependentConvolution.convolveAll(masses, true);
            assertEquals(direct.length, transformed.length, "trial " + trial);
            double total = 0;
            for (int j = 0; j < direct.length; j++) {
                assertEquals(direct[j], transformed[j], 1e-14, "trial " + trial + ", cell " + j);
                assertTrue(transformed[j] >= 0.0);
                total += direct[j];
            }
            assertEquals(1.0, total, 1e-12, "shares of the sum add up to one");
        }
    }

    @Test
    void convolvingPointMassesShiftsThem() {
        final double[] sum = IndependentConvolution.convolveAll(new double[][] {{0, 0, 1}, {0, 1}, {1}}, true);
        assertEquals(4, sum.length);
        assertEquals(1.0, sum[3], 1e-15);
        assertEquals(0.0, sum[0] + sum[1] + sum[2], 1e-15);
    }

    private static double[] randomShares(final Random random, final int cells, final boolean sparse) {
        final double[] shares = new double[cells];
        double total = 0;
        for (int j = 0; j < cells; j++) {
            shares[j] = sparse && random.nextInt(10) > 0 ? 0.0 : random.nextDouble();
            total += shares[j];
        }
        shares[0] += 1.0;
        total += 1.0;
        for (int j = 0; j < cells; j++) {
            shares[j] /= total;
        }
        return shares;
    }
}
