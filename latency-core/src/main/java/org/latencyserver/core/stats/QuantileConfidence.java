package org.latencyserver.core.stats;

import org.apache.commons.math3.distribution.BinomialDistribution;

/**
 * A distribution-free confidence interval for the q-quantile (the bound itself, not the share
 * below it), from order statistics.
 *
 * <p>If {@code X(1) <= … <= X(n)} is the sorted sample and B ~ Binomial(n, q) counts the samples
 * below the true quantile ξ, then {@code P(X(l) <= ξ < X(u)) = P(l <= B <= u − 1)}. The ranks are
 * chosen symmetric about {@code n·q} in probability and as narrow as the level allows; they need
 * no assumption about the shape of the latency distribution, which is heavily right-skewed.
 *
 * <p>Stateless and thread-safe.
 */
public final class QuantileConfidence {

    private QuantileConfidence() {
    }

    /**
     * @param n               sample size, {@code >= 1}
     * @param quantile        in (0, 1)
     * @param confidenceLevel in (0, 1)
     * @return ranks with coverage {@code >= confidenceLevel}
     * @throws IllegalArgumentException when no ranks within 1..n reach the level (the message says
     *                                  how many samples would)
     */
    public static OrderStatisticInterval ranks(final long n, final double quantile, final double confidenceLevel) {
        if (n < 1 || n > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("sample size must be in 1.." + Integer.MAX_VALUE + ", was " + n);
        }
        if (!(quantile > 0.0 && quantile < 1.0)) {
            throw new IllegalArgumentException("quantile must be in (0, 1), was " + quantile);
        }
        NormalQuantile.requireLevel(confidenceLevel);
        final BinomialDistribution below = new BinomialDistribution(null, (int) n, quantile);
        final double tail = (1.0 - confidenceLevel) / 2.0;
        // Lower rank l: the largest with P(B <= l - 1) <= tail; upper rank u: the smallest with
        // P(B >= u) <= tail. Then P(l <= B <= u - 1) >= level.
        // inverseCumulativeProbability(t) is the smallest k with P(B <= k) >= t. So l = that k for
        // the lower tail keeps P(B <= l - 1) < tail, and u - 1 = that k for 1 - tail.
        final long lower = below.inverseCumulativeProbability(tail);
        final long upperRank = below.inverseCumulativeProbability(1.0 - tail) + 1L;
        if (lower < 1 || upperRank > n) {
            throw new IllegalArgumentException(String.format(
                "%d samples are too few for a distribution-free %.0f %% interval of the %s quantile; need at least %d",
                n, confidenceLevel * 100, stripZeros(quantile), minimumSampleSize(quantile, confidenceLevel)));
        }
        final double coverage = below.cumulativeProbability((int) upperRank - 1) - below.cumulativeProbability((int) lower - 1);
        return new OrderStatisticInterval(lower, upperRank, coverage);
    }

    /**
     * @param quantile        in (0, 1)
     * @param confidenceLevel in (0, 1)
     * @return the smallest n for which {@link #ranks} can succeed: both {@code q^n} and
     *         {@code (1-q)^n} within the tail (capped at 10^7)
     */
    public static long minimumSampleSize(final double quantile, final double confidenceLevel) {
        // Both extreme order statistics must fit: q^n <= tail and (1-q)^n <= tail.
        final double tail = (1.0 - confidenceLevel) / 2.0;
        final double extreme = Math.max(quantile, 1.0 - quantile);
        return Math.min(10_000_000L, (long) Math.ceil(Math.log(tail) / Math.log(extreme)));
    }

    private static String stripZeros(final double value) {
        return java.math.BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
    }
}
