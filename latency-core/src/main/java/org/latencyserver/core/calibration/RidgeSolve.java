package org.latencyserver.core.calibration;

/**
 * Solves {@code (G + ρ D) β = m} for a small symmetric positive semi-definite {@code G} given as its packed upper
 * triangle, {@code D} the identity but for its first entry (the intercept is not penalised; it gets a negligible
 * {@value #INTERCEPT_RIDGE} so that an empty system gives β = 0), by Cholesky factorisation.
 *
 * <p>Stateless and thread-safe.
 */
final class RidgeSolve {

    /** Penalty on the intercept: only keeps an empty system solvable. */
    static final double INTERCEPT_RIDGE = 1e-9;

    private RidgeSolve() {
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
