package org.latencyserver.core.calibration;

import java.util.Arrays;
import org.latencyserver.core.histogram.LatencyHistogram;
import org.latencyserver.core.traffic.CallKind;
import org.latencyserver.core.traffic.TrafficShape;

/**
 * How much a traffic shape's round trips exceed its load state's served bound, learned connection-wide from every probe
 * train of every shape: a small regression that lends each shape class the strength of all the others, where a level
 * per class ({@link BorrowedLevel}) needs {@value BorrowedLevel#MIN_CLASS_BLOCKS} blocks of that one class.
 *
 * <p>The model, per round trip of a block of shape {@code s} sent in port band {@code L} ({@link PortBand}: 1 when the
 * path had a hop LOADED or SATURATED) while its state's bound {@code B} (the reference histogram read at the
 * state's level, {@link BorrowedLevel#stateMissFraction}) was served:
 * <pre>
 *   ln(rtt / B) = f(s, L) + ε,
 *   f(s, L) = β0 + β1 ln(spacing / 1 ms) + β2 ln(burst length) + β3 [arrays]
 *             + L (β4 + β5 ln(spacing / 1 ms) + β6 ln(burst length))
 * </pre>
 * ({@link ShapeFeatures}). The features are the shape's own spacing and burst length (not its class's ranges: a shape
 * at a range's edge is predicted as such); a block of unknown traffic counts as {@link #UNKNOWN_TRAFFIC}. The band's
 * terms let a shape that offers much (close spacing, long bursts) exceed the state's bound far more on a loaded port,
 * where it queues behind itself, than on an idle one; a block carries the band it was sent in, a bound is read for the
 * current state's. {@code β} is fitted by
 * weighted ridge least squares on each block's mean of {@code ln(rtt / B)} (weight {@code min(n, }{@value
 * #MAX_BLOCK_WEIGHT}{@code )}: a long train is one look at the path, not n independent ones; ridge {@value #RIDGE} on the
 * slopes, none on β0), from running sums of {@code X'WX} and {@code X'Wy} kept per band ({@link BandedSums}): a block
 * forgets by {@value #FORGETTING} the sums of its own band alone, so what a loaded port taught stands through an idle
 * spell until the port is loaded again.
 *
 * <p>The margin is split conformal, online: each round trip's residual {@code ln(rtt / B) − f(s)} is scored against the
 * fit of the blocks <em>before</em> its own and kept (each block weighing {@code min(n, cap)}, spread over its round
 * trips; forgotten at the same rate) in bins of {@value #RESIDUAL_BIN_WIDTH} in ln units over ±{@value
 * #RESIDUAL_RANGE}; residuals are kept from the block after the {@value #MIN_FIT_BLOCKS}th on. The margin for a nominal share
 * {@code 1 − α} is those residuals' weighted quantile at {@code 1 − α} (interpolated within its bin). A shape's bound is
 * then {@code B · exp(f(s) + margin)}: it covers the nominal share of each shape's round trips when the shapes differ by
 * a shift of {@code ln rtt} (a shape whose spread differs from the others' is covered only on average).
 *
 * <p>The spread: the same residuals also teach a {@link ShapeSpreadModel} each shape's scale {@code σ(s)}; once that is
 * {@linkplain ShapeSpreadModel#fitted() fitted} a shape's bound is {@code B · exp(f(s) + q σ(s))}, {@code q} the
 * quantile of the normalised scores {@code r / σ(s)} (locally weighted split conformal), so a shape that spreads wider
 * than the probes gets a wider margin. Until then (and for a model read from an older record, which has none) the
 * single margin stands. Either factor is clamped to [1/{@value #MAX_FACTOR}, {@value #MAX_FACTOR}].
 *
 * <p>Fitted (used) from {@value #MIN_BLOCKS} blocks connection-wide. Immutable and thread-safe; one update allocates
 * the new snapshot's arrays and a small solve.
 */
public final class ShapeExcessModel {

