package org.latencyserver.core.calibration;

import java.util.Arrays;
import org.latencyserver.core.estimate.BurstMeanSpread;

/**
 * The online calibration, per load state, of the width of a QoS 3 prediction interval for the mean of
 * the application's next burst: split-conformal prediction on normalised errors, with the level it is
 * read at adapted as in adaptive conformal inference (Gibbs &amp; Candès 2021; as
 * {@link AdaptiveQuantileLevel} does for a bound), so that the long-run share of windows inside holds
 * at {@value #WINDOW_TARGET_INSIDE} even when the path drifts, and so, through the spread model, at
 * least {@value #TARGET_INSIDE} of the next bursts' means.
 *
 * <p>Every window of round trips that followed a served mean (a probe window or a measurement) gives a
 * score: its log error divided by the spread model's standard deviation of a log mean
 * ({@link BurstMeanSpread#logSd}) for a burst of the window's own length,
 * <pre>  score = |ln(window mean / served mean)| / √ln(1 + B + V/m + M)     (m = the window's round trips)</pre>
 * so that a probe window of m round trips stands for a burst of n by the model ({@link BurstMeanSpread}):
 * the round trips' own scatter scaled by the square root of the counts, the share that bursts have in
 * common (B) not scaled at all. The served interval for a burst of n is then
 * <pre>  served mean × exp(± w · √ln(1 + B + V/n + M)),   w = the (1 − α_t) conformal quantile of recent scores</pre>
 * and after each window {@code α_t ← α_t + γ (α − miss)}, where a miss is a score above the w served.
 *
 * <p>Immutable and thread-safe.
 *
 * @param scores       the last {@link RecentValues#CAPACITY} scores, oldest first
 * @param missFraction α_t: the width is the scores' (1 − α_t) conformal quantile
 * @param windows      windows judged against a calibrated width
 * @param inside       of those, windows whose score was at or below it (inside the burst-scaled interval)
 * @param meanSquaredLogError the weighted mean of {@code ln²(window mean / served mean)} over the windows
 * @param meanInverseRoundTrips the weighted mean of {@code 1 / m} over the same windows; with the one above it gives the
 *                     error windows — and so bursts — share whatever their length (the served mean's own error, spells
 *                     longer than the measurement's batches): {@code B = exp(mean ln²) − 1 − V·mean(1/m) − M}, to which the
 *                     model's B is raised
 * @param sharedWindows windows in those two means
 */
