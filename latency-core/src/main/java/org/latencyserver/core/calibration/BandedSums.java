package org.latencyserver.core.calibration;

import java.util.Arrays;

/**
 * The running sums {@code X'WX}, {@code X'Wy} a shape model ({@link ShapeExcessModel}, {@link ShapeSpreadModel},
 * {@link ShapeMeanModel}) fits its {@value ShapeFeatures#PARAMETERS} features ({@link ShapeFeatures}) from, kept as
 * two parts over the shape's own {@value ShapeFeatures#SHAPE_PARAMETERS} features:
 * <ul>
 *   <li>the shape sums, over every block whatever its band: the band-blind model's sums;</li>
 *   <li>the loaded sums, over the blocks sent on a loaded port ({@link PortBand#LOADED}) alone.</li>
 * </ul>
 * The full sums follow: a loaded block's features are its shape's four and the first three again ({@code L = 1}), so
 * its band rows and columns are the loaded sums' ({@link #fullGram}). Each band's own sums forget only on a block of
 * that band: an idle block multiplies the idle blocks' part ({@code shape − loaded}) by the forgetting factor and leaves
 * the loaded sums as they are, a loaded block the reverse. What a loaded episode taught is so kept through any idle
 * spell until the port is loaded again (where forgetting on every block would leave a loaded port served as an idle
 * one after some thousand idle blocks).
 *
 * <p>Immutable and thread-safe.
 */
final class BandedSums {

    /** Nothing learned. */
    static final BandedSums EMPTY = new BandedSums(new double[ShapeFeatures.SHAPE_GRAM_ENTRIES],
        new double[ShapeFeatures.SHAPE_PARAMETERS], new double[ShapeFeatures.SHAPE_GRAM_ENTRIES],
        new double[ShapeFeatures.SHAPE_PARAMETERS]);

    /** Relative (and absolute) slack on the diagonal check, for rounding in sums kept apart and written to a record. */
    static final double DIAGONAL_TOLERANCE = 1e-9;

    private final double[] shapeGram;
    private final double[] shapeMoments;
    private final double[] loadedGram;
    private final double[] loadedMoments;

    /**
     * @param shapeGram     the upper triangle of every block's {@code X'WX} over the shape's features, row by row,
     *                      {@value ShapeFeatures#SHAPE_GRAM_ENTRIES} entries
     * @param shapeMoments  every block's {@code X'Wy}, {@value ShapeFeatures#SHAPE_PARAMETERS} entries
     * @param loadedGram    the same over the blocks sent on a loaded port alone
     * @param loadedMoments the same over the blocks sent on a loaded port alone
     * @throws IllegalArgumentException on a wrong length or a value not finite
     */
    BandedSums(final double[] shapeGram, final double[] shapeMoments, final double[] loadedGram, final double[] loadedMoments) {
        if (shapeGram == null || shapeGram.length != ShapeFeatures.SHAPE_GRAM_ENTRIES || loadedGram == null
            || loadedGram.length != ShapeFeatures.SHAPE_GRAM_ENTRIES || shapeMoments == null
            || shapeMoments.length != ShapeFeatures.SHAPE_PARAMETERS || loadedMoments == null
            || loadedMoments.length != ShapeFeatures.SHAPE_PARAMETERS) {
            throw new IllegalArgumentException("a shape model's sums need " + ShapeFeatures.SHAPE_GRAM_ENTRIES + " gram entries and "
                + ShapeFeatures.SHAPE_PARAMETERS + " moments, both for every block and for the loaded port's");
        }
        for (final double[] values : new double[][] {shapeGram, shapeMoments, loadedGram, loadedMoments}) {
            for (final double value : values) {
                if (!Double.isFinite(value)) {
                    throw new IllegalArgumentException("a shape model's sums must be finite, had " + value);
                }
            }
        }
        // The loaded blocks are some of every block: each diagonal entry (a feature's weighted sum of squares) is at least 0
        // and at most every block's; sums that break it would make the idle part's gram indefinite.
        int diagonal = 0;
        for (int feature = 0; feature < ShapeFeatures.SHAPE_PARAMETERS; feature++) {
            final double loaded = loadedGram[diagonal];
            final double all = shapeGram[diagonal];
            if (loaded < 0 || all < 0 || loaded > all * (1 + DIAGONAL_TOLERANCE) + DIAGONAL_TOLERANCE) {
                throw new IllegalArgumentException("a shape model's loaded-port sums (loaded_gram) must lie within every block's"
                    + " (gram): diagonal of feature " + feature + " is " + loaded + " loaded against " + all + " in all");
            }
            diagonal += ShapeFeatures.SHAPE_PARAMETERS - feature;
        }
        this.shapeGram = shapeGram.clone();
        this.shapeMoments = shapeMoments.clone();
        this.loadedGram = loadedGram.clone();
        this.loadedMoments = loadedMoments.clone();
    }

