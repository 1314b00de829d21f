package org.latencyserver.core.path;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
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
 * <h2>Overflow</h2>
 * A hop's samples above its last edge are taken as infinitely long. The quantile exists when the
 * path's round trips with no hop in overflow reach the share; otherwise the hops with overflow are
 * named in a {@link HopBeyondHistogramException}.
 *
 * <h2>Cost</h2>
 * Re-binning is linear in the bins; the convolutions multiply each accumulated cell by each
 * non-empty cell of the next hop: at most about {@code gridCells^2 / 2} multiply-adds for any k
 * and any number of bins, fewer when hops are sparse. Memory: {@code O(gridCells + k)} doubles.
 *
 * <h2>Floating point</h2>
 * Shares are doubles. A tail share within one part in 10^9 of {@code 1 - x} counts as meeting it,
 * so that exact shares (such as 4 of 100) are not missed through rounding.
 *
 * <p>Stateless and thread-safe.
 */
final class IndependentConvolution {

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
            HopHistograms.requireSamples(hop, "independent bound at " + HopHistograms.plain(boundPercent) + " %");
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
                    "hop %s has all %d samples above its last edge (%.3f ms): no independent bound for the path",
                    hop.name(), histogram.totalCount(), histogram.lastEdgeNanos() / 1e6));
            }
            minEdgeNanos[i] = histogram.upperEdgeNanos(histogram.binOfRank(1));
            maxEdgeNanos[i] = histogram.upperEdgeNanos(histogram.binOfRank(inBins));
            minSumNanos = addNanos(minSumNanos, minEdgeNanos[i]);
            spreadSumNanos = addNanos(spreadSumNanos, maxEdgeNanos[i] - minEdgeNanos[i]);
            binSlackNanos = addNanos(binSlackNanos, HopHistograms.widestNonEmptyBinNanos(histogram));
        }
        final double allowedTail = (100.0 - boundPercent) / 100.0;
        final double allowedTailWithTolerance = allowedTail * (1.0 + TAIL_TOLERANCE);
        final double overflowShare = Math.max(0.0, 1.0 - shareWithinBins);
        if (overflowShare > allowedTailWithTolerance) {
            throw new HopBeyondHistogramException(overflowing, String.format(Locale.ROOT,
                "the independent %s %% bound of the path allows %s %% of round trips above it, but %.6f %% have a hop "
                    + "above its last edge%s", HopHistograms.plain(boundPercent), HopHistograms.plain(100.0 - boundPercent),
                overflowShare * 100.0, overflowDetail));
        }
        final long stepNanos = Math.max(1L, ceilDiv(spreadSumNanos, gridCells));
        double[] path = cellMasses(hops.get(0).histogram(), minEdgeNanos[0], maxEdgeNanos[0], stepNanos);
        for (int i = 1; i < k; i++) {
            path = convolve(path, cellMasses(hops.get(i).histogram(), minEdgeNanos[i], maxEdgeNanos[i], stepNanos));
        }
        final int cell = firstCellMeetingTail(path, overflowShare, allowedTailWithTolerance);
        final long boundNanos = addNanos(minSumNanos, Math.multiplyExact((long) cell, stepNanos));
        final long slackNanos = addNanos(binSlackNanos, Math.multiplyExact((long) k, stepNanos - 1));
        final String reason = String.format(Locale.ROOT, "assumes the %d hops' delays are independent: the %s %% "
            + "quantile of the convolution of their histograms (on a grid of %d ns); it may under-cover when the hops "
            + "are loaded together", k, HopHistograms.plain(boundPercent), stepNanos);
        return new PathBound(BoundMethod.INDEPENDENT, reason, boundPercent, boundNanos, List.of(), slackNanos, List.of());
    }

    private static PathBound singleHop(final PathHop hop, final double boundPercent) {
        final BoundResult bound = HopHistograms.boundAt(hop, boundPercent);
        final String note = HopHistograms.fewSamplesNote(hop, boundPercent);
        return new PathBound(BoundMethod.INDEPENDENT, "one hop: its own " + HopHistograms.plain(boundPercent)
            + " % bound, nothing to convolve", boundPercent, bound.boundNanos(), List.of(),
            HopHistograms.widthOfBoundBin(hop.histogram(), bound), note == null ? List.of() : List.of(note));
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

    private static long addNanos(final long sum, final long nanos) {
        try {
            return Math.addExact(sum, nanos);
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("the hops' latencies sum beyond a long of nanoseconds (" + sum + " + "
                + nanos + ")", e);
        }
    }
}
