package org.latencyserver.core.calibration;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.latencyserver.core.histogram.LatencyHistogram;
import org.latencyserver.core.state.ConnectionLoadState;
import org.latencyserver.core.state.CpuState;
import org.latencyserver.core.state.CpuStatePair;
import org.latencyserver.core.state.PortState;
import org.latencyserver.core.traffic.CallKind;
import org.latencyserver.core.traffic.TrafficFamily;
import org.latencyserver.core.traffic.TrafficShape;

/** The shape models' port band: a shape that loads a loaded port itself is learned, and served, in that band alone. */
class ShapeModelPortBandTest {

    private static final double ALPHA = 0.04;
    private static final double STATE_BOUND_NANOS = 1e6;
    private static final TrafficShape FAST = new TrafficShape(500, 100, 0, CallKind.OCTETS);
    private static final TrafficShape SLOW = new TrafficShape(10_000, 10, 0, CallKind.ARRAYS);
    private static final CpuStatePair LOW_LOW = new CpuStatePair(CpuState.LOW, CpuState.LOW);

    @Test
    void theWorstHopLoadedOrSaturatedIsTheLoadedBandAndAnythingElseIdle() {
        assertEquals(PortBand.LOADED, PortBand.of(PortState.loaded(95)));
        assertEquals(PortBand.LOADED, PortBand.of(PortState.SATURATED));
        assertEquals(PortBand.IDLE, PortBand.of(PortState.NORMAL));
        assertEquals(PortBand.IDLE, PortBand.of(PortState.UNKNOWN));
        assertEquals(PortBand.IDLE, PortBand.of((ConnectionLoadState) null));
        assertEquals(PortBand.LOADED, PortBand.of(ConnectionLoadState.ofHops(LOW_LOW, List.of(PortState.NORMAL, PortState.loaded(97)))));
        assertEquals(PortBand.IDLE, PortBand.of(ConnectionLoadState.ofHops(LOW_LOW, List.of(PortState.NORMAL, PortState.NORMAL))));
    }

    @Test
    void theBandsFeaturesAreZeroOnAnIdlePortAndTheShapesOffersOnALoadedOne() {
        final double[] idle = ShapeFeatures.of(FAST, PortBand.IDLE);
        final double[] loaded = ShapeFeatures.of(FAST, PortBand.LOADED);
        assertArrayEquals(ShapeFeatures.ofShape(FAST), Arrays.copyOf(idle, ShapeFeatures.SHAPE_PARAMETERS), 0.0);
        assertArrayEquals(new double[] {0, 0, 0}, Arrays.copyOfRange(idle, 4, 7), 0.0);
        assertArrayEquals(new double[] {1, Math.log(0.5), Math.log(100)}, Arrays.copyOfRange(loaded, 4, 7), 1e-12);
    }

    @Test
    void aSelfLoadingShapeLearnedOnALoadedPortGetsAHigherBoundThereAndNotOnAnIdlePort() {
        final ShapeExcessModel model = learn(0.35, 11);
        assertTrue(model.spread().fitted(), "enough trains for the spread: " + model.spread());
        assertEquals(0.0, model.predictedLogExcess(FAST, PortBand.IDLE), 0.15, "idle: the shape's excess is nil");
        assertEquals(selfLoading(FAST), model.predictedLogExcess(FAST, PortBand.LOADED), 0.3, "loaded: it queues behind itself");
        final double idle = model.boundFactor(FAST, PortBand.IDLE, ALPHA);
        final double loaded = model.boundFactor(FAST, PortBand.LOADED, ALPHA);
        assertTrue(loaded > 4 * idle, "fast on a loaded port " + loaded + " vs idle " + idle);
        assertTrue(idle < 2.0, "an idle port's bound is not raised by what the loaded port taught: " + idle);
        assertEquals(idle, model.boundFactor(FAST, ALPHA), 0.0, "the band-less call is the idle port's");
        assertTrue(model.spread().ownScale(FAST, PortBand.LOADED) > 1.3 * model.spread().ownScale(FAST, PortBand.IDLE),
            "a self-loading burst also spreads wider: " + model.spread());
        final double slowLoaded = model.boundFactor(SLOW, PortBand.LOADED, ALPHA);
        assertTrue(slowLoaded < 2.0 * model.boundFactor(SLOW, PortBand.IDLE, ALPHA), "a slow shape offers little: " + slowLoaded);
    }

    @Test
    void aModelLearnedOnlyOnAnIdlePortServesALoadedPortAlike() {
        final ShapeExcessModel model = learn(0.0, 5);
        assertArrayEquals(new double[] {0, 0, 0}, Arrays.copyOfRange(model.coefficients(), 4, 7), 0.0);
        assertEquals(model.boundFactor(FAST, PortBand.IDLE, ALPHA), model.boundFactor(FAST, PortBand.LOADED, ALPHA), 1e-12);
    }

