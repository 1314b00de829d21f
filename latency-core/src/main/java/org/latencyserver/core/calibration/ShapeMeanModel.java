package org.latencyserver.core.calibration;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.latencyserver.core.estimate.Estimate;
import org.latencyserver.core.estimate.EstimateKind;
import org.latencyserver.core.histogram.LatencyHistogram;
import org.latencyserver.core.stats.ConfidenceInterval;
import org.latencyserver.core.traffic.TrafficShape;

/**
 * How a traffic shape's mean round trip relates to its load state's thesis mean, learned connection-wide from every
 * probe window of every shape: the mean counterpart of {@link ShapeExcessModel}, for QoS 1/3 answers for an
 * application's own traffic.
 *
 * <p>The model, per probe window of shape {@code s} sent while a mean of its own state was served, whose thesis (the
 * state's measurement's mean) was {@code T}:
 * <pre>
 *   ln(window mean / T) + v / (2 n) = g(s) + ε,      g(s) = γ0 + γ1 ln(spacing / 1 ms) + γ2 ln(burst length) + γ3 [arrays]
 * </pre>
 * with the shape's own features ({@link ShapeFeatures#ofShape}; unlike the bound's models, not the port band). So a
 * shape's mean is taken as one factor of its state's thesis mean in every state: a known limitation where the shape
 * loads a loaded port itself (a fast burst there queues behind itself, its mean growing with its length far more than on
 * an idle port), where the factor, learned mostly on an idle port, under-states it. {@code v / (2 n)} corrects, to second
 * order, the log of a mean of {@code n} round trips lying below the log of their true mean ({@code E ln m̄ ≈ ln μ − CV² / (2n)}; without it
 * short windows, and so short bursts, would get too low a mean): {@code v} is the window's own squared coefficient of
 * variation {@code s² / m̄²} when it has 2 round trips or more and its round trips are known, else the connection-wide
 * one learned from such windows ({@link #relativeVariance()}), 0 before any; a window of unknown traffic counts as
 * {@link ShapeExcessModel#UNKNOWN_TRAFFIC}. {@code γ} is fitted by weighted ridge least squares (weight {@code min(n,
 * }{@value #MAX_BLOCK_WEIGHT}{@code )} for a window of n round trips; ridge {@value #RIDGE} on the slopes, none on γ0)
 * from running sums of {@code X'WX} and {@code X'Wy} that forget by {@value #FORGETTING} a window. A shape's mean is
 * then {@code T · exp(g(s))}, clamped to within {@value #MAX_FACTOR} times {@code T} either way. The intercept also
 * carries the connection-wide bias of the thesis means themselves (a measurement's mean against the probe windows
 * that follow it), so the model stands in for the state's own self-correction once {@link #fitted()}.
 *
 * <p>Fitted (used) from {@value #MIN_BLOCKS} windows connection-wide. Immutable and thread-safe; one update allocates
 * the new snapshot's arrays and a small solve.
 */
public final class ShapeMeanModel {

    /** Number of coefficients: intercept, ln spacing, ln burst length, arrays. */
    public static final int PARAMETERS = 4;
    /** Entries of the upper triangle of {@code X'WX}, row by row. */
    public static final int GRAM_ENTRIES = PARAMETERS * (PARAMETERS + 1) / 2;
    /** Windows connection-wide before the model may stand for a shape. */
    public static final long MIN_BLOCKS = 15;
    /** Most round trips a window weighs as: a long train is one look at the path, not n independent ones. */
    public static final int MAX_BLOCK_WEIGHT = 20;
    /** Ridge penalty on the slopes, in window-weight units. */
    public static final double RIDGE = 1.0;
    /** What every earlier window's weight is multiplied by when a window is learned. */
    public static final double FORGETTING = 0.995;
    /**
     * Largest factor, either way, a shape's mean may lie from its state's thesis mean: the regression extrapolates in
     * ln spacing and ln burst length over the whole range a {@link TrafficShape} accepts.
     */
    public static final double MAX_FACTOR = 10.0;

    /** Largest squared coefficient of variation a window is corrected by: beyond, the second-order term says little. */
    public static final double MAX_RELATIVE_VARIANCE = 4.0;

