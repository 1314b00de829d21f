package org.latencyserver.core.calibration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.latencyserver.core.histogram.LatencyHistogram;
import org.latencyserver.core.traffic.CallKind;
import org.latencyserver.core.traffic.TrafficShape;

/** The shape model's adaptive score-quantile level ({@link ShapeModelLevel}) learned from the model's own trains. */
class ShapeModelLevelTest {

    private static final TrafficShape PROBES = new TrafficShape(2_000, 20, 0, CallKind.ARRAYS);
    /** The trains' median round trip, ns. */
    private static final double MEDIAN_NANOS = 1e6;
    /** The standard normal's 96 % quantile. */
    private static final double Z96 = 1.7507;

    /**
     * @param fitSd the spread of the trains the state's level learned from, ln units
     * @return the state's bound: their 96 % quantile, as the state's adaptive level would read it
     */
    private static double stateBound(final double fitSd) {
        return MEDIAN_NANOS * Math.exp(Z96 * fitSd);
    }

    /** A model fitted on trains whose round trips spread with sd {@code sd} (ln units), the state's bound their 96 %. */
    private static ShapeExcessModel fittedOn(final double sd, final SplittableRandom random) {
        ShapeExcessModel model = ShapeExcessModel.EMPTY;
        for (int b = 0; b < 60; b++) {
            model = model.observe(PROBES, train(sd, random), stateBound(sd), PortBand.IDLE);
        }
        assertTrue(model.fitted(), "the model is fitted after 60 trains");
        return model;
    }

    private static LatencyHistogram train(final double sd, final SplittableRandom random) {
        final double[] values = new double[PROBES.burstRoundTrips()];
        for (int i = 0; i < values.length; i++) {
            values[i] = MEDIAN_NANOS * Math.exp(sd * ReferenceFixtures.gaussian(random));
        }
        return ReferenceFixtures.logBinned(values);
    }

    /** Trains the (fixed) model, fitted at sd {@code fitSd}, sees at sd {@code sd}: returns the level after them. */
    private static ShapeModelLevel learnedOn(final ShapeExcessModel model, final double fitSd, final double sd,
                                             final PortBand band, final int trains, final SplittableRandom random) {
        ShapeModelLevel level = ShapeModelLevel.start(96);
        for (int b = 0; b < trains; b++) {
            final LatencyHistogram block = train(sd, random);
            level = level.observe(band, block.totalCount(),
                ShapeModelBound.missesAt(model, PROBES, band, stateBound(fitSd), block, 0.04));
        }
        return level;
    }

    private static double coverage(final ShapeExcessModel model, final double missFraction, final double fitSd,
                                   final double sd, final SplittableRandom random) {
        long roundTrips = 0;
        long misses = 0;
        for (int b = 0; b < 400; b++) {
            final LatencyHistogram block = train(sd, random);
            roundTrips += block.totalCount();
            misses += ShapeModelBound.missesAt(model, PROBES, PortBand.IDLE, stateBound(fitSd), block, 0.04).applyAsLong(missFraction);
        }
        return 100.0 * (roundTrips - misses) / roundTrips;
    }

    @Test
    void startsAtTheNominalLevelInBothBands() {
        final ShapeModelLevel level = ShapeModelLevel.start(96);
        assertEquals(0.04, level.missFraction(PortBand.IDLE), 1e-12);
        assertEquals(0.04, level.missFraction(PortBand.LOADED), 1e-12);
        assertEquals(96.0, level.servedPercent(PortBand.IDLE), 1e-9);
    }

    /**
     * Trains that spread twice as wide as the ones the model learned its scores from miss its nominal bound far more
     * than 4 %: the level rises above 96 %, the bound with it, and the bound at the learned level covers nearer 96 %.
     */
    @Test
    void aScoreQuantileTooLowForItsTrainsRaisesTheLevelAndTheBound() {
        final SplittableRandom random = new SplittableRandom(5);
        final ShapeExcessModel model = fittedOn(0.15, random);
        final ShapeModelLevel level = learnedOn(model, 0.15, 0.3, PortBand.IDLE, 120, random);
        assertTrue(level.servedPercent(PortBand.IDLE) > 98.0, "level " + level.servedPercent(PortBand.IDLE));
        final double learned = level.quantileMissFraction(PortBand.IDLE);
        assertTrue(model.servedBoundFactor(PROBES, PortBand.IDLE, learned, 0.04) > model.servedBoundFactor(PROBES, PortBand.IDLE, 0.04, 0.04),
            "the bound rises with the level");
        final double nominalCoverage = coverage(model, 0.04, 0.15, 0.3, new SplittableRandom(9));
        final double learnedCoverage = coverage(model, level.missFraction(PortBand.IDLE), 0.15, 0.3, new SplittableRandom(9));
        assertTrue(nominalCoverage < 92.0, "nominal coverage " + nominalCoverage);
        assertTrue(Math.abs(learnedCoverage - 96.0) < Math.abs(nominalCoverage - 96.0),
            "learned " + learnedCoverage + " nearer 96 than nominal " + nominalCoverage);
    }

    /** Trains that spread half as wide as the model's scores say never reach its nominal bound: the level falls. */
    @Test
    void aScoreQuantileTooHighForItsTrainsLowersTheLevelAndTheBound() {
        final SplittableRandom random = new SplittableRandom(7);
        final ShapeExcessModel model = fittedOn(0.3, random);
        final ShapeModelLevel level = learnedOn(model, 0.3, 0.1, PortBand.IDLE, 120, random);
        assertTrue(level.servedPercent(PortBand.IDLE) < 95.0, "level " + level.servedPercent(PortBand.IDLE));
        final double learned = level.quantileMissFraction(PortBand.IDLE);
        assertTrue(model.servedBoundFactor(PROBES, PortBand.IDLE, learned, 0.04) < model.servedBoundFactor(PROBES, PortBand.IDLE, 0.04, 0.04),
            "the bound falls with the level");
    }

