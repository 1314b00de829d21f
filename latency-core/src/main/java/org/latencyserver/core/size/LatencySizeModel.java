package org.latencyserver.core.size;

import java.util.Collections;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.apache.commons.math3.distribution.TDistribution;
import org.apache.commons.math3.stat.regression.SimpleRegression;
import org.latencyserver.core.profile.Profile;
import org.latencyserver.core.profile.ProfileCell;
import org.latencyserver.core.state.CpuStatePair;
import org.latencyserver.core.stats.ConfidenceInterval;
import org.latencyserver.core.stats.MeanConfidence;

/**
 * Mean round trip as a straight line in message size, {@code t = α + β·size}, fitted by ordinary
 * least squares (Commons Math {@link SimpleRegression}) to the cell means of one CPU state pair of
 * a profile. This is the start-up-plus-per-byte model of a message's time (a fixed start-up time
 * plus a time per byte, as in R. W. Hockney, "The communication challenge for MPP: Intel Paragon
 * and Meiko CS-2", Parallel Computing, 1994); the thesis's Appendix A is close to linear in
 * size for each CPU pair. It serves sizes between and beyond the profiled ones, labelled
 * interpolated or extrapolated; a profiled size is answered from its cell, exactly.
 *
 * <p>The interval of a size read off the line is the 95 % prediction interval of the fit,
 * {@code ŷ ± t(n−2)·s·√(1 + 1/n + (x − x̄)²/Sxx)}, with {@code s} the residual standard deviation of
 * the cell means about the line: the mean at an unprofiled size is one more point that scatters
 * about the line as the profiled means do. It grows with the distance from the profiled sizes.
 * A profiled size's interval is the thesis's Eq. 1 from the cell ({@code n} and its standard
 * deviation, or the profile's assumed one).
 *
 * <p>Immutable and thread-safe.
 */
public final class LatencySizeModel {

    private static final double CONFIDENCE_LEVEL = 0.95;

    private final CpuStatePair pair;
    private final TreeMap<Integer, ProfileCell> cellsBySize;
    private final Double assumedStdDevMillis;
    private final double interceptMillis;
    private final double slopeMillisPerByte;
    private final double rSquared;
    private final double residualStdDevMillis;
    private final double meanSizeBytes;
    private final double sumSquaredSizeDeviations;
    private final double tQuantile;

    private LatencySizeModel(final CpuStatePair pair, final TreeMap<Integer, ProfileCell> cellsBySize,
                             final Double assumedStdDevMillis, final SimpleRegression regression) {
        this.pair = pair;
        this.cellsBySize = cellsBySize;
        this.assumedStdDevMillis = assumedStdDevMillis;
        this.interceptMillis = regression.getIntercept();
        this.slopeMillisPerByte = regression.getSlope();
        // All means equal: nothing to explain, and the flat line explains it fully.
        final double r2 = regression.getRSquare();
        this.rSquared = Double.isNaN(r2) ? 1.0 : Math.max(0.0, Math.min(1.0, r2));
        this.residualStdDevMillis = Math.sqrt(Math.max(0.0, regression.getMeanSquareError()));
        this.meanSizeBytes = cellsBySize.keySet().stream().mapToInt(Integer::intValue).average().orElseThrow();
        this.sumSquaredSizeDeviations = regression.getXSumSquares();
        this.tQuantile = new TDistribution(null, cellsBySize.size() - 2.0).inverseCumulativeProbability(
            1 - (1 - CONFIDENCE_LEVEL) / 2);
    }

    /**
     * Fits the line to one CPU pair's cells.
     *
     * @param profile a profile
     * @param pair    a known CPU state pair, either order (a round trip is symmetric)
     * @return the line fitted to the pair's cell means
     * @throws IllegalArgumentException when the pair is not known, or fewer than three sizes are
     *                                  profiled for it (a line through two points has no residuals
     *                                  to give an interval)
     */
    public static LatencySizeModel fit(final Profile profile, final CpuStatePair pair) {
        if (pair == null || !pair.isKnown()) {
            throw new IllegalArgumentException("a latency-vs-size line needs a known CPU state pair, was " + pair);
        }
        final SimpleRegression regression = new SimpleRegression(true);
        final TreeMap<Integer, ProfileCell> cells = new TreeMap<>();
        for (final int size : profile.messageSizesBytes()) {
            profile.cell(pair, size).ifPresent(cell -> {
                regression.addData(size, cell.meanMillis());
                cells.put(size, cell);
            });
        }
        if (cells.size() < 3) {
            throw new IllegalArgumentException("a latency-vs-size line needs at least 3 profiled sizes for "
                + pair.canonical().thesisLabel() + ", found " + cells.size());
        }
        return new LatencySizeModel(pair.canonical(), cells,
            profile.assumptions() == null ? null : profile.assumptions().assumedStdDevMillis(), regression);
    }

