package org.latencyserver.core.calibration;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.latencyserver.core.estimate.Estimate;
import org.latencyserver.core.estimate.EstimateKind;
import org.latencyserver.core.histogram.BoundBeyondHistogramException;
import org.latencyserver.core.histogram.LatencyHistogram;
import org.latencyserver.core.stats.ConfidenceInterval;

/**
 * Turns the thesis's estimate into the one served for the messages that follow, so that it holds for
 * them (a bound covers its nominal share of round trips, a mean has no systematic error), from what
 * was learned in the load state:
 * <ul>
 * <li>a bound is read from the same histogram at the {@linkplain AdaptiveQuantileLevel adaptive
 *     level} instead of the nominal one; its interval is the observed coverage (over blocks) once
 *     {@value #MIN_BLOCKS_FOR_OBSERVED_INTERVAL} blocks were seen;</li>
 * <li>unless that bound lies more than {@value #RESCALE_BEYOND_FACTOR} times off the thesis's bound rescaled by the
 *     conformal quantile of the {@linkplain RatioScores ratios} of what followed to it (the state's own, or the pooled
 *     level's while the state has too few; never past the thesis's bound against the level's side of it): then the
 *     rescaled bound is served ({@link #rescaledMillis});</li>
 * <li>a mean is multiplied by the {@linkplain MeanCorrection learned factor}; its interval is the
 *     predictive interval of the next window's mean once enough windows were seen.</li>
 * </ul>
 * The thesis's own interval stays among the alternatives, labelled. Stateless and thread-safe.
 */
public final class EstimateCorrection {

    /** Blocks of round trips before the observed coverage interval replaces the thesis's. */
    public static final int MIN_BLOCKS_FOR_OBSERVED_INTERVAL = 20;
    /**
     * How far, as a factor either way, the bound read at the adaptive level may lie from the thesis's bound rescaled by
     * its {@linkplain RatioScores ratios} before the rescaled one is served: within it the level (with its long-run
     * coverage guarantee) decides.
     */
    public static final double RESCALE_BEYOND_FACTOR = 1.3;
    /**
     * The most the thesis's bound is rescaled by, either way: round trips that keep landing above whatever is served
     * (a path failing, or a caller chasing the bound) would otherwise multiply it block after block without end.
     */
    public static final double MAX_SCALE_FACTOR = 100.0;

    private EstimateCorrection() {
    }

    /**
     * The result of a correction.
     *
     * @param estimate    what to serve
     * @param description how it was corrected, for clients ({@code Estimate.correction} in the IDL)
     */
    public record Corrected(Estimate estimate, String description) {
    }

    /**
     * @param thesis    the thesis's estimate
     * @param reference the histogram the thesis's bound was read from; null for a mean, or when a
     *                  bound has no histogram (then the bound is not corrected)
     * @param knowledge what was learned in the estimate's load state
     * @return the corrected estimate and how
     */
    public static Corrected correct(final Estimate thesis, final LatencyHistogram reference, final StateKnowledge knowledge) {
        return correct(thesis, reference, knowledge, RecentValues.EMPTY);
    }

    /**
     * As {@link #correct(Estimate, LatencyHistogram, StateKnowledge)}, with the connection's recent
     * log errors of served means pooled over its load states: a state with too few windows of its
     * own for a predictive interval takes the interval's width from them (the relative scatter of
     * a window's mean is much the same from state to state), rather than the thesis's Eq. 1
     * interval, which describes the mean of a thousand past round trips, not the next window's.
     *
     * @param pooledLogResiduals recent ln(window mean / served mean) of all the connection's states
     * @return the corrected estimate and how
     */
    public static Corrected correct(final Estimate thesis, final LatencyHistogram reference, final StateKnowledge knowledge,
                                    final RecentValues pooledLogResiduals) {
        return correct(thesis, reference, knowledge, pooledLogResiduals, null, null);
    }

