package org.latencyserver.core.calibration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.latencyserver.core.traffic.CallKind;
import org.latencyserver.core.traffic.TrafficShape;

/**
 * The factor a shape's bound is served with ({@link ShapeExcessModel#servedBoundFactor}): the model's own bound moved
 * by what the band's trains themselves showed against the model's estimate of it.
 */
class ShapeModelServedFactorTest {

    private static final double ALPHA = 0.04;
    private static final double STATE_BOUND_NANOS = 1e6;
    private static final double Z96 = 1.7507;
    private static final TrafficShape PROBES = new TrafficShape(2_000, 20, 0, CallKind.ARRAYS);
    private static final TrafficShape FAST = new TrafficShape(500, 40, 0, CallKind.OCTETS);
    private static final TrafficShape SLOW = new TrafficShape(10_000, 5, 0, CallKind.ARRAYS);
    private static final TrafficShape[] SHAPES = {PROBES, FAST, SLOW};
    /** Each shape's mean {@code ln(rtt / B)} on an idle port and on a loaded one (a fast shape queues behind itself). */
    private static final double[] IDLE_EXCESS = {-1.0, -1.0 + Math.log(1.5), -1.3};
    private static final double[] LOADED_EXCESS = {-1.0 + Math.log(3), -1.0 + Math.log(10), -1.0 + Math.log(2)};
    /** A train's busy spell (shared by its round trips) and each round trip's own spread, ln units. */
    private static final double TRAIN_SD = 0.1;
    private static final double OWN_SD = 0.3;

    private static ShapeExcessModel withTrain(final ShapeExcessModel model, final int shape, final PortBand band,
                                              final SplittableRandom random) {
        return withTrain(model, SHAPES[shape], (band == PortBand.LOADED ? LOADED_EXCESS : IDLE_EXCESS)[shape], TRAIN_SD, band,
            random);
    }

    /** A train of the shape whose round trips lie at {@code e^(logExcess + spell + own)} × the state's bound. */
    private static ShapeExcessModel withTrain(final ShapeExcessModel model, final TrafficShape shape, final double logExcess,
                                              final double spellSd, final PortBand band, final SplittableRandom random) {
        final double[] values = new double[shape.burstRoundTrips()];
        final double spell = spellSd > 0 ? spellSd * ReferenceFixtures.gaussian(random) : 0.0;
        for (int i = 0; i < values.length; i++) {
            values[i] = STATE_BOUND_NANOS * Math.exp(logExcess + spell + OWN_SD * ReferenceFixtures.gaussian(random));
        }
        return model.observe(shape, ReferenceFixtures.logBinned(values), STATE_BOUND_NANOS, band);
    }

    /**
     * As a connection's model grows: 20 idle trains of the probes alone, then 20 of the three shapes on a loaded port,
     * then 20 of them on the idle one again. Each new shape and band meets a fit that has not seen it, so the early
     * residuals — kept in the scores and the shared variance — are far wider than the path's spread.
     */
    private static ShapeExcessModel grownThroughAnEarlyMisfit(final long seed) {
        final SplittableRandom random = new SplittableRandom(seed);
        ShapeExcessModel model = ShapeExcessModel.EMPTY;
        for (int b = 0; b < 20; b++) {
            model = withTrain(model, 0, PortBand.IDLE, random);
        }
        for (int b = 0; b < 20; b++) {
            model = withTrain(model, b % 3, PortBand.LOADED, random);
        }
        for (int b = 0; b < 20; b++) {
            model = withTrain(model, b % 3, PortBand.IDLE, random);
        }
        assertTrue(model.fitted() && model.spread().fitted(), model::toString);
        return model;
    }

    private static double trueLogQuantile(final int shape, final PortBand band) {
        return (band == PortBand.LOADED ? LOADED_EXCESS : IDLE_EXCESS)[shape] + Z96 * Math.sqrt(TRAIN_SD * TRAIN_SD
            + OWN_SD * OWN_SD);
    }

    /**
     * The model's own bound carries its early misfit into every shape's margin and lies well above each shape's true
     * 96 % quantile; the factor served, moved to what the band's trains showed, lies within a fraction of it, and not far
     * below.
     */
    @Test
    void aMarginWidenedByTheModelsEarlyMisfitIsBroughtBackToWhatTheBandsTrainsShowed() {
        for (long seed = 1; seed <= 3; seed++) {
            final ShapeExcessModel model = grownThroughAnEarlyMisfit(seed);
            double ownError = 0;
            double servedError = 0;
            for (final PortBand band : PortBand.values()) {
                for (int k = 0; k < SHAPES.length; k++) {
                    final double truth = trueLogQuantile(k, band);
                    final double own = Math.log(model.boundFactor(SHAPES[k], band, ALPHA));
                    final double served = Math.log(model.servedBoundFactor(SHAPES[k], band, ALPHA, ALPHA));
                    ownError += Math.abs(own - truth);
                    servedError += Math.abs(served - truth);
                    assertTrue(served > truth - 0.15, "seed " + seed + ", " + band + " shape " + k + ": served " + served
                        + " against the truth " + truth);
                }
            }
            assertTrue(servedError < 0.5 * ownError, "seed " + seed + ": served off by " + servedError / 6 + " ln on average,"
                + " the model's own bound by " + ownError / 6);
        }
    }