    /**
     * Largest factor, either way, a shape's bound may lie from its state's: the regression extrapolates in ln spacing
     * and ln burst length over the whole range a {@link TrafficShape} accepts, far beyond the shapes it learned from.
     */
    public static final double MAX_FACTOR = 100.0;
    /** Number of coefficients: intercept, ln spacing, ln burst length, arrays and the port band's three. */
    public static final int PARAMETERS = ShapeFeatures.PARAMETERS;
    /** Blocks connection-wide before the model may stand for a shape. */
    public static final long MIN_BLOCKS = 15;
    /** Blocks fitted before residuals are kept (before, a residual says more about the fit than about the path). */
    public static final long MIN_FIT_BLOCKS = 5;
    /** Most round trips a block weighs as. */
    public static final int MAX_BLOCK_WEIGHT = 20;
    /** Ridge penalty on the slopes, in block-weight units. */
    public static final double RIDGE = 1.0;
    /** What every earlier block's weight is multiplied by when a block is learned. */
    public static final double FORGETTING = 0.995;
    /** Width of a residual bin, ln units. */
    public static final double RESIDUAL_BIN_WIDTH = 0.05;
    /** Residuals are kept in [−range, +range], ln units; those beyond count in the outermost bins. */
    public static final double RESIDUAL_RANGE = 3.0;
    /** Number of residual bins. */
    public static final int RESIDUAL_BINS = (int) Math.round(2 * RESIDUAL_RANGE / RESIDUAL_BIN_WIDTH);
    /**
     * Residual weights are kept as multiples of {@code 1 /} this (a block weighs up to {@value #MAX_BLOCK_WEIGHT}): short
     * numbers in the state file (a bin of weight at most 0.01 is then no longer forgotten: rounding keeps it).
     */
    public static final double RESIDUAL_WEIGHTS_PER_UNIT = 10_000.0;
    /** Entries of the upper triangle of {@code X'WX}, row by row. */
    public static final int GRAM_ENTRIES = ShapeFeatures.GRAM_ENTRIES;

    /**
     * Share of the band's sums' weight its trains' distribution ({@link BandLogRatios}) must hold before the bound is moved
     * to it: the two are equal for a model that learned every train with both.
     */
    public static final double COMPARABLE_SHARE = 0.9;
    /** Nothing learned. */
    public static final ShapeExcessModel EMPTY = new ShapeExcessModel(0, new double[GRAM_ENTRIES], new double[PARAMETERS],
        new double[RESIDUAL_BINS], ShapeSpreadModel.EMPTY);

    /**
     * What a block of unknown traffic is taken for: the client agent's classic probes, trains of 20 round trips back to
     * back (taken as 0.25 ms apart) with the thesis's arrays ({@link StateKnowledge#CLASSIC_PROBES}'s class).
     */
    public static final TrafficShape UNKNOWN_TRAFFIC = new TrafficShape(250, 20, 0, CallKind.ARRAYS);

    private final long blocks;
    private final BandedSums sums;
    private final double[] residualWeights;
    private final double[] coefficients;
    private final ShapeSpreadModel spread;
    private final BandLogRatios logRatios;

    /**
     * A model with no spread learned (its single margin stands for every shape).
     *
     * @param blocks          blocks learned from, {@code >= 0}
     * @param gram            the upper triangle of {@code X'WX}, row by row, {@value #GRAM_ENTRIES} entries
     * @param moments         {@code X'Wy}, {@value #PARAMETERS} entries
     * @param residualWeights the residuals' weights per bin, {@value #RESIDUAL_BINS} entries, each {@code >= 0}
     * @throws IllegalArgumentException on a wrong length, a negative count or weight, or a value not finite
     */
    public ShapeExcessModel(final long blocks, final double[] gram, final double[] moments, final double[] residualWeights) {
        this(blocks, gram, moments, residualWeights, ShapeSpreadModel.EMPTY);
    }

