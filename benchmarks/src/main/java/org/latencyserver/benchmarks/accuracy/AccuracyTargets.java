package org.latencyserver.benchmarks.accuracy;

/**
 * The targets ("Estimates that hold") and when a state has data enough to be judged.
 *
 * @param minBursts minimum bursts (accuracy) or reads (availability) for a state to be judged
 */
public record AccuracyTargets(int minBursts) {

    /** QoS 2/4: coverage within nominal ± this. */
    public static final double COVERAGE_TOLERANCE = 0.015;
    /** QoS 2/4: served bound at most this times the nominal percentile of what followed. */
    public static final double MAX_BOUND_RATIO = 1.3;
    /** QoS 1/3: median relative error of the mean at most this. */
    public static final double MAX_MEDIAN_RELATIVE_ERROR = 0.10;
    /** No estimate for the current state at most this share of the time. */
    public static final double MAX_NO_ESTIMATE_SHARE = 0.10;

    /** A verdict on one figure. */
    public enum Verdict {
        /** within the target */
        MET("met"),
        /** outside it */
        MISSED("MISSED"),
        /** too few bursts or reads to judge */
        FEW_DATA("few data"),
        /** no target for this figure */
        NONE("");

        private final String label;

        Verdict(final String label) {
            this.label = label;
        }

        /** @return as printed */
        public String label() {
            return label;
        }
    }

    /** @return the verdict on a bound's coverage */
    public Verdict coverage(final StateAccuracy state, final BlockCoverage coverage, final double nominal) {
        if (state.bursts() < minBursts) {
            return Verdict.FEW_DATA;
        }
        return Math.abs(coverage.share() - nominal) <= COVERAGE_TOLERANCE ? Verdict.MET : Verdict.MISSED;
    }

    /** @return the verdict on a bound's ratio to the nominal percentile of what followed */
    public Verdict boundRatio(final StateAccuracy state, final double ratio) {
        if (state.bursts() < minBursts) {
            return Verdict.FEW_DATA;
        }
        return ratio <= MAX_BOUND_RATIO ? Verdict.MET : Verdict.MISSED;
    }

    /** @return the verdict on a mean's median relative error */
    public Verdict meanError(final StateAccuracy state, final double medianRelativeError) {
        if (state.bursts() < minBursts) {
            return Verdict.FEW_DATA;
        }
        return medianRelativeError <= MAX_MEDIAN_RELATIVE_ERROR ? Verdict.MET : Verdict.MISSED;
    }

    /** @return the verdict on the share of time without an estimate for the state */
    public Verdict availability(final StateAccuracy state) {
        if (state.reads() < minBursts) {
            return Verdict.FEW_DATA;
        }
        return state.noEstimateShare() <= MAX_NO_ESTIMATE_SHARE ? Verdict.MET : Verdict.MISSED;
    }
}
