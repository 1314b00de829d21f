package org.latencyserver.core.path;

import java.util.ArrayList;
import java.util.List;
import org.latencyserver.core.histogram.EmptyHistogramException;
import org.latencyserver.core.histogram.LatencyHistogram;

/**
 * A path's end-to-end latency composed from its hops' histograms: the mean (the sum of the hops'
 * means) and the x % bound by a labelled {@link BoundMethod}.
 *
 * <ul>
 *   <li>{@link #unionBound}: sound whatever the dependence between hops (see {@link BoundMethod#UNION}).</li>
 *   <li>{@link #independentBound}: the convolution's quantile; holds only for independent hops.</li>
 * </ul>
 * With one hop both give exactly that hop's thesis bound. Neither adds the hops' x % bounds: that
 * sum is not a bound in general (see the package description).
 *
 * <p>Refusals follow the histograms' own: {@link EmptyHistogramException} and
 * {@link HopBeyondHistogramException} (a {@code BoundBeyondHistogramException}), each naming the hop.
 *
 * <p>Immutable and thread-safe.
 */
public final class PathComposition {

    /** Cells of the grid {@link #independentBound(double)} convolves on. */
    public static final int DEFAULT_GRID_CELLS = 4096;
    /** The most grid cells {@link #independentBound(double, int)} accepts: the cost grows with their square. */
    public static final int MAX_GRID_CELLS = 65_536;

    private final List<PathHop> hops;

    private PathComposition(final List<PathHop> hops) {
        this.hops = hops;
    }

    /**
     * @param hops the path's hops in order, at least one
     * @return the composition
     * @throws IllegalArgumentException when the list is null or empty, or holds a null hop (named by index)
     */
    public static PathComposition of(final List<PathHop> hops) {
        if (hops == null || hops.isEmpty()) {
            throw new IllegalArgumentException("a path needs at least one hop, had " + (hops == null ? "null" : "none"));
        }
        for (int i = 0; i < hops.size(); i++) {
            if (hops.get(i) == null) {
                throw new IllegalArgumentException("hop " + i + " of the path is null");
            }
        }
        return new PathComposition(List.copyOf(hops));
    }

    /** @return the hops, in path order */
    public List<PathHop> hops() {
        return hops;
    }

    /**
     * The path's mean: the sum of each hop's mean read at its bins' midpoints (means add whatever
     * the dependence between hops).
     *
     * @return the mean, with each hop's and the most the midpoints can be off
     * @throws EmptyHistogramException     naming the hop, when a hop has no samples
     * @throws HopBeyondHistogramException naming the hops, when a hop has samples above its last
     *                                     edge: their values, and so the mean, are unknown
     */
    public PathMean mean() {
        final List<String> overflowing = new ArrayList<>();
        final StringBuilder detail = new StringBuilder();
        for (final PathHop hop : hops) {
            HopHistograms.requireSamples(hop, "mean");
            final LatencyHistogram histogram = hop.histogram();
            if (histogram.overflowCount() > 0) {
                overflowing.add(hop.name());
                detail.append(detail.length() == 0 ? "" : "; ").append("hop ").append(hop.name()).append(" has ")
                    .append(histogram.overflowCount()).append(" of ").append(histogram.totalCount())
                    .append(" samples above its last edge (").append(histogram.lastEdgeNanos()).append(" ns)");
            }
        }
        if (!overflowing.isEmpty()) {
            throw new HopBeyondHistogramException(overflowing, "no mean for the path: " + detail
                + "; their values are unknown");
        }
        final List<Double> hopMeans = new ArrayList<>(hops.size());
        double meanNanos = 0;
        double slackNanos = 0;
        for (final PathHop hop : hops) {
            final double hopMean = hop.histogram().meanNanosFromBinMidpoints();
            hopMeans.add(hopMean);
            meanNanos += hopMean;
            slackNanos += HopHistograms.widestNonEmptyBinNanos(hop.histogram()) / 2.0;
        }
        return new PathMean(meanNanos, hopMeans, slackNanos);
    }

    /**
     * @param method       how to compose
     * @param boundPercent in (0, 100]
     * @return the path's bound by {@code method}
     * @throws IllegalArgumentException    when the method is null or the percentage outside (0, 100]
     * @throws EmptyHistogramException     naming the hop, when a hop has no samples
     * @throws HopBeyondHistogramException naming the hops, when the bound needs samples above a hop's last edge
     */
    public PathBound bound(final BoundMethod method, final double boundPercent) {
        if (method == null) {
            throw new IllegalArgumentException("a bound method is needed (" + BoundMethod.UNION.word() + " or "
                + BoundMethod.INDEPENDENT.word() + "), was null");
        }
        return method == BoundMethod.UNION ? unionBound(boundPercent) : independentBound(boundPercent);
    }

