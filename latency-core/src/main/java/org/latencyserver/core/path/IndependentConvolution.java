package org.latencyserver.core.path;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.apache.commons.math3.transform.DftNormalization;
import org.apache.commons.math3.transform.FastFourierTransformer;
import org.apache.commons.math3.transform.TransformType;
import org.latencyserver.core.histogram.BoundResult;
import org.latencyserver.core.histogram.LatencyHistogram;

/**
 * The {@link BoundMethod#INDEPENDENT} bound: the x % quantile of the convolution of the hops'
 * distributions, i.e. of the path's latency if the hops' delays are independent.
 *
 * <h2>Discretisation, and the error it makes</h2>
 * Each hop's samples are taken as point masses at their bins' upper edges (as the thesis's bound
 * takes them), then each is moved up to the next point of a common grid: hop {@code i}'s grid is
 * {@code minEdge_i + j * h}, where {@code minEdge_i} is the upper edge of its first non-empty bin
 * and the step is {@code h = max(1, ceil(Σ (maxEdge_i - minEdge_i) / gridCells))} ns, so the path's
 * sums fall on {@code Σ minEdge_i + j * h} for at most {@code gridCells + k} values of {@code j}.
 * Both moves only raise a sample, never lower it, so the quantile found is never below the
 * convolution's quantile on the exact samples, and at most
 * {@code Σ widestNonEmptyBin_i + k * (h - 1)} ns above it: the result's
 * {@link PathBound#slackNanos()}. With the default 4,096 cells that grid part is under
 * {@code k / 4096} of the path's spread.
 *
 * <p>When every non-empty bin edge lies a whole number of some coarser step {@code g >= h} above
 * its hop's {@code minEdge_i} (equal-width bins, such as the thesis's 1 ms, usually do), the grid
 * step is the largest such {@code g}: no sample moves, the grid adds no error, and there are fewer
 * cells.
 *
 * <h2>Overflow</h2>
 * A hop's samples above its last edge are taken as infinitely long. The quantile exists when the
 * path's round trips with no hop in overflow reach the share; otherwise the hops with overflow are
 * named in a {@link HopBeyondHistogramException}.
 *
 * <h2>Cost</h2>
 * Re-binning is linear in the bins. The hops' grid distributions are then convolved directly
 * (each accumulated cell times each non-empty cell of the next hop) while that takes at most
 * {@value #DIRECT_MULTIPLY_ADDS} multiply-adds, as for sparse or narrow hops; otherwise all at once
 * by fast Fourier transform on {@code N = 2^ceil(log2(cells of the sum))} points, at most
 * {@code 2 (gridCells + k)}: {@code O(k N log N)} whatever the number of bins.
 * Memory: {@code O(k N)} doubles.
 *
 * <h2>Floating point</h2>
 * Shares are doubles. A tail share within one part in 10^9 of {@code 1 - x} counts as meeting it,
 * so that exact shares (such as 4 of 100) are not missed through rounding. The transform's rounding
 * noise (about {@code 1e-16 * log2 N} per cell) is clamped at zero and is far below that.
 *
 * <p>Stateless and thread-safe.
 */
final class IndependentConvolution {

    /** Above this many multiply-adds a direct convolution gives way to the Fourier transform. */
    static final long DIRECT_MULTIPLY_ADDS = 1L << 20;
    /** Relative tolerance on the allowed tail share, for floating-point sums. */
    private static final double TAIL_TOLERANCE = 1e-9;

    private IndependentConvolution() {
    }

