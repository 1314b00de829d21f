package org.latencyserver.core.calibration;

import org.latencyserver.core.stats.NormalQuantile;

/**
 * A shape model's estimate of the bound its band's mix of trains needed over their state's bound: what
 * {@link ShapeExcessModel#relativeBoundFactor} compares with what those trains showed ({@link BandLogRatios}).
 *
 * <p>The mix's round trips spread by the shapes' differences as well as each shape's own spread. With {@code m} the band's
 * weighted (forgotten) mean shape features and {@code V = β_L' Cov(x) β_L} the variance of the predicted excess over its
 * shapes — both from the band's own sums over the shape's features ({@link BandedSums}), {@code β_L} the band's slopes —
 * the estimate is
 * <pre>
 *   f(m, L) + √(M(m, L)² + z² V)
 * </pre>
 * {@code M} the margin at the mix's features ({@code q σ(m, L)}, or the single margin while the spread is not fitted;
 * a negative margin is added as it is), {@code z} the standard normal quantile at {@code 1 − α}: the shapes' differences
 * taken as spread normally (a mix of two far-apart shapes is overstated by about 0.1 ln). The model is linear in its
 * features, so {@code f(m, L)} is the mix's mean prediction.
 *
 * <p>Stateless and thread-safe.
 */
final class ShapeMixBound {

    private ShapeMixBound() {
    }

    /**
     * @param model              the shape model
     * @param bandGram           the upper triangle of the band's own {@code X'WX} over the shape's features, row by row
     *                           ({@link BandedSums#bandShapeGram}), or null when no block was learned
     * @param band               the port band
     * @param targetMissFraction α, in (0, 0.5)
     * @return the estimate, ln units over the state's bound; 0 before any block
     */
    static double logBound(final ShapeExcessModel model, final double[] bandGram, final PortBand band,
                           final double targetMissFraction) {
        if (bandGram == null) {
            return 0.0;
        }
        final int shape = ShapeFeatures.SHAPE_PARAMETERS;
        final double weight = bandGram[0];
        final double[] means = new double[shape];
        for (int j = 0; j < shape; j++) {
            means[j] = bandGram[j] / weight;
        }
        final double[] x = ShapeFeatures.ofMeans(means, band);
        final double[] coefficients = model.coefficients();
        final double loaded = band.indicator();
        // The band's slopes on ln spacing, ln burst length and arrays (the intercept does not vary over the mix).
        final double[] slopes = {0.0, coefficients[1] + loaded * coefficients[5], coefficients[2] + loaded * coefficients[6],
            coefficients[3]};
        double variance = 0;
        for (int j = 1; j < shape; j++) {
            for (int k = 1; k < shape; k++) {
                final int row = Math.min(j, k);
                final int col = Math.max(j, k);
                final double covariance = bandGram[row * shape - row * (row - 1) / 2 + (col - row)] / weight - means[j] * means[k];
                variance += slopes[j] * slopes[k] * covariance;
            }
        }
        final ShapeSpreadModel spread = model.spread();
        final double margin = spread.fitted() ? spread.scoreQuantile(targetMissFraction) * spread.scaleAt(x)
            : model.margin(targetMissFraction);
        final double z = NormalQuantile.oneSided(1.0 - targetMissFraction);
        return model.predictedAt(x) + Math.min(0.0, margin)
            + Math.sqrt(Math.max(0.0, margin) * Math.max(0.0, margin) + z * z * Math.max(0.0, variance));
    }
}