    /** Nothing learned. */
    public static final ShapeMeanModel EMPTY = new ShapeMeanModel(0, new double[GRAM_ENTRIES], new double[PARAMETERS]);

    private final long blocks;
    private final double[] gram;
    private final double[] moments;
    private final double[] coefficients;
    private final double varianceSum;
    private final double squareSum;

    /**
     * A model with no connection-wide spread learned (windows of one round trip are then not corrected).
     *
     * @param blocks  windows learned from, {@code >= 0}
     * @param gram    the upper triangle of {@code X'WX}, row by row, {@value #GRAM_ENTRIES} entries
     * @param moments {@code X'Wy}, {@value #PARAMETERS} entries
     * @throws IllegalArgumentException on a wrong length, a negative count, or a value not finite
     */
    public ShapeMeanModel(final long blocks, final double[] gram, final double[] moments) {
        this(blocks, gram, moments, 0.0, 0.0);
    }

    /**
     * @param blocks      windows learned from, {@code >= 0}
     * @param gram        the upper triangle of {@code X'WX}, row by row, {@value #GRAM_ENTRIES} entries
     * @param moments     {@code X'Wy}, {@value #PARAMETERS} entries
     * @param varianceSum windows of 2 round trips or more: forgotten weighted sum of {@code s² / T²}, {@code >= 0}
     * @param squareSum   the same windows' forgotten weighted sum of {@code (m̄² − s² / n) / T²} (may be negative)
     * @throws IllegalArgumentException on a wrong length, a negative count or variance sum, or a value not finite
     */
    public ShapeMeanModel(final long blocks, final double[] gram, final double[] moments, final double varianceSum,
                          final double squareSum) {
        if (blocks < 0 || gram == null || gram.length != GRAM_ENTRIES || moments == null || moments.length != PARAMETERS) {
            throw new IllegalArgumentException("a shape mean model needs blocks >= 0, " + GRAM_ENTRIES + " gram entries and "
                + PARAMETERS + " moments");
        }
        for (final double[] values : new double[][] {gram, moments}) {
            for (final double value : values) {
                if (!Double.isFinite(value)) {
                    throw new IllegalArgumentException("a shape mean model's sums must be finite, had " + value);
                }
            }
        }
        if (!(varianceSum >= 0) || Double.isInfinite(varianceSum) || !Double.isFinite(squareSum)) {
            throw new IllegalArgumentException("a shape mean model's variance sum must be finite and >= 0 and its square sum"
                + " finite, had " + varianceSum + " and " + squareSum);
        }
        this.blocks = blocks;
        this.gram = gram.clone();
        this.moments = moments.clone();
        this.coefficients = RidgeSolve.solve(this.gram, this.moments, RIDGE);
        this.varianceSum = varianceSum;
        this.squareSum = squareSum;
    }

    /** @return windows of 2 round trips or more: their forgotten weighted sum of {@code s² / T²} */
    public double varianceSum() {
        return varianceSum;
    }

    /** @return the same windows' forgotten weighted sum of {@code (m̄² − s² / n) / T²} */
    public double squareSum() {
        return squareSum;
    }

    /**
     * @return the round trips' squared coefficient of variation learned connection-wide, {@code Σ s² / Σ (m̄² − s²/n)}
     *         over windows of 2 round trips or more (each over its thesis squared): what corrects a window of one round
     *         trip; 0 before any such window, and capped at {@value #MAX_RELATIVE_VARIANCE}
     */
    public double relativeVariance() {
        return squareSum > 0 ? Math.min(MAX_RELATIVE_VARIANCE, varianceSum / squareSum) : 0.0;
    }

    /** @return windows learned from */
    public long blocks() {
        return blocks;
    }

    /** @return whether it learned from {@value #MIN_BLOCKS} windows or more, and so may stand for a shape */
    public boolean fitted() {
        return blocks >= MIN_BLOCKS;
    }

    /** @return a copy of the upper triangle of {@code X'WX} */
    public double[] gram() {
        return gram.clone();
    }

