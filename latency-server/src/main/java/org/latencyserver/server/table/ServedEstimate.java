package org.latencyserver.server.table;

import java.util.Objects;
import org.latencyserver.core.estimate.Estimate;
import org.latencyserver.core.histogram.LatencyHistogram;
import org.latencyserver.orb.EstimateSource;

/**
 * Where the served estimate comes from: the thesis's own estimate behind it, the histogram a bound
 * was read from (so the correction can read it again at another level), and the data's source and age.
 *
 * <p>Immutable and thread-safe.
 *
 * @param thesis          the thesis's estimate (what {@code calibration: thesis} serves), or null when none
 * @param reference       the histogram behind a bound, or null
 * @param source          where the data come from; {@link EstimateSource#NONE} when nothing is served
 * @param dataEpochMillis when the data were measured, epoch ms; 0 for a profile
 * @param correction      how the served value was corrected from the thesis's, or "" when it was not
 * @param composed        for a QoS 2 bound of a path with two or more loaded ports: both methods' values; else null
 */
public record ServedEstimate(Estimate thesis, LatencyHistogram reference, EstimateSource source, long dataEpochMillis,
                             String correction, ComposedBound composed) {

    /** An estimate of a path with at most one loaded port. */
    public ServedEstimate(final Estimate thesis, final LatencyHistogram reference, final EstimateSource source,
                          final long dataEpochMillis, final String correction) {
        this(thesis, reference, source, dataEpochMillis, correction, null);
    }

    /**
     * @throws NullPointerException when the source is missing (use {@link EstimateSource#NONE})
     */
    public ServedEstimate {
        Objects.requireNonNull(source, "source");
    }

    /** Nothing served yet. */
    public static final ServedEstimate NONE = new ServedEstimate(null, null, EstimateSource.NONE, 0, "");

    /**
     * @param newSource the source now that the load state changed
     * @return the same data under another source label
     */
    public ServedEstimate relabelled(final EstimateSource newSource) {
        return new ServedEstimate(thesis, reference, newSource, dataEpochMillis, correction, composed);
    }
}
