package org.latencyserver.core.size;

import java.util.Locale;
import java.util.SortedSet;
import java.util.TreeSet;
import org.apache.commons.math3.distribution.TDistribution;
import org.apache.commons.math3.stat.regression.SimpleRegression;
import org.latencyserver.core.profile.Profile;
import org.latencyserver.core.profile.ProfileCell;
import org.latencyserver.core.state.CpuStatePair;
import org.latencyserver.core.stats.ConfidenceInterval;

/**
 * Mean round trip as a straight line in message size, {@code t = α + β·size}, fitted by least
 * squares to one CPU state pair's profile cells (the model of seed 003; the thesis's Appendix A is
 * close to linear in size for each CPU pair). It serves sizes between and beyond the profiled
 * ones; every such estimate is labelled interpolated or extrapolated.
 *
 * <p>The interval is the 95 % confidence interval of the fitted mean at that size,
 * {@code ŷ ± t(n−2)·s·√(1/n + (x − x̄)²/Sxx)}, from the residuals of the fit: it says how well the
 * line explains the profile, which grows quickly outside the profiled range.
 *
 * <p>Immutable and thread-safe.
 */
public final class LatencySizeModel {

    private final double interceptMillis;
    private final double slopeMillisPerByte;
    private final double rSquared;
    private final double residualStdDevMillis;
    private final int points;
    private final double meanSizeBytes;
    private final double sumSquaredSizeDeviations;
    private final int smallestSizeBytes;
    private final int largestSizeBytes;

    private LatencySizeModel(final SimpleRegression regression, final SortedSet<Integer> sizes) {
        this.interceptMillis = regression.getIntercept();
        this.slopeMillisPerByte = regression.getSlope();
        this.rSquared = regression.getRSquare();
        this.points = (int) regression.getN();
        this.residualStdDevMillis = Math.sqrt(regression.getMeanSquareError());
        this.meanSizeBytes = sizes.stream().mapToInt(Integer::intValue).average().orElse(0);
        this.sumSquaredSizeDeviations = regression.getXSumSquares();
        this.smallestSizeBytes = sizes.first();
        this.largestSizeBytes = sizes.last();
    }

    /**
     * @param profile a profile
     * @param pair    a known CPU state pair (either order)
     * @return the line fitted to the pair's cells
     * @throws IllegalArgumentException when fewer than three sizes are profiled for the pair
     */
    public static LatencySizeModel fit(final Profile profile, final CpuStatePair pair) {
        final SimpleRegression regression = new SimpleRegression(true);
        final SortedSet<Integer> sizes = new TreeSet<>();
        for (final int size : profile.messageSizesBytes()) {
            final ProfileCell cell = profile.cell(pair, size).orElse(null);
            if (cell != null) {
                regression.addData(size, cell.meanMillis());
                sizes.add(size);
            }
        }
        if (sizes.size() < 3) {
            throw new IllegalArgumentException("a latency-vs-size line needs at least 3 profiled sizes for "
                + pair.canonical().thesisLabel() + ", found " + sizes.size());
        }
        return new LatencySizeModel(regression, sizes);
    }

    /**
     * @param messageSizeBytes {@code >= 1}
     * @return the fitted mean and its interval
     */
    public SizeEstimate estimate(final int messageSizeBytes) {
        if (messageSizeBytes < 1) {
            throw new IllegalArgumentException("message size must be >= 1 byte, was " + messageSizeBytes);
        }
        final double mean = interceptMillis + slopeMillisPerByte * messageSizeBytes;
        final double t = new TDistribution(null, points - 2.0).inverseCumulativeProbability(0.975);
        final double deviation = messageSizeBytes - meanSizeBytes;
        final double halfWidth = t * residualStdDevMillis
            * Math.sqrt(1.0 / points + deviation * deviation / sumSquaredSizeDeviations);
        final boolean extrapolated = messageSizeBytes < smallestSizeBytes || messageSizeBytes > largestSizeBytes;
        // A line fitted to positive latencies can cross zero far below the smallest size: never below 0.
        final double lower = Math.max(0.0, mean - halfWidth);
        return new SizeEstimate(messageSizeBytes, mean, new ConfidenceInterval(lower, Math.max(lower, mean + halfWidth),
            0.95, "least-squares fit t = a + b*size, 95 % CI of the fitted mean"), extrapolated);
    }

    /** @return α, ms */
    public double interceptMillis() {
        return interceptMillis;
    }

    /** @return β, ms per byte */
    public double slopeMillisPerByte() {
        return slopeMillisPerByte;
    }

    /** @return R² of the fit, in [0, 1] */
    public double rSquared() {
        return rSquared;
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "t = %.4f ms + %.6f ms/B x size (R^2 %.3f, %d sizes %d..%d B)",
            interceptMillis, slopeMillisPerByte, rSquared, points, smallestSizeBytes, largestSizeBytes);
    }
}
