package org.latencyserver.benchmarks.accuracy;

import org.latencyserver.core.calibration.CoverageTally;
import org.latencyserver.core.stats.ConfidenceInterval;

/**
 * The share of round trips at or below a bound, with a 95 % interval computed over bursts as
 * blocks: round trips within a burst are correlated in time (a busy spell of the host slows many
 * consecutive ones), so treating them as independent would make the interval far too narrow. The
 * arithmetic is the server's own ({@link CoverageTally}: ratio estimator, cluster-robust variance,
 * Student's t), so the harness judges served bounds as the server's calibration does.
 *
 * @param share  p, 0..1; NaN without round trips
 * @param lower  lower end of the 95 % interval (clamped to 0); NaN with fewer than 2 bursts
 * @param upper  upper end (clamped to 1); NaN with fewer than 2 bursts
 * @param bursts m, the blocks
 */
public record BlockCoverage(double share, double lower, double upper, int bursts) {

    /**
     * @param atOrBelow k_i, round trips of burst i at or below its bound
     * @param sent      n_i, round trips of burst i
     * @param bursts    m, how many of the arrays' entries are used
     * @return the share and its interval
     */
    public static BlockCoverage of(final long[] atOrBelow, final long[] sent, final int bursts) {
        CoverageTally tally = CoverageTally.EMPTY;
        for (int i = 0; i < bursts; i++) {
            if (sent[i] > 0) {
                tally = tally.add(sent[i], atOrBelow[i]);
            }
        }
        final ConfidenceInterval interval = tally.interval(0.95);
        return new BlockCoverage(tally.coverage(), interval == null ? Double.NaN : interval.lower(),
            interval == null ? Double.NaN : interval.upper(), bursts);
    }
}
