package org.latencyserver.core.stats;

/**
 * A distribution-free confidence interval for a quantile, as two ranks of the sorted sample:
 * the quantile lies between the {@code lowerRank}-th and the {@code upperRank}-th smallest sample
 * with probability {@code achievedCoverage}, whatever the (continuous) latency distribution.
 *
 * <p>Immutable and thread-safe.
 *
 * @param lowerRank        1-based rank, {@code >= 1}
 * @param upperRank        1-based rank, {@code > lowerRank} (and {@code <= n})
 * @param achievedCoverage the exact coverage from Binomial(n, q), in (0, 1]; {@code >=} the level asked
 */
public record OrderStatisticInterval(long lowerRank, long upperRank, double achievedCoverage) {

    /** @throws IllegalArgumentException when the ranks are out of order or the coverage outside (0, 1] */
    public OrderStatisticInterval {
        if (lowerRank < 1 || upperRank <= lowerRank) {
            throw new IllegalArgumentException("need 1 <= lowerRank < upperRank, were " + lowerRank + " and " + upperRank);
        }
        if (!(achievedCoverage > 0.0 && achievedCoverage <= 1.0)) {
            throw new IllegalArgumentException("coverage must be in (0, 1], was " + achievedCoverage);
        }
    }
}
