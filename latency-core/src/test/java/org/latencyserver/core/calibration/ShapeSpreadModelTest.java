package org.latencyserver.core.calibration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.latencyserver.core.histogram.LatencyHistogram;
import org.latencyserver.core.traffic.CallKind;
import org.latencyserver.core.traffic.TrafficShape;

/** A shape's own spread ({@link ShapeSpreadModel}) as the excess model teaches it, block by block. */
class ShapeSpreadModelTest {

    private static final TrafficShape PROBES = new TrafficShape(2_000, 20, 0, CallKind.ARRAYS);
    private static final TrafficShape SINGLE = new TrafficShape(2_000, 1, 0, CallKind.ARRAYS);
    private static final double BOUND_NANOS = 1e6;
    /** Edges 1 % apart from 10 µs to 1 s: a fine histogram. */
    private static final long[] FINE_EDGES = logEdges(10_000.0, 1.01, 100_000.0);

    /**
     * Trains of one round trip first (they teach no own spread), then trains of 20 whose round trips share a
     * per-train part of sd 0.3 and have their own of sd 0.2: the shared variance is the per-train part's, not held at 0
     * by the early trains.
     */
    @Test
    void theSharedVarianceIsLearnedAfterTrainsOfOneRoundTrip() {
        final SplittableRandom random = new SplittableRandom(17);
        ShapeExcessModel model = ShapeExcessModel.EMPTY;
        for (int b = 0; b < 40; b++) {
            model = model.observe(SINGLE, histogram(FINE_EDGES, new double[] {BOUND_NANOS * Math.exp(0.36 * gaussian(random))}),
                BOUND_NANOS);
        }
        for (int b = 0; b < 80; b++) {
            final double shared = 0.3 * gaussian(random);
            final double[] values = new double[PROBES.burstRoundTrips()];
            for (int i = 0; i < values.length; i++) {
                values[i] = BOUND_NANOS * Math.exp(shared + 0.2 * gaussian(random));
            }
            model = model.observe(PROBES, histogram(FINE_EDGES, values), BOUND_NANOS);
        }
        final ShapeSpreadModel spread = model.spread();
        assertEquals(0.09, spread.sharedVariance(), 0.04, "τ² of the per-train part: " + spread);
        assertEquals(0.2, spread.ownScale(PROBES), 0.04, "σ_own of each round trip's own part: " + spread);
    }

    /**
     * Trains whose round trips all land in one bin (a path quantised coarser than its spread) among trains of a spread
     * of 0.2: the one-bin trains do not drag the shape's own scale far below 0.2.
     */
    @Test
    void trainsInOneBinDoNotPullTheScaleDown() {
        final SplittableRandom random = new SplittableRandom(23);
        ShapeExcessModel model = ShapeExcessModel.EMPTY;
        for (int b = 0; b < 80; b++) {
            final double[] values = new double[PROBES.burstRoundTrips()];
            if (b % 4 == 3) {
                Arrays.fill(values, BOUND_NANOS * 1.003);
            } else {
                for (int i = 0; i < values.length; i++) {
                    values[i] = BOUND_NANOS * Math.exp(0.2 * gaussian(random));
                }
            }
            model = model.observe(PROBES, histogram(FINE_EDGES, values), BOUND_NANOS);
        }
        assertEquals(0.2, model.spread().ownScale(PROBES), 0.05, "σ_own of the spread trains: " + model.spread());
    }

    /**
     * Round trips past the histogram's last edge: scored in the top score bin (not covered), and left out of the
     * block's mean and deviation, which are those of its round trips within the edges.
     */
    @Test
    void overflowRoundTripsScoreInTheTopBinAndStayOutOfTheBlocksSpread() {
        final long[] shortEdges = logEdges(10_000.0, 1.01, 120.0);
        final SplittableRandom random = new SplittableRandom(29);
        ShapeExcessModel model = ShapeExcessModel.EMPTY;
        for (int b = 0; b < 30; b++) {
            final double[] values = new double[PROBES.burstRoundTrips()];
            for (int i = 0; i < values.length; i++) {
                values[i] = BOUND_NANOS * Math.exp(0.1 * gaussian(random));
            }
            model = model.observe(PROBES, histogram(shortEdges, values), BOUND_NANOS);
        }
        final double lastEdge = shortEdges[shortEdges.length - 1];
        assertTrue(lastEdge < 1.3 * BOUND_NANOS && lastEdge > 1.1 * BOUND_NANOS, "edges end near the bound: " + lastEdge);
        final double[] within = new double[15];
        for (int i = 0; i < within.length; i++) {
            within[i] = BOUND_NANOS * Math.exp(0.1 * gaussian(random));
        }
        final double[] withOverflow = Arrays.copyOf(within, 20);
        Arrays.fill(withOverflow, within.length, withOverflow.length, 2 * lastEdge);
        final ShapeSpreadModel before = model.spread();
        final ShapeSpreadModel overflowed = model.observe(PROBES, histogram(shortEdges, withOverflow), BOUND_NANOS).spread();
        final ShapeSpreadModel inRangeOnly = model.observe(PROBES, histogram(shortEdges, within), BOUND_NANOS).spread();
        final int top = ShapeSpreadModel.SCORE_BINS - 1;
        assertEquals(ShapeExcessModel.FORGETTING * before.scoreWeights()[top] + 5.0, overflowed.scoreWeights()[top], 1e-3,
            "5 overflow round trips of a block weighing 20 over 20 round trips: weight 5 in the top bin");
        assertEquals(inRangeOnly.sharedSum(), overflowed.sharedSum(), 1e-12, "the block's mean and variance: within the edges");
        final double zOverflowed = (overflowed.moments()[0] - ShapeExcessModel.FORGETTING * before.moments()[0]) / 20.0;
        final double zInRange = (inRangeOnly.moments()[0] - ShapeExcessModel.FORGETTING * before.moments()[0]) / 15.0;
        assertEquals(zInRange, zOverflowed, 1e-9, "the block's log deviation: that of its round trips within the edges");
    }

    private static long[] logEdges(final double firstNanos, final double ratio, final double span) {
        final int count = (int) Math.ceil(Math.log(span) / Math.log(ratio));
        final long[] edges = new long[count];
        for (int i = 0; i < count; i++) {
            edges[i] = Math.round(firstNanos * Math.pow(ratio, i + 1));
        }
        return edges;
    }

    private static LatencyHistogram histogram(final long[] edges, final double[] valuesNanos) {
        final long[] counts = new long[edges.length];
        long overflow = 0;
        for (final double value : valuesNanos) {
            int bin = Arrays.binarySearch(edges, (long) Math.ceil(value));
            bin = bin >= 0 ? bin : -bin - 1;
            if (bin >= edges.length) {
                overflow++;
            } else {
                counts[bin]++;
            }
        }
        return LatencyHistogram.of(edges, counts, overflow);
    }

    private static double gaussian(final SplittableRandom random) {
        double u1 = random.nextDouble();
        while (u1 <= 0) {
            u1 = random.nextDouble();
        }
        return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * random.nextDouble());
    }
}
