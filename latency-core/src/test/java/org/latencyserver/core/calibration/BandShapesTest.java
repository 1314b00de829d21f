package org.latencyserver.core.calibration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.latencyserver.core.traffic.CallKind;
import org.latencyserver.core.traffic.TrafficShape;

/** A band's trains' shapes while few ({@link BandShapes}). */
class BandShapesTest {

    private static TrafficShape shape(final long spacingMicros) {
        return new TrafficShape(spacingMicros, 20, 0, CallKind.ARRAYS);
    }

    @Test
    void aShapeSentAgainAddsToItsEntryWhateverItsPause() {
        BandShapes shapes = BandShapes.EMPTY.observe(shape(2_000), 20);
        shapes = shapes.observe(new TrafficShape(2_000, 20, 500, CallKind.ARRAYS), 20);
        assertEquals(1, shapes.entries().size());
        assertEquals(20 * ShapeExcessModel.FORGETTING + 20, shapes.entries().get(0).weight(), 1e-3);
        assertTrue(shapes.few());
    }

    @Test
    void moreShapesThanKeptAreNotFewUntilTheOthersAreForgotten() {
        BandShapes shapes = BandShapes.EMPTY;
        for (int k = 0; k < BandShapes.MAX_SHAPES; k++) {
            shapes = shapes.observe(shape(1_000 + k), 20);
        }
        assertTrue(shapes.few(), "sixteen shapes are kept");
        shapes = shapes.observe(shape(50_000), 20);
        assertEquals(BandShapes.MAX_SHAPES, shapes.entries().size());
        assertEquals(20, shapes.otherWeight(), 1e-3);
        assertFalse(shapes.few(), "a seventeenth found no room: a family, not a few shapes");
        for (int b = 0; b < 2_000; b++) {
            shapes = shapes.observe(shape(1_000), 20);
        }
        assertTrue(shapes.few(), "forgotten, the others weigh under 1 %: " + shapes.otherWeight());
        assertEquals(1, shapes.entries().size(), "the forgotten shapes are dropped");
    }

    @Test
    void badShapesAreRefusedSayingWhat() {
        assertThrows(IllegalArgumentException.class, () -> new BandShapes(List.of(new BandShapes.Entry(shape(1_000), 0.0)), 0));
        final IllegalArgumentException twice = assertThrows(IllegalArgumentException.class, () -> new BandShapes(
            List.of(new BandShapes.Entry(shape(1_000), 1.0), new BandShapes.Entry(shape(1_000), 2.0)), 0));
        assertTrue(twice.getMessage().contains("kept twice"), twice.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new BandShapes(List.of(), -1.0));
        final List<BandShapes.Entry> many = new java.util.ArrayList<>();
        for (int k = 0; k <= BandShapes.MAX_SHAPES; k++) {
            many.add(new BandShapes.Entry(shape(1_000 + k), 1.0));
        }
        assertThrows(IllegalArgumentException.class, () -> new BandShapes(many, 0));
    }
}
