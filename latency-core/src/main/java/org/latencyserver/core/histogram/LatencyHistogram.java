package org.latencyserver.core.histogram;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Arrays;
import org.HdrHistogram.AbstractHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

/**
 * A latency distribution as bins and counts: what profiles store, what a measurement yields, and
 * what the thesis's bound (section 4.2.4) is read from.
 *
 * <h2>Bins</h2>
 * Bin {@code i} holds the samples in {@code (upperEdgeNanos(i - 1), upperEdgeNanos(i)]}; the first
 * bin starts at 0. Samples above the last edge are counted in {@link #overflowCount()}; they are
 * part of {@link #totalCount()} but have no edge, so a bound that would need them is refused
 * rather than guessed. Both of the thesis's layouts fit: 100 bins of 1 ms ({@link #uniform}), and
 * fine bins exported from an HdrHistogram ({@link #fromHdr(AbstractHistogram)}).
 *
 * <h2>Units</h2>
 * Edges are nanoseconds. Counts are sample counts. Nothing here converts units except
 * {@link BoundResult#boundMillis()}.
 *
 * <h2>Thread-safety</h2>
 * Immutable and thread-safe: the arrays are copied in and never handed out.
 */
public final class LatencyHistogram {

    private final long[] upperEdgesNanos;
    private final long[] counts;
    private final long overflowCount;
    private final long totalCount;

    private LatencyHistogram(final long[] upperEdgesNanos, final long[] counts, final long overflowCount) {
        this.upperEdgesNanos = upperEdgesNanos;
        this.counts = counts;
        this.overflowCount = overflowCount;
        long total = overflowCount;
        for (final long count : counts) {
            total = Math.addExact(total, count);
        }
        this.totalCount = total;
    }