    /**
     * A model from full {@value #PARAMETERS}-feature sums ({@link BandedSums#ofFull}: the loaded blocks' arrays moment
     * apportioned).
     *
     * @param blocks          blocks learned from, {@code >= 0}
     * @param gram            the upper triangle of {@code X'WX}, row by row, {@value #GRAM_ENTRIES} entries
     * @param moments         {@code X'Wy}, {@value #PARAMETERS} entries
     * @param residualWeights the residuals' weights per bin, {@value #RESIDUAL_BINS} entries, each {@code >= 0}
     * @param spread          each shape's spread learned from the same residuals, not null ({@link ShapeSpreadModel#EMPTY}
     *                        for none)
     * @throws IllegalArgumentException on a wrong length, a negative count or weight, or a value not finite
     */
    public ShapeExcessModel(final long blocks, final double[] gram, final double[] moments, final double[] residualWeights,
                            final ShapeSpreadModel spread) {
        this(blocks, BandedSums.ofFull(gram, moments), residualWeights, spread);
    }

    /**
     * A model from its sums in two parts ({@link BandedSums}): every block's, over the shape's
     * {@value ShapeFeatures#SHAPE_PARAMETERS} features (the band-blind model's), and the loaded port's blocks' alone.
     *
     * @param blocks          blocks learned from, {@code >= 0}
     * @param shapeGram       the upper triangle of every block's {@code X'WX} over the shape's features, row by row,
     *                        {@value ShapeFeatures#SHAPE_GRAM_ENTRIES} entries
     * @param shapeMoments    every block's {@code X'Wy}, {@value ShapeFeatures#SHAPE_PARAMETERS} entries
     * @param loadedGram      the same as {@code shapeGram} over the blocks sent on a loaded port alone
     * @param loadedMoments   the same as {@code shapeMoments} over the blocks sent on a loaded port alone
     * @param residualWeights the residuals' weights per bin, {@value #RESIDUAL_BINS} entries, each {@code >= 0}
     * @param spread          each shape's spread, not null ({@link ShapeSpreadModel#EMPTY} for none)
     * @throws IllegalArgumentException on a wrong length, a negative count or weight, or a value not finite
     */
    public ShapeExcessModel(final long blocks, final double[] shapeGram, final double[] shapeMoments, final double[] loadedGram,
                            final double[] loadedMoments, final double[] residualWeights, final ShapeSpreadModel spread) {
        this(blocks, new BandedSums(shapeGram, shapeMoments, loadedGram, loadedMoments), residualWeights, spread,
            BandLogRatios.EMPTY);
    }

    private ShapeExcessModel(final long blocks, final BandedSums sums, final double[] residualWeights,
                             final ShapeSpreadModel spread) {
        this(blocks, sums, residualWeights, spread, BandLogRatios.EMPTY);
    }

    private ShapeExcessModel(final long blocks, final BandedSums sums, final double[] residualWeights,
                             final ShapeSpreadModel spread, final BandLogRatios logRatios) {
        if (spread == null || logRatios == null) {
            throw new IllegalArgumentException("a shape model needs its spread model (ShapeSpreadModel.EMPTY for none)");
        }
        if (blocks < 0 || residualWeights == null || residualWeights.length != RESIDUAL_BINS) {
            throw new IllegalArgumentException("a shape model needs blocks >= 0 and " + RESIDUAL_BINS + " residual bins");
        }
        for (final double weight : residualWeights) {
            if (!(weight >= 0) || Double.isInfinite(weight)) {
                throw new IllegalArgumentException("a residual weight must be finite and >= 0, was " + weight);
            }
        }
        this.blocks = blocks;
        this.sums = sums;
        this.residualWeights = residualWeights.clone();
        this.coefficients = RidgeSolve.solve(sums.fullGram(), sums.fullMoments(), RIDGE);
        this.spread = spread;
        this.logRatios = logRatios;
    }

