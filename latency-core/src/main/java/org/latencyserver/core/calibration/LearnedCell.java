package org.latencyserver.core.calibration;

import java.util.Arrays;
import java.util.Locale;
import org.latencyserver.core.histogram.LatencyHistogram;
import org.latencyserver.core.profile.ProfileCell;
import org.latencyserver.core.state.CpuStatePair;

/**
 * What live round trips say about one profile cell (a CPU state pair and a message size): an
 * online histogram whose counts decay with a half-life, so it follows the path as it is now, and a
 * test of whether it disagrees with the profile's cell.
 *
 * <p>The bins are the profile cell's own (so the two compare bin by bin), or, for a cell without a
 * histogram, a fixed logarithmic grid of {@value #GRID_BINS} bins from 1 µs to 60 s.
 *
 * <p>The test is the two-sample Kolmogorov–Smirnov test at the 1 % level on the bins' edges:
 * {@code D = max |F_live − F_profile|} against {@code 1.63 √((n + m) / (n m))}, n the decayed live
 * count, m the profile's. It treats round trips as independent, which on a real host they are not,
 * so it flags readily: a flagged cell is one to re-measure or to replace with the learned one, and
 * the planner judges with {@code profile diff}. A cell without a histogram compares means instead
 * (|Δ| above 3 standard errors).
 *
 * <p>Immutable and thread-safe.
 *
 * @param cpuStates         the cell's pair (canonical)
 * @param messageSizeBytes  the cell's size
 * @param upperEdgesNanos   the bins' upper edges, ascending
 * @param decayedCounts     decayed count per bin
 * @param decayedOverflow   decayed count above the last edge
 * @param decayedSumMillis  decayed Σ round trip, ms
 * @param decayedSumSquaresMillis decayed Σ round trip², ms²
 * @param roundTrips        round trips seen in all (not decayed)
 * @param maxMillis         longest round trip seen, ms
 * @param firstEpochMillis  first window, epoch ms
 * @param lastEpochMillis   last window, epoch ms
 */
