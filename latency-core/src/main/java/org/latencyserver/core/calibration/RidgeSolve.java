package org.latencyserver.core.calibration;

/**
 * Solves {@code (G + ρ D) β = m} for a small symmetric positive semi-definite {@code G} given as its packed upper
 * triangle, {@code D} the identity but for its first entry (the intercept is not penalised; it gets a negligible
 * {@value #INTERCEPT_RIDGE} so that an empty system gives β = 0), by Cholesky factorisation.
 *
 * <p>Beside it, the bookkeeping the shape models share: a block learned into forgetting running sums, and the
 * quantile of weights kept per bin. Stateless and thread-safe.
 */
final class RidgeSolve {

    /** Penalty on the intercept: only keeps an empty system solvable. */
    static final double INTERCEPT_RIDGE = 1e-9;

    private RidgeSolve() {
    }

    /**
     * One block learned into forgetting running sums: {@code G' = λ G + w x xᵀ} (packed upper triangle) and
     * {@code m' = λ m + w x y}.
     *
     * @param packedGram  {@code G}, {@code p(p+1)/2} entries; not changed
     * @param moments     {@code m}, {@code p} entries; not changed
     * @param x           the block's features, {@code p} entries
     * @param y           the block's response
     * @param weight      w, what the block weighs
     * @param forgetting  λ, in (0, 1]
     * @return {@code {G', m'}}, new arrays
     */
    static double[][] withBlock(final double[] packedGram, final double[] moments, final double[] x, final double y,
                                final double weight, final double forgetting) {
        final int p = moments.length;
        final double[] nextGram = new double[packedGram.length];
        final double[] nextMoments = new double[p];
        int entry = 0;
        for (int i = 0; i < p; i++) {
            nextMoments[i] = forgetting * moments[i] + weight * x[i] * y;
            for (int j = i; j < p; j++) {
                nextGram[entry] = forgetting * packedGram[entry] + weight * x[i] * x[j];
                entry++;
            }
        }
        return new double[][] {nextGram, nextMoments};
    }

    /**
     * The weighted quantile of values kept as weights per bin of equal width over {@code [−range, range]},
     * interpolated within its bin.
     *
     * @param weights     per bin, {@code >= 0}
     * @param probability the quantile's level, in (0, 1)
     * @param range       the bins' half range
     * @param binWidth    {@code 2 range / weights.length}
     * @return the quantile; 0 when no weight is kept; {@code range} when it lies past the last bin
     */
    static double binnedQuantile(final double[] weights, final double probability, final double range, final double binWidth) {
        double total = 0;
        for (final double weight : weights) {
            total += weight;
        }
        if (total <= 0) {
            return 0.0;
        }
        final double wanted = probability * total;
        double cumulative = 0;
        for (int bin = 0; bin < weights.length; bin++) {
            final double weight = weights[bin];
            if (weight > 0 && cumulative + weight >= wanted) {
                return -range + binWidth * (bin + (wanted - cumulative) / weight);
            }
            cumulative += weight;
        }
        return range;
    }

    /**
     * @param packedGram the upper triangle of {@code G}, row by row, {@code p(p+1)/2} entries
     * @param moments    {@code m}, {@code p} entries
     * @param ridge      ρ, {@code >= 0}
     * @return β (all 0 when the system is not positive definite, e.g. nothing learned)
     */
    static double[] solve(final double[] packedGram, final double[] moments, final double ridge) {
        final int p = moments.length;
        final double[][] lower = new double[p][p];
        for (int i = 0; i < p; i++) {
            for (int j = 0; j <= i; j++) {
                double sum = packed(packedGram, p, j, i) + (i == j ? (i == 0 ? INTERCEPT_RIDGE : ridge) : 0.0);
                for (int k = 0; k < j; k++) {
                    sum -= lower[i][k] * lower[j][k];
                }
                if (i == j) {
                    if (!(sum > 0)) {
                        return new double[p];
                    }
                    lower[i][i] = Math.sqrt(sum);
                } else {
                    lower[i][j] = sum / lower[j][j];
                }
            }
        }
        final double[] z = new double[p];
        for (int i = 0; i < p; i++) {
            double sum = moments[i];
            for (int k = 0; k < i; k++) {
                sum -= lower[i][k] * z[k];
            }
            z[i] = sum / lower[i][i];
        }
        final double[] beta = new double[p];
        for (int i = p - 1; i >= 0; i--) {
            double sum = z[i];
            for (int k = i + 1; k < p; k++) {
                sum -= lower[k][i] * beta[k];
            }
            beta[i] = sum / lower[i][i];
        }
        return beta;
    }

    /** @return {@code G[row][col]} for {@code row <= col} from the packed upper triangle */
    private static double packed(final double[] packedGram, final int p, final int row, final int col) {
        return packedGram[row * p - row * (row - 1) / 2 + (col - row)];
    }
}
