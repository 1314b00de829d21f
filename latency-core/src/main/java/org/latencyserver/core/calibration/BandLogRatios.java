package org.latencyserver.core.calibration;

import java.util.Arrays;
import org.latencyserver.core.histogram.LatencyHistogram;
import org.latencyserver.core.traffic.TrafficShape;

/**
 * Where the round trips of a shape model's trains lay against the state's bound they were sent under, per port band:
 * the weighted distribution of {@code ln(rtt / B)} over every train the {@link ShapeExcessModel} learned from, kept in
 * bins {@value #BIN_WIDTH} wide over ±{@value #RANGE} (wider than any factor a shape's bound may take, ±ln {@value
 * ShapeExcessModel#MAX_FACTOR}; values beyond in the outermost bins). Its quantile at the nominal share is the factor
 * the band's mix of trains needed over the state's bound, as observed, where the model's own estimate of that factor
 * ({@link ShapeExcessModel#mixLogBound}) carries everything its residuals spread by.
 *
 * <p>Each train weighs {@code min(n, }{@value ShapeExcessModel#MAX_BLOCK_WEIGHT}{@code )}, spread over its round trips
 * (those past the histogram's last edge in the top bin); a train forgets, by {@value ShapeExcessModel#FORGETTING}, its
 * own band's weights alone, as the model's sums do. Weights are kept as multiples of
 * {@code 1 / }{@value ShapeExcessModel#RESIDUAL_WEIGHTS_PER_UNIT}.
 *
 * <p>Immutable and thread-safe.
 */
public final class BandLogRatios {

    /** Width of a bin, ln units. */
    public static final double BIN_WIDTH = 0.05;
    /** Log ratios are kept in [−range, +range], ln units; those beyond count in the outermost bins. */
    public static final double RANGE = 6.0;
    /** Number of bins. */
    public static final int BINS = (int) Math.round(2 * RANGE / BIN_WIDTH);
    /** Nothing learned. */
    public static final BandLogRatios EMPTY = new BandLogRatios(new double[BINS], new double[BINS]);
    /**
     * Weight in round trips beyond the quantile, at the nominal share, a band's distribution needs before its quantile is
     * read ({@code weight × α >= this}): fewer, and the quantile is one round trip's.
     */
    public static final double MIN_WEIGHT_BEYOND = 5.0;
    /** Weight (two full trains) a band's distribution needs before its quantile is read, whatever α. */
    public static final double MIN_WEIGHT = 2.0 * ShapeExcessModel.MAX_BLOCK_WEIGHT;

    private final double[] idleWeights;
    private final double[] loadedWeights;
    private final BandShapes idleShapes;
    private final BandShapes loadedShapes;

    /**
     * @param idleWeights   the weights per bin of the trains sent on a port not loaded, {@value #BINS} entries, each
     *                      finite and {@code >= 0}
     * @param loadedWeights the same for the trains sent on a loaded port
     * @throws IllegalArgumentException on a wrong length or a weight negative or not finite
     */
    public BandLogRatios(final double[] idleWeights, final double[] loadedWeights) {
        this(idleWeights, loadedWeights, BandShapes.EMPTY, BandShapes.EMPTY);
    }

    /**
     * @param idleWeights   the weights per bin of the trains sent on a port not loaded, {@value #BINS} entries, each
     *                      finite and {@code >= 0}
     * @param loadedWeights the same for the trains sent on a loaded port
     * @param idleShapes    the idle band's trains' shapes while few, not null
     * @param loadedShapes  the loaded band's
     * @throws IllegalArgumentException on a wrong length, a weight negative or not finite, or null shapes
     */
    public BandLogRatios(final double[] idleWeights, final double[] loadedWeights, final BandShapes idleShapes,
                         final BandShapes loadedShapes) {
        check("idle", idleWeights);
        check("loaded", loadedWeights);
        if (idleShapes == null || loadedShapes == null) {
            throw new IllegalArgumentException("a band's kept shapes must not be null (BandShapes.EMPTY for none)");
        }
        this.idleWeights = idleWeights.clone();
        this.loadedWeights = loadedWeights.clone();
        this.idleShapes = idleShapes;
        this.loadedShapes = loadedShapes;
    }

    /**
     * @param band the port band
     * @return the band's trains' shapes while few ({@link BandShapes})
     */
    public BandShapes shapes(final PortBand band) {
        return band == PortBand.LOADED ? loadedShapes : idleShapes;
    }

