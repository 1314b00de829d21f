package org.latencyserver.server.engine;

import java.util.ArrayList;
import java.util.List;
import org.latencyserver.core.estimate.DeadlineMiss;
import org.latencyserver.core.estimate.DeadlineMissEstimator;
import org.latencyserver.core.estimate.Estimate;
import org.latencyserver.core.estimate.EstimateRefusedException;
import org.latencyserver.core.estimate.Measurement;
import org.latencyserver.core.estimate.PercentileEstimator;
import org.latencyserver.core.estimate.ProfileAverageEstimator;
import org.latencyserver.core.estimate.ProfileHistograms;
import org.latencyserver.core.histogram.LatencyHistogram;
import org.latencyserver.core.profile.Profile;
import org.latencyserver.server.table.ConnectionRow;

/**
 * Questions about a connection beyond its served estimate (a percentile, a deadline's miss
 * probability, another message size, the histogram itself), answered from its published row and
 * the published profiles. Decides which histogram stands behind a connection's estimate: its own
 * measurement (QoS 3/4; an adaptive connection's measurement in its current load state, else its
 * profile) or its profile's histogram for the current load state (QoS 1/2; none for a loaded port, which no CPU
 * cell covers).
 *
 * <p>Thread-safety: stateless over an {@link EngineQuery}; safe from any thread.
 */
public final class EstimateQuestions {

    private final EngineQuery query;

    /** @param query the published state */
    public EstimateQuestions(final EngineQuery query) {
        this.query = query;
    }

    /**
     * A histogram and what it is, for the basis of an answer drawn from it.
     *
     * @param histogram the round trips, ns
     * @param basis     where they come from, e.g. "the last measurement of connection 3"
     * @param effectiveSampleCount the samples its intervals rest on: its own count, or for a composed path the fewest
     *                  samples behind any part
     */
    public record SourcedHistogram(LatencyHistogram histogram, String basis, long effectiveSampleCount) {

        /** A histogram of real samples. */
        public SourcedHistogram(final LatencyHistogram histogram, final String basis) {
            this(histogram, basis, histogram.totalCount());
        }
    }

    /**
     * @param row a published row
     * @return the histogram behind the connection's estimate, or why there is none
     */
    public Answer<SourcedHistogram> histogramBehind(final ConnectionRow row) {
        final short indexRef = row.spec().indexRef();
        if (row.spec().isMeasured()) {
            if (row.spec().isAdaptive()) {
                // The current load state's own last measurement; in a state never measured, the profile as for QoS 1/2.
                final Measurement own = row.currentKnowledge().lastMeasurement();
                if (own != null) {
                    return Answer.found(new SourcedHistogram(own.histogram(),
                        "the last measurement of connection " + indexRef + " in its current load state"));
                }
                if (row.spec().profileName() == null) {
                    return Answer.unavailable("connection " + indexRef + " has not been measured in its current load"
                        + " state yet, and has no profile to fall back on");
                }
            } else if (row.measurement() == null) {
                return Answer.unavailable("connection " + indexRef + " has not been measured yet");
            } else {
                return Answer.found(new SourcedHistogram(row.measurement().histogram(),
                    "the last measurement of connection " + indexRef));
            }
        }
        if (!row.load().isKnown()) {
            return Answer.unavailable("CPU state unknown: no profile cell applies");
        }
        return profileOf(row).then(profile -> cellHistogram(row, profile));
    }

    private Answer<SourcedHistogram> cellHistogram(final ConnectionRow row, final Profile profile) {
        try {
            // A composed path's convolution as the update thread kept it, else computed here (not kept: readers do not write).
            final ProfileHistograms.StateHistogram kept = query.pathHistograms().find(profile, row.load(),
                row.spec().messageSizeBytes());
            final ProfileHistograms.StateHistogram state = kept != null ? kept : ProfileHistograms.forState(profile, row.load(),
                row.spec().messageSizeBytes());
            return Answer.found(new SourcedHistogram(state.histogram(), state.basis(), state.effectiveSampleCount()));
        } catch (EstimateRefusedException e) {
            return Answer.unavailable(e.getMessage());
        }
    }

    /**
     * @param row        a published row
     * @param percentile in (0, 100] (the caller checks it)
     * @return the latency at that percentile of the histogram behind the estimate, or why there is none
     */
    public Answer<Estimate> atPercentile(final ConnectionRow row, final double percentile) {
        return histogramBehind(row).then(source -> {
            try {
                return Answer.found(PercentileEstimator.atPercentile(row.spec().qos(), source.histogram(), percentile,
                    source.basis(), source.effectiveSampleCount()));
            } catch (EstimateRefusedException e) {
                return Answer.unavailable(e.getMessage());
            }
        });
    }

    /**
     * @param row            a published row
     * @param deadlineMillis finite and above 0 (the caller checks it)
     * @return the probability of missing the deadline, its last note naming the histogram; or why there is none
     */
    public Answer<DeadlineMiss> deadlineMiss(final ConnectionRow row, final double deadlineMillis) {
        return histogramBehind(row).then(source -> {
            try {
                final DeadlineMiss miss = DeadlineMissEstimator.estimate(source.histogram(), deadlineMillis,
                    source.effectiveSampleCount());
                final List<String> notes = new ArrayList<>(miss.notes());
                notes.add("from " + source.basis());
                return Answer.found(new DeadlineMiss(miss.deadlineMillis(), miss.missProbability(), miss.interval(), notes));
            } catch (EstimateRefusedException e) {
                return Answer.unavailable(e.getMessage());
            }
        });
    }

    /**
     * @param row              a published row
     * @param messageSizeBytes at least 1 (the caller checks it)
     * @return the profile's mean for that size in the connection's load state, or why there is none
     */
    public Answer<Estimate> forSize(final ConnectionRow row, final int messageSizeBytes) {
        return profileOf(row).then(profile -> {
            try {
                return Answer.found(ProfileAverageEstimator.estimateForSize(profile, row.load(), messageSizeBytes));
            } catch (EstimateRefusedException e) {
                return Answer.unavailable(e.getMessage());
            }
        });
    }

    private Answer<Profile> profileOf(final ConnectionRow row) {
        if (row.spec().profileName() == null) {
            return Answer.unavailable("connection " + row.spec().indexRef() + " (QoS " + row.spec().qos()
                + ") has no profile configured");
        }
        final Profile profile = query.profiles().get(row.spec().profileName());
        if (profile == null) {
            return Answer.unavailable("profile '" + row.spec().profileName() + "' is not loaded");
        }
        return Answer.found(profile);
    }
}
