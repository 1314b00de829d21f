package org.latencyserver.core.calibration;

import java.util.Arrays;
import org.latencyserver.core.traffic.TrafficShape;

/**
 * How widely a traffic shape's round trips spread around the {@link ShapeExcessModel}'s prediction for it, learned
 * connection-wide: the scale half of a locally weighted (normalised) split-conformal bound (Lei et al. 2018,
 * Papadopoulos et al. 2011). A shape whose round trips queue behind each other spreads wider than the probes, and a
 * single margin for every shape under-covers it.
 *
 * <p>A block's residuals {@code r = ln(rtt / B) − f(s)}, against the excess model fitted before the block, have a
 * part shared by the whole block (its train's busy spell, the load state's bound lying a little off, the fit's error)
 * and each round trip's own. The own part's scale, per block of shape {@code s} with {@code n >= 2} round trips and
 * mean residual {@code r̄} (round trips past the histogram's last edge left out: their residual is not known):
 * <pre>
 *   ln(mean|r − r̄| √(n / (n − 1))) + c(n − 1) = g(s, L) + η,
 *   g(s, L) = γ0 + γ1 ln(spacing / 1 ms) + γ2 ln(burst length) + γ3 [arrays]
 *             + L (γ4 + γ5 ln(spacing / 1 ms) + γ6 ln(burst length))
 * </pre>
 * on the same features as the excess model ({@link ShapeFeatures}, {@code L} the port band the block was sent in: a
 * fast shape on a loaded port queues behind itself and spreads wider there); {@code c(m)} corrects the bias of the log of a mean of
 * {@code m} absolute Gaussian deviations ({@value #SINGLE_DEVIATION_BIAS} for one, {@value #JENSEN_BIAS}{@code / m}
 * beyond). {@code γ} is fitted by weighted ridge least squares (weight {@code min(n, }{@value
 * ShapeExcessModel#MAX_BLOCK_WEIGHT}{@code )}, ridge {@value #RIDGE} on the slopes) from running sums kept per band and
 * forgotten by {@value ShapeExcessModel#FORGETTING} on a block of their own band ({@link BandedSums}). A block whose
 * round trips all lie in one histogram bin is left out of that fit (it says only that their spread is below the bin's width), and a block's mean absolute deviation is
 * taken no smaller than the histogram's resolution there (its bins' log width over √12). A shape's own standard
 * deviation is {@code σ_own(s) = exp(g(s)) / √(2/π)}. The shared variance {@code τ²} is the mean, over blocks of
 * {@code n >= 2} round trips, of {@code r̄² − s²/n}, {@code s²} the block's own sample variance of residuals (unbiased for
 * {@code τ²} whatever the scale fit; every block weighing 1, forgotten alike; 0 while negative). The shape's scale is
 * {@code σ(s) = √(τ² + σ_own(s)²)}, ln units: a shared part that is the same for every shape does not stretch the
 * shapes' ratio.
 *
 * <p>Conformal scores {@code r / σ(s)}, with {@code σ} fitted from the blocks before, are kept from this model's
 * {@value #MIN_FIT_BLOCKS}th block on in bins of {@value #SCORE_BIN_WIDTH} over ±{@value #SCORE_RANGE}, each block
 * weighing {@code min(n, cap)} spread over its round trips (those past the histogram's last edge in the top bin). A
 * shape's log excess bound for the nominal share {@code 1 − α} is then {@code f(s) + q_{1−α} σ(s)}, {@code q} the scores' weighted quantile. Used ({@link #fitted()}) from
 * {@value #MIN_BLOCKS} blocks of this model; until then the excess model's single margin stands.
 *
 * <p>Immutable and thread-safe; pure (no clock, no thread).
 */
public final class ShapeSpreadModel {

