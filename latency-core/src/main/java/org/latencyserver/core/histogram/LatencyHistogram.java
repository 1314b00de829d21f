package org.latencyserver.core.histogram;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Arrays;
import java.util.Locale;
import org.HdrHistogram.AbstractHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

/**
 * A latency distribution as bins and counts: what profiles store, what a measurement yields, and
 * what the thesis's bound (section 4.2.4) is read from.
 *
 * <h2>Bins</h2>
 * Bin {@code i} holds the samples in {@code (upperEdgeNanos(i - 1), upperEdgeNanos(i)]}; the first
 * bin is {@code (0, upperEdgeNanos(0)]}. Samples above the last edge are counted in
 * {@link #overflowCount()}; they are part of {@link #totalCount()} but have no edge, so a bound
 * that would need them is refused rather than guessed. Both layouts in use fit: the
 * thesis's 100 bins of 1 ms ({@link #uniform}), and fine bins exported from an HdrHistogram
 * ({@link #fromHdr(AbstractHistogram)}).
 *
 * <h2>Units and ranges</h2>
 * Edges are nanoseconds, {@code > 0} and strictly increasing. Counts are numbers of samples,
 * {@code >= 0}; their sum, overflow included, fits a {@code long}. Percentages are in (0, 100],
 * quantiles and proportions in (0, 1]. Nothing here converts units except
 * {@link BoundResult#boundMillis()}.
 *
 * <h2>Cost</h2>
 * The cumulative counts are computed once, at construction, so {@link #boundAt},
 * {@link #countAtOrBelow} and {@link #binOfRank} are binary searches: O(log bins), no allocation
 * besides the returned {@link BoundResult} (see {@link #requiredCount} for the one exception).
 * A fine HdrHistogram export has a few thousand bins, and the bound is on the serving path.
 *
 * <h2>Thread-safety</h2>
 * Immutable and thread-safe: the arrays are copied in and never handed out.
 *
 * <h2>Why one class of this size</h2>
 * The bound and rank searches ({@link #boundAt}, {@link #requiredCount}, {@link #binOfRank},
 * {@link #countAtOrBelow}) are on the serving path and read the private cumulative counts
 * directly, with no accessor, copy or helper object between; the HdrHistogram conversions build
 * through the private constructor, which takes ownership of arrays already known to be valid
 * instead of copying and checking them again. The factories and conversions are called from
 * several modules, so moving them to another class would leave delegating copies of their
 * contracts here rather than shrink the class. What does not need the private arrays lives
 * elsewhere: {@link HistogramQuantiles}, {@link LatencyHistogramJson}.
 */
public final class LatencyHistogram {

    /**
     * Percentages with at most this many decimals are handled exactly in {@code long} arithmetic:
     * the percentage is read as {@code scaled / 10^6}, i.e. the proportion as
     * {@code scaled / 10^8}.
     */
    private static final long PERCENT_SCALE = 1_000_000L;
    private static final double PERCENT_SCALE_DOUBLE = 1e6;
    /** {@code 100 % * PERCENT_SCALE}: the denominator of the proportion. */
    private static final long PROPORTION_DENOMINATOR = 100L * PERCENT_SCALE;

    private final long[] upperEdgesNanos;
    private final long[] counts;
    /** {@code cumulativeCounts[i]} = samples in bins 0..i; non-decreasing. */
    private final long[] cumulativeCounts;
    private final long overflowCount;
    private final long totalCount;

    /** Takes ownership of the (already validated, private) arrays. */
    private LatencyHistogram(final long[] upperEdgesNanos, final long[] counts, final long overflowCount) {
        this.upperEdgesNanos = upperEdgesNanos;
        this.counts = counts;
        this.cumulativeCounts = new long[counts.length];
        long cumulative = 0;
        for (int i = 0; i < counts.length; i++) {
            cumulative = addCounts(cumulative, counts[i], i);
            cumulativeCounts[i] = cumulative;
        }
        this.overflowCount = overflowCount;
        this.totalCount = addCounts(cumulative, overflowCount, counts.length);
    }

