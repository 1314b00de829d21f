package org.latencyserver.core.calibration;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.latencyserver.core.histogram.LatencyHistogram;

/** Where a shape model's trains lay against their state's bound, per port band ({@link BandLogRatios}). */
class BandLogRatiosTest {

    private static final double BOUND_NANOS = 1e6;
    private static final org.latencyserver.core.traffic.TrafficShape SHAPE = new org.latencyserver.core.traffic.TrafficShape(2_000,
        20, 0, org.latencyserver.core.traffic.CallKind.ARRAYS);

    /** A train of {@code n} round trips all at {@code ratio} × the state's bound. */
    private static LatencyHistogram train(final int n, final double ratio) {
        final double[] values = new double[n];
        Arrays.fill(values, BOUND_NANOS * ratio);
        return ReferenceFixtures.logBinned(values);
    }

    @Test
    void nothingIsReadBeforeTwoFullTrainsWeighNorBeforeFiveRoundTripsLieBeyondTheQuantile() {
        BandLogRatios ratios = BandLogRatios.EMPTY.observe(PortBand.IDLE, SHAPE, train(20, 0.5), BOUND_NANOS, 20);
        assertTrue(Double.isNaN(ratios.quantile(PortBand.IDLE, 0.5)), "one train");
        ratios = ratios.observe(PortBand.IDLE, SHAPE, train(20, 0.5), BOUND_NANOS, 20);
        assertTrue(Double.isNaN(ratios.quantile(PortBand.IDLE, 0.5)), "two trains, the first forgotten a little");
        ratios = ratios.observe(PortBand.IDLE, SHAPE, train(20, 0.5), BOUND_NANOS, 20);
        assertEquals(Math.log(0.5), ratios.quantile(PortBand.IDLE, 0.5), 0.06, "three trains: the median");
        assertTrue(Double.isNaN(ratios.quantile(PortBand.IDLE, 0.04)), "60 round trips: 2.4 beyond the 96 % quantile");
        for (int b = 0; b < 4; b++) {
            ratios = ratios.observe(PortBand.IDLE, SHAPE, train(20, 0.5), BOUND_NANOS, 20);
        }
        assertTrue(ratios.weight(PortBand.IDLE) * 0.04 >= BandLogRatios.MIN_WEIGHT_BEYOND, "seven trains");
        assertEquals(Math.log(0.5), ratios.quantile(PortBand.IDLE, 0.04), 0.06);
    }

    @Test
    void aQuantileInAnOutermostBinIsNotRead() {
        BandLogRatios ratios = BandLogRatios.EMPTY;
        for (int b = 0; b < 8; b++) {
            ratios = ratios.observe(PortBand.LOADED, SHAPE, train(20, 1000.0), BOUND_NANOS, 20);
        }
        assertTrue(Double.isNaN(ratios.quantile(PortBand.LOADED, 0.04)), "1000 × the state's bound lies beyond e^6");
        BandLogRatios within = BandLogRatios.EMPTY;
        for (int b = 0; b < 8; b++) {
            within = within.observe(PortBand.LOADED, SHAPE, train(20, 40.0), BOUND_NANOS, 20);
        }
        assertEquals(Math.log(40.0), within.quantile(PortBand.LOADED, 0.04), 0.06, "40 × is read, beyond the residuals' e^3");
    }

    @Test
    void aYoungBandReadsNothingWhateverTheOtherBandsTrainsAndAGrownOneItsOwn() {
        BandLogRatios ratios = BandLogRatios.EMPTY;
        for (int b = 0; b < 3; b++) {
            ratios = ratios.observe(PortBand.IDLE, SHAPE, train(20, 0.5), BOUND_NANOS, 20);
        }
        ratios = ratios.observe(PortBand.LOADED, SHAPE, train(20, 4.0), BOUND_NANOS, 20);
        assertEquals(Math.log(0.5), ratios.quantile(PortBand.IDLE, 0.5), 0.06, "the idle band's own");
        assertTrue(Double.isNaN(ratios.quantile(PortBand.LOADED, 0.5)), "one loaded train: nothing");
        for (int b = 0; b < 2; b++) {
            ratios = ratios.observe(PortBand.LOADED, SHAPE, train(20, 4.0), BOUND_NANOS, 20);
        }
        assertEquals(Math.log(4.0), ratios.quantile(PortBand.LOADED, 0.5), 0.06, "the loaded band's own, grown");
        assertEquals(Math.log(0.5), ratios.quantile(PortBand.IDLE, 0.3), 0.06, "the idle band's own still");
    }

    @Test
    void aTrainForgetsItsOwnBandAlone() {
        BandLogRatios ratios = BandLogRatios.EMPTY.observe(PortBand.LOADED, SHAPE, train(10, 2.0), BOUND_NANOS, 10);
        final double[] loadedBefore = ratios.loadedWeights();
        ratios = ratios.observe(PortBand.IDLE, SHAPE, train(10, 0.5), BOUND_NANOS, 10);
        assertArrayEquals(loadedBefore, ratios.loadedWeights(), 0.0, "an idle train leaves the loaded band as it was");
        final double idleBefore = ratios.weight(PortBand.IDLE);
        ratios = ratios.observe(PortBand.IDLE, SHAPE, train(10, 0.5), BOUND_NANOS, 10);
        assertEquals(idleBefore * ShapeExcessModel.FORGETTING + 10, ratios.weight(PortBand.IDLE), 1e-3);
    }

    @Test
    void aLongTrainWeighsAsAFullOneSpreadOverItsRoundTrips() {
        final BandLogRatios ratios = BandLogRatios.EMPTY.observe(PortBand.IDLE, SHAPE, train(100, 0.5), BOUND_NANOS,
            ShapeExcessModel.MAX_BLOCK_WEIGHT);
        assertEquals(ShapeExcessModel.MAX_BLOCK_WEIGHT, ratios.weight(PortBand.IDLE), 1e-3);
    }

    @Test
    void badWeightsAreRefusedNamingTheBand() {
        final double[] good = new double[BandLogRatios.BINS];
        final double[] negative = good.clone();
        negative[3] = -1;
        final IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
            () -> new BandLogRatios(good, negative));
        assertTrue(refused.getMessage().contains("loaded"), refused.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new BandLogRatios(new double[3], good));
        final double[] infinite = good.clone();
        infinite[0] = Double.POSITIVE_INFINITY;
        assertThrows(IllegalArgumentException.class, () -> new BandLogRatios(infinite, good));
    }
}