    /**
     * @param ratios where the trains' round trips lay against their state's bound, per band (as read from a record)
     * @return this model with them
     * @throws IllegalArgumentException when null
     */
    public ShapeExcessModel withLogRatios(final BandLogRatios ratios) {
        if (ratios == null) {
            throw new IllegalArgumentException("a shape model's log ratios must not be null (BandLogRatios.EMPTY for none)");
        }
        return new ShapeExcessModel(blocks, sums, residualWeights, spread, ratios);
    }

    /** @return where the trains' round trips lay against their state's bound, per band */
    public BandLogRatios logRatios() {
        return logRatios;
    }

    /** @return each shape's spread, learned from the same residuals */
    public ShapeSpreadModel spread() {
        return spread;
    }

    /** @return blocks learned from */
    public long blocks() {
        return blocks;
    }

    /** @return whether it learned from {@value #MIN_BLOCKS} blocks or more, and so may stand for a shape */
    public boolean fitted() {
        return blocks >= MIN_BLOCKS && totalResidualWeight() > 0;
    }

    /** @return the upper triangle of the full {@value #PARAMETERS}-feature {@code X'WX}, row by row */
    public double[] gram() {
        return sums.fullGram();
    }

    /** @return the full {@value #PARAMETERS}-feature {@code X'Wy} */
    public double[] moments() {
        return sums.fullMoments();
    }

    /** @return a copy of every block's {@code X'WX} over the shape's features: the band-blind model's */
    public double[] shapeGram() {
        return sums.shapeGram();
    }

    /** @return a copy of every block's {@code X'Wy} over the shape's features */
    public double[] shapeMoments() {
        return sums.shapeMoments();
    }

    /** @return a copy of the loaded port's blocks' {@code X'WX} over the shape's features */
    public double[] loadedGram() {
        return sums.loadedGram();
    }

    /** @return a copy of the loaded port's blocks' {@code X'Wy} over the shape's features */
    public double[] loadedMoments() {
        return sums.loadedMoments();
    }

    /** @return a copy of the residuals' weights per bin */
    public double[] residualWeights() {
        return residualWeights.clone();
    }

    /** @return a copy of the fitted coefficients β0..β6 */
    public double[] coefficients() {
        return coefficients.clone();
    }

    /**
     * @param shape a traffic shape
     * @return {@code f(s, IDLE)}: the predicted mean of {@code ln(rtt / B)} for the shape on a port not loaded
     */
    public double predictedLogExcess(final TrafficShape shape) {
        return predictedLogExcess(shape, PortBand.IDLE);
    }

    /**
     * @param shape a traffic shape
     * @param band  the port band
     * @return {@code f(s, L)}: the predicted mean of {@code ln(rtt / B)} for the shape in the band
     */
    public double predictedLogExcess(final TrafficShape shape, final PortBand band) {
        return predictedAt(ShapeFeatures.of(shape, band));
    }


    /**
     * @param targetMissFraction α, in (0, 1)
     * @return the residuals' weighted quantile at {@code 1 − α}, ln units (0 when none kept)
     */
    public double margin(final double targetMissFraction) {
        return RidgeSolve.binnedQuantile(residualWeights, 1.0 - targetMissFraction, RESIDUAL_RANGE, RESIDUAL_BIN_WIDTH);
    }

    /** As {@link #boundFactor(TrafficShape, PortBand, double)} on a port not loaded. */
    public double boundFactor(final TrafficShape shape, final double targetMissFraction) {
        return boundFactor(shape, PortBand.IDLE, targetMissFraction);
    }

    /**
     * @param shape              a traffic shape
     * @param band               the port band the bound is for (the current state's)
     * @param targetMissFraction α, in (0, 1)
     * @return what the state's bound is multiplied by for the shape: {@code exp(f(s, L) + q σ(s, L))} once the spread
     *         is fitted, else {@link #shiftBoundFactor}; clamped to [1/{@value #MAX_FACTOR}, {@value #MAX_FACTOR}]
     */
    public double boundFactor(final TrafficShape shape, final PortBand band, final double targetMissFraction) {
        return clamp(Math.exp(predictedLogExcess(shape, band) + shapeMargin(shape, band, targetMissFraction)));
    }