public record NextBurstWidth(RecentValues scores, double missFraction, long windows, long inside, double meanSquaredLogError,
                             double meanInverseRoundTrips, long sharedWindows) {

    /** The share of next-burst means the interval is meant to hold. */
    public static final double TARGET_INSIDE = 0.95;
    /**
     * The share of windows the adaptive level aims for: a point above {@link #TARGET_INSIDE}, since a probe window
     * stands for a burst of another length only through the spread model, and the margin covers that transfer (on
     * synthetic paths with correlated round trips, windows held at 95.0 % gave bursts of 50 93.8–94.8 %).
     */
    public static final double WINDOW_TARGET_INSIDE = 0.96;
    /** γ: the step of α_t per window. A miss lowers α_t by 0.0192, a hit raises it by 0.0008. */
    public static final double STEP_PER_WINDOW = 0.02;
    /** Scores needed before the calibrated width replaces the model's own quantile. */
    public static final int MIN_SCORES = 20;
    /** Lowest α_t: below 0 the largest recent score is served. */
    public static final double MIN_MISS_FRACTION = -0.1;
    /** Highest α_t: the width is never read below the 80 % quantile of the scores. */
    public static final double MAX_MISS_FRACTION = 0.2;

    /** Windows over which the means behind the shared variance are plain means; after them, EWMAs of that weight. */
    public static final int SHARED_MEMORY_WINDOWS = 50;

    /** Nothing learned. */
    public static final NextBurstWidth START = new NextBurstWidth(RecentValues.EMPTY, 1.0 - WINDOW_TARGET_INSIDE, 0, 0, 0.0, 0.0, 0);

    /** A width without a learned shared variance (as saved before it was kept). */
    public NextBurstWidth(final RecentValues scores, final double missFraction, final long windows, final long inside) {
        this(scores, missFraction, windows, inside, 0.0, 0.0, 0);
    }

    /**
     * @throws IllegalArgumentException on a missing part, a NaN α_t or inconsistent counts
     */
    public NextBurstWidth {
        if (scores == null || Double.isNaN(missFraction) || windows < 0 || inside < 0 || inside > windows
            || !(meanSquaredLogError >= 0) || Double.isInfinite(meanSquaredLogError) || !(meanInverseRoundTrips >= 0)
            || meanInverseRoundTrips > 1 || sharedWindows < 0) {
            throw new IllegalArgumentException("bad next-burst width: α " + missFraction + ", " + inside + " of " + windows
                + " windows inside");
        }
    }

    /**
     * @param servedMeanMillis the mean that was served, ms, {@code > 0}
     * @param windowMeanMillis the window's mean, ms, {@code > 0}
     * @param windowRoundTrips the window's round trips, {@code >= 1}
     * @param spread           the spread model the served interval was built with
     * @return the window's score (see above)
     */
    public static double score(final double servedMeanMillis, final double windowMeanMillis, final long windowRoundTrips,
                               final BurstMeanSpread spread) {
        if (!(servedMeanMillis > 0) || !(windowMeanMillis > 0) || Double.isInfinite(servedMeanMillis)
            || Double.isInfinite(windowMeanMillis)) {
            throw new IllegalArgumentException("means must be finite and > 0, were " + servedMeanMillis + " and "
                + windowMeanMillis);
        }
        final double sd = spread.logSd(windowRoundTrips);
        final double logError = Math.abs(Math.log(windowMeanMillis / servedMeanMillis));
        return sd > 0 ? logError / sd : logError == 0 ? 0.0 : Double.MAX_VALUE / 4;
    }

    /**
     * @param servedMeanMillis the mean that was served, ms
     * @param windowMeanMillis the window's mean, ms
     * @param windowRoundTrips the window's round trips
     * @param spread           the spread model the served interval was built with ({@link #spread})
     * @return the calibration after the window: its score judged and kept, the shared variance updated
     */
    public NextBurstWidth observe(final double servedMeanMillis, final double windowMeanMillis, final long windowRoundTrips,
                                  final BurstMeanSpread spread) {
        final double score = score(servedMeanMillis, windowMeanMillis, windowRoundTrips, spread);
        final double logError = Math.log(windowMeanMillis / servedMeanMillis);
        final double weight = 1.0 / Math.min(sharedWindows + 1, SHARED_MEMORY_WINDOWS);
        final double squared = meanSquaredLogError + weight * (logError * logError - meanSquaredLogError);
        final double inverse = meanInverseRoundTrips + weight * (1.0 / windowRoundTrips - meanInverseRoundTrips);
        final double width = widthFactor();
        if (Double.isNaN(width)) {
            return new NextBurstWidth(scores.add(score), missFraction, windows, inside, squared, inverse, sharedWindows + 1);
        }
        final boolean miss = score > width;
        final double next = missFraction + STEP_PER_WINDOW * ((1.0 - WINDOW_TARGET_INSIDE) - (miss ? 1.0 : 0.0));
        return new NextBurstWidth(scores.add(score), Math.max(MIN_MISS_FRACTION, Math.min(MAX_MISS_FRACTION, next)),
            windows + 1, inside + (miss ? 0 : 1), squared, inverse, sharedWindows + 1);
    }

    /**
     * @param model the state's model read from its measurement
     * @return the model to serve and judge with: its B raised to the shared variance learned here, once
     *         {@value #MIN_SCORES} windows were seen
     */
    public BurstMeanSpread spread(final BurstMeanSpread model) {
        if (sharedWindows < MIN_SCORES) {
            return model;
        }
        final double shared = Math.expm1(Math.min(meanSquaredLogError, 20.0)) - model.withinRelVariance() * meanInverseRoundTrips
            - model.meanRelVariance();
        return model.withSharedAtLeast(shared, "shared part learned from " + sharedWindows + " windows that followed");
    }

    /**
     * @return w, the multiple of the model's relative standard deviation to serve: the recent scores'
     *         conformal quantile at level {@code 1 − α_t} (the largest score when that level asks for more than
     *         they hold); NaN with fewer than {@value #MIN_SCORES} scores
     */
    public double widthFactor() {
        final int m = scores.size();
        if (m < MIN_SCORES) {
            return Double.NaN;
        }
        final double[] sorted = scores.toArray();
        Arrays.sort(sorted);
        final double level = 1.0 - missFraction;
        final int rank = (int) Math.ceil(level * (m + 1));
        return sorted[Math.max(0, Math.min(m, rank) - 1)];
    }

    /** @return the level the width is read at now, 1 − α_t (may exceed 1: the largest score is served) */
    public double level() {
        return 1.0 - missFraction;
    }

    /** @return share of windows inside the calibrated burst-scaled interval; NaN when none */
    public double insideFraction() {
        return windows == 0 ? Double.NaN : (double) inside / windows;
    }
}