    private static long addCounts(final long sum, final long count, final int index) {
        try {
            return Math.addExact(sum, count);
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("total count overflows a long at index " + index + " (count " + count + ")", e);
        }
    }

    /**
     * A histogram from explicit bin edges.
     *
     * @param upperEdgesNanos bin upper edges in ns: at least one, each {@code > 0}, strictly increasing
     * @param counts          samples per bin, each {@code >= 0}, as many as edges
     * @param overflowCount   samples above the last edge, {@code >= 0}
     * @return the histogram (the arrays are copied)
     * @throws IllegalArgumentException naming the first offending index and its value, or the two
     *                                  lengths when they differ
     */
    public static LatencyHistogram of(final long[] upperEdgesNanos, final long[] counts, final long overflowCount) {
        if (upperEdgesNanos == null || counts == null) {
            throw new IllegalArgumentException("edges and counts must not be null (edges "
                + (upperEdgesNanos == null ? "null" : "given") + ", counts " + (counts == null ? "null" : "given") + ")");
        }
        if (upperEdgesNanos.length == 0) {
            throw new IllegalArgumentException("a histogram needs at least one bin, had 0 edges");
        }
        if (upperEdgesNanos.length != counts.length) {
            throw new IllegalArgumentException("edges and counts differ in length: "
                + upperEdgesNanos.length + " edges, " + counts.length + " counts");
        }
        for (int i = 0; i < upperEdgesNanos.length; i++) {
            if (upperEdgesNanos[i] <= 0) {
                throw new IllegalArgumentException("edge[" + i + "] must be > 0 ns, was " + upperEdgesNanos[i]);
            }
            if (i > 0 && upperEdgesNanos[i] <= upperEdgesNanos[i - 1]) {
                throw new IllegalArgumentException("edges must be strictly increasing: edge[" + i + "] = "
                    + upperEdgesNanos[i] + " ns is not above edge[" + (i - 1) + "] = " + upperEdgesNanos[i - 1] + " ns");
            }
            if (counts[i] < 0) {
                throw new IllegalArgumentException("count[" + i + "] must be >= 0, was " + counts[i]);
            }
        }
        if (overflowCount < 0) {
            throw new IllegalArgumentException("overflow count must be >= 0, was " + overflowCount);
        }
        return new LatencyHistogram(upperEdgesNanos.clone(), counts.clone(), overflowCount);
    }

    /**
     * Equal-width bins from 0, as the thesis recorded them (100 bins of 1 ms: width 1,000,000 ns).
     *
     * @param binWidthNanos width of every bin in ns, {@code > 0}
     * @param counts        samples per bin, each {@code >= 0}, at least one bin; bin {@code i} is
     *                      {@code (i * width, (i + 1) * width]}
     * @param overflowCount samples above {@code counts.length * width}, {@code >= 0}
     * @return the histogram (the counts are copied)
     * @throws IllegalArgumentException when the width is not positive, the last edge overflows a
     *                                  long, or a count is invalid (named by index)
     */
    public static LatencyHistogram uniform(final long binWidthNanos, final long[] counts, final long overflowCount) {
        if (binWidthNanos <= 0) {
            throw new IllegalArgumentException("bin width must be > 0 ns, was " + binWidthNanos);
        }
        if (counts == null) {
            throw new IllegalArgumentException("counts must not be null");
        }
        requireLastEdgeFits(binWidthNanos, counts.length);
        final long[] edges = new long[counts.length];
        for (int i = 0; i < edges.length; i++) {
            edges[i] = binWidthNanos * (i + 1L);
        }
        return of(edges, counts, overflowCount);
    }

    private static void requireLastEdgeFits(final long binWidthNanos, final int binCount) {
        if (binCount > 0 && binWidthNanos > Long.MAX_VALUE / binCount) {
            throw new IllegalArgumentException("the last edge, " + binCount + " x " + binWidthNanos
                + " ns, overflows a long");
        }
    }