    /** @return a copy of {@code X'Wy} */
    public double[] moments() {
        return moments.clone();
    }

    /** @return a copy of the fitted coefficients γ0..γ3 */
    public double[] coefficients() {
        return coefficients.clone();
    }

    /**
     * @param shape a traffic shape
     * @return what its state's thesis mean is multiplied by for the shape: {@code exp(g(s))}, clamped
     */
    public double meanFactor(final TrafficShape shape) {
        final double[] x = ShapeFeatures.ofShape(shape);
        double logRatio = 0;
        for (int i = 0; i < PARAMETERS; i++) {
            logRatio += coefficients[i] * x[i];
        }
        return Math.max(1.0 / MAX_FACTOR, Math.min(MAX_FACTOR, Math.exp(logRatio)));
    }

    /**
     * @param shape        the window's traffic shape ({@link ShapeExcessModel#UNKNOWN_TRAFFIC} when unknown)
     * @param count        its round trips; {@code < 1} changes nothing
     * @param meanMillis   their mean, ms; not finite and {@code > 0} changes nothing
     * @param thesisMillis the thesis mean served in the window's state, ms; not finite and {@code > 0} changes nothing
     * @return the model after the window
     */
    public ShapeMeanModel observe(final TrafficShape shape, final long count, final double meanMillis, final double thesisMillis) {
        return observe(shape, count, meanMillis, Double.NaN, thesisMillis);
    }

    /**
     * @param shape        the window's traffic shape ({@link ShapeExcessModel#UNKNOWN_TRAFFIC} when unknown)
     * @param roundTrips   its round trips, ns (their bins' midpoints, the overflow at the last edge, give their variance)
     * @param count        its round trips; {@code < 1} changes nothing
     * @param meanMillis   their exact mean, ms; not finite and {@code > 0} changes nothing
     * @param thesisMillis the thesis mean served in the window's state, ms; not finite and {@code > 0} changes nothing
     * @return the model after the window
     */
    public ShapeMeanModel observe(final TrafficShape shape, final LatencyHistogram roundTrips, final long count,
                                  final double meanMillis, final double thesisMillis) {
        return observe(shape, count, meanMillis, varianceMillis2(roundTrips, meanMillis), thesisMillis);
    }

    /**
     * @param shape             the window's traffic shape ({@link ShapeExcessModel#UNKNOWN_TRAFFIC} when unknown)
     * @param count             its round trips; {@code < 1} changes nothing
     * @param meanMillis        their mean, ms; not finite and {@code > 0} changes nothing
     * @param varianceMillis2   their sample variance, ms²; NaN when not known (then the connection-wide one corrects it)
     * @param thesisMillis      the thesis mean served in the window's state, ms; not finite and {@code > 0} changes nothing
     * @return the model after the window
     */
    public ShapeMeanModel observe(final TrafficShape shape, final long count, final double meanMillis,
                                  final double varianceMillis2, final double thesisMillis) {
        if (shape == null) {
            throw new IllegalArgumentException("a shape mean model's window needs its traffic shape");
        }
        if (count < 1 || !(meanMillis > 0) || !(thesisMillis > 0) || Double.isInfinite(meanMillis)
            || Double.isInfinite(thesisMillis)) {
            return this;
        }
        final double weight = Math.min(count, MAX_BLOCK_WEIGHT);
        final boolean ownVariance = count >= 2 && varianceMillis2 >= 0 && !Double.isInfinite(varianceMillis2);
        final double relative = Math.min(MAX_RELATIVE_VARIANCE,
            ownVariance ? varianceMillis2 / (meanMillis * meanMillis) : relativeVariance());
        final double y = Math.log(meanMillis / thesisMillis) + relative / (2.0 * count);
        final double thesis2 = thesisMillis * thesisMillis;
        final double nextVarianceSum = !ownVariance ? varianceSum : FORGETTING * varianceSum + weight * varianceMillis2 / thesis2;
        final double nextSquareSum = !ownVariance ? squareSum
            : FORGETTING * squareSum + weight * (meanMillis * meanMillis - varianceMillis2 / count) / thesis2;
        final double[][] next = RidgeSolve.withBlock(gram, moments, ShapeFeatures.ofShape(shape), y, weight, FORGETTING);
        return new ShapeMeanModel(blocks + 1, next[0], next[1], nextVarianceSum, nextSquareSum);
    }