    /**
     * @param hops         at least one hop
     * @param boundPercent in (0, 100]
     * @param gridCells    cells of the path's grid, {@code >= 1}
     * @return the bound; for one hop, that hop's own bound (nothing to convolve, no grid)
     */
    static PathBound of(final List<PathHop> hops, final double boundPercent, final int gridCells) {
        final int k = hops.size();
        if (k == 1) {
            return singleHop(hops.get(0), boundPercent);
        }
        final Grid grid = grid(hops, "independent bound at " + HopHistograms.plain(boundPercent) + " %", gridCells);
        final double allowedTail = (100.0 - boundPercent) / 100.0;
        final double allowedTailWithTolerance = allowedTail * (1.0 + TAIL_TOLERANCE);
        if (grid.overflowShare > allowedTailWithTolerance) {
            throw new HopBeyondHistogramException(grid.overflowing, String.format(Locale.ROOT,
                "the independent %s %% bound of the path allows %s %% of round trips above it, but %.6f %% have a hop "
                    + "above its last edge%s", HopHistograms.plain(boundPercent), HopHistograms.plain(100.0 - boundPercent),
                grid.overflowShare * 100.0, grid.overflowDetail));
        }
        // At 100 % the bound is the largest sum, whose share is a product of the hops' top shares: read it
        // off the grid rather than off shares that may be tiny enough for rounding noise to hide.
        final int cell = boundPercent == 100.0 ? grid.path.length - 1
            : firstCellMeetingTail(grid.path, grid.overflowShare, allowedTailWithTolerance);
        final long boundNanos = HopHistograms.addNanos(grid.minSumNanos, Math.multiplyExact((long) cell, grid.stepNanos));
        final String reason = String.format(Locale.ROOT, "assumes the %d hops' delays are independent: the %s %% "
            + "quantile of the convolution of their histograms (on a grid of %d ns); it may under-cover when the hops "
            + "are loaded together", k, HopHistograms.plain(boundPercent), grid.stepNanos);
        return new PathBound(BoundMethod.INDEPENDENT, reason, boundPercent, boundNanos, List.of(), grid.slackNanos, List.of());
    }

    /**
     * The convolution as a histogram: one bin per grid cell, its upper edge the cell's sum, its count
     * the cell's share of {@code scaleCount} (rounded to the nearest whole); the overflow the share of
     * round trips with a hop above its last edge. Reading it at x % gives what {@link #of} gives, to
     * within the rounding of the counts (at most one count per cell of {@code scaleCount}).
     *
     * @param scaleCount the count the shares are scaled to, {@code >= 1}
     * @return the path's histogram; for one hop, that hop's own
     */
    static LatencyHistogram histogram(final List<PathHop> hops, final int gridCells, final long scaleCount) {
        if (hops.size() == 1) {
            HopHistograms.requireSamples(hops.get(0), "path histogram");
            return hops.get(0).histogram();
        }
        final Grid grid = grid(hops, "path histogram", gridCells);
        int last = grid.path.length - 1;
        while (last > 0 && grid.path[last] == 0.0) {
            last--;
        }
        final long[] edges = new long[last + 1];
        final long[] counts = new long[last + 1];
        for (int j = 0; j <= last; j++) {
            edges[j] = HopHistograms.addNanos(grid.minSumNanos, Math.multiplyExact((long) j, grid.stepNanos));
            counts[j] = Math.round(grid.path[j] * scaleCount);
        }
        return LatencyHistogram.of(edges, counts, Math.round(grid.overflowShare * scaleCount));
    }

    /** The hops' convolution on a common grid: cell {@code j} is the sum {@code minSumNanos + j * stepNanos}. */
    private record Grid(double[] path, long minSumNanos, long stepNanos, long slackNanos, double overflowShare,
                        List<String> overflowing, String overflowDetail) {
    }

