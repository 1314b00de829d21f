package org.latencyserver.server.table;

import org.latencyserver.core.estimate.Estimate;
import org.latencyserver.core.histogram.LatencyHistogram;

/**
 * Where the served estimate comes from: the thesis's own estimate behind it, the histogram a bound
 * was read from (so the correction can read it again at another level), and the data's source and age.
 *
 * <p>Immutable and thread-safe.
 *
 * @param thesis          the thesis's estimate (what {@code calibration: thesis} serves), or null when none
 * @param reference       the histogram behind a bound, or null
 * @param source          {@link #MEASUREMENT}, {@link #REMEMBERED}, {@link #BAND_PROBES}, {@link #PROFILE},
 *                        {@link #PROFILE_FALLBACK}, {@link #PREVIOUS_STATE}, or {@link #NOT_SERVED}
 * @param dataEpochMillis when the data were measured, epoch ms; 0 for a profile
 * @param correction      how the served value was corrected from the thesis's, or "" when it was not
 */
public record ServedEstimate(Estimate thesis, LatencyHistogram reference, String source, long dataEpochMillis,
                             String correction) {

    /** A measurement of the current load state. */
    public static final String MEASUREMENT = "measurement";
    /** The last measurement of the current load state, taken when the connection was last in it. */
    public static final String REMEMBERED = "remembered measurement";
    /**
     * On a loaded port (a band, or saturated): the connection's own probe windows of the current port state, CPU
     * states pooled — what the queue does now; {@code dataEpochMillis} is the newest window's time.
     */
    public static final String BAND_PROBES = "band probes";
    /** A profile cell of the current load state. */
    public static final String PROFILE = "profile";
    /** A measured connection in a load state it was never measured in: its profile's cell. */
    public static final String PROFILE_FALLBACK = "profile fallback";
    /** Thesis semantics: what was measured in the previous load state, until the new measurement. */
    public static final String PREVIOUS_STATE = "previous state's measurement";
    /** Nothing served. */
    public static final String NOT_SERVED = "";

    /** Nothing served yet. */
    public static final ServedEstimate NONE = new ServedEstimate(null, null, NOT_SERVED, 0, "");

    /**
     * @param newSource the source now that the load state changed
     * @return the same data under another source label
     */
    public ServedEstimate relabelled(final String newSource) {
        return new ServedEstimate(thesis, reference, newSource, dataEpochMillis, correction);
    }
}
