package org.latencyserver.benchmarks.accuracy;

/**
 * The share of round trips at or below a bound, with a 95 % interval computed over bursts as
 * blocks: round trips within a burst are correlated in time (a busy spell of the host slows many
 * consecutive ones), so treating them as independent would make the interval far too narrow.
 * Ratio estimator with cluster-robust variance: p = Σk/Σn, var = Σ(k_i − p·n_i)² / (m(m−1)·n̄²).
 *
 * @param share  p, 0..1; NaN without round trips
 * @param lower  lower end of the 95 % interval (clamped to 0); NaN with fewer than 2 bursts
 * @param upper  upper end (clamped to 1); NaN with fewer than 2 bursts
 * @param bursts m, the blocks
 */
public record BlockCoverage(double share, double lower, double upper, int bursts) {

    private static final double Z_95 = 1.959964;

    /**
     * @param atOrBelow k_i, round trips of burst i at or below its bound
     * @param sent      n_i, round trips of burst i
     * @param bursts    m, how many of the arrays' entries are used
     * @return the share and its interval
     */
    public static BlockCoverage of(final long[] atOrBelow, final long[] sent, final int bursts) {
        long k = 0;
        long n = 0;
        for (int i = 0; i < bursts; i++) {
            k += atOrBelow[i];
            n += sent[i];
        }
        if (n == 0) {
            return new BlockCoverage(Double.NaN, Double.NaN, Double.NaN, bursts);
        }
        final double p = (double) k / n;
        if (bursts < 2) {
            return new BlockCoverage(p, Double.NaN, Double.NaN, bursts);
        }
        double squares = 0;
        for (int i = 0; i < bursts; i++) {
            final double residual = atOrBelow[i] - p * sent[i];
            squares += residual * residual;
        }
        final double meanSent = (double) n / bursts;
        final double halfWidth = Z_95 * Math.sqrt(squares / ((double) bursts * (bursts - 1) * meanSent * meanSent));
        return new BlockCoverage(p, Math.max(0, p - halfWidth), Math.min(1, p + halfWidth), bursts);
    }
}