    /**
     * @param shape              a traffic shape
     * @param band               the port band
     * @param targetMissFraction α, in (0, 1)
     * @return the margin the shape's bound lies above its predicted excess, ln units: {@code q σ(s, L)} once the spread
     *         is fitted, else the single {@link #margin}
     */
    public double shapeMargin(final TrafficShape shape, final PortBand band, final double targetMissFraction) {
        return spread.fitted() ? spread.margin(shape, band, targetMissFraction) : margin(targetMissFraction);
    }

    /** As {@link #shiftBoundFactor(TrafficShape, PortBand, double)} on a port not loaded. */
    public double shiftBoundFactor(final TrafficShape shape, final double targetMissFraction) {
        return shiftBoundFactor(shape, PortBand.IDLE, targetMissFraction);
    }

    /**
     * @param shape              a traffic shape
     * @param band               the port band
     * @param targetMissFraction α, in (0, 1)
     * @return the factor with the single margin for every shape, {@code exp(f(s, L) + margin)}, clamped (what the model
     *         serves while its spread is not fitted)
     */
    public double shiftBoundFactor(final TrafficShape shape, final PortBand band, final double targetMissFraction) {
        return clamp(Math.exp(predictedLogExcess(shape, band) + margin(targetMissFraction)));
    }

    /**
     * @param band               the port band
     * @param targetMissFraction α, in (0, 0.5)
     * @return the model's estimate of the nominal quantile of {@code ln(rtt / B)} over its band's mix of trains
     *         ({@link ShapeMixBound#logBound}); 0 before any block
     */
    public double mixLogBound(final PortBand band, final double targetMissFraction) {
        return ShapeMixBound.logBound(this, sums.bandShapeGram(band), logRatios.shapes(band), band, targetMissFraction);
    }

    /**
     * @param x {@value #PARAMETERS} features
     * @return the model's predicted {@code ln(rtt / B)} at {@code x}
     */
    double predictedAt(final double[] x) {
        double sum = 0;
        for (int i = 0; i < PARAMETERS; i++) {
            sum += coefficients[i] * x[i];
        }
        return sum;
    }

    /**
     * What the state's bound is multiplied by for a shape, relative to the mix of trains the model learned from.
     *
     * <p>The model's own bound over the state's, {@code exp(f(s, L) + q σ(s, L))}, holds only when every train's
     * {@code ln(rtt / B)} is the shape's excess plus a residual that is the same for every train. Whatever trains share
     * unequally — a state's bound lying off for its state (a young state read at the histogram's top, a profile cell
     * above or below the path), a train sent as the load changed — widens the residuals, so the scale, so every shape's
     * margin. So the model's bound is compared with what the band's trains themselves show: the band's mix of trains
     * {@code m} needed the factor {@code exp(Q_L)} over the state's bound ({@link BandLogRatios#quantile}, at the nominal
     * share), where the model's own estimate of that is {@code exp(M_L)} ({@link #mixLogBound}). A shape's factor is the
     * model's bound moved by the difference:
     * <pre>
     *   factor = exp( f(s, L) + q_{1−α_L} σ(s, L) − M_L + Q_L )
     * </pre>
     * ({@code α} the nominal miss fraction, at which {@code M_L} and {@code Q_L} are read; {@code α_L} the level the
     * shape's quantile is read at: the model's adaptive level, correcting what the band's trains show the result misses).
     * What widened every margin cancels, a band's bound lying off for all its states stays (in {@code Q_L}), and what
     * sets a shape apart from the mix stays. Where the trains do not show it ({@link #moveToTrains} NaN: too few, beyond
     * the distribution's bins, a record written before it) the model's own bound stands. Clamped to
     * [1/{@value #MAX_FACTOR}, {@value #MAX_FACTOR}].
     *
     * @param shape               a traffic shape
     * @param band                the port band the bound is for
     * @param targetMissFraction  α_L, the miss fraction the shape's quantile is read at, in (0, 1)
     * @param nominalMissFraction α, the connection's nominal miss fraction, in (0, 0.5)
     * @return the shape's factor over the state's bound
     */
    public double servedBoundFactor(final TrafficShape shape, final PortBand band, final double targetMissFraction,
                                      final double nominalMissFraction) {
        return servedBoundFactor(shape, band, targetMissFraction, nominalMissFraction,
            moveToTrains(band, nominalMissFraction));
    }

