package org.latencyserver.core.calibration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.latencyserver.core.estimate.Estimate;
import org.latencyserver.core.estimate.EstimateKind;
import org.latencyserver.core.stats.ConfidenceInterval;
import org.latencyserver.core.traffic.CallKind;
import org.latencyserver.core.traffic.TrafficFamily;
import org.latencyserver.core.traffic.TrafficShape;

class ShapeMeanModelTest {

    /** The application whose round trips are 1.5 × slower on average than back-to-back ones. */
    private static final TrafficShape SLOW = new TrafficShape(10_000, 10, 0, CallKind.ARRAYS);
    private static final TrafficShape FAST = new TrafficShape(500, 100, 0, CallKind.OCTETS);
    /** Thesis means of three load states, ms: what a measurement (back to back) finds in each. */
    private static final double[] STATE_THESIS_MILLIS = {0.2, 0.5, 1.0};

    /** The synthetic path's truth: a shape's mean over its state's thesis mean, 1 at 0.5 ms spacing, 1.5 at 10 ms. */
    private static double trueRatio(final TrafficShape shape) {
        return Math.exp(Math.log(1.5) * Math.log(shape.spacingMicros() / 500.0) / Math.log(20.0));
    }

    /** One window's mean: exponential round trips of the shape's true mean, one per round trip of its burst. */
    private static double windowMeanMillis(final SplittableRandom random, final double meanMillis, final int roundTrips) {
        double sum = 0;
        for (int i = 0; i < roundTrips; i++) {
            sum += -meanMillis * Math.log(1.0 - random.nextDouble());
        }
        return sum / roundTrips;
    }

    @Test
    void anEmptyModelIsNotFittedAndMultipliesByOne() {
        assertFalse(ShapeMeanModel.EMPTY.fitted());
        assertEquals(1.0, ShapeMeanModel.EMPTY.meanFactor(SLOW), 1e-6);
        assertEquals(ShapeMeanModel.EMPTY, ShapeMeanModel.EMPTY.observe(SLOW, 0, 1.0, 1.0), "no round trips, nothing learned");
        assertEquals(ShapeMeanModel.EMPTY, ShapeMeanModel.EMPTY.observe(SLOW, 5, Double.NaN, 1.0));
        assertEquals(ShapeMeanModel.EMPTY, ShapeMeanModel.EMPTY.observe(SLOW, 5, 1.0, 0.0));
        assertThrows(IllegalArgumentException.class, () -> ShapeMeanModel.EMPTY.observe(null, 5, 1.0, 1.0));
    }

    /**
     * The served mean of a state is its thesis mean, the same for every shape: for the slow application it is a third
     * below what its round trips average. Probe windows of every shape of the default family, in three load states,
     * teach the model the shape's ratio; the slow application's mean is then within 10 % of the pooled mean of its own
     * bursts in every state.
     */
    @Test
    void aShapesMeanLearnedFromProbeWindowsOfEveryShapeHoldsForTheApplication() {
        final SplittableRandom random = new SplittableRandom(11);
        ShapeMeanModel model = ShapeMeanModel.EMPTY;
        for (int window = 0; window < 300; window++) {
            final TrafficShape shape = TrafficFamily.DEFAULT.draw(random, 10.0);
            final double thesis = STATE_THESIS_MILLIS[window % STATE_THESIS_MILLIS.length];
            model = model.observe(shape, shape.burstRoundTrips(),
                windowMeanMillis(random, thesis * trueRatio(shape), shape.burstRoundTrips()), thesis);
        }
        assertTrue(model.fitted());
        assertEquals(300, model.blocks());
        for (final double thesis : STATE_THESIS_MILLIS) {
            double sum = 0;
            long count = 0;
            for (int burst = 0; burst < 200; burst++) {
                sum += SLOW.burstRoundTrips() * windowMeanMillis(random, thesis * trueRatio(SLOW), SLOW.burstRoundTrips());
                count += SLOW.burstRoundTrips();
            }
            final double pooledMillis = sum / count;
            final double before = Math.abs(thesis - pooledMillis) / pooledMillis;
            final double after = Math.abs(thesis * model.meanFactor(SLOW) - pooledMillis) / pooledMillis;
            assertTrue(before > 0.25, "the shape-blind mean is a third off: " + before);
            assertTrue(after < 0.10, "the shape's mean within 10 % of its bursts' pooled mean: " + after + " in state " + thesis);
        }
        assertEquals(1.0, model.meanFactor(FAST), 0.10, "back-to-back octets: the thesis's own mean");
    }

