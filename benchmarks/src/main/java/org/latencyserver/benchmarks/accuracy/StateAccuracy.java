package org.latencyserver.benchmarks.accuracy;

/**
 * How the estimates of one connection held in one load state (or in all, {@link LoadState#POOLED}),
 * for the served value and the thesis's value side by side, from the same bursts.
 *
 * @param state              the load state
 * @param reads              estimate reads in this state (one per play)
 * @param noEstimateShare    share of reads without an estimate for this state: unavailable, or the previous state's
 * @param updatePendingShare share of reads while a measurement was awaited
 * @param bursts             bursts that tested an estimate: one was served, and the state held through the burst
 * @param discardedBursts    bursts discarded because the state changed between the read and the burst's end
 * @param roundTrips         round trips of the bursts that tested an estimate
 * @param meanRttMs          their mean
 * @param bound              bound accuracy (QoS 2, 4); null for a mean
 * @param mean               mean accuracy (QoS 1, 3); null for a bound
 * @param otherBandShare     share of reads served a value whose data describe another port band (or the idle port) only
 *                           ({@link ValueBand}); NaN when not judged
 * @param mixedBandShare     share of reads served a value measured while the port was read in this band and another
 * @param unknownBandShare   share of reads with an estimate whose band could not be judged (no basis, no port read then)
 */
public record StateAccuracy(LoadState state, int reads, double noEstimateShare, double updatePendingShare, int bursts,
                            int discardedBursts, long roundTrips, double meanRttMs, Bound bound, Mean mean, double otherBandShare,
                            double mixedBandShare, double unknownBandShare) {

    /** @return whether the state's port is loaded (a loaded band or SATURATED) */
    public boolean portLoaded() {
        return state.portState() > 0 && !state.equals(LoadState.POOLED);
    }

    /**
     * Accuracy of served bounds.
     *
     * @param nominal      the bound's proportion, e.g. 0.96
     * @param percentileMs the nominal percentile of this state's round trips (every state-held burst's), ms; for the
     *                     pooled row NaN (states are not mixed)
     * @param served       share of the following round trips at or below the served bound
     * @param thesis       the same for the thesis's bound
     * @param servedRatio  median over bursts of served bound / the nominal percentile of the burst's state
     * @param thesisRatio  the same for the thesis's bound
     */
    public record Bound(double nominal, double percentileMs, BlockCoverage served, BlockCoverage thesis, double servedRatio,
                        double thesisRatio) {
    }

    /**
     * Accuracy of served means.
     *
     * @param servedMedianRelativeError median over bursts of |served mean − burst mean| / burst mean
     * @param thesisMedianRelativeError the same for the thesis's mean
     * @param insideIntervalShare       share of burst means inside the served interval (ms)
     * @param hindsightFloor            the smallest median error any one number per load state could have had,
     *                                  chosen in hindsight from the bursts (their own scatter)
     * @param servedOverPooled          the mean of the served means over the bursts, over the pooled mean of all their
     *                                  round trips, minus 1 (e.g. -0.12: served 12 % below what followed)
     * @param thesisOverPooled          the same for the thesis's mean
     * @param servedMeans               per served mean, against the pooled mean of all round trips that followed it
     */
    public record Mean(double servedMedianRelativeError, double thesisMedianRelativeError, double insideIntervalShare,
                       double hindsightFloor, double servedOverPooled, double thesisOverPooled, ServedMeans servedMeans) {
    }
}