    private static Grid grid(final List<PathHop> hops, final String what, final int gridCells) {
        final int k = hops.size();
        long minSumNanos = 0;
        long spreadSumNanos = 0;
        long binSlackNanos = 0;
        final long[] minEdgeNanos = new long[k];
        final long[] maxEdgeNanos = new long[k];
        double shareWithinBins = 1.0;
        final List<String> overflowing = new ArrayList<>();
        final StringBuilder overflowDetail = new StringBuilder();
        for (int i = 0; i < k; i++) {
            final PathHop hop = hops.get(i);
            HopHistograms.requireSamples(hop, what);
            final LatencyHistogram histogram = hop.histogram();
            if (histogram.overflowCount() > 0) {
                overflowing.add(hop.name());
                overflowDetail.append(String.format(Locale.ROOT, "; hop %s has %d of %d samples above its last edge (%.3f ms)",
                    hop.name(), histogram.overflowCount(), histogram.totalCount(), histogram.lastEdgeNanos() / 1e6));
            }
            final long inBins = histogram.totalCount() - histogram.overflowCount();
            shareWithinBins *= (double) inBins / histogram.totalCount();
            if (inBins == 0) {
                throw new HopBeyondHistogramException(List.of(hop.name()), String.format(Locale.ROOT,
                    "hop %s has all %d samples above its last edge (%.3f ms): no %s for the path",
                    hop.name(), histogram.totalCount(), histogram.lastEdgeNanos() / 1e6, what));
            }
            minEdgeNanos[i] = histogram.upperEdgeNanos(histogram.binOfRank(1));
            maxEdgeNanos[i] = histogram.upperEdgeNanos(histogram.binOfRank(inBins));
            minSumNanos = HopHistograms.addNanos(minSumNanos, minEdgeNanos[i]);
            spreadSumNanos = HopHistograms.addNanos(spreadSumNanos, maxEdgeNanos[i] - minEdgeNanos[i]);
            binSlackNanos = HopHistograms.addNanos(binSlackNanos, HopHistograms.widestNonEmptyBinNanos(histogram));
        }
        final long finestStepNanos = Math.max(1L, ceilDiv(spreadSumNanos, gridCells));
        final long commonStepNanos = commonStepNanos(hops, minEdgeNanos);
        final boolean exactGrid = commonStepNanos >= finestStepNanos;
        final long stepNanos = exactGrid ? commonStepNanos : finestStepNanos;
        final double[][] hopMasses = new double[k][];
        for (int i = 0; i < k; i++) {
            hopMasses[i] = cellMasses(hops.get(i).histogram(), minEdgeNanos[i], maxEdgeNanos[i], stepNanos);
        }
        final double[] path = convolveAll(hopMasses, directMultiplyAdds(hopMasses) > DIRECT_MULTIPLY_ADDS);
        final long slackNanos = HopHistograms.addNanos(binSlackNanos, exactGrid ? 0L : Math.multiplyExact((long) k, stepNanos - 1));
        return new Grid(path, minSumNanos, stepNanos, slackNanos, Math.max(0.0, 1.0 - shareWithinBins), List.copyOf(overflowing),
            overflowDetail.toString());
    }

    private static PathBound singleHop(final PathHop hop, final double boundPercent) {
        final BoundResult bound = HopHistograms.boundAt(hop, boundPercent);
        final String note = HopHistograms.fewSamplesNote(hop, boundPercent);
        return new PathBound(BoundMethod.INDEPENDENT, "one hop: its own " + HopHistograms.plain(boundPercent)
            + " % bound, nothing to convolve", boundPercent, bound.boundNanos(), List.of(),
            HopHistograms.widthOfBoundBin(hop.histogram(), bound), note == null ? List.of() : List.of(note));
    }

    /**
     * @return the greatest common divisor of every non-empty bin's upper edge above its hop's first
     *         non-empty one, ns; 0 when every hop has a single non-empty bin (any step is exact)
     */
    private static long commonStepNanos(final List<PathHop> hops, final long[] minEdgeNanos) {
        long divisor = 0;
        for (int i = 0; i < hops.size(); i++) {
            final LatencyHistogram histogram = hops.get(i).histogram();
            for (int bin = histogram.binOfRank(1); bin < histogram.binCount(); bin++) {
                if (histogram.count(bin) > 0) {
                    divisor = gcd(divisor, histogram.upperEdgeNanos(bin) - minEdgeNanos[i]);
                    if (divisor == 1) {
                        return 1;
                    }
                }
            }
        }
        return divisor;
    }

    private static long gcd(final long a, final long b) {
        long x = a;
        long y = b;
        while (y != 0) {
            final long remainder = x % y;
            x = y;
            y = remainder;
        }
        return x;
    }

    /**
     * @return the hop's shares on its grid: cell {@code j} holds the samples whose bin's upper edge,
     *         minus {@code minEdgeNanos}, rounds up to {@code j * stepNanos}; overflow left out
     */
    private static double[] cellMasses(final LatencyHistogram histogram, final long minEdgeNanos, final long maxEdgeNanos,
                                       final long stepNanos) {
        final double total = histogram.totalCount();
        final double[] masses = new double[Math.toIntExact(ceilDiv(maxEdgeNanos - minEdgeNanos, stepNanos) + 1)];
        for (int bin = histogram.binOfRank(1); bin < histogram.binCount(); bin++) {
            final long count = histogram.count(bin);
            if (count > 0) {
                masses[(int) ceilDiv(histogram.upperEdgeNanos(bin) - minEdgeNanos, stepNanos)] += count / total;
            }
        }
        return masses;
    }