    /** What it serves is the model's bound moved by the band's observed quantile over the model's estimate of it. */
    @Test
    void theFactorIsTheModelsBoundMovedByTheBandsObservedQuantileOverTheModelsEstimate() {
        final ShapeExcessModel model = grownThroughAnEarlyMisfit(4);
        for (final PortBand band : PortBand.values()) {
            final double observed = model.logRatios().quantile(band, ALPHA);
            assertTrue(Double.isFinite(observed), band + " has the trains' distribution");
            assertEquals(observed - model.mixLogBound(band, ALPHA), model.moveToTrains(band, ALPHA), 1e-12);
            assertEquals(model.boundFactor(FAST, band, 0.02) * Math.exp(model.moveToTrains(band, ALPHA)),
                model.servedBoundFactor(FAST, band, 0.02, ALPHA), 1e-9);
        }
    }

    /**
     * A band whose trains lie 40 × above the state's bound (far beyond the residuals' e^3) is served near each shape's
     * true quantile, not held at the bins' edge.
     */
    @Test
    void aBandFarAboveTheStatesBoundIsMovedToItsTrainsNotToTheBinsEdge() {
        final SplittableRandom random = new SplittableRandom(8);
        ShapeExcessModel model = ShapeExcessModel.EMPTY;
        for (int b = 0; b < 60; b++) {
            final int shape = b % 3;
            model = withTrain(model, SHAPES[shape], Math.log(40.0) + IDLE_EXCESS[shape] + 1.0, TRAIN_SD, PortBand.LOADED, random);
        }
        final double[] truth = new double[SHAPES.length];
        for (int k = 0; k < SHAPES.length; k++) {
            truth[k] = Math.log(40.0) + IDLE_EXCESS[k] + 1.0 + Z96 * Math.sqrt(TRAIN_SD * TRAIN_SD + OWN_SD * OWN_SD);
        }
        assertServedLogFactors(model, SHAPES, truth, PortBand.LOADED, 0.2);
    }

    /**
     * A record written before the trains' distribution was kept: its sums hold hundreds of trains the distribution never
     * saw, so a few new trains do not move the bound (they would describe another mix than the sums); the model's own
     * bound stands until forgetting has made the two agree.
     */
    @Test
    void anOlderRecordsSumsAreNotComparedWithTheFewTrainsSeenSince() {
        final SplittableRandom random = new SplittableRandom(9);
        ShapeExcessModel model = ShapeExcessModel.EMPTY;
        for (int b = 0; b < 200; b++) {
            model = withTrain(model, b % 2 == 0 ? 1 : 2, PortBand.IDLE, random);
        }
        model = model.withLogRatios(BandLogRatios.EMPTY);
        for (int b = 0; b < 10; b++) {
            model = withTrain(model, 1, PortBand.IDLE, random);
        }
        assertTrue(Double.isFinite(model.logRatios().quantile(PortBand.IDLE, ALPHA)), "the ten trains' quantile is read");
        assertTrue(Double.isNaN(model.moveToTrains(PortBand.IDLE, ALPHA)), "but not compared with the sums' mix");
        assertEquals(model.boundFactor(FAST, PortBand.IDLE, ALPHA), model.servedBoundFactor(FAST, PortBand.IDLE, ALPHA, ALPHA),
            1e-12);
        for (int b = 0; b < 800; b++) {
            model = withTrain(model, b % 2 == 0 ? 1 : 2, PortBand.IDLE, random);
        }
        assertTrue(Double.isFinite(model.moveToTrains(PortBand.IDLE, ALPHA)), "forgetting made them agree");
    }

    /**
     * Two shapes far apart, one in long trains: the mix's quantile is the mixture's own (kept shapes), not a normal
     * spread of the two, so neither shape is moved below its own quantile.
     */
    @Test
    void twoShapesFarApartAreEachServedNearTheirOwnQuantile() {
        final SplittableRandom random = new SplittableRandom(10);
        ShapeExcessModel model = ShapeExcessModel.EMPTY;
        final double[] excess = {0.5, -1.0};
        final TrafficShape[] two = {FAST, SLOW};
        for (int b = 0; b < 80; b++) {
            final int k = b % 2;
            model = withTrain(model, two[k], excess[k], 0.0, PortBand.IDLE, random);
        }
        assertTrue(model.logRatios().shapes(PortBand.IDLE).few());
        assertServedLogFactors(model, two, new double[] {excess[0] + Z96 * OWN_SD, excess[1] + Z96 * OWN_SD}, PortBand.IDLE,
            0.15);
    }

