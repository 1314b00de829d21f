package org.latencyserver.core.size;

import java.util.Locale;
import org.latencyserver.core.stats.ConfidenceInterval;

/**
 * A mean round trip for one message size from a {@link LatencySizeModel}: the profile cell's own
 * mean when the size was profiled, otherwise read off the fitted latency-vs-size line and labelled
 * interpolated (between the profiled sizes) or extrapolated (beyond them).
 *
 * <p>Immutable and thread-safe.
 *
 * @param messageSizeBytes the size asked for, {@code >= 1}
 * @param meanMillis       the mean round trip, ms: the cell's mean for {@link Kind#EXACT}, the
 *                         line's value otherwise
 * @param kind             EXACT, INTERPOLATED or EXTRAPOLATED
 * @param interval         95 % interval of the mean, ms; its {@link ConfidenceInterval#method()}
 *                         says which (thesis Eq. 1 for a profiled cell, the fit's prediction
 *                         interval for a size read off the line)
 * @param rSquared         R² of the line fitted to the CPU pair's cells, in [0, 1]; reported for
 *                         every kind so a reader can judge the line
 * @param fit              the fitted line in words, e.g. {@code "t = 1.1 ms + 0.00031 ms/B x size"}
 */
public record SizeEstimate(int messageSizeBytes, double meanMillis, Kind kind, ConfidenceInterval interval,
                           double rSquared, String fit) {

    /** How the mean was obtained. */
    public enum Kind {
        /** The size was profiled: the cell's mean. */
        EXACT,
        /** Between the smallest and largest profiled sizes: read off the line. */
        INTERPOLATED,
        /** Below the smallest or above the largest profiled size: read off the line, less certain. */
        EXTRAPOLATED
    }

    /**
     * @throws IllegalArgumentException when a value is out of range or a part missing
     */
    public SizeEstimate {
        if (messageSizeBytes < 1 || !Double.isFinite(meanMillis) || kind == null || interval == null
            || !(rSquared >= 0 && rSquared <= 1) || fit == null) {
            throw new IllegalArgumentException("size estimate out of range: " + messageSizeBytes + " B, mean " + meanMillis
                + " ms, " + kind + ", R^2 " + rSquared);
        }
    }

    /** @return true when read off the line beyond the profiled sizes */
    public boolean extrapolated() {
        return kind == Kind.EXTRAPOLATED;
    }

    /** @return true when read off the line (interpolated or extrapolated), not a profiled cell */
    public boolean fromLine() {
        return kind != Kind.EXACT;
    }

    /**
     * @return for an estimate's notes: {@code "interpolated between the profiled sizes by the
     *         least-squares line t = ... (R^2 0.998)"}, {@code "extrapolated beyond ..."}, or
     *         {@code "profiled size: the cell's mean"}
     */
    public String label() {
        final String line = String.format(Locale.ROOT, "the least-squares line %s (R^2 %.4f)", fit, rSquared);
        switch (kind) {
            case INTERPOLATED:
                return "interpolated between the profiled sizes by " + line;
            case EXTRAPOLATED:
                return "extrapolated beyond the profiled sizes by " + line;
            default:
                return "profiled size: the cell's mean (" + line + " not used)";
        }
    }
}