    /**
     * @return the round trips' sample variance about {@code meanMillis}, ms², from their bins' midpoints (the overflow at
     *         the last edge); NaN for fewer than 2
     */
    private static double varianceMillis2(final LatencyHistogram roundTrips, final double meanMillis) {
        final long total = roundTrips.totalCount();
        if (total < 2) {
            return Double.NaN;
        }
        double sumSquares = 0;
        for (int bin = 0; bin < roundTrips.binCount(); bin++) {
            final long inBin = roundTrips.count(bin);
            if (inBin > 0) {
                final double deviation = 0.5 * (roundTrips.lowerEdgeNanos(bin) + roundTrips.upperEdgeNanos(bin)) / 1e6 - meanMillis;
                sumSquares += inBin * deviation * deviation;
            }
        }
        final double overflowDeviation = roundTrips.lastEdgeNanos() / 1e6 - meanMillis;
        sumSquares += roundTrips.overflowCount() * overflowDeviation * overflowDeviation;
        return sumSquares / (total - 1);
    }

    /**
     * The mean served for a shape: the thesis mean times the shape's factor; the served estimate's intervals (a
     * confidence interval, or the prediction interval for the next burst) are moved with it, keeping their width
     * relative to the mean.
     *
     * @param served       the state's served mean (corrected, with its interval), kind {@link EstimateKind#AVERAGE}
     * @param thesisMillis the thesis mean behind it, ms, {@code > 0}
     * @param shape        the application's traffic
     * @return the mean for the shape and how it was made
     * @throws IllegalArgumentException when {@code served} is not a mean or the thesis not {@code > 0}
     */
    public EstimateCorrection.Corrected shaped(final Estimate served, final double thesisMillis, final TrafficShape shape) {
        if (served.kind() != EstimateKind.AVERAGE || !(thesisMillis > 0) || Double.isInfinite(thesisMillis)) {
            throw new IllegalArgumentException("a shape's mean is made from a served mean and its thesis mean > 0 ms");
        }
        final double factor = meanFactor(shape);
        final double valueMillis = thesisMillis * factor;
        final double move = valueMillis / served.valueMillis();
        final List<ConfidenceInterval> alternatives = new ArrayList<>();
        for (final ConfidenceInterval alternative : served.alternatives()) {
            alternatives.add(moved(alternative, move));
        }
        final Estimate estimate = new Estimate(served.qos(), EstimateKind.AVERAGE, valueMillis, 0.0, moved(served.interval(), move),
            alternatives, served.basis(), served.notes(), served.interpolated());
        return new EstimateCorrection.Corrected(estimate, String.format(Locale.ROOT,
            "shape mean: thesis mean × %.3f, the shape's mean over its state's thesis mean learned from %d probe windows of"
                + " every shape; interval moved with it", factor, blocks));
    }

    private static ConfidenceInterval moved(final ConfidenceInterval interval, final double factor) {
        return new ConfidenceInterval(interval.lower() * factor, interval.upper() * factor, interval.confidenceLevel(),
            interval.method());
    }

    @Override
    public boolean equals(final Object other) {
        return other instanceof ShapeMeanModel that && blocks == that.blocks && Arrays.equals(gram, that.gram)
            && Arrays.equals(moments, that.moments) && Double.compare(varianceSum, that.varianceSum) == 0
            && Double.compare(squareSum, that.squareSum) == 0;
    }

    @Override
    public int hashCode() {
        return 31 * (31 * Long.hashCode(blocks) + Arrays.hashCode(gram)) + Arrays.hashCode(moments) + 7 * Double.hashCode(varianceSum)
            + 11 * Double.hashCode(squareSum);
    }

    @Override
    public String toString() {
        return "ShapeMeanModel[blocks=" + blocks + ", coefficients=" + Arrays.toString(coefficients) + ", relativeVariance="
            + relativeVariance() + "]";
    }
}