    @Test
    void anOlderRecordsShapeOnlySumsWidenToTheSameModel() {
        final ShapeExcessModel model = learn(0.0, 7);
        final ShapeSpreadModel spread = model.spread();
        final ShapeSpreadModel widenedSpread = new ShapeSpreadModel(spread.blocks(),
            ShapeFeatures.widenGram(narrowGram(spread.gram())), ShapeFeatures.widenMoments(Arrays.copyOf(spread.moments(), 4)),
            spread.scoreWeights(), spread.sharedSum(), spread.sharedWeight());
        final ShapeExcessModel widened = new ShapeExcessModel(model.blocks(), ShapeFeatures.widenGram(narrowGram(model.gram())),
            ShapeFeatures.widenMoments(Arrays.copyOf(model.moments(), 4)), model.residualWeights(), widenedSpread)
            .withLogRatios(model.logRatios());
        assertEquals(model, widened, "an idle port's blocks leave the band's sums zero: nothing is lost");
        assertEquals(model.boundFactor(FAST, PortBand.LOADED, ALPHA), widened.boundFactor(FAST, PortBand.LOADED, ALPHA), 0.0);
    }

    @Test
    void wideningRefusesSumsOfAnotherSizeNamingTheSize() {
        final IllegalArgumentException gram = assertThrows(IllegalArgumentException.class, () -> ShapeFeatures.widenGram(new double[9]));
        assertTrue(gram.getMessage().contains("10 entries"), gram.getMessage());
        final IllegalArgumentException moments = assertThrows(IllegalArgumentException.class,
            () -> ShapeFeatures.widenMoments(new double[7]));
        assertTrue(moments.getMessage().contains("4 entries"), moments.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new ShapeExcessModel(1, new double[ShapeFeatures.SHAPE_GRAM_ENTRIES],
            new double[ShapeFeatures.SHAPE_PARAMETERS], new double[ShapeExcessModel.RESIDUAL_BINS]));
    }

    @Test
    void aLoadedHopIsTheLoadedBandWhateverAnUnknownHopBesideIt() {
        final ConnectionLoadState saturatedAndStale = ConnectionLoadState.ofHops(LOW_LOW,
            List.of(PortState.SATURATED, PortState.UNKNOWN));
        assertEquals(PortState.UNKNOWN, saturatedAndStale.port(), "the worst-hop rule hides the saturated hop");
        assertEquals(PortBand.LOADED, PortBand.of(saturatedAndStale));
        assertFalse(PortBand.hidesLoad(saturatedAndStale));
    }

    @Test
    void anUnknownHopBesideIdleOnesMayHideALoadedOneAndAPathOfNoKnownHopHasNoBand() {
        final ConnectionLoadState normalAndStale = ConnectionLoadState.ofHops(LOW_LOW, List.of(PortState.NORMAL, PortState.UNKNOWN));
        assertTrue(PortBand.hidesLoad(normalAndStale));
        assertFalse(PortBand.knownIdle(normalAndStale));
        final ConnectionLoadState unobserved = ConnectionLoadState.ofHops(LOW_LOW, List.of(PortState.UNKNOWN));
        assertFalse(PortBand.hidesLoad(unobserved), "no hop observed: the model is band-blind there");
        assertFalse(PortBand.knownIdle(unobserved));
        assertTrue(PortBand.knownIdle(ConnectionLoadState.ofHops(LOW_LOW, List.of(PortState.NORMAL, PortState.NORMAL))));
    }

    @Test
    void aLoadedPortsLessonStandsThroughALongIdleSpell() {
        final SplittableRandom random = new SplittableRandom(13);
        final ShapeExcessModel taught = learn(ShapeExcessModel.EMPTY, 400, 0.35, random);
        final ShapeExcessModel afterIdle = learn(taught, 3_000, 0.0, random);
        assertArrayEquals(taught.loadedGram(), afterIdle.loadedGram(), 0.0, "idle blocks leave the loaded port's sums alone");
        assertArrayEquals(taught.spread().loadedGram(), afterIdle.spread().loadedGram(), 0.0);
        final double loaded = afterIdle.boundFactor(FAST, PortBand.LOADED, ALPHA);
        final double idle = afterIdle.boundFactor(FAST, PortBand.IDLE, ALPHA);
        assertTrue(loaded > 4 * idle, "after 3,000 idle trains fast on a loaded port " + loaded + " vs idle " + idle);
        assertEquals(selfLoading(FAST), afterIdle.predictedLogExcess(FAST, PortBand.LOADED), 0.3);
    }

    @Test
    void aBlockForgetsOnlyItsOwnBandsSums() {
        final SplittableRandom random = new SplittableRandom(17);
        final ShapeExcessModel taught = learn(ShapeExcessModel.EMPTY, 200, 0.35, random);
        ShapeExcessModel loadedOnce = taught;
        for (int tries = 0; loadedOnce.blocks() == taught.blocks() || Arrays.equals(loadedOnce.loadedGram(), taught.loadedGram());
             tries++) {
            assertTrue(tries < 50, "50 loaded trains and not one was learned into the loaded port's sums");
            loadedOnce = learn(taught, 1, 1.0, random);
        }
        final double[] idleBefore = idlePart(taught);
        final double[] idleAfter = idlePart(loadedOnce);
        assertArrayEquals(idleBefore, idleAfter, 1e-9 * Math.abs(idleBefore[0]), "a loaded block leaves the idle blocks' sums");
        final double[] loadedBefore = taught.loadedGram();
        assertEquals(ShapeExcessModel.FORGETTING * loadedBefore[0] + ShapeExcessModel.MAX_BLOCK_WEIGHT,
            loadedOnce.loadedGram()[0], 1e-9, "and forgets the loaded port's by the factor before adding its own weight");
    }

