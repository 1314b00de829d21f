package org.latencyserver.core.calibration;

import org.latencyserver.core.stats.NormalQuantile;

/**
 * A shape model's estimate of the bound its band's mix of trains needed over their state's bound: what
 * {@link ShapeExcessModel#servedBoundFactor} compares with what those trains showed ({@link BandLogRatios}).
 *
 * <p>While the band's trains were sent with a few shapes ({@link BandShapes#few()}: a declared traffic, a few fixed
 * ones) the estimate is the mixture's own quantile over them. Otherwise (a family drawn at random):
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
 * taken as spread normally (a mix of two or three far-apart shapes is overstated by 0.2–0.4 ln: hence the kept shapes). The model is linear in its
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
     * @param shapes             the band's trains' shapes while few ({@link BandShapes})
     * @param band               the port band
     * @param targetMissFraction α, in (0, 0.5)
     * @return the estimate, ln units over the state's bound; 0 before any block
     */
    static double logBound(final ShapeExcessModel model, final double[] bandGram, final BandShapes shapes, final PortBand band,
                           final double targetMissFraction) {
        if (bandGram == null) {
            return 0.0;
        }
        if (shapes.few()) {
            return mixtureQuantile(model, shapes, band, targetMissFraction);
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

    /**
     * The mixture's own quantile over the few kept shapes: the {@code x} where the shapes' weighted shares above it —
     * each {@code P(score > (x − f(s, L)) / σ(s, L))} from the spread's scores (or, while the spread is not fitted, the
     * residuals above {@code x − f(s, L)}) — make {@code α}; for one shape exactly its own {@code f + q σ}.
     */
    private static double mixtureQuantile(final ShapeExcessModel model, final BandShapes shapes, final PortBand band,
                                          final double targetMissFraction) {
        final ShapeSpreadModel spread = model.spread();
        final boolean scaled = spread.fitted();
        final double[] bins = scaled ? spread.scoreWeights() : model.residualWeights();
        final double range = scaled ? ShapeSpreadModel.SCORE_RANGE : ShapeExcessModel.RESIDUAL_RANGE;
        final double width = scaled ? ShapeSpreadModel.SCORE_BIN_WIDTH : ShapeExcessModel.RESIDUAL_BIN_WIDTH;
        final int count = shapes.entries().size();
        final double[] centres = new double[count];
        final double[] scales = new double[count];
        final double[] weights = new double[count];
        double total = 0;
        double low = Double.POSITIVE_INFINITY;
        double high = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < count; i++) {
            final BandShapes.Entry entry = shapes.entries().get(i);
            centres[i] = model.predictedLogExcess(entry.shape(), band);
            scales[i] = scaled ? spread.scale(entry.shape(), band) : 1.0;
            weights[i] = entry.weight();
            total += weights[i];
            low = Math.min(low, centres[i] - range * scales[i]);
            high = Math.max(high, centres[i] + range * scales[i]);
        }
        final double binTotal = sum(bins);
        if (binTotal <= 0) {
            // No residual or score kept yet: every shape's quantile is its prediction (margin 0, as the binned quantile reads).
            return upperQuantile(centres, weights, total, targetMissFraction);
        }
        // above[j]: the bins' weight from bin j on, over the total; survival is then one lookup.
        final double[] above = new double[bins.length + 1];
        for (int j = bins.length - 1; j >= 0; j--) {
            above[j] = above[j + 1] + bins[j] / binTotal;
        }
        final double wanted = targetMissFraction * total;
        for (int step = 0; step < 60; step++) {
            final double middle = 0.5 * (low + high);
            double share = 0;
            for (int i = 0; i < count; i++) {
                share += weights[i] * survival(bins, above, binTotal, (middle - centres[i]) / scales[i], range, width);
            }
            if (share > wanted) {
                low = middle;
            } else {
                high = middle;
            }
        }
        return 0.5 * (low + high);
    }

    /** The weighted upper {@code α} quantile of point masses: the smallest centre with at most {@code α} of the weight above. */
    private static double upperQuantile(final double[] centres, final double[] weights, final double total, final double alpha) {
        double best = Double.POSITIVE_INFINITY;
        for (int i = 0; i < centres.length; i++) {
            double aboveWeight = 0;
            for (int j = 0; j < centres.length; j++) {
                aboveWeight += centres[j] > centres[i] ? weights[j] : 0.0;
            }
            if (aboveWeight <= alpha * total) {
                best = Math.min(best, centres[i]);
            }
        }
        return best;
    }

    private static double sum(final double[] values) {
        double total = 0;
        for (final double value : values) {
            total += value;
        }
        return total;
    }

    /**
     * The binned distribution's share above {@code value}, linear within a bin (as {@code RidgeSolve.binnedQuantile}),
     * from the bins' normalised suffix sums {@code above}.
     */
    private static double survival(final double[] bins, final double[] above, final double total, final double value,
                                   final double range, final double width) {
        final double position = (value + range) / width;
        if (position <= 0) {
            return 1.0;
        }
        if (position >= bins.length) {
            return 0.0;
        }
        final int bin = (int) Math.floor(position);
        return bins[bin] / total * (1.0 - (position - bin)) + above[bin + 1];
    }
}