    /**
     * As {@link #correct(Estimate, LatencyHistogram, StateKnowledge, RecentValues)}, a bound read at the level
     * {@link BorrowedLevel} serves: the state's own level shrunk towards the connection's pooled level while the
     * state is young, and the worst shape class seen (or the declared one).
     *
     * @param pooledLevel   the connection's pooled level, or null to borrow nothing
     * @param declaredShape the class of the connection's declared traffic, or null when it declares none
     * @return the corrected estimate and how
     */
    public static Corrected correct(final Estimate thesis, final LatencyHistogram reference, final StateKnowledge knowledge,
                                    final RecentValues pooledLogResiduals, final AdaptiveQuantileLevel pooledLevel,
                                    final org.latencyserver.core.traffic.ShapeClass declaredShape) {
        return correct(thesis, reference, knowledge, pooledLogResiduals, pooledLevel, declaredShape, RecentValues.EMPTY, 0);
    }

    /**
     * What the server serves: as {@link #correct(Estimate, LatencyHistogram, StateKnowledge, RecentValues)}, except that
     * a QoS 3 mean's interval is the
     * prediction interval for the mean of the application's next burst of {@code burstRoundTrips} round trips
     * ({@link NextBurstPrediction}).
     *
     * @param burstRoundTrips the application's burst length, round trips, {@code >= 1}
     * @return the corrected estimate and how
     */
    public static Corrected correct(final Estimate thesis, final LatencyHistogram reference, final StateKnowledge knowledge,
                                    final RecentValues pooledLogResiduals, final int burstRoundTrips) {
        return correct(thesis, reference, knowledge, pooledLogResiduals, null, null, RecentValues.EMPTY, burstRoundTrips);
    }

    /**
     * As {@link #correct(Estimate, LatencyHistogram, StateKnowledge, RecentValues, int)}, with the connection's recent
     * next-burst scores pooled over its load states, whose quantile a QoS 3 state with too few scores of its own takes
     * as its width (never below its model's own quantile).
     *
     * @param pooledBurstScores the scores of all the connection's states
     * @return the corrected estimate and how
     */
    public static Corrected correct(final Estimate thesis, final LatencyHistogram reference, final StateKnowledge knowledge,
                                    final RecentValues pooledLogResiduals, final RecentValues pooledBurstScores,
                                    final int burstRoundTrips) {
        return correct(thesis, reference, knowledge, pooledLogResiduals, null, null, pooledBurstScores, burstRoundTrips);
    }

    /**
     * Everything the server serves with: a bound read at the level {@link BorrowedLevel} serves (as
     * {@link #correct(Estimate, LatencyHistogram, StateKnowledge, RecentValues, AdaptiveQuantileLevel,
     * org.latencyserver.core.traffic.ShapeClass)}); a QoS 3 mean with the prediction interval for the mean of the next
     * burst (as {@link #correct(Estimate, LatencyHistogram, StateKnowledge, RecentValues, RecentValues, int)}) when
     * {@code burstRoundTrips >= 1}; any other mean as {@link #correct(Estimate, LatencyHistogram, StateKnowledge,
     * RecentValues)}.
     *
     * @param pooledLevel       the connection's pooled level, or null to borrow nothing
     * @param declaredShape     the class of the connection's declared traffic, or null when it declares none
     * @param pooledBurstScores the next-burst scores of all the connection's states
     * @param burstRoundTrips   the application's burst length, round trips; 0 for no next-burst interval
     * @return the corrected estimate and how
     */
    public static Corrected correct(final Estimate thesis, final LatencyHistogram reference, final StateKnowledge knowledge,
                                    final RecentValues pooledLogResiduals, final AdaptiveQuantileLevel pooledLevel,
                                    final org.latencyserver.core.traffic.ShapeClass declaredShape,
                                    final RecentValues pooledBurstScores, final int burstRoundTrips) {
        return correct(thesis, reference, knowledge, pooledLogResiduals, pooledLevel, declaredShape, pooledBurstScores,
            burstRoundTrips, ClassExcess.EMPTY);
    }