public record LearnedCell(CpuStatePair cpuStates, int messageSizeBytes, long[] upperEdgesNanos, double[] decayedCounts,
                          double decayedOverflow, double decayedSumMillis, double decayedSumSquaresMillis, long roundTrips,
                          double maxMillis, long firstEpochMillis, long lastEpochMillis) {

    /** Bins of the grid used for a cell without a histogram. */
    public static final int GRID_BINS = 200;
    /** Half-life of a round trip's weight, ms: an hour, so the cell follows the day, not the minute. */
    public static final long HALF_LIFE_MILLIS = 3_600_000L;
    /** Kolmogorov–Smirnov coefficient at the 1 % level. */
    public static final double KS_COEFFICIENT = 1.63;
    /** Decayed round trips below which no verdict is given. */
    public static final double MIN_ROUND_TRIPS_FOR_TEST = 200;
    /** The test's name, as clients see it. */
    public static final String TEST = "two-sample Kolmogorov-Smirnov, 1 % level, on the profile's bin edges";
    /** The test for a cell without a histogram. */
    public static final String MEAN_TEST = "difference of means above 3 standard errors (the cell has no histogram)";

    /**
     * @param cell the profile's cell
     * @return nothing learned yet, on the cell's bins
     */
    public static LearnedCell empty(final ProfileCell cell) {
        final long[] edges = cell.hasHistogram() ? cell.histogram().upperEdgesNanos() : grid();
        return new LearnedCell(cell.cpuStates(), cell.messageSizeBytes(), edges, new double[edges.length], 0, 0, 0, 0, 0, 0, 0);
    }

    private static long[] grid() {
        final long[] edges = new long[GRID_BINS];
        final double ratio = Math.pow(60e9 / 1e3, 1.0 / (GRID_BINS - 1));
        double edge = 1e3;
        for (int i = 0; i < GRID_BINS; i++) {
            edges[i] = Math.max(i == 0 ? 1 : edges[i - 1] + 1, Math.round(edge));
            edge *= ratio;
        }
        return edges;
    }

    /**
     * @param window      a probe window's round trips, ns
     * @param meanMillis  their exact mean
     * @param epochMillis when the window ended
     * @return the cell with the window, older weight decayed
     */
    public LearnedCell add(final LatencyHistogram window, final double meanMillis, final long epochMillis) {
        final long count = window.totalCount();
        if (count == 0) {
            return this;
        }
        final double decay = lastEpochMillis == 0 ? 1.0
            : Math.pow(0.5, Math.max(0, epochMillis - lastEpochMillis) / (double) HALF_LIFE_MILLIS);
        final double[] counts = new double[decayedCounts.length];
        for (int i = 0; i < counts.length; i++) {
            counts[i] = decayedCounts[i] * decay;
        }
        double overflow = decayedOverflow * decay + window.overflowCount();
        double sumSquares = 0;
        for (int bin = 0; bin < window.binCount(); bin++) {
            final long inBin = window.count(bin);
            if (inBin == 0) {
                continue;
            }
            final long upper = window.upperEdgeNanos(bin);
            final long middle = (window.lowerEdgeNanos(bin) + upper) / 2;
            // By the window bin's upper edge: a probe window is an HdrHistogram export of its non-empty
            // buckets, whose upper edge is the bucket's value (its lower edge is only the previous
            // non-empty bucket's), as are the measured profiles' cells.
            final int target = Arrays.binarySearch(upperEdgesNanos, upper);
            final int index = target >= 0 ? target : -target - 1;
            if (index < counts.length) {
                counts[index] += inBin;
            } else {
                overflow += inBin;
            }
            sumSquares += inBin * (middle / 1e6) * (middle / 1e6);
        }
        final double windowMax = window.binCount() == 0 ? meanMillis : window.upperEdgeNanos(lastNonEmpty(window)) / 1e6;
        return new LearnedCell(cpuStates, messageSizeBytes, upperEdgesNanos, counts, overflow,
            decayedSumMillis * decay + meanMillis * count, decayedSumSquaresMillis * decay + sumSquares,
            roundTrips + count, Math.max(maxMillis, windowMax), firstEpochMillis == 0 ? epochMillis : firstEpochMillis,
            epochMillis);
    }

    private static int lastNonEmpty(final LatencyHistogram histogram) {
        for (int bin = histogram.binCount() - 1; bin > 0; bin--) {
            if (histogram.count(bin) > 0) {
                return bin;
            }
        }
        return 0;
    }

    /** @return the decayed number of round trips the cell's figures rest on */
    public double decayedRoundTrips() {
        double total = decayedOverflow;
        for (final double count : decayedCounts) {
            total += count;
        }
        return total;
    }

    /** @return the decayed mean round trip, ms; NaN when empty */
    public double meanMillis() {
        final double n = decayedRoundTrips();
        return n > 0 ? decayedSumMillis / n : Double.NaN;
    }

    /** @return the decayed standard deviation, ms; NaN with fewer than 2 */
    public double stdDevMillis() {
        final double n = decayedRoundTrips();
        if (n < 2) {
            return Double.NaN;
        }
        final double mean = meanMillis();
        return Math.sqrt(Math.max(0, (decayedSumSquaresMillis - n * mean * mean) / (n - 1)));
    }

    /**
     * The verdict of comparing the live cell with the profile's.
     *
     * @param statistic     the test statistic (KS D, or |Δ mean| / standard error)
     * @param criticalValue above which the cell disagrees
     * @param drifting      statistic above the critical value, with enough live data
     * @param test          which test
     */
    public record Verdict(double statistic, double criticalValue, boolean drifting, String test) {
    }

    /**
     * @param profileCell the profile's cell (same pair and size)
     * @return whether the live data disagree significantly with it
     */
    public Verdict compareWith(final ProfileCell profileCell) {
        final double n = decayedRoundTrips();
        if (!profileCell.hasHistogram()) {
            final double sd = Double.isNaN(stdDevMillis()) ? 0 : stdDevMillis();
            final double profileSd = profileCell.stdDevMillis() == null ? 0 : profileCell.stdDevMillis();
            final double standardError = Math.sqrt(sd * sd / Math.max(1, n) + profileSd * profileSd / profileCell.sampleCount());
            final double z = standardError > 0 ? Math.abs(meanMillis() - profileCell.meanMillis()) / standardError : 0;
            return new Verdict(z, 3.0, n >= MIN_ROUND_TRIPS_FOR_TEST && z > 3.0, MEAN_TEST);
        }
        final LatencyHistogram profile = profileCell.histogram();
        final double m = profile.totalCount();
        double live = 0;
        double d = 0;
        for (int bin = 0; bin < upperEdgesNanos.length; bin++) {
            live += decayedCounts[bin];
            final double fLive = n > 0 ? live / n : 0;
            final double fProfile = profile.cumulativeCount(bin) / m;
            d = Math.max(d, Math.abs(fLive - fProfile));
        }
        final double critical = n > 0 ? KS_COEFFICIENT * Math.sqrt((n + m) / (n * m)) : Double.POSITIVE_INFINITY;
        return new Verdict(d, critical, n >= MIN_ROUND_TRIPS_FOR_TEST && d > critical, TEST);
    }

    /**
     * @return the cell as a profile cell of what was learned: counts rounded, n their total, the
     *         decayed mean and standard deviation, the longest round trip seen
     * @throws IllegalStateException when nothing was learned
     */
    public ProfileCell toProfileCell() {
        final long[] counts = new long[decayedCounts.length];
        long total = 0;
        for (int i = 0; i < counts.length; i++) {
            counts[i] = Math.round(decayedCounts[i]);
            total += counts[i];
        }
        final long overflow = Math.round(decayedOverflow);
        total += overflow;
        if (total < 1) {
            throw new IllegalStateException(String.format(Locale.ROOT, "cell %s %d B: nothing learned", cpuStates, messageSizeBytes));
        }
        final double mean = meanMillis();
        final double sd = stdDevMillis();
        return new ProfileCell(cpuStates, messageSizeBytes, total, mean, Double.isNaN(sd) ? null : sd, Math.max(maxMillis, mean),
            LatencyHistogram.of(upperEdgesNanos, counts, overflow));
    }

    @Override
    public boolean equals(final Object other) {
        return other instanceof LearnedCell c && cpuStates.equals(c.cpuStates) && messageSizeBytes == c.messageSizeBytes
            && Arrays.equals(upperEdgesNanos, c.upperEdgesNanos) && Arrays.equals(decayedCounts, c.decayedCounts)
            && decayedOverflow == c.decayedOverflow && roundTrips == c.roundTrips && lastEpochMillis == c.lastEpochMillis;
    }

    @Override
    public int hashCode() {
        return java.util.Objects.hash(cpuStates, messageSizeBytes, roundTrips, lastEpochMillis);
    }

    @Override
    public String toString() {
        return String.format(Locale.ROOT, "LearnedCell[%s %d B, %d round trips, mean %.4f ms]", cpuStates, messageSizeBytes,
            roundTrips, meanMillis());
    }
}
