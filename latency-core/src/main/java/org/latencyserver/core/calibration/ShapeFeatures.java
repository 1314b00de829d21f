package org.latencyserver.core.calibration;

import org.latencyserver.core.traffic.CallKind;
import org.latencyserver.core.traffic.TrafficShape;

/**
 * The features the shape models ({@link ShapeExcessModel}, {@link ShapeSpreadModel}, {@link ShapeMeanModel}) regress
 * on, for a shape sent in a port band {@code L} (1 when some hop of the path is loaded, {@link PortBand}):
 * <pre>
 *   1, ln(spacing / 1 ms), ln(burst length), [arrays], L, L ln(spacing / 1 ms), L ln(burst length)
 * </pre>
 * The first four are the shape's own; the last three let a loaded port's excess differ by a level and by how it grows
 * with the shape's offered load (close spacing, long bursts): a fast burst on a port already near its rate queues
 * behind itself, where on an idle port it differs little from a slow one. Blocks sent on an idle port leave the last
 * three sums at zero, so a model learned only there (and one read from a record written before the band was a feature,
 * {@link #widenGram}) predicts as the shape's four features alone.
 *
 * <p>Stateless and thread-safe.
 */
public final class ShapeFeatures {

    /** Number of features: the shape's four and the band's three. */
    public static final int PARAMETERS = 7;
    /** Number of the shape's own features (intercept, ln spacing, ln burst length, arrays): a record before the band. */
    public static final int SHAPE_PARAMETERS = 4;
    /** Entries of the upper triangle of a {@value #PARAMETERS}-feature {@code X'WX}. */
    public static final int GRAM_ENTRIES = PARAMETERS * (PARAMETERS + 1) / 2;
    /** Entries of the upper triangle of a {@value #SHAPE_PARAMETERS}-feature {@code X'WX}. */
    public static final int SHAPE_GRAM_ENTRIES = SHAPE_PARAMETERS * (SHAPE_PARAMETERS + 1) / 2;

    private ShapeFeatures() {
    }

    /**
     * @param shape a traffic shape
     * @param band  the port band it was (or is to be) sent in
     * @return its {@value #PARAMETERS} features
     */
    public static double[] of(final TrafficShape shape, final PortBand band) {
        final double loaded = band.indicator();
        final double logSpacing = logSpacing(shape);
        final double logBurst = Math.log(shape.burstRoundTrips());
        return new double[] {1.0, logSpacing, logBurst, shape.call() == CallKind.ARRAYS ? 1.0 : 0.0, loaded,
            loaded * logSpacing, loaded * logBurst};
    }

    /**
     * @param shapeMeans a mix of shapes' mean {@value #SHAPE_PARAMETERS} features (as {@link #ofShape}: the first 1)
     * @param band       the port band
     * @return the mix's {@value #PARAMETERS} features in the band (the model is linear in them, so its prediction
     *         there is the mix's mean prediction)
     */
    static double[] ofMeans(final double[] shapeMeans, final PortBand band) {
        final double loaded = band.indicator();
        return new double[] {1.0, shapeMeans[1], shapeMeans[2], shapeMeans[3], loaded, loaded * shapeMeans[1],
            loaded * shapeMeans[2]};
    }

    /**
     * @param shape a traffic shape
     * @return its own {@value #SHAPE_PARAMETERS} features: 1, ln(spacing / 1 ms), ln(burst length), 1 for arrays
     */
    public static double[] ofShape(final TrafficShape shape) {
        return new double[] {1.0, logSpacing(shape), Math.log(shape.burstRoundTrips()),
            shape.call() == CallKind.ARRAYS ? 1.0 : 0.0};
    }

    /**
     * @param shapeGram the upper triangle of a {@value #SHAPE_PARAMETERS}-feature {@code X'WX}, row by row
     * @return the same sums as a {@value #PARAMETERS}-feature one, the band's rows and columns zero (nothing learned
     *         on a loaded port)
     * @throws IllegalArgumentException when it does not have {@value #SHAPE_GRAM_ENTRIES} entries
     */
    public static double[] widenGram(final double[] shapeGram) {
        if (shapeGram == null || shapeGram.length != SHAPE_GRAM_ENTRIES) {
            throw new IllegalArgumentException("a shape-only gram has " + SHAPE_GRAM_ENTRIES + " entries");
        }
        final double[] gram = new double[GRAM_ENTRIES];
        int entry = 0;
        for (int row = 0; row < SHAPE_PARAMETERS; row++) {
            for (int col = row; col < SHAPE_PARAMETERS; col++) {
                gram[row * PARAMETERS - row * (row - 1) / 2 + (col - row)] = shapeGram[entry++];
            }
        }
        return gram;
    }

    /**
     * @param shapeMoments a {@value #SHAPE_PARAMETERS}-feature {@code X'Wy}
     * @return the same as a {@value #PARAMETERS}-feature one, the band's entries zero
     * @throws IllegalArgumentException when it does not have {@value #SHAPE_PARAMETERS} entries
     */
    public static double[] widenMoments(final double[] shapeMoments) {
        if (shapeMoments == null || shapeMoments.length != SHAPE_PARAMETERS) {
            throw new IllegalArgumentException("shape-only moments have " + SHAPE_PARAMETERS + " entries");
        }
        final double[] moments = new double[PARAMETERS];
        System.arraycopy(shapeMoments, 0, moments, 0, SHAPE_PARAMETERS);
        return moments;
    }

    private static double logSpacing(final TrafficShape shape) {
        return Math.log(shape.spacingMicros() / 1_000.0);
    }
}
