package org.latencyserver.core.traffic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumSet;
import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class TrafficFamilyTest {

    @Test
    void drawnShapesStayInsideTheFamilyAndKeepTheProbeBudgetOverTheLongRun() {
        final SplittableRandom random = new SplittableRandom(7);
        double roundTrips = 0;
        double micros = 0;
        final Set<ShapeClass> classes = new HashSet<>();
        for (int i = 0; i < 5_000; i++) {
            final TrafficShape shape = TrafficFamily.DEFAULT.draw(random, 20.0);
            assertTrue(TrafficFamily.DEFAULT.contains(shape), shape.label());
            roundTrips += shape.burstRoundTrips();
            micros += shape.burstRoundTrips() * shape.spacingMicros() + shape.pauseMillis() * 1_000.0;
            classes.add(ShapeClass.of(shape));
        }
        assertEquals(20.0, roundTrips / (micros / 1e6), 1.0, "long-run rate of the drawn trains");
        // 4 spacing ranges x 4 burst ranges x 2 calls inside the default family
        assertEquals(32, classes.size());
    }

    @Test
    void aBurstLongerThanTheBudgetAllowsGetsNoPause() {
        final TrafficFamily slowAndLong = new TrafficFamily(10_000, 10_000, 100, 100, EnumSet.of(CallKind.OCTETS));
        final TrafficShape shape = slowAndLong.draw(new SplittableRandom(1), 200.0);
        assertEquals(0, shape.pauseMillis());
        assertEquals(100, shape.burstRoundTrips());
    }

    @Test
    void aFamilyOutsideItsRangesIsRefusedNamingTheRange() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new TrafficFamily(10, 100, 1, 2, Set.of(CallKind.ARRAYS)))
            .getMessage().contains("spacing"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new TrafficFamily(500, 600, 5, 2, Set.of(CallKind.ARRAYS)))
            .getMessage().contains("burst"));
        assertThrows(IllegalArgumentException.class, () -> new TrafficFamily(500, 600, 1, 2, Set.of()));
    }

    @Test
    void shapesAreClassedBySpacingBurstAndCall() {
        final ShapeClass fastBursty = ShapeClass.of(new TrafficShape(600, 80, 100, CallKind.OCTETS));
        final ShapeClass slowSingle = ShapeClass.of(new TrafficShape(8_000, 1, 100, CallKind.ARRAYS));
        assertEquals("spacing 0.5–1 ms, bursts 50–100, octets", fastBursty.label());
        assertEquals("spacing 5–10 ms, bursts 1, arrays", slowSingle.label());
        assertFalse(fastBursty.equals(slowSingle));
        assertFalse(fastBursty.wireCode() == slowSingle.wireCode());
        assertEquals(fastBursty, ShapeClass.of(new TrafficShape(999, 50, 0, CallKind.OCTETS)));
    }

    @Test
    void aShapeOutsideItsRangesIsRefusedNamingTheField() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new TrafficShape(10, 1, 0, CallKind.OCTETS)).getMessage()
            .contains("spacing"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new TrafficShape(1_000, 0, 0, CallKind.OCTETS)).getMessage()
            .contains("burst"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> new TrafficShape(1_000, 1, -1, CallKind.OCTETS)).getMessage()
            .contains("pause"));
        assertThrows(IllegalArgumentException.class, () -> new TrafficShape(1_000, 1, 0, null));
    }

    @Test
    void aShapeSaysItsRateAndLabel() {
        final TrafficShape shape = new TrafficShape(2_000, 50, 900, CallKind.OCTETS);
        assertEquals(50.0, shape.meanRoundTripsPerSecond(), 1e-9);
        assertEquals("bursts of 50 round trips 2 ms apart, 900 ms pause, octets", shape.label());
        assertEquals("any traffic: spacing 0.5–10 ms, bursts 1–100, octets or arrays", TrafficFamily.DEFAULT.label());
        assertEquals(CallKind.ARRAYS, CallKind.fromWord("arrays").orElseThrow());
        assertEquals(CallKind.OCTETS, CallKind.fromWireCode(1).orElseThrow());
    }
}
