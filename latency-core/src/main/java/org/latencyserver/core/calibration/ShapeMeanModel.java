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
 * <p>The model, per probe window of shape {@code s} sent in port band {@code L} ({@link PortBand}: 1 when the path had
 * a hop LOADED or SATURATED) while a mean of its own state was served, whose thesis (the state's measurement's mean) was
 * {@code T}:
 * <pre>
 *   ln(window mean / T) + v / (2 n) = g(s, L) + ε,
 *   g(s, L) = γ0 + γ1 ln(spacing / 1 ms) + γ2 ln(burst length) + γ3 [arrays]
 *             + L (γ4 + γ5 ln(spacing / 1 ms) + γ6 ln(burst length))
 * </pre>
 * with the same features as the bound's models ({@link ShapeFeatures}). The band's three terms are those a mean needs
 * as much as a bound: {@code γ4} lets the thesis mean's bias differ on a loaded port (the intercept carries that bias,
 * see below), {@code γ5, γ6} let a shape that offers much (close spacing, long bursts) grow its mean with its offered
 * load on a loaded port, where it queues behind itself, and not on an idle one. Arrays are not crossed with the band: a
 * call's marshalling cost adds the same on either port. A window carries the band it was sent in, a shape's mean is
 * read for the current state's; a window whose path has an unknown hop that may hide a loaded one is not to be learned
 * (its band is not known). {@code v / (2 n)} corrects, to second order, the log of a mean of {@code n} round trips lying
 * below the log of their true mean ({@code E ln m̄ ≈ ln μ − CV² / (2n)}; without it short windows, and so short bursts,
 * would get too low a mean): {@code v} is the window's own squared coefficient of variation {@code s² / m̄²} when it has
 * 2 round trips or more and its round trips are known, else the connection-wide one learned from such windows
 * ({@link #relativeVariance()}, one for both bands), 0 before any; a window of unknown traffic counts as
 * {@link ShapeExcessModel#UNKNOWN_TRAFFIC}. {@code γ} is fitted by weighted ridge least squares (weight {@code min(n,
 * }{@value #MAX_BLOCK_WEIGHT}{@code )} for a window of n round trips; a ridge on the slopes scaled to how far the
 * windows scatter about the fit, {@link WindowNoise}: at least {@value WindowNoise#MIN_RIDGE}, about 1 for
 * light-tailed round trips, 15–30 on a real network; none on γ0)
 * from running sums of {@code X'WX} and {@code X'Wy} kept per band ({@link BandedSums}): a window forgets by
 * {@value #FORGETTING} the sums of its own band alone, so what a loaded port taught stands through an idle spell until
 * the port is loaded again. A shape's mean is then {@code T · exp(g(s, L))}, clamped to within {@value #MAX_FACTOR}
 * times {@code T} either way. The intercept also carries the connection-wide bias of the thesis means themselves (a
 * measurement's mean against the probe windows that follow it), per band, so the model stands in for the state's own
 * self-correction once {@link #fitted()}.
 *
 * <p>What remains: the factor is connection-wide, one per band and shape, not per load state (a CPU state whose thesis
 * mean is off by more than the others' is served the connection's bias); the band is two-valued (LOADED and SATURATED
 * alike, and a loaded port's own load level not a feature); a loaded port's lesson is learned only from windows sent
 * there, so until they weigh {@value #MIN_LOADED_WEIGHT} (see below), a loaded port is served the idle port's terms;
 * a self-loading burst's mean on a loaded port is a hinge (no wait while the burst and the background fit in the port,
 * a wait growing with the burst beyond), which the band's terms, linear in ln spacing and ln burst length, only
 * straddle; on heavy-tailed round trips (a real network) the second-order term {@code v / (2n)} takes back only a
 * fifth to a third of how far a short window's log mean lies below the log of the pooled mean it stands for (0.3 for
 * windows of 20 on the recorded testbed), so the burst-length slope leans.
 *
 * <p>The band's terms are served only once the loaded port's windows weigh {@value #MIN_LOADED_WEIGHT} or more
 * together (their forgotten summed weight, {@link #loadedWeight()}: {@value #MIN_BLOCKS} windows of a quarter of the
 * {@value #MAX_BLOCK_WEIGHT}-round-trip weight cap, or four of full weight); before, a loaded port is served the idle
 * port's terms {@code g(s, 0)} and the description says so. The ridge on {@code γ4..γ6} alone would not do: where
 * the windows scatter little it is about 1, and one loaded window weighs up to {@value #MAX_BLOCK_WEIGHT}, so it
 * would set the band's three terms, and so the loaded factor of every shape, from one shape's one look. The
 * coefficients are fitted the same whatever the
 * gate says (the band's terms take up the loaded windows' lesson as far as the ridge lets them): the gate changes what
 * a loaded port is served and nothing else.
 *
 * <p>Fitted (used) from {@value #MIN_BLOCKS} windows connection-wide, of either band. Immutable and thread-safe; one
 * update allocates the new snapshot's arrays and a small solve.
 */
public final class ShapeMeanModel {

    /** Number of coefficients: intercept, ln spacing, ln burst length, arrays and the port band's three. */
    public static final int PARAMETERS = ShapeFeatures.PARAMETERS;
    /** Number of the shape's own features, over which each of the record's sums (every window's, the loaded port's) is kept. */
    public static final int SHAPE_PARAMETERS = ShapeFeatures.SHAPE_PARAMETERS;
    /** Entries of the upper triangle of each {@value #SHAPE_PARAMETERS}-feature {@code X'WX}, row by row. */
    public static final int GRAM_ENTRIES = ShapeFeatures.SHAPE_GRAM_ENTRIES;
    /** Windows connection-wide before the model may stand for a shape. */
    public static final long MIN_BLOCKS = 15;
    /** Most round trips a window weighs as: a long train is one look at the path, not n independent ones. */
    public static final int MAX_BLOCK_WEIGHT = 20;
    /** What every earlier window's weight is multiplied by when a window is learned. */
    public static final double FORGETTING = 0.995;
    /**
     * Largest factor, either way, a shape's mean may lie from its state's thesis mean: the regression extrapolates in
     * ln spacing and ln burst length over the whole range a {@link TrafficShape} accepts.
     */
    public static final double MAX_FACTOR = 10.0;

    /**
     * Summed (forgotten) weight of the loaded port's windows before the band's terms are served: {@value #MIN_BLOCKS}
     * windows of a quarter of the weight cap, so that no one window, nor three, sets the band's terms for every shape.
     * Below it a loaded port is served the idle port's terms.
     */
    public static final double MIN_LOADED_WEIGHT = MIN_BLOCKS * MAX_BLOCK_WEIGHT / 4.0;

    /** Largest squared coefficient of variation a window is corrected by: beyond, the second-order term says little. */
    public static final double MAX_RELATIVE_VARIANCE = 4.0;

    /** Nothing learned. */
    public static final ShapeMeanModel EMPTY = new ShapeMeanModel(0, new double[GRAM_ENTRIES], new double[SHAPE_PARAMETERS]);

    private final long blocks;
    private final BandedSums sums;
    private final double[] coefficients;
    private final double varianceSum;
    private final double squareSum;
    private final WindowNoise noise;

    /**
     * A model with no connection-wide spread learned (windows of one round trip are then not corrected) and nothing
     * learned on a loaded port.
     *
     * @param blocks  windows learned from, {@code >= 0}
     * @param gram    the upper triangle of {@code X'WX} over the shape's features, row by row, {@value #GRAM_ENTRIES} entries
     * @param moments {@code X'Wy}, {@value #SHAPE_PARAMETERS} entries
     * @throws IllegalArgumentException on a wrong length, a negative count, or a value not finite
     */
    public ShapeMeanModel(final long blocks, final double[] gram, final double[] moments) {
        this(blocks, gram, moments, 0.0, 0.0);
    }

    /**
     * A model with nothing learned on a loaded port (as read from a record written before the port band).
     *
     * @param blocks      windows learned from, {@code >= 0}
     * @param gram        the upper triangle of {@code X'WX} over the shape's features, row by row, {@value #GRAM_ENTRIES}
     *                    entries
     * @param moments     {@code X'Wy}, {@value #SHAPE_PARAMETERS} entries
     * @param varianceSum windows of 2 round trips or more: forgotten weighted sum of {@code s² / T²}, {@code >= 0}
     * @param squareSum   the same windows' forgotten weighted sum of {@code (m̄² − s² / n) / T²} (may be negative)
     * @throws IllegalArgumentException on a wrong length, a negative count or variance sum, or a value not finite
     */
    public ShapeMeanModel(final long blocks, final double[] gram, final double[] moments, final double varianceSum,
                          final double squareSum) {
        this(blocks, gram, moments, new double[GRAM_ENTRIES], new double[SHAPE_PARAMETERS], varianceSum, squareSum);
    }

    /**
     * A model from its sums in two parts ({@link BandedSums}): every window's, over the shape's
     * {@value #SHAPE_PARAMETERS} features (the band-blind model's), and the loaded port's windows' alone.
     *
     * @param blocks        windows learned from, {@code >= 0}
     * @param gram          the upper triangle of every window's {@code X'WX} over the shape's features, row by row,
     *                      {@value #GRAM_ENTRIES} entries
     * @param moments       every window's {@code X'Wy}, {@value #SHAPE_PARAMETERS} entries
     * @param loadedGram    the same as {@code gram} over the windows sent on a loaded port alone
     * @param loadedMoments the same as {@code moments} over the windows sent on a loaded port alone
     * @param varianceSum   windows of 2 round trips or more: forgotten weighted sum of {@code s² / T²}, {@code >= 0}
     * @param squareSum     the same windows' forgotten weighted sum of {@code (m̄² − s² / n) / T²} (may be negative)
     * @throws IllegalArgumentException on a wrong length, a negative count or variance sum, a value not finite, or
     *                                  loaded sums beyond every window's on a diagonal (naming {@code loaded_gram})
     */
    public ShapeMeanModel(final long blocks, final double[] gram, final double[] moments, final double[] loadedGram,
                          final double[] loadedMoments, final double varianceSum, final double squareSum) {
        this(blocks, gram, moments, loadedGram, loadedMoments, varianceSum, squareSum, WindowNoise.NONE);
    }

    /**
     * A model from its sums in two parts ({@link BandedSums}) and its windows' scatter about the fit.
     *
     * @param blocks        windows learned from, {@code >= 0}
     * @param gram          the upper triangle of every window's {@code X'WX} over the shape's features, row by row,
     *                      {@value #GRAM_ENTRIES} entries
     * @param moments       every window's {@code X'Wy}, {@value #SHAPE_PARAMETERS} entries
     * @param loadedGram    the same as {@code gram} over the windows sent on a loaded port alone
     * @param loadedMoments the same as {@code moments} over the windows sent on a loaded port alone
     * @param varianceSum   windows of 2 round trips or more: forgotten weighted sum of {@code s² / T²}, {@code >= 0}
     * @param squareSum     the same windows' forgotten weighted sum of {@code (m̄² − s² / n) / T²} (may be negative)
     * @param noise         the windows' one-step-ahead residuals, which set the ridge on the slopes; not null
     * @throws IllegalArgumentException as the constructor without {@code noise}, or when it is null
     */
    public ShapeMeanModel(final long blocks, final double[] gram, final double[] moments, final double[] loadedGram,
                          final double[] loadedMoments, final double varianceSum, final double squareSum,
                          final WindowNoise noise) {
        this(blocks, sums(blocks, gram, moments, loadedGram, loadedMoments), varianceSum, squareSum, noise);
    }

    private ShapeMeanModel(final long blocks, final BandedSums sums, final double varianceSum, final double squareSum,
                           final WindowNoise noise) {
        if (noise == null) {
            throw new IllegalArgumentException("a shape mean model needs its windows' residual sums");
        }
        if (!(varianceSum >= 0) || Double.isInfinite(varianceSum) || !Double.isFinite(squareSum)) {
            throw new IllegalArgumentException("a shape mean model's variance sum must be finite and >= 0 and its square sum"
                + " finite, had " + varianceSum + " and " + squareSum);
        }
        this.blocks = blocks;
        this.sums = sums;
        this.noise = noise;
        this.coefficients = RidgeSolve.solve(sums.fullGram(), sums.fullMoments(), noise.ridge());
        this.varianceSum = varianceSum;
        this.squareSum = squareSum;
    }

    private static BandedSums sums(final long blocks, final double[] gram, final double[] moments, final double[] loadedGram,
                                   final double[] loadedMoments) {
        if (blocks < 0 || gram == null || gram.length != GRAM_ENTRIES || moments == null || moments.length != SHAPE_PARAMETERS) {
            throw new IllegalArgumentException("a shape mean model needs blocks >= 0, " + GRAM_ENTRIES + " gram entries and "
                + SHAPE_PARAMETERS + " moments");
        }
        if (loadedGram == null || loadedGram.length != GRAM_ENTRIES || loadedMoments == null
            || loadedMoments.length != SHAPE_PARAMETERS) {
            throw new IllegalArgumentException("a shape mean model needs " + GRAM_ENTRIES + " loaded_gram entries and "
                + SHAPE_PARAMETERS + " loaded_moments");
        }
        return new BandedSums(gram, moments, loadedGram, loadedMoments);
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

    /** @return the windows' one-step-ahead residual sums: how far they scatter about the fit */
    public WindowNoise noise() {
        return noise;
    }

    /** @return the ridge on the slopes the coefficients were fitted with ({@link WindowNoise#ridge()}) */
    public double ridge() {
        return noise.ridge();
    }

    /** @return windows learned from */
    public long blocks() {
        return blocks;
    }

    /** @return whether it learned from {@value #MIN_BLOCKS} windows or more, and so may stand for a shape */
    public boolean fitted() {
        return blocks >= MIN_BLOCKS;
    }

    /**
     * @return the loaded port's windows' summed weight, forgotten as their sums are (the intercept's entry of
     *         {@link #loadedGram()}), round trips capped at {@value #MAX_BLOCK_WEIGHT} a window
     */
    public double loadedWeight() {
        return sums.loadedGram()[0];
    }

    /**
     * @return whether the loaded port's windows weigh {@value #MIN_LOADED_WEIGHT} or more, so that a loaded port is
     *         served the band's terms (else the idle port's)
     */
    public boolean loadedBandFitted() {
        return loadedWeight() >= MIN_LOADED_WEIGHT;
    }

    /** @return a copy of every window's {@code X'WX} over the shape's features: the band-blind model's */
    public double[] gram() {
        return sums.shapeGram();
    }

    /** @return a copy of every window's {@code X'Wy} over the shape's features */
    public double[] moments() {
        return sums.shapeMoments();
    }

    /** @return a copy of the loaded port's windows' {@code X'WX} over the shape's features */
    public double[] loadedGram() {
        return sums.loadedGram();
    }

    /** @return a copy of the loaded port's windows' {@code X'Wy} over the shape's features */
    public double[] loadedMoments() {
        return sums.loadedMoments();
    }

    /** @return a copy of the fitted coefficients γ0..γ6 */
    public double[] coefficients() {
        return coefficients.clone();
    }

    /** As {@link #meanFactor(TrafficShape, PortBand)} on a port not loaded. */
    public double meanFactor(final TrafficShape shape) {
        return meanFactor(shape, PortBand.IDLE);
    }

    /**
     * @param shape a traffic shape
     * @param band  the port band the mean is for (the current state's)
     * @return what its state's thesis mean is multiplied by for the shape in the band: {@code exp(g(s, L))}, clamped;
     *         on a loaded port the idle port's {@code exp(g(s, 0))} until {@link #loadedBandFitted()}
     */
    public double meanFactor(final TrafficShape shape, final PortBand band) {
        return Math.max(1.0 / MAX_FACTOR, Math.min(MAX_FACTOR, Math.exp(predicted(shape, servedBand(band)))));
    }

    /**
     * @param shape        the window's traffic shape ({@link ShapeExcessModel#UNKNOWN_TRAFFIC} when unknown)
     * @param count        its round trips; {@code < 1} changes nothing
     * @param meanMillis   their mean, ms; not finite and {@code > 0} changes nothing
     * @param thesisMillis the thesis mean served in the window's state, ms; not finite and {@code > 0} changes nothing
     * @return the model after the window
     */
    public ShapeMeanModel observe(final TrafficShape shape, final long count, final double meanMillis, final double thesisMillis) {
        return observe(shape, count, meanMillis, Double.NaN, thesisMillis, PortBand.IDLE);
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
        return observe(shape, roundTrips, count, meanMillis, thesisMillis, PortBand.IDLE);
    }

    /**
     * @param shape        the window's traffic shape ({@link ShapeExcessModel#UNKNOWN_TRAFFIC} when unknown)
     * @param roundTrips   its round trips, ns (their bins' midpoints, the overflow at the last edge, give their variance)
     * @param count        its round trips; {@code < 1} changes nothing
     * @param meanMillis   their exact mean, ms; not finite and {@code > 0} changes nothing
     * @param thesisMillis the thesis mean served in the window's state, ms; not finite and {@code > 0} changes nothing
     * @param band         the port band the window was sent in
     * @return the model after the window
     */
    public ShapeMeanModel observe(final TrafficShape shape, final LatencyHistogram roundTrips, final long count,
                                  final double meanMillis, final double thesisMillis, final PortBand band) {
        return observe(shape, count, meanMillis, varianceMillis2(roundTrips, meanMillis), thesisMillis, band);
    }

    /** As {@link #observe(TrafficShape, long, double, double, double, PortBand)} for a window on a port not loaded. */
    public ShapeMeanModel observe(final TrafficShape shape, final long count, final double meanMillis,
                                  final double varianceMillis2, final double thesisMillis) {
        return observe(shape, count, meanMillis, varianceMillis2, thesisMillis, PortBand.IDLE);
    }

    /**
     * @param shape             the window's traffic shape ({@link ShapeExcessModel#UNKNOWN_TRAFFIC} when unknown)
     * @param count             its round trips; {@code < 1} changes nothing
     * @param meanMillis        their mean, ms; not finite and {@code > 0} changes nothing
     * @param varianceMillis2   their sample variance, ms²; NaN when not known (then the connection-wide one corrects it)
     * @param thesisMillis      the thesis mean served in the window's state, ms; not finite and {@code > 0} changes nothing
     * @param band              the port band the window was sent in: its sums alone learn it and forget
     * @return the model after the window
     */
    public ShapeMeanModel observe(final TrafficShape shape, final long count, final double meanMillis,
                                  final double varianceMillis2, final double thesisMillis, final PortBand band) {
        if (shape == null || band == null) {
            throw new IllegalArgumentException("a shape mean model's window needs its traffic shape and its port band");
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
        final BandedSums next = sums.withBlock(ShapeFeatures.ofShape(shape), band, y, weight, FORGETTING);
        // The window against the fit before it, once fitted (before, the fit from a few windows scatters itself).
        final WindowNoise nextNoise = !fitted() ? noise : noise.after(y - predicted(shape, band), weight, FORGETTING);
        return new ShapeMeanModel(blocks + 1, next, nextVarianceSum, nextSquareSum, nextNoise);
    }

    /** @return the fit's {@code g(s, L)} for a window of the shape sent in the band (the band's terms, gated or not) */
    private double predicted(final TrafficShape shape, final PortBand band) {
        final double[] x = ShapeFeatures.of(shape, band);
        double logRatio = 0;
        for (int i = 0; i < PARAMETERS; i++) {
            logRatio += coefficients[i] * x[i];
        }
        return logRatio;
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

    /** As {@link #shaped(Estimate, double, TrafficShape, PortBand, boolean)} on a port known to be idle. */
    public EstimateCorrection.Corrected shaped(final Estimate served, final double thesisMillis, final TrafficShape shape) {
        return shaped(served, thesisMillis, shape, PortBand.IDLE, true);
    }

    /**
     * The mean served for a shape: the thesis mean times the shape's factor in the current port band; the served
     * estimate's intervals (a confidence interval, or the prediction interval for the next burst) are moved with it,
     * keeping their width relative to the mean.
     *
     * @param served       the state's served mean (corrected, with its interval), kind {@link EstimateKind#AVERAGE}
     * @param thesisMillis the thesis mean behind it, ms, {@code > 0}
     * @param shape        the application's traffic
     * @param band         the current state's port band
     * @param bandKnown    false when no hop is seen loaded but some hop's load is not known: the description then does
     *                     not call the port idle
     * @return the mean for the shape and how it was made (naming the band)
     * @throws IllegalArgumentException when {@code served} is not a mean or the thesis not {@code > 0}
     */
    public EstimateCorrection.Corrected shaped(final Estimate served, final double thesisMillis, final TrafficShape shape,
                                               final PortBand band, final boolean bandKnown) {
        if (served.kind() != EstimateKind.AVERAGE || !(thesisMillis > 0) || Double.isInfinite(thesisMillis) || band == null) {
            throw new IllegalArgumentException("a shape's mean is made from a served mean, its thesis mean > 0 ms and a port band");
        }
        final double factor = meanFactor(shape, band);
        final double valueMillis = thesisMillis * factor;
        final double move = valueMillis / served.valueMillis();
        final List<ConfidenceInterval> alternatives = new ArrayList<>();
        for (final ConfidenceInterval alternative : served.alternatives()) {
            alternatives.add(moved(alternative, move));
        }
        final Estimate estimate = new Estimate(served.qos(), EstimateKind.AVERAGE, valueMillis, 0.0, moved(served.interval(), move),
            alternatives, served.basis(), served.notes(), served.interpolated());
        return new EstimateCorrection.Corrected(estimate, String.format(Locale.ROOT,
            "shape mean: thesis mean × %.3f on %s, the shape's mean over its state's thesis mean learned from %d probe windows"
                + " of every shape; interval moved with it", factor, portDescription(band, bandKnown), blocks));
    }

    private String portDescription(final PortBand band, final boolean bandKnown) {
        if (band == PortBand.LOADED) {
            return loadedBandFitted() ? "a loaded port"
                : String.format(Locale.ROOT, "a loaded port (the idle port's terms: its windows weigh %.0f, %.0f needed)",
                    loadedWeight(), MIN_LOADED_WEIGHT);
        }
        return bandKnown ? "an idle port" : "a port not seen loaded (a hop's load not known; the idle port's terms)";
    }

    /** The band whose terms are served for {@code band}: a loaded port's once its windows weigh enough, else the idle's. */
    private PortBand servedBand(final PortBand band) {
        return band == PortBand.LOADED && loadedBandFitted() ? PortBand.LOADED : PortBand.IDLE;
    }

    private static ConfidenceInterval moved(final ConfidenceInterval interval, final double factor) {
        return new ConfidenceInterval(interval.lower() * factor, interval.upper() * factor, interval.confidenceLevel(),
            interval.method());
    }

    @Override
    public boolean equals(final Object other) {
        return other instanceof ShapeMeanModel that && blocks == that.blocks && sums.equals(that.sums) && Double.compare(varianceSum, that.varianceSum) == 0
            && Double.compare(squareSum, that.squareSum) == 0 && noise.equals(that.noise);
    }

    @Override
    public int hashCode() {
        return 31 * Long.hashCode(blocks) + sums.hashCode() + 7 * Double.hashCode(varianceSum)
            + 11 * Double.hashCode(squareSum) + 13 * noise.hashCode();
    }

    @Override
    public String toString() {
        return "ShapeMeanModel[blocks=" + blocks + ", coefficients=" + Arrays.toString(coefficients) + ", relativeVariance="
            + relativeVariance() + ", ridge=" + ridge() + "]";
    }
}
