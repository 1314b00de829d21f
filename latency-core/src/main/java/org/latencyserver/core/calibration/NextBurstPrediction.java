package org.latencyserver.core.calibration;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.latencyserver.core.estimate.BurstMeanSpread;
import org.latencyserver.core.estimate.Estimate;
import org.latencyserver.core.estimate.EstimateKind;
import org.latencyserver.core.stats.ConfidenceInterval;

/**
 * What an adaptive QoS 3 connection serves: the measured mean, corrected by the state's
 * {@link MeanCorrection}, with a 95 % <em>prediction interval for the mean of the application's next burst</em>
 * of {@code n} round trips — what a deadline needs — instead of the thesis's confidence interval of the
 * mean (Eq. 1), which says how well a thousand past round trips pin their own mean down and held
 * about three in four of the following bursts' means.
 *
 * <pre>  served mean × exp(± w · √ln(1 + B + V/n + M))</pre>
 * with {@code B, V, M} the state's {@link BurstMeanSpread} (from its last measurement), and {@code w}
 * the state's {@link NextBurstWidth} once {@value NextBurstWidth#MIN_SCORES} windows followed served
 * means there, never below the model's own Student's t quantile; before that, that quantile. The thesis's interval stays among
 * the alternatives, labelled "confidence interval of the mean (Eq. 1)"; beside it, the model's
 * uncalibrated prediction interval once a calibrated one is served.
 *
 * <p>Stateless and thread-safe.
 */
public final class NextBurstPrediction {

    /** The start of the served interval's method; the burst length and how its width was had follow. */
    public static final String METHOD = "prediction interval for the mean of the next burst of ";
    /** The label the thesis's own interval carries among the alternatives. */
    public static final String THESIS_LABEL = "confidence interval of the mean (Eq. 1)";

    private NextBurstPrediction() {
    }

    /**
     * @param thesis          the thesis's QoS 3 estimate (a measured mean with its Eq. 1 interval)
     * @param knowledge       what was learned in its load state
     * @param burstRoundTrips n, the application's burst length, {@code >= 1}
     * @return the estimate to serve and how it was corrected
     */
    public static EstimateCorrection.Corrected serve(final Estimate thesis, final StateKnowledge knowledge,
                                                     final int burstRoundTrips) {
        return serve(thesis, knowledge, burstRoundTrips, RecentValues.EMPTY);
    }