    /**
     * Fine bins: one per non-empty bucket of an HdrHistogram of round-trip times in ns.
     *
     * <p>Each bucket's edge is its highest equivalent value, so a sample is never placed below
     * what was measured: the bound errs high, by at most the HdrHistogram's resolution (one part
     * in {@code 10^digits}). A bucket whose highest equivalent value is 0 ns is folded into a
     * 1 ns edge: edges must be positive, and no round trip takes no time.
     *
     * @param hdr a histogram of nanoseconds; must hold at least one sample
     * @return the histogram, with no overflow and {@code hdr.getTotalCount()} samples
     * @throws IllegalArgumentException when {@code hdr} is null or empty
     */
    public static LatencyHistogram fromHdr(final AbstractHistogram hdr) {
        if (hdr == null || hdr.getTotalCount() == 0) {
            throw new IllegalArgumentException("the HdrHistogram holds no samples (" + (hdr == null ? "null" : "empty")
                + "): a histogram needs at least one bin");
        }
        long[] edges = new long[64];
        long[] counts = new long[64];
        int bins = 0;
        for (final HistogramIterationValue value : hdr.recordedValues()) {
            final long edge = Math.max(1L, hdr.highestEquivalentValue(value.getValueIteratedTo()));
            final long count = value.getCountAtValueIteratedTo();
            // Recorded values come in ascending order, so only the 0 -> 1 ns fold can repeat an edge.
            if (bins > 0 && edge <= edges[bins - 1]) {
                counts[bins - 1] += count;
                continue;
            }
            if (bins == edges.length) {
                edges = Arrays.copyOf(edges, bins * 2);
                counts = Arrays.copyOf(counts, bins * 2);
            }
            edges[bins] = edge;
            counts[bins] = count;
            bins++;
        }
        return new LatencyHistogram(Arrays.copyOf(edges, bins), Arrays.copyOf(counts, bins), 0L);
    }

    /**
     * Re-bins an HdrHistogram of ns into {@code binCount} equal bins of {@code binWidthNanos}, as
     * the thesis's 100 × 1 ms; samples beyond the last bin go to the overflow.
     *
     * <p>Each HdrHistogram bucket is placed by its highest equivalent value (never below what
     * was measured), so a sample within the HdrHistogram's resolution below a bin edge may land in
     * the next bin up: the bin counts are exact for samples farther than one HdrHistogram bucket
     * from every edge, and otherwise err towards higher latency.
     *
     * @param hdr           a histogram of nanoseconds (may be empty: all counts are then 0)
     * @param binWidthNanos width of every bin in ns, {@code > 0}
     * @param binCount      number of bins, {@code >= 1}
     * @return the histogram, with {@code hdr.getTotalCount()} samples
     * @throws IllegalArgumentException when the width or count is out of range, or the last edge
     *                                  overflows a long
     */
    public static LatencyHistogram fromHdr(final AbstractHistogram hdr, final long binWidthNanos, final int binCount) {
        if (hdr == null) {
            throw new IllegalArgumentException("the HdrHistogram must not be null");
        }
        if (binWidthNanos <= 0 || binCount < 1) {
            throw new IllegalArgumentException("need bin width > 0 ns and bin count >= 1, was "
                + binWidthNanos + " ns x " + binCount);
        }
        requireLastEdgeFits(binWidthNanos, binCount);
        final long[] counts = new long[binCount];
        long overflow = 0;
        for (final HistogramIterationValue value : hdr.recordedValues()) {
            final long valueNanos = hdr.highestEquivalentValue(value.getValueIteratedTo());
            // Bin k is (k * width, (k + 1) * width]; 0 ns belongs to the first bin.
            final long bin = valueNanos <= 0 ? 0 : (valueNanos - 1) / binWidthNanos;
            if (bin >= binCount) {
                overflow += value.getCountAtValueIteratedTo();
            } else {
                counts[(int) bin] += value.getCountAtValueIteratedTo();
            }
        }
        return uniform(binWidthNanos, counts, overflow);
    }