    /**
     * As {@link #correct(Estimate, LatencyHistogram, StateKnowledge, RecentValues, AdaptiveQuantileLevel,
     * org.latencyserver.core.traffic.ShapeClass, RecentValues, int)}, with each shape class's excess over its state's
     * level learned connection-wide, so that a class with too few blocks in this state still counts
     * ({@link BorrowedLevel#of(StateKnowledge, AdaptiveQuantileLevel, org.latencyserver.core.traffic.ShapeClass,
     * ClassExcess)}).
     *
     * @param excess the connection's class excesses
     * @return the corrected estimate and how
     */
    public static Corrected correct(final Estimate thesis, final LatencyHistogram reference, final StateKnowledge knowledge,
                                    final RecentValues pooledLogResiduals, final AdaptiveQuantileLevel pooledLevel,
                                    final org.latencyserver.core.traffic.ShapeClass declaredShape,
                                    final RecentValues pooledBurstScores, final int burstRoundTrips, final ClassExcess excess) {
        return correct(thesis, reference, knowledge, pooledLogResiduals, BorrowedLevel.Prior.pooled(pooledLevel), declaredShape,
            pooledBurstScores, burstRoundTrips, excess);
    }

    /**
     * As {@link #correct(Estimate, LatencyHistogram, StateKnowledge, RecentValues, AdaptiveQuantileLevel,
     * org.latencyserver.core.traffic.ShapeClass, RecentValues, int, ClassExcess)}, a bound's state borrowing from
     * {@code prior}: the pooled level shrunk towards the state's port pattern's ({@link BorrowedLevel.Prior#of}); the
     * description then names the pattern.
     *
     * @param prior what a bound's state borrows from, not null ({@code prior.level()} null to borrow nothing)
     * @return the corrected estimate and how
     */
    public static Corrected correct(final Estimate thesis, final LatencyHistogram reference, final StateKnowledge knowledge,
                                    final RecentValues pooledLogResiduals, final BorrowedLevel.Prior prior,
                                    final org.latencyserver.core.traffic.ShapeClass declaredShape,
                                    final RecentValues pooledBurstScores, final int burstRoundTrips, final ClassExcess excess) {
        if (thesis.kind() == EstimateKind.BOUND) {
            return knowledge.level() == null || reference == null ? new Corrected(thesis, "")
                : bound(thesis, reference, knowledge, prior.level(), BorrowedLevel.of(knowledge, prior, declaredShape, excess));
        }
        return thesis.qos() == 3 && burstRoundTrips >= 1
            ? NextBurstPrediction.serve(thesis, knowledge, burstRoundTrips, pooledBurstScores)
            : mean(thesis, knowledge, pooledLogResiduals);
    }

