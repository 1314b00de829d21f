package org.latencyserver.core.stats;

/**
 * A distribution-free confidence interval for a quantile, as two ranks of the sorted sample:
 * the quantile lies between the {@code lowerRank}-th and the {@code upperRank}-th smallest sample
 * with probability at least {@code achievedCoverage}, whatever the latency distribution.
 *
 * <p>Immutable and thread-safe.
 *
 * @param lowerRank        1-based rank, {@code >= 1}
 * @param upperRank        1-based rank, {@code > lowerRank}, {@code <= n}
 * @param achievedCoverage the exact coverage from Binomial(n, q), {@code >=} the level asked
 */
public record OrderStatisticInterval(long lowerRank, long upperRank, double achievedCoverage) {
}