    /**
     * The mean round trip at a message size: the cell's mean when the size was profiled, otherwise
     * the line's value, labelled interpolated or extrapolated.
     *
     * @param messageSizeBytes {@code >= 1}
     * @return the mean, its kind, its 95 % interval (ms) and the fit's R²
     * @throws IllegalArgumentException when the size is below 1 byte
     */
    public SizeEstimate estimateMillis(final int messageSizeBytes) {
        if (messageSizeBytes < 1) {
            throw new IllegalArgumentException("message size must be >= 1 byte, was " + messageSizeBytes);
        }
        final ProfileCell cell = cellsBySize.get(messageSizeBytes);
        if (cell != null) {
            final Double stdDev = cell.stdDevMillis() != null ? cell.stdDevMillis() : assumedStdDevMillis;
            final ConfidenceInterval interval = stdDev != null
                ? MeanConfidence.normal(cell.meanMillis(), stdDev, cell.sampleCount(), CONFIDENCE_LEVEL)
                : lineInterval(messageSizeBytes, cell.meanMillis());
            return new SizeEstimate(messageSizeBytes, cell.meanMillis(), SizeEstimate.Kind.EXACT, interval, rSquared, line());
        }
        final double mean = lineMillis(messageSizeBytes);
        final boolean beyond = messageSizeBytes < cellsBySize.firstKey() || messageSizeBytes > cellsBySize.lastKey();
        return new SizeEstimate(messageSizeBytes, mean,
            beyond ? SizeEstimate.Kind.EXTRAPOLATED : SizeEstimate.Kind.INTERPOLATED,
            lineInterval(messageSizeBytes, mean), rSquared, line());
    }

    /**
     * @param messageSizeBytes any size, bytes
     * @return {@code α + β·size}, ms (may be negative far below the profiled sizes)
     */
    public double lineMillis(final int messageSizeBytes) {
        return interceptMillis + slopeMillisPerByte * messageSizeBytes;
    }

    private ConfidenceInterval lineInterval(final int messageSizeBytes, final double centreMillis) {
        final double deviation = messageSizeBytes - meanSizeBytes;
        final double halfWidth = tQuantile * residualStdDevMillis
            * Math.sqrt(1.0 + 1.0 / cellsBySize.size() + deviation * deviation / sumSquaredSizeDeviations);
        // A line fitted to positive latencies can cross zero far below the smallest size: never below 0.
        final double lower = Math.max(0.0, centreMillis - halfWidth);
        return new ConfidenceInterval(lower, Math.max(lower, centreMillis + halfWidth), CONFIDENCE_LEVEL,
            "least-squares line t = a + b*size, 95 % prediction interval (t, n-2 = " + (cellsBySize.size() - 2) + ")");
    }

    private String line() {
        return String.format(Locale.ROOT, "t = %.4f ms + %.6f ms/B x size", interceptMillis, slopeMillisPerByte);
    }

    /** @return the CPU state pair of the fit, canonical (lower state first) */
    public CpuStatePair pair() {
        return pair;
    }

    /** @return α, the intercept (start-up time), ms */
    public double interceptMillis() {
        return interceptMillis;
    }

    /** @return β, the slope, ms per byte */
    public double slopeMillisPerByte() {
        return slopeMillisPerByte;
    }

    /** @return R² of the fit, in [0, 1] (1 when all cell means are equal) */
    public double rSquared() {
        return rSquared;
    }

    /** @return the residual standard deviation of the cell means about the line, ms, {@code >= 0} */
    public double residualStdDevMillis() {
        return residualStdDevMillis;
    }

    /** @return the profiled sizes the line was fitted to, ascending, with their cells; unmodifiable */
    public Map<Integer, ProfileCell> cellsBySize() {
        return Collections.unmodifiableMap(cellsBySize);
    }

    /** @return the line, its R² and the sizes it was fitted to */
    @Override
    public String toString() {
        return String.format(Locale.ROOT, "%s (R^2 %.4f, %d sizes %d..%d B, %s)", line(), rSquared, cellsBySize.size(),
            cellsBySize.firstKey(), cellsBySize.lastKey(), pair.thesisLabel());
    }
}