    /**
     * Exports to an HdrHistogram, recording each bin's count at its upper edge, so no sample is
     * reported faster than its bin allowed.
     *
     * <p>The export is conservative, not lossless: an edge that is not the top of its
     * HdrHistogram bucket is read back ({@link #fromHdr}) as that bucket's top, up to one part in
     * {@code 10^digits} higher. Re-binning an export at its own edges with
     * {@link #fromHdr(AbstractHistogram, long, int)} can therefore move samples one bin up.
     *
     * @param numberOfSignificantValueDigits 0..5, as HdrHistogram defines it
     * @return a new, auto-resizing HdrHistogram of nanoseconds holding {@link #totalCount()} samples
     * @throws IllegalStateException    when the histogram has overflow samples, whose values are unknown
     * @throws IllegalArgumentException when the number of digits is outside 0..5
     */
    public Histogram toHdr(final int numberOfSignificantValueDigits) {
        if (numberOfSignificantValueDigits < 0 || numberOfSignificantValueDigits > 5) {
            throw new IllegalArgumentException("significant value digits must be in 0..5, was "
                + numberOfSignificantValueDigits);
        }
        if (overflowCount > 0) {
            throw new IllegalStateException(overflowCount + " samples lie above the last edge ("
                + lastEdgeNanos() + " ns); their values are unknown, so they cannot be exported");
        }
        final Histogram hdr = new Histogram(numberOfSignificantValueDigits);
        hdr.setAutoResize(true);
        for (int i = 0; i < counts.length; i++) {
            if (counts[i] > 0) {
                hdr.recordValueWithCount(upperEdgesNanos[i], counts[i]);
            }
        }
        return hdr;
    }

    /** @return number of bins, {@code >= 1} (overflow not counted as a bin) */
    public int binCount() {
        return counts.length;
    }

    /**
     * @param bin 0 .. {@code binCount() - 1}
     * @return the bin's upper edge, ns, {@code > 0}
     * @throws IndexOutOfBoundsException when {@code bin} is out of range
     */
    public long upperEdgeNanos(final int bin) {
        return upperEdgesNanos[bin];
    }

    /**
     * @param bin 0 .. {@code binCount() - 1}
     * @return the bin's lower (exclusive) edge, ns: the previous bin's upper edge, or 0 for the first bin
     * @throws IndexOutOfBoundsException when {@code bin} is out of range
     */
    public long lowerEdgeNanos(final int bin) {
        if (bin < 0 || bin >= counts.length) {
            throw new IndexOutOfBoundsException("bin must be in 0.." + (counts.length - 1) + ", was " + bin);
        }
        return bin == 0 ? 0L : upperEdgesNanos[bin - 1];
    }

    /** @return the last bin's upper edge, ns: the highest latency the bins can place */
    public long lastEdgeNanos() {
        return upperEdgesNanos[upperEdgesNanos.length - 1];
    }

    /** @return a copy of the bins' upper edges, ns, ascending (for export: IDL, JSON) */
    public long[] upperEdgesNanos() {
        return upperEdgesNanos.clone();
    }

    /** @return a copy of the bins' counts, in edge order (for export: IDL, JSON) */
    public long[] counts() {
        return counts.clone();
    }

    /**
     * @param bin 0 .. {@code binCount() - 1}
     * @return samples in the bin, {@code >= 0}
     * @throws IndexOutOfBoundsException when {@code bin} is out of range
     */
    public long count(final int bin) {
        return counts[bin];
    }

    /**
     * @param bin 0 .. {@code binCount() - 1}
     * @return samples in bins 0 .. {@code bin}, i.e. at or below {@code upperEdgeNanos(bin)}
     * @throws IndexOutOfBoundsException when {@code bin} is out of range
     */
    public long cumulativeCount(final int bin) {
        return cumulativeCounts[bin];
    }

    /** @return samples above the last edge, {@code >= 0} */
    public long overflowCount() {
        return overflowCount;
    }

    /** @return all samples, overflow included, {@code >= 0} */
    public long totalCount() {
        return totalCount;
    }

    /** @return true when there are no samples at all, not even in the overflow */
    public boolean isEmpty() {
        return totalCount == 0;
    }