    /**
     * Trains of one shape alone: the model's estimate for their mix is that shape's own bound, {@code f + q σ} once the
     * spread is fitted and {@code f + margin} before (the residuals' single margin).
     */
    @Test
    void oneShapesMixIsThatShapesOwnBoundWithTheSpreadFittedOrNot() {
        final SplittableRandom random = new SplittableRandom(12);
        ShapeExcessModel model = ShapeExcessModel.EMPTY;
        for (int b = 0; b < 40; b++) {
            model = withTrain(model, 0, PortBand.IDLE, random);
            if (model.blocks() == ShapeExcessModel.MIN_BLOCKS) {
                assertTrue(model.fitted() && !model.spread().fitted(), "fitted before its spread");
                assertEquals(model.predictedLogExcess(PROBES, PortBand.IDLE) + model.margin(ALPHA),
                    model.mixLogBound(PortBand.IDLE, ALPHA), 1e-6, "the single margin");
            }
        }
        assertTrue(model.spread().fitted());
        assertEquals(model.predictedLogExcess(PROBES, PortBand.IDLE) + model.shapeMargin(PROBES, PortBand.IDLE, ALPHA),
            model.mixLogBound(PortBand.IDLE, ALPHA), 1e-6, "q σ");
    }

    /** Before the model is fitted nothing is moved, whatever its trains' distribution already shows. */
    @Test
    void anUnfittedModelIsNotMoved() {
        final SplittableRandom random = new SplittableRandom(13);
        ShapeExcessModel model = ShapeExcessModel.EMPTY;
        for (int b = 0; b < 8; b++) {
            model = withTrain(model, 1, PortBand.IDLE, random);
        }
        assertTrue(!model.fitted() && Double.isFinite(model.logRatios().quantile(PortBand.IDLE, 0.2)));
        assertTrue(Double.isNaN(model.moveToTrains(PortBand.IDLE, 0.2)));
    }

    /** A model read from a record written without the trains' distribution serves its own bound, as it did. */
    @Test
    void aModelWithoutTheTrainsDistributionServesItsOwnBound() {
        final ShapeExcessModel model = grownThroughAnEarlyMisfit(5).withLogRatios(BandLogRatios.EMPTY);
        for (final PortBand band : PortBand.values()) {
            assertEquals(model.boundFactor(SLOW, band, ALPHA), model.servedBoundFactor(SLOW, band, ALPHA, ALPHA), 1e-12);
        }
    }

    /**
     * A loaded port whose trains all lie far above the state's bound (its reference measured under lighter load): the
     * band's observed quantile keeps that in every shape's factor, the shapes' differences beside it.
     */
    @Test
    void aBandWhoseTrainsAllLieAboveTheStatesBoundKeepsItInTheFactor() {
        final ShapeExcessModel model = grownThroughAnEarlyMisfit(6);
        for (int k = 0; k < SHAPES.length; k++) {
            final double factor = model.servedBoundFactor(SHAPES[k], PortBand.LOADED, ALPHA, ALPHA);
            assertTrue(Math.log(factor) > trueLogQuantile(k, PortBand.LOADED) - 0.3, "shape " + k + ": " + factor);
        }
        assertTrue(model.servedBoundFactor(FAST, PortBand.LOADED, ALPHA, ALPHA)
            > 3 * model.servedBoundFactor(SLOW, PortBand.LOADED, ALPHA, ALPHA), "the fast shape queues behind itself");
    }

    /** Read at a level above the nominal one, the shape's quantile rises, and with it the factor. */
    @Test
    void aLevelAboveTheNominalRaisesTheFactor() {
        final ShapeExcessModel model = grownThroughAnEarlyMisfit(7);
        assertTrue(model.servedBoundFactor(PROBES, PortBand.IDLE, 0.01, ALPHA) > model.servedBoundFactor(PROBES,
            PortBand.IDLE, ALPHA, ALPHA));
        assertTrue(model.servedBoundFactor(PROBES, PortBand.IDLE, 0.2, ALPHA) < model.servedBoundFactor(PROBES,
            PortBand.IDLE, ALPHA, ALPHA));
    }

    /** Asserts each shape's served factor, in ln units, within {@code tolerance} of its true quantile. */
    private static void assertServedLogFactors(final ShapeExcessModel model, final TrafficShape[] shapes, final double[] truthLog,
                                               final PortBand band, final double tolerance) {
        for (int k = 0; k < shapes.length; k++) {
            assertEquals(truthLog[k], Math.log(model.servedBoundFactor(shapes[k], band, ALPHA, ALPHA)), tolerance, "shape " + k);
        }
    }
}
