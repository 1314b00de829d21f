package org.latencyserver.server.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.latencyserver.server.engine.AdaptiveConnectionFixture.measure;
import static org.latencyserver.server.engine.AdaptiveConnectionFixture.roundTrips;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.latencyserver.core.calibration.PortBand;
import org.latencyserver.core.calibration.ShapeExcessModel;
import org.latencyserver.core.traffic.CallKind;
import org.latencyserver.core.traffic.TrafficShape;
import org.latencyserver.server.table.ConnectionRow;
import org.latencyserver.server.table.MibReading;

/**
 * The engine learns the shape model in the port band a probe window was sent in and serves a shape's bound for the
 * current state's band; a window begun in another load state teaches the model nothing.
 */
class ShapeModelPortBandServingTest {

    private static final long SECOND = 1_000_000_000L;
    private static final short INDEX = AdaptiveConnectionFixture.INDEX;
    /** Bursts of 100 octet round trips 0.5 ms apart: never probed here, so served by the shape model. */
    private static final TrafficShape FAST = new TrafficShape(500, 100, 0, CallKind.OCTETS);
    private static final Pattern FACTOR = Pattern.compile("× ([0-9.]+) for ");

    private final AdaptiveConnectionFixture connection = new AdaptiveConnectionFixture();

    /** A slow shape the fast one is compared with: it offers little, so queues behind itself on neither port. */
    private static final TrafficShape SLOW = new TrafficShape(10_000, 5, 0, CallKind.ARRAYS);

    /**
     * 80 trains, the fast shape and the slow one by turns, on an idle port (both at the state's bound) and a loaded one
     * (the fast shape 8–10 × above it, the slow one still at it).
     */
    private static ShapeExcessModel modelWithALoadedBand() {
        ShapeExcessModel model = ShapeExcessModel.EMPTY;
        for (int b = 0; b < 80; b++) {
            final boolean loaded = b % 2 == 1;
            final boolean fast = b % 4 < 2;
            model = model.observe(fast ? FAST : SLOW, loaded && fast ? roundTrips(20, 8000, 10000) : roundTrips(20, 900, 1100), 1e6,
                loaded ? PortBand.LOADED : PortBand.IDLE);
        }
        return model;
    }

    private static double servedFactor(final String description) {
        final Matcher matcher = FACTOR.matcher(description);
        assertTrue(matcher.find(), description);
        return Double.parseDouble(matcher.group(1));
    }

    @Test
    void oneShapeModelServesALoadedRowWithTheLoadedBandAndANormalRowWithTheIdleOne() {
        final UpdateEngine engine = connection.engine();
        engine.applyMib(INDEX, new MibReading((short) 10, (short) 10, (short) 10), 0);
        measure(engine, 100, 300, SECOND);
        long now = 10 * SECOND;
        for (int w = 0; w < 5; w++) {
            assertTrue(engine.submitProbe(INDEX, "lab1", roundTrips(10, 100, 295), 0.2, 2000, now).accepted());
            now += 2 * SECOND;
        }
        final ConnectionRow normal = engine.table().row(INDEX);
        engine.applyMib(INDEX, new MibReading((short) 10, (short) 10, (short) 95), now);
        measure(engine, 300, 900, now + SECOND);
        now += 10 * SECOND;
        for (int w = 0; w < 5; w++) {
            assertTrue(engine.submitProbe(INDEX, "lab1", roundTrips(10, 300, 890), 0.6, 2000, now).accepted());
            now += 2 * SECOND;
        }
        final ConnectionRow loaded = engine.table().row(INDEX);
        assertEquals(PortBand.IDLE, PortBand.of(normal.load()), normal.load()::label);
        assertEquals(PortBand.LOADED, PortBand.of(loaded.load()), loaded.load()::label);

        final ShapeExcessModel model = modelWithALoadedBand();
        assertTrue(model.fitted(), model::toString);
        final double target = 0.04;
        final double idleFactor = model.servedBoundFactor(FAST, PortBand.IDLE, target, target);
        final double loadedFactor = model.servedBoundFactor(FAST, PortBand.LOADED, target, target);
        assertTrue(loadedFactor > 2 * idleFactor, "the model tells the bands apart: " + loadedFactor + " vs " + idleFactor);

        final ShapedEstimate.ForShape onLoaded = ShapedEstimate.of(loaded.withLearning(loaded.learning().withShapeModel(model)),
            FAST).orElseThrow(IllegalStateException::new);
        final ShapedEstimate.ForShape onNormal = ShapedEstimate.of(normal.withLearning(normal.learning().withShapeModel(model)),
            FAST).orElseThrow(IllegalStateException::new);
        assertTrue(onLoaded.correction().contains("on a loaded port"), onLoaded.correction());
        assertTrue(onNormal.correction().contains("on an idle port"), onNormal.correction());
        assertEquals(loadedFactor, servedFactor(onLoaded.correction()), 0.001, onLoaded.correction());
        assertEquals(idleFactor, servedFactor(onNormal.correction()), 0.001, onNormal.correction());
    }

    @Test
    void aProbeWindowBegunOnANormalPortAndEndedOnALoadedOneTeachesTheShapeModelNothing() {
        final UpdateEngine engine = connection.engine();
        engine.applyMib(INDEX, new MibReading((short) 10, (short) 10, (short) 10), 0);
        measure(engine, 100, 300, SECOND);
        long now = 10 * SECOND;
        for (int w = 0; w < 5; w++) {
            assertTrue(engine.submitProbe(INDEX, "lab1", roundTrips(10, 100, 295), 0.2, 2000, FAST, now).accepted());
            now += 2 * SECOND;
        }
        engine.applyMib(INDEX, new MibReading((short) 10, (short) 10, (short) 95), now);
        measure(engine, 300, 900, now + SECOND);
        final ShapeExcessModel before = engine.table().row(INDEX).learning().shapeModel();
        assertEquals(5, before.blocks());
        // The window lasted 20 s: it began before the port was loaded.
        assertTrue(engine.submitProbe(INDEX, "lab1", roundTrips(10, 300, 890), 0.6, 20_000, FAST, now + 3 * SECOND).accepted());
        final ShapeExcessModel straddled = engine.table().row(INDEX).learning().shapeModel();
        assertEquals(before, straddled, "a window across the change teaches nothing");
        assertArrayEquals(new double[10], straddled.loadedGram(), 0.0);
        // A window within the loaded state does teach the loaded band.
        assertTrue(engine.submitProbe(INDEX, "lab1", roundTrips(10, 300, 890), 0.6, 1000, FAST, now + 5 * SECOND).accepted());
        final ShapeExcessModel within = engine.table().row(INDEX).learning().shapeModel();
        assertEquals(6, within.blocks());
        assertTrue(within.loadedGram()[0] > 0, within::toString);
    }
}
