package org.latencyserver.benchmarks.calibration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.latencyserver.core.calibration.PortBand;
import org.latencyserver.core.traffic.CallKind;
import org.latencyserver.core.traffic.TrafficShape;

class ShapeModelLevelSimulationTest {

    private static final TrafficShape FAST = new TrafficShape(500, 100, 0, CallKind.OCTETS);
    private static final TrafficShape SLOW = new TrafficShape(10_000, 10, 0, CallKind.ARRAYS);

    @Test
    void fastShapesAndEveryLoadedRoundTripAreHeavyTailedTheIdleSlowOnesNot() {
        assertTrue(ShapeModelLevelSimulation.heavy(FAST, PortBand.IDLE));
        assertTrue(ShapeModelLevelSimulation.heavy(SLOW, PortBand.LOADED));
        assertFalse(ShapeModelLevelSimulation.heavy(SLOW, PortBand.IDLE));
        assertEquals(PortBand.LOADED, ShapeModelLevelSimulation.band(ShapeModelSimulation.STATES - 1));
        assertEquals(PortBand.IDLE, ShapeModelLevelSimulation.band(0));
    }

    @Test
    void aNormalShapesCdfIsTheLogNormalsWithTheTrainsSpell() {
        final double sd = Math.hypot(ShapeModelSimulation.NOISE, ShapeModelSimulation.BLOCK_NOISE);
        assertEquals(ShapeModelSimulation.NORMAL.cumulativeProbability(0.5 / sd),
            ShapeModelLevelSimulation.cdf(SLOW, PortBand.IDLE, 0.5), 1e-4);
    }

    @Test
    void theTrueQuantileCoversNinetySixPercentAndAHeavyTailsLiesHigher() {
        final double heavy = ShapeModelLevelSimulation.trueQuantile(FAST, PortBand.IDLE);
        final double normal = ShapeModelLevelSimulation.trueQuantile(SLOW, PortBand.IDLE);
        assertEquals(0.96, ShapeModelLevelSimulation.cdf(FAST, PortBand.IDLE, heavy), 1e-6);
        assertEquals(0.96, ShapeModelLevelSimulation.cdf(SLOW, PortBand.IDLE, normal), 1e-6);
        assertTrue(heavy > normal, heavy + " vs " + normal);
    }
}