    /** Blocks of this model before its scores are kept (before, the scale fit says more about itself than the path). */
    public static final long MIN_FIT_BLOCKS = 5;
    /** Blocks of this model before it may stand for a shape's spread. */
    public static final long MIN_BLOCKS = 15;
    /** Ridge penalty on the scale's slopes, in block-weight units: one full block's weight. */
    public static final double RIDGE = ShapeExcessModel.MAX_BLOCK_WEIGHT;
    /** Width of a score bin, in units of a shape's scale. */
    public static final double SCORE_BIN_WIDTH = 0.05;
    /** Scores are kept in [−range, +range]; those beyond count in the outermost bins. */
    public static final double SCORE_RANGE = 6.0;
    /** Number of score bins. */
    public static final int SCORE_BINS = (int) Math.round(2 * SCORE_RANGE / SCORE_BIN_WIDTH);
    /** {@code ln E|Z| − E ln|Z|} for a standard normal {@code Z}: the bias of the log of one absolute deviation. */
    public static final double SINGLE_DEVIATION_BIAS = 0.4102;
    /** {@code Var|Z| / (2 (E|Z|)²)}: the first-order bias of the log of a mean of {@code m} absolute deviations, times m. */
    public static final double JENSEN_BIAS = 0.2854;
    /** Smallest mean absolute deviation taken, ln units, whatever the histogram's resolution: keeps the log finite. */
    public static final double MIN_MEAN_ABSOLUTE_DEVIATION = 1e-4;
    /** Largest |g(s)|, ln units: the scale is kept within e^±this, whatever the extrapolation. */
    public static final double MAX_LOG_SCALE = 5.0;

    /** Nothing learned. */
    public static final ShapeSpreadModel EMPTY = new ShapeSpreadModel(0, new double[ShapeExcessModel.GRAM_ENTRIES],
        new double[ShapeExcessModel.PARAMETERS], new double[SCORE_BINS], 0, 0);
    private static final double MEAN_ABSOLUTE_PER_SD = Math.sqrt(2 / Math.PI);

    private final long blocks;
    private final BandedSums sums;
    private final double[] scoreWeights;
    private final double[] coefficients;
    private final double sharedSum;
    private final double sharedWeight;

    /**
     * A model from full {@value ShapeExcessModel#PARAMETERS}-feature sums ({@link BandedSums#ofFull}: the loaded blocks'
     * arrays moment apportioned).
     *
     * @param blocks       blocks learned from, {@code >= 0}
     * @param gram         the upper triangle of {@code X'WX}, row by row, {@value ShapeExcessModel#GRAM_ENTRIES} entries
     * @param moments      {@code X'Wz}, {@value ShapeExcessModel#PARAMETERS} entries
     * @param scoreWeights the scores' weights per bin, {@value #SCORE_BINS} entries, each {@code >= 0}
     * @param sharedSum    the blocks' forgotten sum of {@code r̄² − s² / n}, ln units squared (may be negative)
     * @param sharedWeight the blocks' forgotten count, {@code >= 0}
     * @throws IllegalArgumentException on a wrong length, a negative count or weight, or a value not finite
     */
    public ShapeSpreadModel(final long blocks, final double[] gram, final double[] moments, final double[] scoreWeights,
                            final double sharedSum, final double sharedWeight) {
        this(blocks, BandedSums.ofFull(gram, moments), scoreWeights, sharedSum, sharedWeight);
    }

    /**
     * A model from its sums in two parts ({@link BandedSums}): every block's over the shape's
     * {@value ShapeFeatures#SHAPE_PARAMETERS} features, and the loaded port's blocks' alone.
     *
     * @param blocks        blocks learned from, {@code >= 0}
     * @param shapeGram     the upper triangle of every block's {@code X'WX} over the shape's features,
     *                      {@value ShapeFeatures#SHAPE_GRAM_ENTRIES} entries
     * @param shapeMoments  every block's {@code X'Wz}, {@value ShapeFeatures#SHAPE_PARAMETERS} entries
     * @param loadedGram    the same as {@code shapeGram} over the blocks sent on a loaded port alone
     * @param loadedMoments the same as {@code shapeMoments} over the blocks sent on a loaded port alone
     * @param scoreWeights  the scores' weights per bin, {@value #SCORE_BINS} entries, each {@code >= 0}
     * @param sharedSum     the blocks' forgotten sum of {@code r̄² − s² / n}, ln units squared (may be negative)
     * @param sharedWeight  the blocks' forgotten count, {@code >= 0}
     * @throws IllegalArgumentException on a wrong length, a negative count or weight, or a value not finite
     */
    public ShapeSpreadModel(final long blocks, final double[] shapeGram, final double[] shapeMoments, final double[] loadedGram,
                            final double[] loadedMoments, final double[] scoreWeights, final double sharedSum,
                            final double sharedWeight) {
        this(blocks, new BandedSums(shapeGram, shapeMoments, loadedGram, loadedMoments), scoreWeights, sharedSum, sharedWeight);
    }