    /**
     * As {@link #servedBoundFactor(TrafficShape, PortBand, double, double)} with the band's move already computed.
     *
     * @param move {@link #moveToTrains} for the band at the nominal miss fraction (NaN: not moved)
     */
    double servedBoundFactor(final TrafficShape shape, final PortBand band, final double targetMissFraction,
                               final double nominalMissFraction, final double move) {
        return clamp(Math.exp(predictedLogExcess(shape, band) + shapeMargin(shape, band, targetMissFraction)
            + (Double.isNaN(move) ? 0.0 : move)));
    }

    /**
     * @param band                the port band
     * @param nominalMissFraction α, in (0, 0.5)
     * @return {@code Q_L − M_L}, ln units: how far the band's trains' observed nominal quantile of {@code ln(rtt / B)}
     *         lies from the model's estimate of it; NaN while the model is not {@linkplain #fitted() fitted}, and when the
     *         trains do not show it — their distribution too light
     *         ({@link BandLogRatios#quantile}), or holding less than {@value #COMPARABLE_SHARE} of the weight the band's
     *         sums hold (a record written before the distribution was kept: its sums describe trains the distribution
     *         never saw, until forgetting has made the two agree)
     */
    public double moveToTrains(final PortBand band, final double nominalMissFraction) {
        final double[] bandGram = sums.bandShapeGram(band);
        final double observed = logRatios.quantile(band, nominalMissFraction);
        if (!fitted() || bandGram == null || Double.isNaN(observed)
            || logRatios.weight(band) < COMPARABLE_SHARE * bandGram[0]) {
            return Double.NaN;
        }
        return observed - mixLogBound(band, nominalMissFraction);
    }

    private static double clamp(final double factor) {
        return Math.max(1.0 / MAX_FACTOR, Math.min(MAX_FACTOR, factor));
    }

    /** As {@link #observe(TrafficShape, LatencyHistogram, double, PortBand)} for a block sent on a port not loaded. */
    public ShapeExcessModel observe(final TrafficShape shape, final LatencyHistogram roundTrips, final double stateBoundNanos) {
        return observe(shape, roundTrips, stateBoundNanos, PortBand.IDLE);
    }