    /**
     * @param hopMasses each hop's shares on the common grid step, at least one hop
     * @param viaTransform true to multiply the hops' Fourier transforms, false to convolve directly
     * @return the shares of the sum of the independent hops, cell {@code j} at offset {@code j}
     *         steps; length {@code Σ lengths - k + 1}
     */
    static double[] convolveAll(final double[][] hopMasses, final boolean viaTransform) {
        if (!viaTransform) {
            double[] path = hopMasses[0];
            for (int i = 1; i < hopMasses.length; i++) {
                path = convolve(path, hopMasses[i]);
            }
            return path;
        }
        int sumCells = 1;
        for (final double[] masses : hopMasses) {
            sumCells += masses.length - 1;
        }
        final int points = Integer.highestOneBit(Math.max(1, sumCells - 1)) << 1;
        double[][] product = null;
        for (final double[] masses : hopMasses) {
            final double[][] transform = {Arrays.copyOf(masses, points), new double[points]};
            FastFourierTransformer.transformInPlace(transform, DftNormalization.STANDARD, TransformType.FORWARD);
            if (product == null) {
                product = transform;
            } else {
                multiplyInto(product, transform);
            }
        }
        FastFourierTransformer.transformInPlace(product, DftNormalization.STANDARD, TransformType.INVERSE);
        final double[] path = new double[sumCells];
        for (int j = 0; j < sumCells; j++) {
            path[j] = Math.max(0.0, product[0][j]);
        }
        return path;
    }

    /** Multiplies {@code product} by {@code factor}, point by point, as complex numbers (real row 0, imaginary row 1). */
    private static void multiplyInto(final double[][] product, final double[][] factor) {
        final double[] re = product[0];
        final double[] im = product[1];
        for (int f = 0; f < re.length; f++) {
            final double real = re[f] * factor[0][f] - im[f] * factor[1][f];
            im[f] = re[f] * factor[1][f] + im[f] * factor[0][f];
            re[f] = real;
        }
    }

    /** @return the multiply-adds a direct convolution of the hops, in order, would take */
    private static long directMultiplyAdds(final double[][] hopMasses) {
        long total = 0;
        long accumulatedCells = hopMasses[0].length;
        for (int i = 1; i < hopMasses.length; i++) {
            long nonEmpty = 0;
            for (final double mass : hopMasses[i]) {
                if (mass > 0.0) {
                    nonEmpty++;
                }
            }
            total += accumulatedCells * nonEmpty;
            accumulatedCells += hopMasses[i].length - 1;
        }
        return total;
    }

    /** @return the distribution of the sum of two independent grid variables (direct, skipping empty cells) */
    private static double[] convolve(final double[] left, final double[] right) {
        int nonEmpty = 0;
        final int[] rightCells = new int[right.length];
        final double[] rightMasses = new double[right.length];
        for (int j = 0; j < right.length; j++) {
            if (right[j] > 0.0) {
                rightCells[nonEmpty] = j;
                rightMasses[nonEmpty] = right[j];
                nonEmpty++;
            }
        }
        final double[] sum = new double[left.length + right.length - 1];
        for (int i = 0; i < left.length; i++) {
            final double mass = left[i];
            if (mass == 0.0) {
                continue;
            }
            for (int n = 0; n < nonEmpty; n++) {
                sum[i + rightCells[n]] += mass * rightMasses[n];
            }
        }
        return sum;
    }

    /**
     * @return the lowest cell {@code c} such that the share above it (the cells above, plus the
     *         overflow) is within the allowed tail
     */
    private static int firstCellMeetingTail(final double[] path, final double overflowShare, final double allowedTail) {
        double tail = overflowShare;
        int cell = path.length - 1;
        while (cell > 0 && tail + path[cell] <= allowedTail) {
            tail += path[cell];
            cell--;
        }
        return cell;
    }

    private static long ceilDiv(final long numerator, final long denominator) {
        return -Math.floorDiv(-numerator, denominator);
    }
}