    /**
     * The parts of full {@value ShapeFeatures#PARAMETERS}-feature sums. Exact but for the loaded blocks' arrays moment,
     * which the full sums do not hold apart: it is taken as the arrays moment's share by the loaded blocks' arrays
     * weight (the full sums, and so the fit, are kept exactly; only how the two bands forget later may differ).
     *
     * @param gram    the upper triangle of {@code X'WX}, {@value ShapeFeatures#GRAM_ENTRIES} entries
     * @param moments {@code X'Wy}, {@value ShapeFeatures#PARAMETERS} entries
     * @return the same sums in two parts
     * @throws IllegalArgumentException on a wrong length or a value not finite
     */
    static BandedSums ofFull(final double[] gram, final double[] moments) {
        if (gram == null || gram.length != ShapeFeatures.GRAM_ENTRIES || moments == null
            || moments.length != ShapeFeatures.PARAMETERS) {
            throw new IllegalArgumentException("a shape model's full sums need " + ShapeFeatures.GRAM_ENTRIES
                + " gram entries and " + ShapeFeatures.PARAMETERS + " moments");
        }
        final int shape = ShapeFeatures.SHAPE_PARAMETERS;
        final double[] shapeGram = new double[ShapeFeatures.SHAPE_GRAM_ENTRIES];
        final double[] loadedGram = new double[ShapeFeatures.SHAPE_GRAM_ENTRIES];
        for (int row = 0; row < shape; row++) {
            for (int col = row; col < shape; col++) {
                shapeGram[index(row, col, shape)] = gram[index(row, col, ShapeFeatures.PARAMETERS)];
                // A loaded block's arrays feature squared is itself (0 or 1): its sum is the arrays × band sum.
                loadedGram[index(row, col, shape)] = col < shape - 1 ? gram[fullIndex(shape + row, shape + col)]
                    : row < shape - 1 ? gram[fullIndex(shape - 1, shape + row)] : gram[fullIndex(shape - 1, shape)];
            }
        }
        final double[] loadedMoments = new double[shape];
        System.arraycopy(moments, shape, loadedMoments, 0, shape - 1);
        final double arraysWeight = gram[fullIndex(shape - 1, shape - 1)];
        final double loadedArraysWeight = loadedGram[index(shape - 1, shape - 1, shape)];
        loadedMoments[shape - 1] = arraysWeight > 0 && loadedArraysWeight != 0
            ? moments[shape - 1] * loadedArraysWeight / arraysWeight : 0.0;
        return new BandedSums(shapeGram, Arrays.copyOf(moments, shape), loadedGram, loadedMoments);
    }

    /**
     * @param shape4     the block's shape features ({@link ShapeFeatures#ofShape})
     * @param band       the port band it was sent in
     * @param y          its response
     * @param weight     its weight
     * @param forgetting what the sums of its band are multiplied by, in (0, 1]
     * @return the sums after the block
     */
    BandedSums withBlock(final double[] shape4, final PortBand band, final double y, final double weight,
                         final double forgetting) {
        final double[][] added = RidgeSolve.withBlock(new double[shapeGram.length], new double[shapeMoments.length], shape4, y,
            weight, 1.0);
        final double[] nextShapeGram = new double[shapeGram.length];
        final double[] nextShapeMoments = new double[shapeMoments.length];
        final double[] nextLoadedGram = loadedGram.clone();
        final double[] nextLoadedMoments = loadedMoments.clone();
        final boolean loaded = band == PortBand.LOADED;
        for (int i = 0; i < shapeGram.length; i++) {
            // shape = idle part + loaded part; only the block's band's part is forgotten.
            final double forgotten = loaded ? (1 - forgetting) * loadedGram[i] : (1 - forgetting) * (shapeGram[i] - loadedGram[i]);
            nextShapeGram[i] = shapeGram[i] - forgotten + added[0][i];
            if (loaded) {
                nextLoadedGram[i] = forgetting * loadedGram[i] + added[0][i];
            }
        }
        for (int i = 0; i < shapeMoments.length; i++) {
            final double forgotten = loaded ? (1 - forgetting) * loadedMoments[i]
                : (1 - forgetting) * (shapeMoments[i] - loadedMoments[i]);
            nextShapeMoments[i] = shapeMoments[i] - forgotten + added[1][i];
            if (loaded) {
                nextLoadedMoments[i] = forgetting * loadedMoments[i] + added[1][i];
            }
        }
        return new BandedSums(nextShapeGram, nextShapeMoments, nextLoadedGram, nextLoadedMoments);
    }