    @Test
    void theFullSumsSplitBackIntoTheSameModel() {
        final ShapeExcessModel model = learn(0.35, 19);
        final ShapeExcessModel fromFull = new ShapeExcessModel(model.blocks(), model.gram(), model.moments(),
            model.residualWeights(), model.spread());
        assertArrayEquals(model.coefficients(), fromFull.coefficients(), 1e-9);
        assertArrayEquals(model.loadedGram(), fromFull.loadedGram(), 0.0, "the loaded gram follows from the band's entries");
        assertArrayEquals(Arrays.copyOf(model.loadedMoments(), 3), Arrays.copyOf(fromFull.loadedMoments(), 3), 0.0);
    }

    @Test
    void loadedSumsBeyondEveryBlocksAreRefusedNamingThem() {
        final ShapeExcessModel model = learn(0.35, 19);
        final double[] tooMuch = model.loadedGram();
        tooMuch[0] = model.shapeGram()[0] * 2;
        final IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
            () -> new BandedSums(model.shapeGram(), model.shapeMoments(), tooMuch, model.loadedMoments()));
        assertTrue(refused.getMessage().contains("loaded_gram"), refused.getMessage());
        final double[] negative = model.loadedGram();
        negative[9] = -1;
        assertThrows(IllegalArgumentException.class,
            () -> new BandedSums(model.shapeGram(), model.shapeMoments(), negative, model.loadedMoments()));
        new BandedSums(model.shapeGram(), model.shapeMoments(), model.loadedGram(), model.loadedMoments());
    }

    /** Every block's shape sums less the loaded port's: the idle blocks' own. */
    private static double[] idlePart(final ShapeExcessModel model) {
        final double[] shape = model.shapeGram();
        final double[] loaded = model.loadedGram();
        for (int i = 0; i < shape.length; i++) {
            shape[i] -= loaded[i];
        }
        return shape;
    }

    /**
     * A loaded port's extra ln excess for a shape: {@code 0.2 − 0.6 ln(spacing / 1 ms) + 0.3 ln burst}, a burst 0.5 ms
     * apart of 100 queueing about e^2 = 7 × above the state's bound, one 10 ms apart of 10 about nothing.
     */
    private static double selfLoading(final TrafficShape shape) {
        return 0.2 - 0.6 * Math.log(shape.spacingMicros() / 1_000.0) + 0.3 * Math.log(shape.burstRoundTrips());
    }

    /**
     * Trains of the default family, each on a loaded port with the given probability; on a loaded port a shape's round
     * trips lie {@link #selfLoading} above the state's bound and spread wider with it.
     */
    private static ShapeExcessModel learn(final double loadedShare, final long seed) {
        return learn(ShapeExcessModel.EMPTY, 400, loadedShare, new SplittableRandom(seed));
    }

    private static ShapeExcessModel learn(final ShapeExcessModel start, final int trains, final double loadedShare,
                                          final SplittableRandom random) {
        ShapeExcessModel model = start;
        for (int b = 0; b < trains; b++) {
            final TrafficShape shape = TrafficFamily.DEFAULT.draw(random, 10.0);
            final PortBand band = random.nextDouble() < loadedShare ? PortBand.LOADED : PortBand.IDLE;
            final double shift = band == PortBand.LOADED ? selfLoading(shape) : 0.0;
            final double sd = 0.2 + (band == PortBand.LOADED ? 0.15 * Math.max(0.0, shift) : 0.0);
            final double[] values = new double[shape.burstRoundTrips()];
            for (int i = 0; i < values.length; i++) {
                values[i] = STATE_BOUND_NANOS * Math.exp(shift + sd * ReferenceFixtures.gaussian(random));
            }
            model = model.observe(shape, ReferenceFixtures.logBinned(values), STATE_BOUND_NANOS, band);
        }
        return model;
    }

    /** The upper triangle of the shape's four features from a {@value ShapeFeatures#PARAMETERS}-feature one. */
    private static double[] narrowGram(final double[] gram) {
        final double[] narrow = new double[ShapeFeatures.SHAPE_GRAM_ENTRIES];
        int entry = 0;
        for (int row = 0; row < ShapeFeatures.SHAPE_PARAMETERS; row++) {
            for (int col = row; col < ShapeFeatures.SHAPE_PARAMETERS; col++) {
                narrow[entry++] = gram[row * ShapeFeatures.PARAMETERS - row * (row - 1) / 2 + (col - row)];
            }
        }
        return narrow;
    }

}
