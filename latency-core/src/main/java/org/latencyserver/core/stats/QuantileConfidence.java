package org.latencyserver.core.stats;

import java.math.BigDecimal;
import java.util.Locale;
import org.apache.commons.math3.distribution.BinomialDistribution;

/**
 * A distribution-free confidence interval for the q-quantile (the bound itself, not the share
 * below it), from order statistics.
 *
 * <p>If {@code X(1) <= … <= X(n)} is the sorted sample of a continuous latency distribution and
 * B ~ Binomial(n, q) counts the samples at or below the true quantile ξ, then
 * {@code X(l) <= ξ} exactly when {@code B >= l}, and {@code ξ < X(u)} exactly when
 * {@code B <= u − 1}; so {@code P(X(l) <= ξ < X(u)) = P(l <= B <= u − 1)}. Each tail outside
 * {@code [l, u − 1]} is kept within {@code (1 − level) / 2}, and each rank is the innermost that
 * does so: the interval is equal-tailed and as narrow as the level allows. No assumption is made
 * about the shape of the distribution, which for latencies is heavily right-skewed.
 *
 * <p>Ranges: n in 1 .. {@link Integer#MAX_VALUE} (Commons Math's binomial), quantile in (0, 1),
 * level in (0, 1).
 *
 * <p>Stateless and thread-safe.
 */
public final class QuantileConfidence {

    private QuantileConfidence() {
    }

    /**
     * @param n               sample size, 1 .. {@link Integer#MAX_VALUE}
     * @param quantile        the quantile as a proportion, in (0, 1)
     * @param confidenceLevel in (0, 1), e.g. 0.95
     * @return 1-based ranks {@code lowerRank < upperRank <= n} with coverage {@code >= confidenceLevel}
     * @throws IllegalArgumentException when an argument is out of range, or when no ranks within
     *                                  1..n reach the level (the message says how many samples would)
     */
    public static OrderStatisticInterval ranks(final long n, final double quantile, final double confidenceLevel) {
        requireArguments(quantile, confidenceLevel);
        if (n < 1 || n > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("sample size must be in 1.." + Integer.MAX_VALUE + ", was " + n);
        }
        final OrderStatisticInterval ranks = ranksOrNull(n, quantile, confidenceLevel);
        if (ranks == null) {
            throw new IllegalArgumentException(String.format(Locale.ROOT,
                "%d samples are too few for a distribution-free %s %% interval of the %s quantile; need at least %d",
                n, plain(confidenceLevel * 100), plain(quantile), minimumSampleSize(quantile, confidenceLevel)));
        }
        return ranks;
    }

    /** @return the ranks, or null when the extreme order statistics cannot reach the level */
    private static OrderStatisticInterval ranksOrNull(final long n, final double quantile, final double confidenceLevel) {
        final BinomialDistribution below = new BinomialDistribution(null, (int) n, quantile);
        final double tail = (1.0 - confidenceLevel) / 2.0;
        // inverseCumulativeProbability(t) is the smallest k with P(B <= k) >= t.
        // Lower rank l = that k for t = tail: P(B <= l - 1) < tail, and l is the largest such rank.
        // Upper rank u = 1 + that k for t = 1 - tail: P(B >= u) <= tail, and u is the smallest such.
        final long lowerRank = below.inverseCumulativeProbability(tail);
        final long upperRank = below.inverseCumulativeProbability(1.0 - tail) + 1L;
        if (lowerRank < 1 || upperRank > n) {
            return null;
        }
        final double coverage = below.cumulativeProbability((int) upperRank - 1)
            - below.cumulativeProbability((int) lowerRank - 1);
        return new OrderStatisticInterval(lowerRank, upperRank, coverage);
    }

    /**
     * The smallest sample size for which {@link #ranks} succeeds: both extreme order statistics
     * must reach the level, i.e. {@code (1-q)^n} and {@code q^n} within {@code (1 − level) / 2}.
     * For the median at 95 % that is 6; for the 96 % bound, 91; for 99.9 %, 3,688.
     *
     * @param quantile        in (0, 1)
     * @param confidenceLevel in (0, 1)
     * @return the minimum n, {@code >= 1} (may exceed {@link Integer#MAX_VALUE} for extreme quantiles)
     * @throws IllegalArgumentException when an argument is out of range
     */
    public static long minimumSampleSize(final double quantile, final double confidenceLevel) {
        requireArguments(quantile, confidenceLevel);
        final double tail = (1.0 - confidenceLevel) / 2.0;
        final double extreme = Math.max(quantile, 1.0 - quantile);
        long n = Math.max(1L, (long) Math.ceil(Math.log(tail) / Math.log(extreme)));
        if (n >= Integer.MAX_VALUE) {
            return n;
        }
        // The closed form can be one off where the binomial's own rounding decides; settle it with
        // the very test ranks() applies, which is monotone in n.
        while (n > 1 && ranksOrNull(n - 1, quantile, confidenceLevel) != null) {
            n--;
        }
        while (n < Integer.MAX_VALUE && ranksOrNull(n, quantile, confidenceLevel) == null) {
            n++;
        }
        return n;
    }

    private static void requireArguments(final double quantile, final double confidenceLevel) {
        if (!(quantile > 0.0 && quantile < 1.0)) {
            throw new IllegalArgumentException("quantile must be in (0, 1), was " + quantile);
        }
        NormalQuantile.requireLevel(confidenceLevel);
    }

    private static String plain(final double value) {
        return BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
    }
}
