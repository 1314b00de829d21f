package org.latencyserver.core.calibration;

import java.util.Arrays;
import org.latencyserver.core.histogram.LatencyHistogram;

/**
 * Where the round trips of a shape model's trains lay against the state's bound they were sent under, per port band:
 * the weighted distribution of {@code ln(rtt / B)} over every train the {@link ShapeExcessModel} learned from, kept in
 * the model's residual bins ({@value ShapeExcessModel#RESIDUAL_BIN_WIDTH} wide over ±{@value
 * ShapeExcessModel#RESIDUAL_RANGE}; values beyond in the outermost bins). Its quantile at the nominal share is the factor
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

    /** Nothing learned. */
    public static final BandLogRatios EMPTY = new BandLogRatios(new double[ShapeExcessModel.RESIDUAL_BINS],
        new double[ShapeExcessModel.RESIDUAL_BINS]);
    /** Weight (two full trains) a band's distribution needs before its quantile is read. */
    public static final double MIN_WEIGHT = 2.0 * ShapeExcessModel.MAX_BLOCK_WEIGHT;

    private final double[] idleWeights;
    private final double[] loadedWeights;

    /**
     * @param idleWeights   the weights per bin of the trains sent on a port not loaded, {@value
     *                      ShapeExcessModel#RESIDUAL_BINS} entries, each finite and {@code >= 0}
     * @param loadedWeights the same for the trains sent on a loaded port
     * @throws IllegalArgumentException on a wrong length or a weight negative or not finite
     */
    public BandLogRatios(final double[] idleWeights, final double[] loadedWeights) {
        check("idle", idleWeights);
        check("loaded", loadedWeights);
        this.idleWeights = idleWeights.clone();
        this.loadedWeights = loadedWeights.clone();
    }

    private static void check(final String band, final double[] weights) {
        if (weights == null || weights.length != ShapeExcessModel.RESIDUAL_BINS) {
            throw new IllegalArgumentException("the " + band + " band's log ratios need " + ShapeExcessModel.RESIDUAL_BINS
                + " bins");
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
     * @return the band's weighted quantile of {@code ln(rtt / B)} at {@code 1 − α}, ln units, or NaN while the band
     *         weighs less than {@value #MIN_WEIGHT} (another band's trains say nothing of this band's bound)
     */
    public double quantile(final PortBand band, final double missFraction) {
        final double[] own = band == PortBand.LOADED ? loadedWeights : idleWeights;
        if (total(own) < MIN_WEIGHT) {
            return Double.NaN;
        }
        return RidgeSolve.binnedQuantile(own, 1.0 - missFraction, ShapeExcessModel.RESIDUAL_RANGE,
            ShapeExcessModel.RESIDUAL_BIN_WIDTH);
    }

    /**
     * @param band            the band the train was sent in
     * @param roundTrips      its round trips, ns
     * @param stateBoundNanos the state's bound it was sent under, ns, {@code > 0}
     * @param trainWeight     what it weighs, {@code min(n, cap)}
     * @return the distributions after the train: its band's forgotten, its round trips added
     */
    BandLogRatios observe(final PortBand band, final LatencyHistogram roundTrips, final double stateBoundNanos,
                          final double trainWeight) {
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
        return loaded ? new BandLogRatios(idleWeights, next) : new BandLogRatios(next, loadedWeights);
    }

    private static int bin(final double logRatio) {
        final int bin = (int) Math.floor((logRatio + ShapeExcessModel.RESIDUAL_RANGE) / ShapeExcessModel.RESIDUAL_BIN_WIDTH);
        return Math.max(0, Math.min(ShapeExcessModel.RESIDUAL_BINS - 1, bin));
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
            && Arrays.equals(loadedWeights, that.loadedWeights);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(idleWeights) + Arrays.hashCode(loadedWeights);
    }
}
