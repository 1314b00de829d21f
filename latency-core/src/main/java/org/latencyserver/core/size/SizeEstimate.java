package org.latencyserver.core.size;

import org.latencyserver.core.stats.ConfidenceInterval;

/**
 * A mean round trip read off the latency-vs-size line.
 *
 * <p>Immutable and thread-safe.
 *
 * @param messageSizeBytes the size asked for
 * @param meanMillis       the fitted mean, ms
 * @param interval         the 95 % interval of the fitted mean, ms (from the fit's residuals)
 * @param extrapolated     true beyond the profiled sizes, false between them
 */
public record SizeEstimate(int messageSizeBytes, double meanMillis, ConfidenceInterval interval, boolean extrapolated) {

    /** @return "interpolated ..." or "extrapolated ...", for the estimate's notes */
    public String label() {
        return (extrapolated ? "extrapolated beyond" : "interpolated between") + " the profiled sizes by the fitted "
            + "latency-vs-size line";
    }
}