    private ShapeSpreadModel(final long blocks, final BandedSums sums, final double[] scoreWeights, final double sharedSum,
                             final double sharedWeight) {
        if (blocks < 0 || scoreWeights == null || scoreWeights.length != SCORE_BINS) {
            throw new IllegalArgumentException("a shape spread model needs blocks >= 0 and " + SCORE_BINS + " score bins");
        }
        for (final double weight : scoreWeights) {
            if (!(weight >= 0) || Double.isInfinite(weight)) {
                throw new IllegalArgumentException("a score weight must be finite and >= 0, was " + weight);
            }
        }
        if (!Double.isFinite(sharedSum) || !(sharedWeight >= 0) || Double.isInfinite(sharedWeight)) {
            throw new IllegalArgumentException("a shape spread model's shared sum must be finite and its weight >= 0, had "
                + sharedSum + " and " + sharedWeight);
        }
        this.sharedSum = sharedSum;
        this.sharedWeight = sharedWeight;
        this.blocks = blocks;
        this.sums = sums;
        this.scoreWeights = scoreWeights.clone();
        this.coefficients = RidgeSolve.solve(sums.fullGram(), sums.fullMoments(), RIDGE);
    }

    /** @return blocks learned from */
    public long blocks() {
        return blocks;
    }

    /**
     * @return whether it learned from {@value #MIN_BLOCKS} blocks or more, some of 2 round trips or more (an own spread),
     *         and kept scores, and so may stand for a spread
     */
    public boolean fitted() {
        return blocks >= MIN_BLOCKS && sums.shapeGram()[0] > 0 && totalScoreWeight() > 0;
    }

    /** @return the upper triangle of the full {@value ShapeExcessModel#PARAMETERS}-feature {@code X'WX}, row by row */
    public double[] gram() {
        return sums.fullGram();
    }

    /** @return the full {@value ShapeExcessModel#PARAMETERS}-feature {@code X'Wz} */
    public double[] moments() {
        return sums.fullMoments();
    }

    /** @return a copy of every block's {@code X'WX} over the shape's features: the band-blind scale's */
    public double[] shapeGram() {
        return sums.shapeGram();
    }

    /** @return a copy of every block's {@code X'Wz} over the shape's features */
    public double[] shapeMoments() {
        return sums.shapeMoments();
    }

    /** @return a copy of the loaded port's blocks' {@code X'WX} over the shape's features */
    public double[] loadedGram() {
        return sums.loadedGram();
    }

    /** @return a copy of the loaded port's blocks' {@code X'Wz} over the shape's features */
    public double[] loadedMoments() {
        return sums.loadedMoments();
    }

    /** @return a copy of the scores' weights per bin */
    public double[] scoreWeights() {
        return scoreWeights.clone();
    }

    /** @return the blocks' forgotten sum of {@code r̄² − s² / n} ({@code s²} each block's own variance), ln units squared */
    public double sharedSum() {
        return sharedSum;
    }

    /** @return the blocks' forgotten count behind {@link #sharedSum()} */
    public double sharedWeight() {
        return sharedWeight;
    }

    /** @return {@code τ²}: the variance every block's round trips share, whatever the shape, ln units squared, {@code >= 0} */
    public double sharedVariance() {
        return sharedWeight > 0 ? Math.max(0.0, sharedSum / sharedWeight) : 0.0;
    }