    /**
     * @param upperEdgesNanos bin upper edges in ns: at least one, each {@code > 0}, strictly increasing
     * @param counts          samples per bin, each {@code >= 0}, as many as edges
     * @param overflowCount   samples above the last edge, {@code >= 0}
     * @return the histogram (the arrays are copied)
     * @throws IllegalArgumentException naming the first offending index and value
     */
    public static LatencyHistogram of(final long[] upperEdgesNanos, final long[] counts, final long overflowCount) {
        if (upperEdgesNanos == null || counts == null) {
            throw new IllegalArgumentException("edges and counts must not be null");
        }
        if (upperEdgesNanos.length == 0) {
            throw new IllegalArgumentException("a histogram needs at least one bin");
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
     * Equal-width bins from 0, as the thesis recorded them (100 bins of 1 ms).
     *
     * @param binWidthNanos width of every bin, {@code > 0}
     * @param counts        samples per bin; bin {@code i} is {@code (i * width, (i + 1) * width]}
     * @param overflowCount samples above {@code counts.length * width}
     * @return the histogram
     */
    public static LatencyHistogram uniform(final long binWidthNanos, final long[] counts, final long overflowCount) {
        if (binWidthNanos <= 0) {
            throw new IllegalArgumentException("bin width must be > 0 ns, was " + binWidthNanos);
        }
        final long[] edges = new long[counts.length];
        for (int i = 0; i < edges.length; i++) {
            edges[i] = Math.multiplyExact(binWidthNanos, (long) (i + 1));
        }
        return of(edges, counts, overflowCount);
    }

    /**
     * Fine bins: one per non-empty bucket of an HdrHistogram of round-trip times in ns.
     *
     * <p>Each bucket's edge is its highest equivalent value, so a sample is never placed below
     * what was measured (the bound errs high, by at most the histogram's resolution). A bucket
     * at 0 ns is folded into a 1 ns edge: no round trip takes no time.
     *
     * @param hdr a histogram of nanoseconds; must hold at least one sample
     * @return the histogram, with no overflow
     * @throws IllegalArgumentException when {@code hdr} is empty
     */
    public static LatencyHistogram fromHdr(final AbstractHistogram hdr) {
        if (hdr.getTotalCount() == 0) {
            throw new IllegalArgumentException("the HdrHistogram holds no samples");
        }
        long[] edges = new long[64];
        long[] counts = new long[64];
        int bins = 0;
        for (final HistogramIterationValue value : hdr.recordedValues()) {
            final long edge = Math.max(1L, hdr.highestEquivalentValue(value.getValueIteratedTo()));
            final long count = value.getCountAtValueIteratedTo();
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
     * was measured), so a sample within the HdrHistogram's resolution of a bin edge may land in
     * the next bin up.
     *
     * @param hdr           a histogram of nanoseconds
     * @param binWidthNanos width of every bin, {@code > 0}
     * @param binCount      number of bins, {@code >= 1}
     * @return the histogram
     */
    public static LatencyHistogram fromHdr(final AbstractHistogram hdr, final long binWidthNanos, final int binCount) {
        if (binWidthNanos <= 0 || binCount < 1) {
            throw new IllegalArgumentException("need bin width > 0 ns and bin count >= 1, was "
                + binWidthNanos + " ns x " + binCount);
        }
        final long[] counts = new long[binCount];
        long overflow = 0;
        for (final HistogramIterationValue value : hdr.recordedValues()) {
            final long valueNanos = hdr.highestEquivalentValue(value.getValueIteratedTo());
            // Bin k is (k * width, (k + 1) * width]; 0 ns belongs to the first bin.
            final long bin = valueNanos == 0 ? 0 : (valueNanos - 1) / binWidthNanos;
            if (bin >= binCount) {
                overflow += value.getCountAtValueIteratedTo();
            } else {
                counts[(int) bin] += value.getCountAtValueIteratedTo();
            }
        }
        return uniform(binWidthNanos, counts, overflow);
    }

    /**
     * Exports to an HdrHistogram, recording each bin's count at its upper edge (so no sample is
     * reported faster than its bin allowed).
     *
     * @param numberOfSignificantValueDigits 0..5, as HdrHistogram defines it
     * @return a new, auto-resizing HdrHistogram of nanoseconds
     * @throws IllegalStateException when the histogram has overflow samples, whose values are unknown
     */
    public Histogram toHdr(final int numberOfSignificantValueDigits) {
        if (overflowCount > 0) {
            throw new IllegalStateException(overflowCount + " samples lie above the last edge ("
                + upperEdgesNanos[upperEdgesNanos.length - 1] + " ns); their values are unknown, so they cannot be exported");
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

    /** @return number of bins, {@code >= 1} */
    public int binCount() {
        return counts.length;
    }

    /**
     * @param bin 0 .. {@code binCount() - 1}
     * @return the bin's upper edge, ns
     */
    public long upperEdgeNanos(final int bin) {
        return upperEdgesNanos[bin];
    }

    /**
     * @param bin 0 .. {@code binCount() - 1}
     * @return the bin's lower edge, ns: the previous bin's upper edge, or 0 for the first bin
     */
    public long lowerEdgeNanos(final int bin) {
        return bin == 0 ? 0L : upperEdgesNanos[bin - 1];
    }

    /**
     * @param bin 0 .. {@code binCount() - 1}
     * @return samples in the bin
     */
    public long count(final int bin) {
        return counts[bin];
    }

    /** @return samples above the last edge */
    public long overflowCount() {
        return overflowCount;
    }

    /** @return all samples, overflow included */
    public long totalCount() {
        return totalCount;
    }

    /** @return true when there are no samples at all */
    public boolean isEmpty() {
        return totalCount == 0;
    }

    /**
     * @param nanos a latency in ns
     * @return samples in bins whose upper edge is {@code <= nanos} (a bin that {@code nanos}
     *         falls inside is not counted: it is not known which of its samples lie below)
     */
    public long countAtOrBelow(final long nanos) {
        long cumulative = 0;
        for (int i = 0; i < counts.length && upperEdgesNanos[i] <= nanos; i++) {
            cumulative += counts[i];
        }
        return cumulative;
    }

    /**
     * The thesis's x % latency bound (section 4.2.4): the upper edge of the first bin at which the
     * cumulative count reaches {@code ceil(boundPercent / 100 * n)} (at least 1).
     *
     * <p>The required count is computed in exact decimal arithmetic: in binary floating point
     * {@code 0.93 * 100000} is 93000.00000000001, whose ceiling would wrongly demand 93,001. The
     * scan allocates only for that multiplication; a lookup costs one pass over the bins.
     *
     * @param boundPercent the share in percent, in (0, 100]
     * @return the bound with the count at or below it
     * @throws IllegalArgumentException      when {@code boundPercent} is NaN or outside (0, 100]
     * @throws EmptyHistogramException       when there are no samples
     * @throws BoundBeyondHistogramException when the required count is reached only in the overflow
     */
    public BoundResult boundAt(final double boundPercent) {
        final long required = requiredCount(boundPercent);
        long cumulative = 0;
        for (int i = 0; i < counts.length; i++) {
            cumulative += counts[i];
            if (cumulative >= required) {
                return new BoundResult(upperEdgesNanos[i], cumulative, totalCount, boundPercent);
            }
        }
        throw new BoundBeyondHistogramException(String.format(
            "the %s %% bound needs %d of %d samples, but only %d lie at or below the last edge (%.3f ms); %d are above it",
            stripZeros(boundPercent), required, totalCount, cumulative,
            upperEdgesNanos[upperEdgesNanos.length - 1] / 1e6, overflowCount));
    }

    /**
     * @param boundPercent in (0, 100]
     * @return {@code max(1, ceil(boundPercent / 100 * totalCount()))}
     */
    public long requiredCount(final double boundPercent) {
        if (!(boundPercent > 0.0 && boundPercent <= 100.0)) {
            throw new IllegalArgumentException("bound percentage must be in (0, 100], was " + boundPercent);
        }
        if (totalCount == 0) {
            throw new EmptyHistogramException("the histogram is empty: no bound at " + stripZeros(boundPercent) + " %");
        }
        final long required = BigDecimal.valueOf(boundPercent)
            .multiply(BigDecimal.valueOf(totalCount))
            .divide(BigDecimal.valueOf(100L))
            .setScale(0, RoundingMode.CEILING)
            .longValueExact();
        return Math.max(1L, required);
    }

    /**
     * @param rank 1-based rank of a sample in ascending order, 1 .. {@code totalCount()}
     * @return index of the bin holding that sample, or {@code -1} when it lies in the overflow
     */
    public int binOfRank(final long rank) {
        if (rank < 1 || rank > totalCount) {
            throw new IllegalArgumentException("rank must be in 1.." + totalCount + ", was " + rank);
        }
        long cumulative = 0;
        for (int i = 0; i < counts.length; i++) {
            cumulative += counts[i];
            if (cumulative >= rank) {
                return i;
            }
        }
        return -1;
    }

    /**
     * An approximate mean: each bin's samples taken at the bin's midpoint; overflow samples are
     * left out. Use a measurement's exact moments where they exist.
     *
     * @return the approximate mean in ns
     * @throws EmptyHistogramException when no sample lies in a bin
     */
    public double meanNanosFromBinMidpoints() {
        double weighted = 0;
        long inBins = 0;
        for (int i = 0; i < counts.length; i++) {
            weighted += counts[i] * ((lowerEdgeNanos(i) + upperEdgesNanos[i]) / 2.0);
            inBins += counts[i];
        }
        if (inBins == 0) {
            throw new EmptyHistogramException("no samples within the bins: no mean");
        }
        return weighted / inBins;
    }

    private static String stripZeros(final double value) {
        return BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
    }

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

    @Override
    public String toString() {
        return "LatencyHistogram[" + counts.length + " bins to " + upperEdgesNanos[upperEdgesNanos.length - 1]
            + " ns, n=" + totalCount + ", overflow=" + overflowCount + "]";
    }
}
