package org.latencyserver.core.calibration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.latencyserver.core.traffic.CallKind;
import org.latencyserver.core.traffic.TrafficShape;

/**
 * The shape model's factor over the state's bound is relative to the mix of trains the state's level learned from
 * ({@link ShapeExcessModel#relativeBoundFactor}): what every train shares cancels, what sets a shape apart stays.
 */
class ShapeModelRelativeFactorTest {

    private static final double ALPHA = 0.04;
    private static final double STATE_BOUND_NANOS = 1e6;
    private static final TrafficShape FAST = new TrafficShape(500, 40, 0, CallKind.OCTETS);
    private static final TrafficShape PROBES = new TrafficShape(2_000, 20, 0, CallKind.ARRAYS);
    /** How much higher, ln units, every FAST round trip lies than a PROBES one in the same train's conditions. */
    private static final double FAST_EXCESS = Math.log(2.0);

    /**
     * Trains of two shapes, alternating, each train's round trips all shifted by its own draw (a state's bound lying off
     * for its state, a train sent as the load changed), sd {@code shiftSd}; within a train sd 0.1.
     */
    private static ShapeExcessModel learned(final double shiftSd, final PortBand band, final SplittableRandom random) {
        ShapeExcessModel model = ShapeExcessModel.EMPTY;
        for (int b = 0; b < 200; b++) {
            final TrafficShape shape = b % 2 == 0 ? FAST : PROBES;
            final double shift = shiftSd * ReferenceFixtures.gaussian(random) - 2.0;
            final double[] values = new double[shape.burstRoundTrips()];
            for (int i = 0; i < values.length; i++) {
                values[i] = STATE_BOUND_NANOS * Math.exp(shift + (shape == FAST ? FAST_EXCESS : 0.0)
                    + 0.1 * ReferenceFixtures.gaussian(random));
            }
            model = model.observe(shape, ReferenceFixtures.logBinned(values), STATE_BOUND_NANOS, band);
        }
        assertTrue(model.fitted());
        return model;
    }

    /**
     * A shift every train shares widens the model's own bound (its residuals spread by the shift) but not a shape's
     * factor over the state's bound: the two shapes lie half their difference either side of their mix.
     */
    @Test
    void aShiftEveryTrainSharesCancelsAndTheShapesDifferenceStays() {
        final ShapeExcessModel model = learned(0.8, PortBand.IDLE, new SplittableRandom(11));
        final double fast = model.relativeBoundFactor(FAST, PortBand.IDLE, ALPHA, ALPHA);
        final double probes = model.relativeBoundFactor(PROBES, PortBand.IDLE, ALPHA, ALPHA);
        assertEquals(FAST_EXCESS, Math.log(fast / probes), 0.15, "fast " + fast + ", probes " + probes);
        assertEquals(0.0, 0.5 * (Math.log(fast) + Math.log(probes)), 0.15, "the mix's factor is 1");
        assertTrue(model.boundFactor(PROBES, PortBand.IDLE, ALPHA) > 1.5 * model.boundFactor(PROBES, PortBand.IDLE, 0.5),
            "the model's own bound carries the shared shift's spread: " + model.boundFactor(PROBES, PortBand.IDLE, ALPHA));
    }

    /** The shared shift's size changes the model's own bound, not the relative factor. */
    @Test
    void theRelativeFactorDoesNotGrowWithTheSharedShift() {
        final ShapeExcessModel narrowModel = learned(0.05, PortBand.IDLE, new SplittableRandom(5));
        final ShapeExcessModel wideModel = learned(1.0, PortBand.IDLE, new SplittableRandom(5));
        final double narrow = narrowModel.relativeBoundFactor(FAST, PortBand.IDLE, ALPHA, ALPHA);
        final double wide = wideModel.relativeBoundFactor(FAST, PortBand.IDLE, ALPHA, ALPHA);
        assertEquals(Math.log(narrow), Math.log(wide), 0.2, "narrow " + narrow + ", wide " + wide);
        assertTrue(wideModel.boundFactor(FAST, PortBand.IDLE, ALPHA) > 3.0 * narrowModel.boundFactor(FAST, PortBand.IDLE, ALPHA),
            "the model's own factor " + wideModel.boundFactor(FAST, PortBand.IDLE, ALPHA) + " against "
                + narrowModel.boundFactor(FAST, PortBand.IDLE, ALPHA) + " with a narrow shift");
    }

    /** A loaded band's mix is its own trains': trains only on the loaded port put that band's mix at factor 1. */
    @Test
    void eachBandIsRelativeToItsOwnTrainsMix() {
        final ShapeExcessModel model = learned(0.3, PortBand.LOADED, new SplittableRandom(7));
        final double fast = model.relativeBoundFactor(FAST, PortBand.LOADED, ALPHA, ALPHA);
        final double probes = model.relativeBoundFactor(PROBES, PortBand.LOADED, ALPHA, ALPHA);
        assertEquals(0.0, 0.5 * (Math.log(fast) + Math.log(probes)), 0.15, "fast " + fast + ", probes " + probes);
        assertEquals(model.mixLogBound(PortBand.LOADED, ALPHA), model.mixLogBound(PortBand.IDLE, ALPHA), 0.5,
            "a band with no trains of its own takes every train's mix");
    }

    /** Read at a level below the nominal one, the shape's quantile rises above its mix's, and with it the factor. */
    @Test
    void aLevelAboveTheNominalRaisesTheFactor() {
        final ShapeExcessModel model = learned(0.3, PortBand.IDLE, new SplittableRandom(13));
        assertTrue(model.relativeBoundFactor(PROBES, PortBand.IDLE, 0.01, ALPHA) > model.relativeBoundFactor(PROBES,
            PortBand.IDLE, ALPHA, ALPHA));
        assertTrue(model.relativeBoundFactor(PROBES, PortBand.IDLE, 0.2, ALPHA) < model.relativeBoundFactor(PROBES,
            PortBand.IDLE, ALPHA, ALPHA));
    }
}