    /**
     * A bound read at a level chosen by the caller (e.g. {@link BorrowedLevel#forShape} for one application's shape).
     *
     * @param thesis      the thesis's bound
     * @param reference   the histogram it was read from, not null
     * @param knowledge   what was learned in its load state; its level not null
     * @param pooledLevel the connection's pooled level, or null (only says whether borrowing is described)
     * @param served      the level to read at
     * @return the corrected bound and how
     */
    public static Corrected bound(final Estimate thesis, final LatencyHistogram reference, final StateKnowledge knowledge,
                                  final AdaptiveQuantileLevel pooledLevel, final BorrowedLevel.Served served) {
        final AdaptiveQuantileLevel level = knowledge.level();
        if (knowledge.coverage().blocks() == 0 && served.nominal()) {
            return new Corrected(thesis, "");
        }
        final double levelPercent = served.servedPercent();
        double valueMillis;
        final List<String> notes = new ArrayList<>(thesis.notes());
        try {
            valueMillis = reference.boundAt(levelPercent).boundMillis();
        } catch (BoundBeyondHistogramException | IllegalArgumentException e) {
            valueMillis = reference.lastEdgeNanos() / 1e6;
            notes.add("the corrected level lies beyond the histogram; its last edge is served");
        }
        // The ratios are the state's round trips over its bound, whatever their shape: the rescale is decided on the
        // state's bound, and a level a shape class decided keeps its place relative to that bound.
        final double stateMillis = served.shape() == null ? valueMillis : ShapeModelBound.stateBoundNanos(reference, knowledge, pooledLevel) / 1e6;
        final double rescaledMillis = rescaledMillis(thesis.valueMillis(), stateMillis, level, pooledLevel);
        String rescaled = Double.isNaN(rescaledMillis) ? null : rescaled(thesis, stateMillis, rescaledMillis, level, pooledLevel);
        if (rescaled != null) {
            final double classRatio = stateMillis > 0 ? valueMillis / stateMillis : 1.0;
            valueMillis = rescaledMillis * classRatio;
            if (Math.abs(classRatio - 1.0) > 1e-9) {
                rescaled += String.format(Locale.ROOT, "; × %.3f, the shape class's bound over the state's", classRatio);
            }
        }
        final ConfidenceInterval observed = knowledge.coverage().blocks() >= MIN_BLOCKS_FOR_OBSERVED_INTERVAL
            ? knowledge.coverage().interval(Estimate.CONFIDENCE_LEVEL) : null;
        final List<ConfidenceInterval> alternatives = new ArrayList<>();
        alternatives.add(relabel(thesis.interval(), "thesis, of the uncorrected bound " + millis(thesis.valueMillis())));
        alternatives.addAll(thesis.alternatives());
        final String description = String.format(Locale.ROOT,
            "adaptive conformal: read at %.2f %% (nominal %s %%) after %d round trips followed served bounds in this state",
            levelPercent, plain(thesis.boundPercent()), knowledge.coverage().roundTrips())
            + (pooledLevel == null && served.shape() == null ? "" : "; " + served.description())
            + (rescaled == null ? "" : "; " + rescaled);
        notes.add(description + "; thesis value " + millis(thesis.valueMillis()));
        return new Corrected(new Estimate(thesis.qos(), EstimateKind.BOUND, valueMillis, thesis.boundPercent(),
            observed != null ? observed : thesis.interval(), alternatives, thesis.basis(), notes, thesis.interpolated()),
            description);
    }

    /**
     * @return the factor the thesis's bound is multiplied by to cover its share of what followed: the conformal quantile
     *         of the state's own {@linkplain RatioScores ratios}, or of the pooled level's while the state has fewer than
     *         {@value RatioScores#MIN_SCORES}, kept within a factor {@value #MAX_SCALE_FACTOR} either way; NaN when
     *         neither has enough
     */
    static double scaleFactor(final AdaptiveQuantileLevel own, final AdaptiveQuantileLevel pooled) {
        final RatioScores ratios = own.ratios().size() >= RatioScores.MIN_SCORES || pooled == null ? own.ratios() : pooled.ratios();
        final double factor = ratios.quantile(own.targetMissFraction());
        return Double.isNaN(factor) ? factor : Math.max(1.0 / MAX_SCALE_FACTOR, Math.min(MAX_SCALE_FACTOR, factor));
    }

    /**
     * The bound to serve instead of the one read at the level, or NaN to serve that one. The candidate is the thesis's
     * bound times {@link #scaleFactor}, kept on the side of the thesis's bound the level is on: a level at or above the
     * nominal one (the round trips missed what the histogram gave) never serves less than the thesis's bound, one below
     * it (they were covered) never more — ratios learned against a reference that has since moved (band probes a burst
     * passed through) cannot then contradict the level. It is served when the level's bound lies more than {@value
     * #RESCALE_BEYOND_FACTOR} times above or below it: the histogram is so far off that no level of it holds, or the
     * level has overshot on a few blocks and comes back down too slowly.
     *
     * @param thesisMillis the thesis's bound, ms
     * @param levelMillis  the bound read at the adaptive level, ms
     * @return the rescaled bound, ms, or NaN
     */
    static double rescaledMillis(final double thesisMillis, final double levelMillis, final AdaptiveQuantileLevel own,
                                 final AdaptiveQuantileLevel pooled) {
        final double factor = scaleFactor(own, pooled);
        if (!(factor > 0) || Double.isInfinite(factor)) {
            return Double.NaN;
        }
        final double candidateMillis = levelMillis >= thesisMillis ? Math.max(thesisMillis * factor, thesisMillis)
            : Math.min(thesisMillis * factor, thesisMillis);
        if (levelMillis <= RESCALE_BEYOND_FACTOR * candidateMillis && levelMillis * RESCALE_BEYOND_FACTOR >= candidateMillis) {
            return Double.NaN;
        }
        return candidateMillis;
    }