    private static void check(final String band, final double[] weights) {
        if (weights == null || weights.length != BINS) {
            throw new IllegalArgumentException("the " + band + " band's log ratios need " + BINS + " bins");
        }
        for (final double weight : weights) {
            if (!(weight >= 0) || Double.isInfinite(weight)) {
                throw new IllegalArgumentException("a log ratio weight must be finite and >= 0, was " + weight + " (" + band
                    + " band)");
            }
        }
    }

    /** @return a copy of the idle band's weights per bin */
    public double[] idleWeights() {
        return idleWeights.clone();
    }

    /** @return a copy of the loaded band's weights per bin */
    public double[] loadedWeights() {
        return loadedWeights.clone();
    }

    /**
     * @param band the port band
     * @return the band's total weight
     */
    public double weight(final PortBand band) {
        return total(band == PortBand.LOADED ? loadedWeights : idleWeights);
    }

    /**
     * @param band         the port band
     * @param missFraction α, in (0, 1)
     * @return the band's weighted quantile of {@code ln(rtt / B)} at {@code 1 − α}, ln units; NaN while the band weighs
     *         less than {@value #MIN_WEIGHT} or than {@value #MIN_WEIGHT_BEYOND}{@code / α} (another band's trains say
     *         nothing of this band's bound), and NaN when it falls in an outermost bin (it is then known only to lie
     *         beyond)
     */
    public double quantile(final PortBand band, final double missFraction) {
        final double[] own = band == PortBand.LOADED ? loadedWeights : idleWeights;
        final double weight = total(own);
        if (weight < MIN_WEIGHT || weight * missFraction < MIN_WEIGHT_BEYOND) {
            return Double.NaN;
        }
        final double quantile = RidgeSolve.binnedQuantile(own, 1.0 - missFraction, RANGE, BIN_WIDTH);
        return quantile <= -RANGE + BIN_WIDTH || quantile >= RANGE - BIN_WIDTH ? Double.NaN : quantile;
    }

    /**
     * @param band            the band the train was sent in
     * @param shape           its traffic shape
     * @param roundTrips      its round trips, ns
     * @param stateBoundNanos the state's bound it was sent under, ns, {@code > 0}
     * @param trainWeight     what it weighs, {@code min(n, cap)}
     * @return the distributions after the train: its band's forgotten, its round trips added
     */
    BandLogRatios observe(final PortBand band, final TrafficShape shape, final LatencyHistogram roundTrips,
                          final double stateBoundNanos, final double trainWeight) {
        final long count = roundTrips.totalCount();
        if (count == 0) {
            return this;
        }
        final boolean loaded = band == PortBand.LOADED;
        final double[] next = (loaded ? loadedWeights : idleWeights).clone();
        for (int bin = 0; bin < next.length; bin++) {
            next[bin] *= ShapeExcessModel.FORGETTING;
        }
        final double perRoundTrip = trainWeight / count;
        for (int bin = 0; bin < roundTrips.binCount(); bin++) {
            final long inBin = roundTrips.count(bin);
            if (inBin > 0) {
                final double nanos = Math.max(1.0, 0.5 * (roundTrips.lowerEdgeNanos(bin) + roundTrips.upperEdgeNanos(bin)));
                next[bin(Math.log(nanos / stateBoundNanos))] += perRoundTrip * inBin;
            }
        }
        next[next.length - 1] += perRoundTrip * roundTrips.overflowCount();
        for (int bin = 0; bin < next.length; bin++) {
            next[bin] = Math.round(next[bin] * ShapeExcessModel.RESIDUAL_WEIGHTS_PER_UNIT)
                / ShapeExcessModel.RESIDUAL_WEIGHTS_PER_UNIT;
        }
        return loaded ? new BandLogRatios(idleWeights, next, idleShapes, loadedShapes.observe(shape, trainWeight))
            : new BandLogRatios(next, loadedWeights, idleShapes.observe(shape, trainWeight), loadedShapes);
    }

    private static int bin(final double logRatio) {
        final int bin = (int) Math.floor((logRatio + RANGE) / BIN_WIDTH);
        return Math.max(0, Math.min(BINS - 1, bin));
    }

    private static double total(final double[] weights) {
        double sum = 0;
        for (final double weight : weights) {
            sum += weight;
        }
        return sum;
    }

    @Override
    public boolean equals(final Object other) {
        return other instanceof BandLogRatios that && Arrays.equals(idleWeights, that.idleWeights)
            && Arrays.equals(loadedWeights, that.loadedWeights) && idleShapes.equals(that.idleShapes)
            && loadedShapes.equals(that.loadedShapes);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * Arrays.hashCode(idleWeights) + Arrays.hashCode(loadedWeights)) + 7 * idleShapes.hashCode()
            + loadedShapes.hashCode();
    }
}
