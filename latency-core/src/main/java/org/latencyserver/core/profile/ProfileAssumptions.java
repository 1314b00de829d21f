package org.latencyserver.core.profile;

/**
 * What a profile assumes where its data are silent. The thesis published no standard deviations;
 * its section 4.2.4 assumes s = 5 ms for the QoS 1 confidence interval. A profile records such an
 * assumption here, as an assumption, and every estimate that leans on it says so.
 *
 * <p>Immutable and thread-safe.
 *
 * @param assumedStdDevMillis standard deviation to use for cells without one, ms, {@code > 0}; or null
 * @param note                where the assumption comes from
 */
public record ProfileAssumptions(Double assumedStdDevMillis, String note) {

    /**
     * @throws IllegalArgumentException when the standard deviation is not finite and positive
     */
    public ProfileAssumptions {
        if (assumedStdDevMillis != null && !(assumedStdDevMillis > 0 && Double.isFinite(assumedStdDevMillis))) {
            throw new IllegalArgumentException("assumed standard deviation must be finite and > 0 ms, was " + assumedStdDevMillis);
        }
    }
}