    /**
     * Windows of one burst each, of exponential round trips, over every shape of the default family (bursts 1–100): the
     * log of a short window's mean lies below the log of its true mean (by 0.58 for one round trip), and uncorrected
     * that bias lands in the burst-length slope. With each window's own spread (and the connection-wide one for
     * windows of one round trip) a shape of bursts of one gets its true mean within 10 %; without, it is more off.
     */
    @Test
    void aShapeOfBurstsOfOneGetsItsTrueMeanDespiteShortWindows() {
        final TrafficShape single = new TrafficShape(2_000, 1, 0, CallKind.ARRAYS);
        final SplittableRandom random = new SplittableRandom(31);
        ShapeMeanModel corrected = ShapeMeanModel.EMPTY;
        ShapeMeanModel uncorrected = ShapeMeanModel.EMPTY;
        for (int window = 0; window < 600; window++) {
            final TrafficShape shape = TrafficFamily.DEFAULT.draw(random, 10.0);
            final double thesis = STATE_THESIS_MILLIS[window % STATE_THESIS_MILLIS.length];
            final double trueMean = thesis * trueRatio(shape);
            final int n = shape.burstRoundTrips();
            double sum = 0;
            double sumSquares = 0;
            for (int i = 0; i < n; i++) {
                final double value = -trueMean * Math.log(1.0 - random.nextDouble());
                sum += value;
                sumSquares += value * value;
            }
            final double mean = sum / n;
            final double variance = n < 2 ? Double.NaN : (sumSquares - n * mean * mean) / (n - 1);
            corrected = corrected.observe(shape, n, mean, variance, thesis);
            uncorrected = uncorrected.observe(shape, n, mean, thesis);
        }
        assertEquals(1.0, corrected.relativeVariance(), 0.25, "exponential round trips: CV² about 1, " + corrected);
        final double truth = trueRatio(single);
        final double correctedError = Math.abs(corrected.meanFactor(single) - truth) / truth;
        final double uncorrectedError = Math.abs(uncorrected.meanFactor(single) - truth) / truth;
        assertTrue(correctedError < 0.10, "bursts of one: within 10 % of the true mean, was " + correctedError);
        assertTrue(uncorrectedError > 0.10, "the log of short windows' means, uncorrected, is off: " + uncorrectedError);
        assertEquals(1.0, corrected.meanFactor(FAST) / trueRatio(FAST), 0.10, "long bursts: their true mean too");
        assertEquals(corrected, new ShapeMeanModel(corrected.blocks(), corrected.gram(), corrected.moments(),
            corrected.loadedGram(), corrected.loadedMoments(), corrected.varianceSum(), corrected.squareSum(),
            corrected.noise()), "rebuilt from its sums");
    }