    /** As {@link #ownScale(TrafficShape, PortBand)} on a port not loaded. */
    public double ownScale(final TrafficShape shape) {
        return ownScale(shape, PortBand.IDLE);
    }

    /**
     * @param shape a traffic shape
     * @param band  the port band
     * @return {@code σ_own(s, L)}: the standard deviation of the shape's round trips about their block's mean, ln units
     */
    public double ownScale(final TrafficShape shape, final PortBand band) {
        return ownScaleAt(ShapeFeatures.of(shape, band));
    }

    /**
     * @param x {@value ShapeExcessModel#PARAMETERS} features ({@link ShapeFeatures})
     * @return the scale at {@code x}, ln units, {@code > 0}: {@code √(τ² + σ_own(x)²)}
     */
    double scaleAt(final double[] x) {
        final double own = ownScaleAt(x);
        return Math.sqrt(sharedVariance() + own * own);
    }

    private double ownScaleAt(final double[] x) {
        double logScale = 0;
        for (int i = 0; i < x.length; i++) {
            logScale += coefficients[i] * x[i];
        }
        return Math.exp(Math.max(-MAX_LOG_SCALE, Math.min(MAX_LOG_SCALE, logScale))) / MEAN_ABSOLUTE_PER_SD;
    }

    /** @return a copy of the fitted coefficients γ0..γ6 */
    public double[] coefficients() {
        return coefficients.clone();
    }

    /**
     * @param shape a traffic shape
     * @param band  the port band
     * @return {@code σ(s, L) = √(τ² + σ_own(s, L)²)}: the standard deviation of the shape's residuals, ln units,
     *         {@code > 0}
     */
    public double scale(final TrafficShape shape, final PortBand band) {
        final double own = ownScale(shape, band);
        return Math.sqrt(sharedVariance() + own * own);
    }

    /**
     * @param targetMissFraction α, in (0, 1)
     * @return the scores' weighted quantile at {@code 1 − α}, in units of a shape's scale (0 when none kept)
     */
    public double scoreQuantile(final double targetMissFraction) {
        return RidgeSolve.binnedQuantile(scoreWeights, 1.0 - targetMissFraction, SCORE_RANGE, SCORE_BIN_WIDTH);
    }

    /**
     * @param shape              a traffic shape
     * @param band               the port band
     * @param targetMissFraction α, in (0, 1)
     * @return {@code q_{1−α} σ(s, L)}: what the shape's log bound lies above its predicted log excess, ln units
     */
    public double margin(final TrafficShape shape, final PortBand band, final double targetMissFraction) {
        return scoreQuantile(targetMissFraction) * scale(shape, band);
    }