    /**
     * @param nanos a latency in ns (any value; {@code <= 0} gives 0)
     * @return samples in bins whose upper edge is {@code <= nanos}. A bin that {@code nanos} falls
     *         strictly inside is not counted: it is not known which of its samples lie below.
     */
    public long countAtOrBelow(final long nanos) {
        // Last bin whose edge is <= nanos: binarySearch gives its index, or -(insertion point) - 1.
        final int found = Arrays.binarySearch(upperEdgesNanos, nanos);
        final int last = found >= 0 ? found : -found - 2;
        return last < 0 ? 0L : cumulativeCounts[last];
    }

    /**
     * @param nanos a latency in ns
     * @return the index of the bin {@code (lower, upper]} that holds {@code nanos}: 0 for
     *         {@code nanos <= upperEdgeNanos(0)}, {@code -1} when {@code nanos} lies above the last edge
     */
    public int binOf(final long nanos) {
        final int found = Arrays.binarySearch(upperEdgesNanos, nanos);
        final int bin = found >= 0 ? found : -found - 1;
        return bin < upperEdgesNanos.length ? bin : -1;
    }

    /**
     * The thesis's x % latency bound (section 4.2.4): the upper edge of the first bin at which the
     * cumulative count reaches the {@linkplain #requiredCount required count}
     * {@code ceil(boundPercent / 100 * n)} (at least 1), where n includes the overflow.
     *
     * <p>Allocation-free apart from the result for percentages with at most six decimals (see
     * {@link #requiredCount}); O(log bins).
     *
     * @param boundPercent the share in percent, in (0, 100], e.g. 93 for the thesis's example
     * @return the bound with the count at or below it
     * @throws IllegalArgumentException      when {@code boundPercent} is NaN or outside (0, 100]
     * @throws EmptyHistogramException       when there are no samples
     * @throws BoundBeyondHistogramException when the required count is reached only in the overflow
     *                                       (the message names the last edge in ms and the overflow)
     */
    public BoundResult boundAt(final double boundPercent) {
        final long required = requiredCount(boundPercent);
        final int bin = firstBinReaching(required);
        if (bin < 0) {
            throw new BoundBeyondHistogramException(String.format(Locale.ROOT,
                "the %s %% bound needs %d of %d samples, but only %d lie at or below the last edge (%.3f ms); %d are above it",
                plain(boundPercent), required, totalCount, cumulativeCounts[cumulativeCounts.length - 1],
                lastEdgeNanos() / 1e6, overflowCount));
        }
        return new BoundResult(upperEdgesNanos[bin], cumulativeCounts[bin], totalCount, boundPercent);
    }

    /**
     * The number of samples the x % bound must have at or below it:
     * {@code max(1, ceil(boundPercent / 100 * totalCount()))}, computed exactly in decimal.
     *
     * <p>The percentage is read as the decimal it was written as (the shortest decimal that rounds
     * to the double, as {@link BigDecimal#valueOf(double)} does), because binary floating point
     * gets the ceiling wrong on exact multiples: {@code 7.0 / 100 * 100_000} is
     * 7000.000000000001, whose ceiling would demand 7,001 samples instead of 7,000, and
     * {@code 99.9 / 100 * 1000} demands 1,000 instead of 999.
     *
     * <p>How: a percentage with at most six decimals is {@code s / 10^6} for a whole {@code s <=
     * 10^8}, recognised by checking that {@code s / 10^6} rounds back to the same double. Then
     * {@code ceil(s * n / 10^8)} is done in {@code long} without overflow by splitting
     * {@code n = q * 10^8 + r}: {@code s * q + ceil(s * r / 10^8)}, where {@code s * q <= n} and
     * {@code s * r < 10^16}. Only percentages with more decimals (such as 1e-9) fall back to
     * {@link BigDecimal}, which allocates.
     *
     * @param boundPercent in (0, 100]
     * @return the required count, in 1 .. {@code totalCount()}
     * @throws IllegalArgumentException when {@code boundPercent} is NaN or outside (0, 100]
     * @throws EmptyHistogramException  when there are no samples
     */
    public long requiredCount(final double boundPercent) {
        if (!(boundPercent > 0.0 && boundPercent <= 100.0)) {
            throw new IllegalArgumentException("bound percentage must be in (0, 100], was " + boundPercent);
        }
        if (totalCount == 0) {
            throw new EmptyHistogramException("the histogram is empty (" + counts.length
                + " bins, no samples): no bound at " + plain(boundPercent) + " %");
        }
        final long scaled = Math.round(boundPercent * PERCENT_SCALE_DOUBLE);
        final long required;
        if (scaled / PERCENT_SCALE_DOUBLE == boundPercent) {
            final long q = totalCount / PROPORTION_DENOMINATOR;
            final long r = totalCount % PROPORTION_DENOMINATOR;
            required = scaled * q + (scaled * r + PROPORTION_DENOMINATOR - 1) / PROPORTION_DENOMINATOR;
        } else {
            required = BigDecimal.valueOf(boundPercent)
                .multiply(BigDecimal.valueOf(totalCount))
                .divide(BigDecimal.valueOf(100L))
                .setScale(0, RoundingMode.CEILING)
                .longValueExact();
        }
        return Math.max(1L, required);
    }