    /** A window's histogram gives its own spread: the same correction as its variance given outright. */
    @Test
    void aWindowsHistogramGivesItsOwnSpread() {
        final long[] edges = new long[200];
        final long[] counts = new long[200];
        for (int i = 0; i < edges.length; i++) {
            edges[i] = 10_000L * (i + 1);
        }
        counts[9] = 3;
        counts[29] = 1;
        final org.latencyserver.core.histogram.LatencyHistogram roundTrips =
            org.latencyserver.core.histogram.LatencyHistogram.of(edges, counts, 0);
        final double meanMillis = (3 * 0.095 + 0.295) / 4;
        final double varianceMillis2 = (3 * Math.pow(0.095 - meanMillis, 2) + Math.pow(0.295 - meanMillis, 2)) / 3;
        assertEquals(ShapeMeanModel.EMPTY.observe(SLOW, 4, meanMillis, varianceMillis2, 0.1),
            ShapeMeanModel.EMPTY.observe(SLOW, roundTrips, 4, meanMillis, 0.1));
        assertNotEquals(ShapeMeanModel.EMPTY.observe(SLOW, 4, meanMillis, 0.1), ShapeMeanModel.EMPTY.observe(SLOW, roundTrips, 4,
            meanMillis, 0.1), "the spread corrects the window's log mean upward");
    }

    @Test
    void theServedMeanForAShapeIsTheThesisTimesItsFactorWithTheIntervalMoved() {
        final SplittableRandom random = new SplittableRandom(5);
        ShapeMeanModel model = ShapeMeanModel.EMPTY;
        for (int window = 0; window < 100; window++) {
            final TrafficShape shape = TrafficFamily.DEFAULT.draw(random, 10.0);
            model = model.observe(shape, 20, trueRatio(shape), 1.0);
        }
        final Estimate served = new Estimate(3, EstimateKind.AVERAGE, 1.2, 0.0,
            new ConfidenceInterval(0.6, 1.8, 0.95, "next burst"), List.of(new ConfidenceInterval(1.1, 1.3, 0.95, "t")),
            "measurement", List.of(), false);
        final EstimateCorrection.Corrected shaped = model.shaped(served, 1.0, SLOW);
        final double factor = model.meanFactor(SLOW);
        assertEquals(1.5, factor, 0.03, "windows without noise: the true ratio");
        assertEquals(factor, shaped.estimate().valueMillis(), 1e-12, "the thesis mean (1 ms) times the factor");
        assertEquals(0.6 * factor / 1.2, shaped.estimate().interval().lower(), 1e-12);
        assertEquals(1.8 * factor / 1.2, shaped.estimate().interval().upper(), 1e-12);
        assertEquals(1.3 * factor / 1.2, shaped.estimate().alternatives().get(0).upper(), 1e-12);
        assertEquals("next burst", shaped.estimate().interval().method());
        assertTrue(shaped.description().startsWith(String.format(java.util.Locale.ROOT, "shape mean: thesis mean × %.3f", factor)),
            shaped.description());
        assertTrue(shaped.description().contains("100 probe windows"), shaped.description());
        final ShapeMeanModel learned = model;
        assertThrows(IllegalArgumentException.class, () -> learned.shaped(served, 0.0, SLOW));
    }

    @Test
    void aFactorIsClampedAndTheModelForgets() {
        ShapeMeanModel model = ShapeMeanModel.EMPTY;
        for (int window = 0; window < 30; window++) {
            model = model.observe(SLOW, 20, 1000.0, 1.0);
        }
        assertEquals(ShapeMeanModel.MAX_FACTOR, model.meanFactor(SLOW), 1e-9);
        final ShapeMeanModel next = model.observe(SLOW, 20, 1.0, 1.0);
        assertNotEquals(model, next);
        assertEquals(ShapeMeanModel.FORGETTING * model.gram()[0] + 20, next.gram()[0], 1e-9);
        assertEquals(model, new ShapeMeanModel(model.blocks(), model.gram(), model.moments(), model.loadedGram(),
            model.loadedMoments(), model.varianceSum(), model.squareSum(), model.noise()), "rebuilt from its sums");
        assertThrows(IllegalArgumentException.class, () -> new ShapeMeanModel(1, new double[3], new double[4]));
        assertThrows(IllegalArgumentException.class, () -> new ShapeMeanModel(1, new double[10], new double[] {0, 0, Double.NaN, 0}));
    }
}
