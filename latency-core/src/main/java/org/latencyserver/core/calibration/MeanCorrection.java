package org.latencyserver.core.calibration;

import org.latencyserver.core.stats.ConfidenceInterval;

/**
 * The correction of a served mean (QoS 1, 3) for the messages that follow, learned from windows of
 * probe round trips: a multiplicative factor {@code exp(μ + σ²/2)}, where μ is the exponentially
 * weighted mean of {@code ln(window mean / thesis mean)} and σ² their weighted variance, so that a
 * measurement taken in a quieter spell, or a profile measured on another day, is pulled to what the
 * path does now. The {@code σ²/2} term makes it the factor of the windows' <em>arithmetic</em> mean —
 * the pooled mean of the round trips that follow — rather than of their geometric mean, which lies
 * below it by about {@code σ²/2} where window means scatter widely (a heavy-tailed path). And a predictive interval
 * for the next window's mean, whose width is the conformal 95 % quantile of the last served means'
 * log errors {@code |ln(window mean / served mean)|} (split conformal prediction on residuals).
 *
 * <p>The factor is applied only when it is significant: when {@code μ + σ²/2}
 * lies more than two standard errors of μ from 0 (the standard error of an exponentially
 * weighted mean of a stationary stream is {@code σ √(λ / (2 − λ))}). A stationary path whose thesis
 * mean is right gives log ratios scattered around 0, so the thesis's mean is served as it is, not
 * pushed about by the scatter of a few windows.
 *
 * <p>Immutable and thread-safe.
 *
 * @param logFactor     the EWMA of ln(window mean / thesis mean)
 * @param logSquareMean the EWMA of its square, for the scatter of the log ratios
 * @param windows       windows observed
 * @param logResiduals  recent ln(window mean / served mean), for the interval
 */
public record MeanCorrection(double logFactor, double logSquareMean, long windows, RecentValues logResiduals) {

    /** Nothing learned: factor 1. */
    public static final MeanCorrection NONE = new MeanCorrection(0.0, 0.0, 0, RecentValues.EMPTY);
    /** Windows before a factor may be applied at all. */
    public static final int MIN_WINDOWS_FOR_FACTOR = 5;
    /** Standard errors the weighted mean of the log ratios must lie from 0 for the factor to apply. */
    public static final double SIGNIFICANCE_STANDARD_ERRORS = 2.0;

    /** EWMA weight of a full window (one of at least {@value #FULL_WINDOW_ROUND_TRIPS} round trips). */
    public static final double SMOOTHING = 0.1;
    /** Round trips at which a window gets the full weight; smaller ones weigh proportionally less. */
    public static final int FULL_WINDOW_ROUND_TRIPS = 8;
    /** Residuals needed before the predictive interval replaces the thesis's. */
    public static final int MIN_RESIDUALS_FOR_INTERVAL = 20;
    /** The interval's method, as clients see it. */
    public static final String INTERVAL_METHOD = "predictive, next window's mean (conformal on recent errors)";

    /**
     * @throws IllegalArgumentException on a non-finite factor or negative count
     */
    public MeanCorrection {
        if (!Double.isFinite(logFactor) || !(logSquareMean >= 0) || Double.isInfinite(logSquareMean) || windows < 0
            || logResiduals == null) {
            throw new IllegalArgumentException("bad mean correction: log factor " + logFactor + ", windows " + windows);
        }
    }

    /**
     * @param thesisMeanMillis the uncorrected mean that was being served's basis, ms, {@code > 0}
     * @param servedMeanMillis the mean that was served, ms, {@code > 0}
     * @param windowMeanMillis the mean of the window's round trips, ms, {@code > 0}
     * @param windowRoundTrips round trips in the window, {@code >= 1}
     * @return the correction after the window
     */
    public MeanCorrection observe(final double thesisMeanMillis, final double servedMeanMillis, final double windowMeanMillis,
                                  final long windowRoundTrips) {
        if (!(thesisMeanMillis > 0) || !(servedMeanMillis > 0) || !(windowMeanMillis > 0) || windowRoundTrips < 1
            || !Double.isFinite(thesisMeanMillis) || !Double.isFinite(servedMeanMillis) || !Double.isFinite(windowMeanMillis)) {
            throw new IllegalArgumentException("bad window: thesis " + thesisMeanMillis + " ms, served " + servedMeanMillis
                + " ms, window " + windowMeanMillis + " ms of " + windowRoundTrips);
        }
        final double weight = SMOOTHING * Math.min(1.0, (double) windowRoundTrips / FULL_WINDOW_ROUND_TRIPS);
        final double logRatio = Math.log(windowMeanMillis / thesisMeanMillis);
        final double nextLogFactor = logFactor + weight * (logRatio - logFactor);
        final double nextLogSquareMean = logSquareMean + weight * (logRatio * logRatio - logSquareMean);
        return new MeanCorrection(nextLogFactor, nextLogSquareMean, windows + 1,
            logResiduals.add(Math.log(windowMeanMillis / servedMeanMillis)));
    }

    /** @return the learned factor, {@code exp(μ + σ²/2)} (see above), whether significant or not */
    public double factor() {
        return Math.exp(arithmeticLogFactor());
    }

    /** @return {@code μ + σ²/2}: the log of the windows' arithmetic mean over the thesis mean, for lognormal window means */
    public double arithmeticLogFactor() {
        return logFactor + 0.5 * logVariance();
    }

    private double logVariance() {
        return Math.max(0.0, logSquareMean - logFactor * logFactor);
    }

    /** @return the factor to serve: {@link #factor()} when significant (see above), else 1 */
    public double appliedFactor() {
        return isSignificant() ? factor() : 1.0;
    }

    /** @return whether the learned factor lies clearly away from 1 */
    public boolean isSignificant() {
        if (windows < MIN_WINDOWS_FOR_FACTOR) {
            return false;
        }
        final double standardError = Math.sqrt(logVariance() * SMOOTHING / (2 - SMOOTHING));
        return Math.abs(arithmeticLogFactor()) > SIGNIFICANCE_STANDARD_ERRORS * standardError;
    }

    /**
     * @param servedMeanMillis the mean about to be served, ms
     * @param confidenceLevel  e.g. 0.95
     * @return the predictive interval of the next window's mean, ms; null until
     *         {@value #MIN_RESIDUALS_FOR_INTERVAL} windows were seen
     */
    public ConfidenceInterval predictiveInterval(final double servedMeanMillis, final double confidenceLevel) {
        if (logResiduals.size() < MIN_RESIDUALS_FOR_INTERVAL) {
            return null;
        }
        final double[] absolute = logResiduals.toArray();
        for (int i = 0; i < absolute.length; i++) {
            absolute[i] = Math.abs(absolute[i]);
        }
        final double halfWidthLog = RecentValues.of(absolute).conformalQuantile(confidenceLevel);
        if (!Double.isFinite(halfWidthLog)) {
            return null;
        }
        return new ConfidenceInterval(servedMeanMillis * Math.exp(-halfWidthLog), servedMeanMillis * Math.exp(halfWidthLog),
            confidenceLevel, INTERVAL_METHOD);
    }
}