    /**
     * @param shape         the block's traffic shape
     * @param band          the port band it was sent in
     * @param residuals     its round trips' residuals against the excess model fitted before it, ln units, per histogram
     *                      bin within the histogram's last edge
     * @param counts        round trips per entry of {@code residuals}, each {@code >= 0}
     * @param overflowCount round trips past the histogram's last edge, {@code >= 0}: scored in the top score bin (their
     *                      residual is not known, only that it lies above the last edge's), left out of the block's mean
     *                      and deviation
     * @param blockWeight   what the block weighs, {@code min(n, cap)}
     * @param resolution    the histogram's resolution where the block's round trips lie, ln units, {@code >= 0}: the
     *                      smallest mean absolute deviation taken (round trips in one bin differ by up to its width)
     * @return the model after the block
     */
    ShapeSpreadModel observe(final TrafficShape shape, final PortBand band, final double[] residuals, final long[] counts, final long overflowCount,
                             final double blockWeight, final double resolution) {
        long inRange = 0;
        int occupiedBins = 0;
        double sum = 0;
        for (int i = 0; i < residuals.length; i++) {
            inRange += counts[i];
            occupiedBins += counts[i] > 0 ? 1 : 0;
            sum += counts[i] * residuals[i];
        }
        final long count = inRange + overflowCount;
        if (count == 0) {
            return this;
        }
        final double[] nextScores = new double[SCORE_BINS];
        for (int bin = 0; bin < SCORE_BINS; bin++) {
            nextScores[bin] = ShapeExcessModel.FORGETTING * scoreWeights[bin];
        }
        if (blocks >= MIN_FIT_BLOCKS) {
            final double scale = scale(shape, band);
            final double perRoundTrip = blockWeight / count;
            for (int i = 0; i < residuals.length; i++) {
                if (counts[i] > 0) {
                    nextScores[scoreBin(residuals[i] / scale)] += perRoundTrip * counts[i];
                }
            }
            nextScores[SCORE_BINS - 1] += perRoundTrip * overflowCount;
        }
        for (int bin = 0; bin < SCORE_BINS; bin++) {
            nextScores[bin] = Math.round(nextScores[bin] * ShapeExcessModel.RESIDUAL_WEIGHTS_PER_UNIT)
                / ShapeExcessModel.RESIDUAL_WEIGHTS_PER_UNIT;
        }
        if (inRange < 2) {
            // One round trip says nothing of its own part apart from the shared one, nor of the shared part apart from its own.
            return new ShapeSpreadModel(blocks + 1, sums, nextScores, sharedSum, sharedWeight);
        }
        final double mean = sum / inRange;
        double sumAbsolute = 0;
        double sumSquares = 0;
        for (int i = 0; i < residuals.length; i++) {
            final double deviation = residuals[i] - mean;
            sumAbsolute += counts[i] * Math.abs(deviation);
            sumSquares += counts[i] * deviation * deviation;
        }
        // The block's own variance estimates σ_own² whatever the scale fit so far: r̄² − s²/n is unbiased for τ².
        final double ownVariance = sumSquares / (inRange - 1);
        final double nextSharedSum = ShapeExcessModel.FORGETTING * sharedSum + (mean * mean - ownVariance / inRange);
        final double nextSharedWeight = ShapeExcessModel.FORGETTING * sharedWeight + 1;
        if (occupiedBins < 2) {
            // Round trips in one bin say only that their spread is below the bin's width: no point for the scale's fit.
            return new ShapeSpreadModel(blocks + 1, sums, nextScores, nextSharedSum, nextSharedWeight);
        }
        final double meanAbsolute = sumAbsolute / inRange * Math.sqrt(inRange / (inRange - 1.0));
        final double z = Math.log(Math.max(Math.max(MIN_MEAN_ABSOLUTE_DEVIATION, resolution), meanAbsolute))
            + (inRange == 2 ? SINGLE_DEVIATION_BIAS : JENSEN_BIAS / (inRange - 1));
        final BandedSums next = sums.withBlock(ShapeFeatures.ofShape(shape), band, z, blockWeight, ShapeExcessModel.FORGETTING);
        return new ShapeSpreadModel(blocks + 1, next, nextScores, nextSharedSum, nextSharedWeight);
    }

    private static int scoreBin(final double score) {
        final int bin = (int) Math.floor((score + SCORE_RANGE) / SCORE_BIN_WIDTH);
        return Math.max(0, Math.min(SCORE_BINS - 1, bin));
    }

    private double totalScoreWeight() {
        double total = 0;
        for (final double weight : scoreWeights) {
            total += weight;
        }
        return total;
    }

    @Override
    public boolean equals(final Object other) {
        return other instanceof ShapeSpreadModel that && blocks == that.blocks && sums.equals(that.sums)
            && Arrays.equals(scoreWeights, that.scoreWeights)
            && Double.compare(sharedSum, that.sharedSum) == 0 && Double.compare(sharedWeight, that.sharedWeight) == 0;
    }

    @Override
    public int hashCode() {
        return 31 * (31 * Long.hashCode(blocks) + sums.hashCode())
            + Arrays.hashCode(scoreWeights) + 7 * Double.hashCode(sharedSum) + 11 * Double.hashCode(sharedWeight);
    }

    @Override
    public String toString() {
        return "ShapeSpreadModel[blocks=" + blocks + ", coefficients=" + Arrays.toString(coefficients) + ", sharedVariance="
            + sharedVariance() + "]";
    }
}
