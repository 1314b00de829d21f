package org.latencyserver.core.calibration;

import org.apache.commons.math3.distribution.TDistribution;
import org.latencyserver.core.stats.ConfidenceInterval;
import org.latencyserver.core.stats.Counts;

/**
 * Pooled coverage of served bounds: the share of round trips at or below the bound that was being
 * served when they were sent, with an interval that allows for round trips correlated in time.
 *
 * <p>Round trips come in blocks (a probe window, a measurement). The interval treats blocks, not
 * round trips, as the independent units: the ratio estimator {@code p = Σk / Σn} with the
 * cluster-robust variance {@code Σ (k_i − p n_i)² / (m (m − 1) n̄²)} and Student's t with
 * {@code m − 1} degrees of freedom. Wald on single round trips would be far too narrow on a path
 * whose round trips come in slow and fast spells. Kept as running sums: constant size; the counts
 * saturate at {@link Long#MAX_VALUE} ({@link Counts#saturatedSum}), never wrap.
 *
 * <p>Immutable and thread-safe.
 *
 * @param blocks         blocks added, m
 * @param roundTrips     Σ n_i
 * @param hits           Σ k_i, round trips at or below the served bound
 * @param sumSquaredN    Σ n_i²
 * @param sumSquaredHits Σ k_i²
 * @param sumHitsTimesN  Σ k_i n_i
 */
public record CoverageTally(long blocks, long roundTrips, long hits, double sumSquaredN, double sumSquaredHits,
                            double sumHitsTimesN) {

    /** Nothing seen. */
    public static final CoverageTally EMPTY = new CoverageTally(0, 0, 0, 0, 0, 0);

    /** The interval's method, as clients see it. */
    public static final String METHOD = "observed coverage, blocks of round trips (cluster-robust t)";

    /**
     * @param blockRoundTrips round trips of the block, {@code >= 1}
     * @param blockHits       of those, at or below the served bound
     * @return the tally with the block
     */
    public CoverageTally add(final long blockRoundTrips, final long blockHits) {
        if (blockRoundTrips < 1 || blockHits < 0 || blockHits > blockRoundTrips) {
            throw new IllegalArgumentException("need 0 <= hits <= round trips >= 1, was " + blockHits + " of " + blockRoundTrips);
        }
        final double n = blockRoundTrips;
        final double k = blockHits;
        return new CoverageTally(Counts.saturatedSum(blocks, 1), Counts.saturatedSum(roundTrips, blockRoundTrips),
            Counts.saturatedSum(hits, blockHits), sumSquaredN + n * n,
            sumSquaredHits + k * k, sumHitsTimesN + k * n);
    }

    /** @return Σk / Σn, in [0, 1]; NaN when empty */
    public double coverage() {
        return roundTrips == 0 ? Double.NaN : (double) hits / roundTrips;
    }

    /**
     * @param confidenceLevel e.g. 0.95
     * @return the interval of the coverage, clipped to [0, 1]; null with fewer than 2 blocks
     */
    public ConfidenceInterval interval(final double confidenceLevel) {
        if (blocks < 2) {
            return null;
        }
        final double p = coverage();
        final double meanN = (double) roundTrips / blocks;
        final double sumSquaredResiduals = Math.max(0.0, sumSquaredHits - 2 * p * sumHitsTimesN + p * p * sumSquaredN);
        final double variance = sumSquaredResiduals / (blocks * (blocks - 1.0) * meanN * meanN);
        final double t = new TDistribution(null, blocks - 1.0).inverseCumulativeProbability(0.5 + confidenceLevel / 2.0);
        final double halfWidth = t * Math.sqrt(variance);
        return new ConfidenceInterval(Math.max(0.0, p - halfWidth), Math.min(1.0, p + halfWidth), confidenceLevel, METHOD);
    }

    /**
     * @param other another tally (another load state)
     * @return both pooled
     */
    public CoverageTally plus(final CoverageTally other) {
        return new CoverageTally(Counts.saturatedSum(blocks, other.blocks), Counts.saturatedSum(roundTrips, other.roundTrips),
            Counts.saturatedSum(hits, other.hits),
            sumSquaredN + other.sumSquaredN, sumSquaredHits + other.sumSquaredHits, sumHitsTimesN + other.sumHitsTimesN);
    }
}