    /**
     * @param rank 1-based rank of a sample in ascending order, 1 .. {@code totalCount()}
     * @return index of the bin holding that sample, or {@code -1} when it lies in the overflow
     * @throws IllegalArgumentException when {@code rank} is outside 1 .. {@code totalCount()}
     */
    public int binOfRank(final long rank) {
        if (rank < 1 || rank > totalCount) {
            throw new IllegalArgumentException("rank must be in 1.." + totalCount + ", was " + rank);
        }
        return firstBinReaching(rank);
    }

    /** @return the first bin whose cumulative count is {@code >= count}, or -1 if none is */
    private int firstBinReaching(final long count) {
        int low = 0;
        int high = cumulativeCounts.length - 1;
        if (cumulativeCounts[high] < count) {
            return -1;
        }
        while (low < high) {
            final int middle = (low + high) >>> 1;
            if (cumulativeCounts[middle] >= count) {
                high = middle;
            } else {
                low = middle + 1;
            }
        }
        return low;
    }

    /**
     * An approximate mean: each bin's samples taken at the bin's midpoint; overflow samples are
     * left out. Its error is up to half a bin width (0.5 ms for the thesis's bins); use a
     * measurement's exact moments where they exist.
     *
     * @return the approximate mean in ns
     * @throws EmptyHistogramException when no sample lies in a bin
     */
    public double meanNanosFromBinMidpoints() {
        double weighted = 0;
        final long inBins = cumulativeCounts[cumulativeCounts.length - 1];
        if (inBins == 0) {
            throw new EmptyHistogramException("no samples within the bins (" + overflowCount
                + " above the last edge): no mean");
        }
        for (int i = 0; i < counts.length; i++) {
            if (counts[i] > 0) {
                weighted += counts[i] * ((lowerEdgeNanos(i) + (double) upperEdgesNanos[i]) / 2.0);
            }
        }
        return weighted / inBins;
    }

    private static String plain(final double value) {
        return BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
    }

    /** Equal when edges, counts and overflow are equal. */
    @Override
    public boolean equals(final Object other) {
        if (this == other) {
            return true;
        }
        if (!(other instanceof LatencyHistogram)) {
            return false;
        }
        final LatencyHistogram that = (LatencyHistogram) other;
        return overflowCount == that.overflowCount
            && Arrays.equals(upperEdgesNanos, that.upperEdgesNanos)
            && Arrays.equals(counts, that.counts);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * Arrays.hashCode(upperEdgesNanos) + Arrays.hashCode(counts)) + Long.hashCode(overflowCount);
    }

    /** @return a one-line summary: bins, last edge, samples, overflow */
    @Override
    public String toString() {
        return "LatencyHistogram[" + counts.length + " bins to " + lastEdgeNanos()
            + " ns, n=" + totalCount + ", overflow=" + overflowCount + "]";
    }
}