    /** @return a copy of every block's {@code X'WX} over the shape's features (the band-blind model's) */
    double[] shapeGram() {
        return shapeGram.clone();
    }

    /** @return a copy of every block's {@code X'Wy} over the shape's features */
    double[] shapeMoments() {
        return shapeMoments.clone();
    }

    /** @return a copy of the loaded port's blocks' {@code X'WX} over the shape's features */
    double[] loadedGram() {
        return loadedGram.clone();
    }

    /** @return a copy of the loaded port's blocks' {@code X'Wy} over the shape's features */
    double[] loadedMoments() {
        return loadedMoments.clone();
    }

    /**
     * The sums over the shape's own {@value ShapeFeatures#SHAPE_PARAMETERS} features of one band's blocks alone: their
     * first row ({@code Σ w x_j}, the first entry {@code Σ w}) gives the band's mix of shapes, the rest its spread. A band
     * with no weight yet takes every block's.
     *
     * @param band the port band
     * @return the upper triangle of the band's {@code X'WX} over the shape's features, row by row, or null when no
     *         block was learned at all
     */
    double[] bandShapeGram(final PortBand band) {
        final double[] gram = new double[shapeGram.length];
        for (int i = 0; i < gram.length; i++) {
            gram[i] = band == PortBand.LOADED ? loadedGram[i] : shapeGram[i] - loadedGram[i];
        }
        if (gram[0] > DIAGONAL_TOLERANCE * Math.max(1.0, shapeGram[0])) {
            return gram;
        }
        return shapeGram[0] > 0 ? shapeGram.clone() : null;
    }

    /** @return the upper triangle of the full {@value ShapeFeatures#PARAMETERS}-feature {@code X'WX}, row by row */
    double[] fullGram() {
        final int shape = ShapeFeatures.SHAPE_PARAMETERS;
        final double[] gram = new double[ShapeFeatures.GRAM_ENTRIES];
        for (int row = 0; row < ShapeFeatures.PARAMETERS; row++) {
            for (int col = row; col < ShapeFeatures.PARAMETERS; col++) {
                final int a = Math.min(shapeFeature(row), shapeFeature(col));
                final int b = Math.max(shapeFeature(row), shapeFeature(col));
                gram[fullIndex(row, col)] = col < shape ? shapeGram[index(row, col, shape)] : loadedGram[index(a, b, shape)];
            }
        }
        return gram;
    }

    /** @return the full {@value ShapeFeatures#PARAMETERS}-feature {@code X'Wy} */
    double[] fullMoments() {
        final int shape = ShapeFeatures.SHAPE_PARAMETERS;
        final double[] moments = new double[ShapeFeatures.PARAMETERS];
        System.arraycopy(shapeMoments, 0, moments, 0, shape);
        System.arraycopy(loadedMoments, 0, moments, shape, ShapeFeatures.PARAMETERS - shape);
        return moments;
    }

    /** The shape feature a full feature repeats: a band feature {@code L·x_i} is {@code x_i} on a loaded block. */
    private static int shapeFeature(final int fullFeature) {
        return fullFeature < ShapeFeatures.SHAPE_PARAMETERS ? fullFeature : fullFeature - ShapeFeatures.SHAPE_PARAMETERS;
    }

    private static int fullIndex(final int row, final int col) {
        return index(row, col, ShapeFeatures.PARAMETERS);
    }

    /** Index of {@code (row, col)}, {@code row <= col}, in the row-by-row upper triangle of a {@code p × p} matrix. */
    static int index(final int row, final int col, final int p) {
        return row * p - row * (row - 1) / 2 + (col - row);
    }

    @Override
    public boolean equals(final Object other) {
        return other instanceof BandedSums that && Arrays.equals(shapeGram, that.shapeGram)
            && Arrays.equals(shapeMoments, that.shapeMoments) && Arrays.equals(loadedGram, that.loadedGram)
            && Arrays.equals(loadedMoments, that.loadedMoments);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * (31 * Arrays.hashCode(shapeGram) + Arrays.hashCode(shapeMoments)) + Arrays.hashCode(loadedGram))
            + Arrays.hashCode(loadedMoments);
    }
}
