package org.latencyserver.core.calibration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.latencyserver.core.traffic.TrafficFamily;
import org.latencyserver.core.traffic.TrafficShape;

class WindowNoiseTest {

    @Test
    void nothingKeptGivesTheSmallestRidge() {
        assertEquals(0.0, WindowNoise.NONE.scatter(), 0.0);
        assertEquals(WindowNoise.MIN_RIDGE, WindowNoise.NONE.ridge(), 0.0);
        assertEquals(WindowNoise.MIN_RIDGE, new WindowNoise(0.01, 10).ridge(), 0.0, "little scatter: the floor");
    }

    @Test
    void theRidgeIsTheScatterOverTheSlopesPriorSpreadSquared() {
        final WindowNoise noise = WindowNoise.NONE.after(0.5, 20, 1.0).after(-1.0, 10, 1.0);
        assertEquals(20 * 0.25 + 10 * 1.0, noise.residualSum(), 1e-12);
        assertEquals(2.0, noise.windows(), 0.0);
        assertEquals(7.5, noise.scatter(), 1e-12);
        assertEquals(7.5 / (WindowNoise.SLOPE_SPREAD * WindowNoise.SLOPE_SPREAD), noise.ridge(), 1e-12);
    }

    @Test
    void earlierWindowsAreForgottenAndAResidualNotFiniteChangesNothing() {
        final WindowNoise noise = new WindowNoise(10.0, 4.0).after(1.0, 2.0, 0.5);
        assertEquals(5.0 + 2.0, noise.residualSum(), 1e-12);
        assertEquals(3.0, noise.windows(), 1e-12);
        assertSame(noise, noise.after(Double.NaN, 20, 0.5));
    }

    @Test
    void negativeOrInfiniteSumsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new WindowNoise(-1.0, 1.0));
        assertThrows(IllegalArgumentException.class, () -> new WindowNoise(1.0, Double.POSITIVE_INFINITY));
        assertThrows(IllegalArgumentException.class, () -> new WindowNoise(Double.NaN, 1.0));
    }

    /**
     * The shape mean model keeps its windows' scatter: windows of light-tailed round trips (log-normal, σ = 0.35) keep
     * the ridge near its floor, so slopes the windows agree on are not shrunk; heavy-tailed ones (σ = 1.2) raise it
     * several-fold.
     */
    @Test
    void theModelsRidgeFollowsHowFarItsWindowsScatter() {
        final double light = ridgeAfter(0.35);
        final double heavy = ridgeAfter(1.2);
        assertTrue(light < 2.0, "light-tailed windows: about the floor, was " + light);
        assertTrue(heavy > 5 * light, "heavy-tailed windows: " + heavy + " against " + light);
    }

    private static double ridgeAfter(final double sigma) {
        final SplittableRandom random = new SplittableRandom(3);
        ShapeMeanModel model = ShapeMeanModel.EMPTY;
        for (int window = 0; window < 200; window++) {
            final TrafficShape shape = TrafficFamily.DEFAULT.draw(random, 10.0);
            double sum = 0;
            for (int i = 0; i < shape.burstRoundTrips(); i++) {
                final double gaussian = Math.sqrt(-2.0 * Math.log(1.0 - random.nextDouble()))
                    * Math.cos(2.0 * Math.PI * random.nextDouble());
                sum += Math.exp(-sigma * sigma / 2 + sigma * gaussian);
            }
            model = model.observe(shape, shape.burstRoundTrips(), sum / shape.burstRoundTrips(), 1.0);
        }
        return model.ridge();
    }
}