    /** Idle trains that always miss a fifth, loaded trains that never miss: each band's own level goes its own way. */
    @Test
    void theBandsLearnApart() {
        ShapeModelLevel level = ShapeModelLevel.start(96);
        for (int b = 0; b < 100; b++) {
            level = level.observe(PortBand.IDLE, 20, alpha -> 4);
            level = level.observe(PortBand.LOADED, 20, alpha -> 0);
        }
        assertTrue(level.own(PortBand.IDLE).servedPercent() > 97.0, "idle own " + level.own(PortBand.IDLE));
        assertTrue(level.own(PortBand.LOADED).servedPercent() < 95.0, "loaded own " + level.own(PortBand.LOADED));
        assertTrue(level.servedPercent(PortBand.IDLE) > level.servedPercent(PortBand.LOADED));
        assertEquals(100, level.blocks(PortBand.IDLE));
        assertEquals(100, level.blocks(PortBand.LOADED));
        assertEquals(200, level.connectionBlocks());
    }

    /** A band with no train of its own is served the connection's level; its weight grows with its trains. */
    @Test
    void aYoungBandBorrowsTheConnectionsLevel() {
        ShapeModelLevel level = ShapeModelLevel.start(96);
        for (int b = 0; b < 40; b++) {
            level = level.observe(PortBand.IDLE, 20, alpha -> 4);
        }
        assertEquals(level.connection().missFraction(), level.missFraction(PortBand.LOADED), 1e-12);
        final double w = BorrowedLevel.weight(40);
        assertEquals(w * level.idle().missFraction() + (1 - w) * level.connection().missFraction(),
            level.missFraction(PortBand.IDLE), 1e-12);
    }

    /** The description names the level, the band and its trains. */
    @Test
    void theDescriptionNamesTheLevelTheBandAndItsTrains() {
        ShapeModelLevel level = ShapeModelLevel.start(96);
        for (int b = 0; b < 3; b++) {
            level = level.observe(PortBand.LOADED, 20, alpha -> 0);
        }
        final String words = level.description(PortBand.LOADED, true);
        assertTrue(words.startsWith("the model's level 9"), words);
        assertTrue(words.endsWith("(loaded port, 3 trains)"), words);
    }

    /**
     * A level above its ceiling (as a damaged record could hold) is read at the ceiling: the α the quantile is read at,
     * the level described and the α each level learns from agree, never asking for a probability at or below 0.
     */
    @Test
    void aLevelAboveItsCeilingIsReadServedAndDescribedAtTheCeiling() {
        final AdaptiveQuantileLevel nominal = AdaptiveQuantileLevel.start(96);
        final AdaptiveQuantileLevel far = new AdaptiveQuantileLevel(nominal.targetMissFraction(), 3.0, nominal.stepPerRoundTrip(),
            nominal.maxBlockWeight());
        final ShapeModelLevel level = new ShapeModelLevel(far, 0, far, 1000, nominal, 0);
        final double ceiling = nominal.maxMissFraction();
        assertTrue(ceiling < 0.5, "the ceiling for 96 % is below the 50 % floor of any level: " + ceiling);
        assertEquals(ceiling, level.maxMissFraction(), 1e-15);
        assertEquals(ceiling, level.quantileMissFraction(PortBand.IDLE), 1e-15);
        assertEquals(100.0 * (1.0 - ceiling), level.servedPercent(PortBand.IDLE), 1e-9);
        assertTrue(level.description(PortBand.IDLE, true).startsWith(
            String.format(java.util.Locale.ROOT, "the model's level %.1f %% ", 100.0 * (1.0 - ceiling))), level.description(PortBand.IDLE, true));
        final double[] asked = {Double.NaN, Double.NaN};
        level.observe(PortBand.IDLE, 20, alpha -> {
            asked[Double.isNaN(asked[0]) ? 0 : 1] = alpha;
            return 0;
        });
        assertEquals(ceiling, asked[0], 1e-15, "the connection's level is read at its ceiling");
        assertEquals(ceiling, asked[1], 1e-15, "the idle level is read at its ceiling");
    }

    /** A level below 0 asks for the scores' top and is described as 100 %. */
    @Test
    void aLevelAtItsFloorIsReadAtTheScoresTop() {
        final AdaptiveQuantileLevel nominal = AdaptiveQuantileLevel.start(96);
        final AdaptiveQuantileLevel floor = new AdaptiveQuantileLevel(nominal.targetMissFraction(), -1.0, nominal.stepPerRoundTrip(),
            nominal.maxBlockWeight());
        final ShapeModelLevel level = new ShapeModelLevel(floor, 0, floor, 0, floor, 0);
        assertEquals(ShapeModelLevel.TOP_MISS_FRACTION, level.quantileMissFraction(PortBand.LOADED), 0.0);
        assertEquals(100.0, level.servedPercent(PortBand.LOADED), 0.0);
    }

    @Test
    void negativeCountsAreRefused() {
        final AdaptiveQuantileLevel nominal = AdaptiveQuantileLevel.start(96);
        assertThrows(IllegalArgumentException.class, () -> new ShapeModelLevel(nominal, -1, nominal, 0, nominal, 0));
        assertThrows(IllegalArgumentException.class, () -> new ShapeModelLevel(nominal, 0, null, 0, nominal, 0));
    }
}