    /**
     * As {@link #serve(Estimate, StateKnowledge, int)}; a state with fewer than {@value NextBurstWidth#MIN_SCORES} scores
     * of its own takes its width from the connection's states pooled, once they hold as many: their
     * {@value NextBurstWidth#WINDOW_TARGET_INSIDE} conformal quantile (a normalised error is much the same from state to
     * state), never below the model's own quantile.
     *
     * @param pooledScores the recent scores of all the connection's load states
     * @return the estimate to serve and how it was corrected
     */
    public static EstimateCorrection.Corrected serve(final Estimate thesis, final StateKnowledge knowledge,
                                                     final int burstRoundTrips, final RecentValues pooledScores) {
        if (thesis.kind() != EstimateKind.AVERAGE) {
            throw new IllegalArgumentException("a next-burst prediction is of a mean, not a " + thesis.kind());
        }
        if (burstRoundTrips < 1) {
            throw new IllegalArgumentException("a burst has at least 1 round trip, was " + burstRoundTrips);
        }
        final MeanCorrection correction = knowledge.meanCorrection();
        final double valueMillis = thesis.valueMillis() * correction.appliedFactor();
        final BurstMeanSpread spread = knowledge.burstSpread();
        final double sd = spread.logSd(burstRoundTrips);
        final NextBurstWidth width = knowledge.burstWidth();
        final double modelQuantile = spread.quantile(Estimate.CONFIDENCE_LEVEL);
        // Never below the model's own quantile: a window stands for a burst of another length only through the model,
        // and a long burst's mean is nearer normal than a short window's, whose scores' quantile may read low.
        final double calibrated = Math.max(width.widthFactor(), modelQuantile);
        final double pooled = Double.isNaN(calibrated) && pooledScores.size() >= NextBurstWidth.MIN_SCORES
            ? Math.max(finiteQuantile(pooledScores, NextBurstWidth.WINDOW_TARGET_INSIDE), modelQuantile) : Double.NaN;
        final String what = METHOD + burstRoundTrips + " round trips";
        final ConfidenceInterval model = around(valueMillis, modelQuantile * sd, String.format(Locale.ROOT,
            "%s (spread model of %s, Student's t; not calibrated)", what, spread.basis()));
        final ConfidenceInterval interval = !Double.isNaN(pooled) ? around(valueMillis, pooled * sd, String.format(Locale.ROOT,
            "%s (spread model of %s; width from the %d recent windows of all load states: this one has %d of %d yet)", what,
            spread.basis(), pooledScores.size(), width.scores().size(), NextBurstWidth.MIN_SCORES))
            : Double.isNaN(calibrated) ? new ConfidenceInterval(model.lower(), model.upper(),
            model.confidenceLevel(), String.format(Locale.ROOT, "%s (spread model of %s, Student's t; %d of %d windows that"
                + " calibrate its width followed in this state)", what, spread.basis(), width.scores().size(),
                NextBurstWidth.MIN_SCORES))
            : around(valueMillis, calibrated * sd, String.format(Locale.ROOT,
                "%s (spread model of %s; width calibrated on the last %d windows that followed in this state, read at"
                    + " %.1f %%)", what, spread.basis(), width.scores().size(), 100 * Math.min(1.0, width.level())));
        final List<ConfidenceInterval> alternatives = new ArrayList<>();
        alternatives.add(EstimateCorrection.relabel(thesis.interval(), THESIS_LABEL + ", of the uncorrected mean "
            + EstimateCorrection.millis(thesis.valueMillis())));
        if (!Double.isNaN(calibrated) || !Double.isNaN(pooled)) {
            alternatives.add(model);
        }
        alternatives.addAll(thesis.alternatives());
        final String meanPart = correction.windows() == 0 ? "thesis mean (no round trips followed in this state yet)"
            : correction.isSignificant() ? String.format(Locale.ROOT,
                "learned factor %.3f from %d windows of round trips that followed served means in this state",
                correction.appliedFactor(), correction.windows())
            : String.format(Locale.ROOT, "thesis mean (the %d windows that followed show no significant difference:"
                + " factor %.3f within two standard errors of 1)", correction.windows(), correction.factor());
        final String description = meanPart + "; interval: " + what;
        final List<String> notes = new ArrayList<>(thesis.notes());
        notes.add(description + "; thesis value " + EstimateCorrection.millis(thesis.valueMillis()));
        notes.add(String.format(Locale.ROOT, "the interval is a 95 %% prediction interval for the mean of the next burst of"
            + " %d round trips (a deadline for such a burst), not a confidence interval of the mean", burstRoundTrips));
        return new EstimateCorrection.Corrected(new Estimate(thesis.qos(), EstimateKind.AVERAGE, valueMillis, 0.0, interval,
            alternatives, thesis.basis(), notes, thesis.interpolated()), description);
    }

    /** @return the scores' conformal quantile at {@code level}, or their largest when the level asks for more */
    private static double finiteQuantile(final RecentValues scores, final double level) {
        final double quantile = scores.conformalQuantile(level);
        if (Double.isFinite(quantile)) {
            return quantile;
        }
        double largest = 0;
        for (final double score : scores.toArray()) {
            largest = Math.max(largest, score);
        }
        return largest;
    }

    /** {@code value × exp(± halfWidthLog)}: multiplicative, so that its lower end stays above 0. */
    private static ConfidenceInterval around(final double valueMillis, final double halfWidthLog, final String method) {
        return new ConfidenceInterval(valueMillis * Math.exp(-halfWidthLog), valueMillis * Math.exp(halfWidthLog),
            Estimate.CONFIDENCE_LEVEL, method);
    }
}