    /**
     * The {@link BoundMethod#UNION} bound: each of the k hops at its {@code 100 - (100 - x) / k}
     * percent bound (the share computed exactly), summed. Holds whatever the dependence between hops.
     *
     * @param boundPercent x, in (0, 100]
     * @return the bound, with each hop's quantile
     * @throws IllegalArgumentException    when the percentage is outside (0, 100]
     * @throws EmptyHistogramException     naming the hop, when a hop has no samples
     * @throws HopBeyondHistogramException naming the hop, when its quantile lies above its last edge
     */
    public PathBound unionBound(final double boundPercent) {
        requirePercent(boundPercent);
        return UnionBound.of(hops, boundPercent);
    }

    /**
     * The {@link BoundMethod#INDEPENDENT} bound on a grid of {@value #DEFAULT_GRID_CELLS} cells.
     *
     * @param boundPercent x, in (0, 100]
     * @return the x % quantile of the convolution of the hops' histograms
     * @throws IllegalArgumentException    when the percentage is outside (0, 100]
     * @throws EmptyHistogramException     naming the hop, when a hop has no samples
     * @throws HopBeyondHistogramException naming the hops, when too many round trips have a hop in overflow
     * @see #independentBound(double, int)
     */
    public PathBound independentBound(final double boundPercent) {
        return independentBound(boundPercent, DEFAULT_GRID_CELLS);
    }

    /**
     * The {@link BoundMethod#INDEPENDENT} bound: the x % quantile of the convolution of the hops'
     * histograms, re-binned onto a grid of {@code gridCells} cells spanning the path's spread. The
     * value is never below the convolution's quantile on the exact samples and at most
     * {@link PathBound#slackNanos()} above it (bin widths plus one grid step per hop).
     *
     * @param boundPercent x, in (0, 100]
     * @param gridCells    in 1 .. {@value #MAX_GRID_CELLS}; more cells, less grid error, cost growing with the square
     * @return the x % quantile of the convolution
     * @throws IllegalArgumentException    when the percentage or the cell count is out of range
     * @throws EmptyHistogramException     naming the hop, when a hop has no samples
     * @throws HopBeyondHistogramException naming the hops, when too many round trips have a hop in overflow
     */
    public PathBound independentBound(final double boundPercent, final int gridCells) {
        requirePercent(boundPercent);
        if (gridCells < 1 || gridCells > MAX_GRID_CELLS) {
            throw new IllegalArgumentException("grid cells must be in 1.." + MAX_GRID_CELLS + ", was " + gridCells);
        }
        return IndependentConvolution.of(hops, boundPercent, gridCells);
    }

    /** The count {@link #independentHistogram()} scales the convolution's shares to: rounding moves a share by at most 5e-10 a cell. */
    public static final long HISTOGRAM_SCALE_COUNT = 1_000_000_000L;

    /**
     * The path's latency distribution if its hops are independent, as a histogram: the convolution of
     * the hops' histograms on a grid of {@value #DEFAULT_GRID_CELLS} cells, one bin per cell, counts
     * scaled to {@value #HISTOGRAM_SCALE_COUNT}. Its x % bound is {@link #independentBound(double)}'s
     * (to within the counts' rounding); it is what a bound composed of independent hops is re-read from
     * at another level. For one hop it is that hop's histogram.
     *
     * @return the convolution as a histogram, ns
     * @throws EmptyHistogramException     naming the hop, when a hop has no samples
     * @throws HopBeyondHistogramException naming the hop, when all of a hop's samples lie above its last edge
     */
    public LatencyHistogram independentHistogram() {
        return IndependentConvolution.histogram(hops, DEFAULT_GRID_CELLS, HISTOGRAM_SCALE_COUNT);
    }

    private static void requirePercent(final double boundPercent) {
        if (!(boundPercent > 0.0 && boundPercent <= 100.0)) {
            throw new IllegalArgumentException("bound percentage must be in (0, 100], was " + boundPercent);
        }
    }

    /** @return a one-line summary: the hops' names */
    @Override
    public String toString() {
        final List<String> names = new ArrayList<>(hops.size());
        hops.forEach(hop -> names.add(hop.name()));
        return "PathComposition" + names;
    }
}