    /**
     * @param shape           the block's traffic shape ({@link #UNKNOWN_TRAFFIC} when unknown)
     * @param roundTrips      the block's round trips, ns; empty changes nothing
     * @param stateBoundNanos the state's bound when the block was sent, ns, {@code > 0}
     * @param band            the port band the block was sent in
     * @return the model after the block
     */
    public ShapeExcessModel observe(final TrafficShape shape, final LatencyHistogram roundTrips, final double stateBoundNanos,
                                    final PortBand band) {
        if (shape == null || roundTrips == null || band == null || !(stateBoundNanos > 0) || Double.isInfinite(stateBoundNanos)) {
            throw new IllegalArgumentException("a shape model's block needs its class, its round trips, its port band and a"
                + " state bound > 0");
        }
        final long count = roundTrips.totalCount();
        if (count == 0) {
            return this;
        }
        final double weight = Math.min(count, MAX_BLOCK_WEIGHT);
        final double perRoundTrip = weight / count;
        final double predicted = predictedLogExcess(shape, band);
        final boolean scored = blocks >= MIN_FIT_BLOCKS;
        final double[] nextResiduals = new double[RESIDUAL_BINS];
        for (int bin = 0; bin < RESIDUAL_BINS; bin++) {
            nextResiduals[bin] = FORGETTING * residualWeights[bin];
        }
        double sumLog = 0;
        final double[] blockResiduals = new double[roundTrips.binCount()];
        final long[] blockCounts = new long[roundTrips.binCount()];
        for (int bin = 0; bin <= roundTrips.binCount(); bin++) {
            final boolean overflow = bin == roundTrips.binCount();
            final long inBin = overflow ? roundTrips.overflowCount() : roundTrips.count(bin);
            if (inBin == 0) {
                continue;
            }
            final double nanos = overflow ? roundTrips.lastEdgeNanos()
                : Math.max(1.0, 0.5 * (roundTrips.lowerEdgeNanos(bin) + roundTrips.upperEdgeNanos(bin)));
            final double logRatio = Math.log(nanos / stateBoundNanos);
            sumLog += inBin * logRatio;
            if (!overflow) {
                blockResiduals[bin] = logRatio - predicted;
                blockCounts[bin] = inBin;
            }
            if (scored) {
                nextResiduals[overflow ? RESIDUAL_BINS - 1 : residualBin(logRatio - predicted)] += perRoundTrip * inBin;
            }
        }
        for (int bin = 0; bin < RESIDUAL_BINS; bin++) {
            nextResiduals[bin] = Math.round(nextResiduals[bin] * RESIDUAL_WEIGHTS_PER_UNIT) / RESIDUAL_WEIGHTS_PER_UNIT;
        }
        final BandedSums next = sums.withBlock(ShapeFeatures.ofShape(shape), band, sumLog / count, weight, FORGETTING);
        final ShapeSpreadModel nextSpread = scored ? spread.observe(shape, band, blockResiduals, blockCounts, roundTrips.overflowCount(),
            weight, logResolution(roundTrips)) : spread;
        return new ShapeExcessModel(blocks + 1, next, nextResiduals, nextSpread,
            logRatios.observe(band, shape, roundTrips, stateBoundNanos, weight));
    }

    /**
     * @return the round trips' bins' mean width, ln units, over √12 (the deviation of a value spread evenly over a bin),
     *         weighted by round trips; bins from 0 ns (no finite log width) and overflow are left out; 0 when none is left
     */
    private static double logResolution(final LatencyHistogram roundTrips) {
        double sumWidth = 0;
        long counted = 0;
        for (int bin = 0; bin < roundTrips.binCount(); bin++) {
            final long inBin = roundTrips.count(bin);
            final long lower = roundTrips.lowerEdgeNanos(bin);
            if (inBin > 0 && lower > 0) {
                sumWidth += inBin * Math.log((double) roundTrips.upperEdgeNanos(bin) / lower);
                counted += inBin;
            }
        }
        return counted == 0 ? 0.0 : sumWidth / counted / Math.sqrt(12.0);
    }

    private static int residualBin(final double residual) {
        final int bin = (int) Math.floor((residual + RESIDUAL_RANGE) / RESIDUAL_BIN_WIDTH);
        return Math.max(0, Math.min(RESIDUAL_BINS - 1, bin));
    }

    private double totalResidualWeight() {
        double total = 0;
        for (final double weight : residualWeights) {
            total += weight;
        }
        return total;
    }

    @Override
    public boolean equals(final Object other) {
        return other instanceof ShapeExcessModel that && blocks == that.blocks && sums.equals(that.sums)
            && Arrays.equals(residualWeights, that.residualWeights)
            && spread.equals(that.spread) && logRatios.equals(that.logRatios);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * Long.hashCode(blocks) + sums.hashCode())
            + Arrays.hashCode(residualWeights) + 17 * spread.hashCode() + 13 * logRatios.hashCode();
    }

    @Override
    public String toString() {
        return "ShapeExcessModel[blocks=" + blocks + ", coefficients=" + Arrays.toString(coefficients) + ", spread=" + spread
            + "]";
    }
}