    /** @return why the rescaled bound is served instead of the level's, for the correction's description */
    private static String rescaled(final Estimate thesis, final double levelMillis, final double rescaledMillis,
                                   final AdaptiveQuantileLevel own, final AdaptiveQuantileLevel pooled) {
        final boolean ownRatios = own.ratios().size() >= RatioScores.MIN_SCORES;
        return String.format(Locale.ROOT,
            "rescaled: %s, thesis bound × %.3f, the conformal %s %% quantile of %d recent round trips over the thesis bound"
                + " they followed (%s)%s, since the bound read at the level, %s, was %.1f times that",
            millis(rescaledMillis), scaleFactor(own, pooled), plain(100.0 * (1.0 - own.targetMissFraction())),
            ownRatios ? own.ratios().size() : pooled.ratios().size(), ownRatios ? "this state's" : "the connection's pooled",
            Math.abs(rescaledMillis - thesis.valueMillis() * scaleFactor(own, pooled)) > 1e-12 ? ", kept at the thesis bound"
                : "", millis(levelMillis), levelMillis / rescaledMillis);
    }

    private static Corrected mean(final Estimate thesis, final StateKnowledge knowledge, final RecentValues pooledLogResiduals) {
        final MeanCorrection correction = knowledge.meanCorrection();
        if (correction.windows() == 0) {
            return new Corrected(thesis, "");
        }
        final double valueMillis = thesis.valueMillis() * correction.appliedFactor();
        ConfidenceInterval predictive = correction.predictiveInterval(valueMillis, Estimate.CONFIDENCE_LEVEL);
        if (predictive == null) {
            final ConfidenceInterval pooled = new MeanCorrection(0.0, 0.0, pooledLogResiduals.size(), pooledLogResiduals)
                .predictiveInterval(valueMillis, Estimate.CONFIDENCE_LEVEL);
            predictive = pooled == null ? null : new ConfidenceInterval(pooled.lower(), pooled.upper(), pooled.confidenceLevel(),
                pooled.method() + ", width from all load states (this one has too few windows yet)");
        }
        final ConfidenceInterval interval = predictive != null ? predictive : new ConfidenceInterval(
            thesis.interval().lower() * correction.appliedFactor(), thesis.interval().upper() * correction.appliedFactor(),
            thesis.interval().confidenceLevel(), thesis.interval().method() + ", scaled by the correction");
        final List<ConfidenceInterval> alternatives = new ArrayList<>();
        alternatives.add(relabel(thesis.interval(), "thesis, of the uncorrected mean " + millis(thesis.valueMillis())));
        alternatives.addAll(thesis.alternatives());
        final String description = correction.isSignificant() ? String.format(Locale.ROOT,
            "learned factor %.3f from %d windows of round trips that followed served means in this state",
            correction.factor(), correction.windows()) : String.format(Locale.ROOT,
            "thesis mean (the %d windows that followed show no significant difference: factor %.3f within two standard"
                + " errors of 1); interval predictive", correction.windows(), correction.factor());
        final List<String> notes = new ArrayList<>(thesis.notes());
        notes.add(description + "; thesis value " + millis(thesis.valueMillis()));
        return new Corrected(new Estimate(thesis.qos(), EstimateKind.AVERAGE, valueMillis, 0.0, interval, alternatives,
            thesis.basis(), notes, thesis.interpolated()), description);
    }

    static ConfidenceInterval relabel(final ConfidenceInterval interval, final String what) {
        return new ConfidenceInterval(interval.lower(), interval.upper(), interval.confidenceLevel(),
            interval.method() + " (" + what + ")");
    }

    static String millis(final double valueMillis) {
        return String.format(Locale.ROOT, "%.4f ms", valueMillis);
    }

    private static String plain(final double percent) {
        return java.math.BigDecimal.valueOf(percent).stripTrailingZeros().toPlainString();
    }
}
