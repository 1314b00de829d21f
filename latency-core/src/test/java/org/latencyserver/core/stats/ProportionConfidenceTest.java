package org.latencyserver.core.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.apache.commons.math3.distribution.NormalDistribution;
import org.junit.jupiter.api.Test;

/** Thesis Equation 3 (Wald) and the Wilson score interval, against closed forms computed here. */
class ProportionConfidenceTest {

    private static final double Z95 = new NormalDistribution().inverseCumulativeProbability(0.975);

    @Test
    void waldIntervalIsThesisEquationThree() {
        final double p = 0.93679;
        final double halfWidth = Z95 * Math.sqrt(p * (1 - p) / 100_000);
        final ConfidenceInterval ci = ProportionConfidence.wald(93_679, 100_000, 0.95);
        assertEquals(p - halfWidth, ci.lower(), 1e-12);
        assertEquals(p + halfWidth, ci.upper(), 1e-12);
        assertEquals("normal approximation (thesis Eq. 3)", ci.method());
    }

    @Test
    void waldIsClampedToZeroAndOne() {
        final ConfidenceInterval nearZero = ProportionConfidence.wald(1, 20, 0.95);
        assertEquals(0.0, nearZero.lower());
        assertEquals(0.05 + Z95 * Math.sqrt(0.05 * 0.95 / 20), nearZero.upper(), 1e-12);
        final ConfidenceInterval nearOne = ProportionConfidence.wald(19, 20, 0.95);
        assertEquals(1.0, nearOne.upper());
    }

    @Test
    void proportionOfOneCollapsesWaldButNotWilson() {
        final ConfidenceInterval wald = ProportionConfidence.wald(1000, 1000, 0.95);
        assertEquals(1.0, wald.lower());
        assertEquals(1.0, wald.upper());
        final ConfidenceInterval wilson = ProportionConfidence.wilson(1000, 1000, 0.95);
        // Closed form at p = 1: lower = n / (n + z²), upper = 1.
        assertEquals(1000 / (1000 + Z95 * Z95), wilson.lower(), 1e-12);
        assertTrue(wilson.lower() < 1.0);
        assertEquals(1.0, wilson.upper(), 1e-12);
        assertEquals("Wilson score", wilson.method());
        final ConfidenceInterval zero = ProportionConfidence.wilson(0, 1000, 0.95);
        assertEquals(0.0, zero.lower(), 1e-12);
        assertEquals(Z95 * Z95 / (1000 + Z95 * Z95), zero.upper(), 1e-12);
    }

    @Test
    void wilsonMatchesItsClosedFormAndContainsTheProportion() {
        final Random random = new Random(5);
        for (int i = 0; i < 500; i++) {
            final long n = 1 + random.nextInt(200_000);
            final long x = (long) (random.nextDouble() * (n + 1));
            final double level = i % 2 == 0 ? 0.95 : 0.99;
            final double z = new NormalDistribution().inverseCumulativeProbability(0.5 + level / 2);
            // The textbook form in counts: (x + z²/2 ± z·√(x(n−x)/n + z²/4)) / (n + z²).
            final double centre = (x + z * z / 2) / (n + z * z);
            final double half = z * Math.sqrt((double) x * (n - x) / n + z * z / 4) / (n + z * z);
            final ConfidenceInterval ci = ProportionConfidence.wilson(x, n, level);
            assertEquals(Math.max(0, centre - half), ci.lower(), 1e-9, x + "/" + n);
            assertEquals(Math.min(1, centre + half), ci.upper(), 1e-9, x + "/" + n);
            assertTrue(ci.contains((double) x / n), x + "/" + n);
        }
    }

    @Test
    void wilsonAndWaldAgreeForLargeSamplesAwayFromTheEnds() {
        final ConfidenceInterval wald = ProportionConfidence.wald(50_000, 100_000, 0.95);
        final ConfidenceInterval wilson = ProportionConfidence.wilson(50_000, 100_000, 0.95);
        assertEquals(wald.lower(), wilson.lower(), 1e-6);
        assertEquals(wald.upper(), wilson.upper(), 1e-6);
    }

    @Test
    void impossibleCountsAreRefusedWithTheValue() {
        final IllegalArgumentException tooMany = assertThrows(IllegalArgumentException.class,
            () -> ProportionConfidence.wilson(5, 4, 0.95));
        assertTrue(tooMany.getMessage().contains("was 5"), tooMany.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ProportionConfidence.wald(0, 0, 0.95));
        assertThrows(IllegalArgumentException.class, () -> ProportionConfidence.wald(-1, 10, 0.95));
        assertThrows(IllegalArgumentException.class, () -> ProportionConfidence.wald(1, 10, 1.5));
    }
}
