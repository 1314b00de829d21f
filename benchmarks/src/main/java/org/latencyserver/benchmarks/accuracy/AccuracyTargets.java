package org.latencyserver.benchmarks.accuracy;

/**
 * The targets ("Estimates that hold") and when a state has data enough to be judged: on loopback
 * ({@link #AccuracyTargets(int)}) or on the real network ({@link #realNetwork(int)}). A target that is NaN
 * is not judged (its figure is still printed).
 *
 * @param minBursts              minimum bursts (accuracy) or reads (availability) for a state to be judged
 * @param coverageTolerance      QoS 2/4: coverage within nominal ± this
 * @param maxBoundRatio          QoS 2/4: served bound at most this times the nominal percentile of what followed
 * @param maxMedianRelativeError QoS 1/3: median relative error of the mean per burst at most this
 * @param maxNoEstimateShare     no estimate for the current state at most this share of the time
 * @param maxPooledMeanError     QoS 1/3: |mean served / pooled mean of what followed − 1| at most this
 * @param maxOtherBandShare      a loaded port state served a value of another band at most this share of the time
 */
public record AccuracyTargets(int minBursts, double coverageTolerance, double maxBoundRatio, double maxMedianRelativeError,
                              double maxNoEstimateShare, double maxPooledMeanError, double maxOtherBandShare) {

    /**
     * The targets on loopback ({@code ./latency demo}).
     *
     * @param minBursts minimum bursts (accuracy) or reads (availability) for a state to be judged
     */
    public AccuracyTargets(final int minBursts) {
        this(minBursts, COVERAGE_TOLERANCE, MAX_BOUND_RATIO, MAX_MEDIAN_RELATIVE_ERROR, MAX_NO_ESTIMATE_SHARE, Double.NaN, Double.NaN);
    }

    /**
     * The targets on the real network ({@code ./latency demo --real-network}): coverage 96 ± 2 %, bound at most
     * 1.5 × the p96 of what followed, the served mean within ± 15 % of the pooled mean of what followed, and no loaded
     * port state ever served a value of another band. The per-burst median error and the share without an estimate
     * are printed, not judged.
     *
     * @param minBursts minimum bursts for a state to be judged
     * @return the targets
     */
    public static AccuracyTargets realNetwork(final int minBursts) {
        return new AccuracyTargets(minBursts, 0.02, 1.5, Double.NaN, Double.NaN, 0.15, 0.0);
    }

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
        return Math.abs(coverage.share() - nominal) <= coverageTolerance + 1e-12 ? Verdict.MET : Verdict.MISSED;
    }

    /** @return the verdict on a bound's ratio to the nominal percentile of what followed */
    public Verdict boundRatio(final StateAccuracy state, final double ratio) {
        if (state.bursts() < minBursts) {
            return Verdict.FEW_DATA;
        }
        return ratio <= maxBoundRatio ? Verdict.MET : Verdict.MISSED;
    }

    /** @return the verdict on a mean's median relative error */
    public Verdict meanError(final StateAccuracy state, final double medianRelativeError) {
        if (Double.isNaN(maxMedianRelativeError)) {
            return Verdict.NONE;
        }
        if (state.bursts() < minBursts) {
            return Verdict.FEW_DATA;
        }
        return medianRelativeError <= maxMedianRelativeError ? Verdict.MET : Verdict.MISSED;
    }

    /** @return the verdict on the share of time without an estimate for the state */
    public Verdict availability(final StateAccuracy state) {
        if (Double.isNaN(maxNoEstimateShare)) {
            return Verdict.NONE;
        }
        if (state.reads() < minBursts) {
            return Verdict.FEW_DATA;
        }
        return state.noEstimateShare() <= maxNoEstimateShare ? Verdict.MET : Verdict.MISSED;
    }

    /** @return the verdict on the served mean against the pooled mean of what followed ({@code servedOverPooled}) */
    public Verdict pooledMean(final StateAccuracy state, final double servedOverPooled) {
        if (Double.isNaN(maxPooledMeanError)) {
            return Verdict.NONE;
        }
        if (state.bursts() < minBursts) {
            return Verdict.FEW_DATA;
        }
        return Math.abs(servedOverPooled) <= maxPooledMeanError ? Verdict.MET : Verdict.MISSED;
    }

    /**
     * @return the verdict on the share of time a loaded port state was served a value of another band (reads); none
     *         where no read was served an estimate at all
     */
    public Verdict otherBand(final StateAccuracy state) {
        // nothing served (e.g. QoS 2 refused in a band its profile has no cell for): no value of any band to judge
        if (Double.isNaN(maxOtherBandShare) || !state.portLoaded() || state.noEstimateShare() >= 1.0) {
            return Verdict.NONE;
        }
        if (state.reads() < minBursts) {
            return Verdict.FEW_DATA;
        }
        return state.otherBandShare() <= maxOtherBandShare ? Verdict.MET : Verdict.MISSED;
    }
}
