package org.latencyserver.core.calibration;

import java.util.Locale;

/**
 * Tells when a served estimate no longer holds, from the probe stream, with Page's CUSUM:
 * <ul>
 * <li>for a bound: a Bernoulli CUSUM on misses, testing the nominal miss rate {@code p0} against
 *     {@code p1 = 2 p0}: each round trip adds {@code ln(p1/p0)} when it missed and
 *     {@code ln((1−p1)/(1−p0))} when it did not; the score never falls below 0, and an alarm
 *     is raised above {@value #MISS_THRESHOLD} (about 12 more misses than nominal in a row of
 *     windows);</li>
 * <li>for a mean: a two-sided CUSUM on the standardised log error {@code z} of each window's mean
 *     against the served mean (scale: the median absolute recent log error × 1.4826), with
 *     reference {@value #MEAN_REFERENCE} and threshold {@value #MEAN_THRESHOLD} (an average run of
 *     about 465 windows between false alarms on a normal stream).</li>
 * </ul>
 * After an alarm the caller {@linkplain #reset() resets} the scores (a new measurement follows).
 *
 * <p>Immutable and thread-safe.
 *
 * @param missScore Bernoulli CUSUM score, {@code >= 0}
 * @param upScore   CUSUM of means above the served one, {@code >= 0}
 * @param downScore CUSUM of means below it, {@code >= 0}
 * @param alarm     why the last observation raised an alarm, or null
 */
public record DriftDetector(double missScore, double upScore, double downScore, String alarm) {

    /** No evidence. */
    public static final DriftDetector QUIET = new DriftDetector(0, 0, 0, null);
    /** Alarm threshold of the miss CUSUM. */
    public static final double MISS_THRESHOLD = 8.0;
    /** Reference value k of the mean CUSUM, in standard units. */
    public static final double MEAN_REFERENCE = 0.5;
    /** Alarm threshold h of the mean CUSUM, in standard units. */
    public static final double MEAN_THRESHOLD = 5.0;

    /**
     * @param roundTrips       round trips of the window, {@code >= 0}
     * @param misses           those above the served bound
     * @param targetMissFraction the nominal miss rate p0, in (0, 0.5)
     * @return the detector after the window; {@link #alarm()} says whether it fired
     */
    public DriftDetector observeMisses(final long roundTrips, final long misses, final double targetMissFraction) {
        final double p0 = targetMissFraction;
        final double p1 = Math.min(0.999, 2 * p0);
        final double score = Math.max(0.0, missScore + misses * Math.log(p1 / p0)
            + (roundTrips - misses) * Math.log((1 - p1) / (1 - p0)));
        final String reason = score > MISS_THRESHOLD ? String.format(Locale.ROOT,
            "drift: served bound missed too often (Bernoulli CUSUM %.1f > %.1f, nominal miss rate %.1f %%)", score,
            MISS_THRESHOLD, p0 * 100) : null;
        return new DriftDetector(score, upScore, downScore, reason);
    }

    /**
     * @param logError ln(window mean / served mean)
     * @param scale    the log errors' robust standard deviation, {@code > 0}; when not, nothing changes
     * @return the detector after the window
     */
    public DriftDetector observeMean(final double logError, final double scale) {
        if (!(scale > 0) || !Double.isFinite(logError)) {
            return new DriftDetector(missScore, upScore, downScore, null);
        }
        final double z = logError / scale;
        final double up = Math.max(0.0, upScore + z - MEAN_REFERENCE);
        final double down = Math.max(0.0, downScore - z - MEAN_REFERENCE);
        final String reason = up > MEAN_THRESHOLD || down > MEAN_THRESHOLD ? String.format(Locale.ROOT,
            "drift: round trips %s than the served mean (CUSUM %.1f > %.1f)", up > MEAN_THRESHOLD ? "slower" : "faster",
            Math.max(up, down), MEAN_THRESHOLD) : null;
        return new DriftDetector(missScore, up, down, reason);
    }

    /** @return the scores cleared, after an alarm has been acted on */
    public DriftDetector reset() {
        return QUIET;
    }
}
