package org.latencyserver.benchmarks.accuracy;

/**
 * The targets every application shape is judged against, and when a load state has bursts enough to be judged.
 * QoS 2 and 4: pooled coverage within nominal ± {@code pooledTolerance}; per state, the point within nominal ±
 * {@code statePointTolerance} and the block 95 % interval overlapping nominal ± {@code stateIntervalTolerance}; served
 * bound at most {@code maxBoundRatio} × the true nominal percentile of what followed. QoS 1 and 3: per served mean, its
 * error against the pooled mean of what followed, median over served means, at most {@code maxServedMeanError}; the
 * share of next-burst means inside the served interval at least {@code minInsideShare}.
 *
 * <p>Immutable and thread-safe.
 *
 * @param minBursts              bursts a state needs to be judged (the pooled row too)
 * @param pooledTolerance        pooled coverage: point within nominal ± this
 * @param statePointTolerance    per state: point within nominal ± this
 * @param stateIntervalTolerance per state: the block 95 % interval overlaps nominal ± this
 * @param maxBoundRatio          served bound over the true nominal percentile of what followed, at most
 * @param maxServedMeanError     median over served means of the error against what followed, at most
 * @param minInsideShare         share of next-burst means inside the served interval, at least
 */
public record ShapeTargets(int minBursts, double pooledTolerance, double statePointTolerance, double stateIntervalTolerance,
                           double maxBoundRatio, double maxServedMeanError, double minInsideShare) {

    /** Bursts a load state needs to be judged, by default. */
    public static final int DEFAULT_MIN_BURSTS = 40;

    /**
     * The targets on loopback: pooled 96 ± 1.5, per state point 96 ± 2.5 and interval overlapping 96 ± 1.5, bound ≤ 1.3 ×
     * the true p96, served mean within 10 %, next-burst means inside the served interval ≥ 90 %.
     *
     * @param minBursts bursts a state needs to be judged
     * @return the targets
     */
    public static ShapeTargets loopback(final int minBursts) {
        return new ShapeTargets(minBursts, 0.015, 0.025, 0.015, 1.3, 0.10, 0.90);
    }

    /**
     * The targets on the real network, as wide as {@link AccuracyTargets#realNetwork}: pooled 96 ± 2, per state point
     * 96 ± 3 and interval overlapping 96 ± 2, bound ≤ 1.5 × p96, served mean within 15 %, inside ≥ 90 %.
     *
     * @param minBursts bursts a state needs to be judged
     * @return the targets
     */
    public static ShapeTargets realNetwork(final int minBursts) {
        return new ShapeTargets(minBursts, 0.02, 0.03, 0.02, 1.5, 0.15, 0.90);
    }

    /** A verdict on one figure. */
    public enum Verdict {
        /** within the target */
        PASS,
        /** outside it */
        MISS,
        /** too few bursts to judge */
        FEW_DATA,
        /** nothing to judge (no figure) */
        NONE;

        /** @return as printed */
        public String label() {
            return switch (this) {
                case PASS -> "PASS";
                case MISS -> "MISS";
                case FEW_DATA -> "few data";
                case NONE -> "";
            };
        }
    }

    /** @return the pooled coverage's verdict: point within nominal ± {@link #pooledTolerance} */
    public Verdict pooledCoverage(final StateAccuracy pooled) {
        return judge(pooled, coveragePoint(pooled) <= pooledTolerance + 1e-12);
    }

    /** @return a state's point within nominal ± {@link #statePointTolerance} */
    public Verdict statePoint(final StateAccuracy state) {
        return judge(state, coveragePoint(state) <= statePointTolerance + 1e-12);
    }

    /** @return a state's block interval overlapping nominal ± {@link #stateIntervalTolerance} */
    public Verdict stateInterval(final StateAccuracy state) {
        if (state.bound() == null || Double.isNaN(state.bound().served().lower())) {
            return state.bursts() < minBursts ? Verdict.FEW_DATA : Verdict.NONE;
        }
        final double nominal = state.bound().nominal();
        final BlockCoverage coverage = state.bound().served();
        return judge(state, coverage.lower() <= nominal + stateIntervalTolerance + 1e-12
            && coverage.upper() >= nominal - stateIntervalTolerance - 1e-12);
    }

    /** @return served bound over the true nominal percentile at most {@link #maxBoundRatio} */
    public Verdict boundRatio(final StateAccuracy state) {
        return state.bound() == null ? Verdict.NONE : judge(state, state.bound().servedRatio() <= maxBoundRatio);
    }

    /** @return the served means' median error against what followed at most {@link #maxServedMeanError} */
    public Verdict servedMean(final StateAccuracy state) {
        return state.mean() == null ? Verdict.NONE : judge(state, state.mean().servedMeans().medianError() <= maxServedMeanError);
    }

    /** @return the share of next-burst means inside the served interval at least {@link #minInsideShare} */
    public Verdict inside(final StateAccuracy state) {
        return state.mean() == null ? Verdict.NONE : judge(state, state.mean().insideIntervalShare() >= minInsideShare);
    }

    private double coveragePoint(final StateAccuracy state) {
        return state.bound() == null ? Double.NaN : Math.abs(state.bound().served().share() - state.bound().nominal());
    }

    private Verdict judge(final StateAccuracy state, final boolean within) {
        if (state.bound() == null && state.mean() == null) {
            return state.bursts() < minBursts ? Verdict.FEW_DATA : Verdict.NONE;
        }
        if (state.bursts() < minBursts) {
            return Verdict.FEW_DATA;
        }
        return within ? Verdict.PASS : Verdict.MISS;
    }
}
