package org.latencyserver.core.calibration;

import java.util.Arrays;

/**
 * The last {@link #CAPACITY} values of a stream (oldest dropped first), for medians and empirical
 * quantiles of recent residuals.
 *
 * <p>Immutable and thread-safe: {@link #add} copies (a few hundred bytes, once per probe window).
 */
public final class RecentValues {

    /** How many values are kept. */
    public static final int CAPACITY = 128;

    /** No values. */
    public static final RecentValues EMPTY = new RecentValues(new double[0]);

    private final double[] values; // oldest first, at most CAPACITY

    private RecentValues(final double[] values) {
        this.values = values;
    }

    /**
     * @param values oldest first; only the last {@link #CAPACITY} are kept; each finite
     * @return them
     */
    public static RecentValues of(final double[] values) {
        for (final double value : values) {
            if (!Double.isFinite(value)) {
                throw new IllegalArgumentException("recent values must be finite, one was " + value);
            }
        }
        return new RecentValues(Arrays.copyOfRange(values, Math.max(0, values.length - CAPACITY), values.length));
    }

    /**
     * @param value a finite value
     * @return these with {@code value} appended (the oldest dropped when full)
     */
    public RecentValues add(final double value) {
        if (!Double.isFinite(value)) {
            throw new IllegalArgumentException("recent values must be finite, was " + value);
        }
        final int keep = Math.min(values.length, CAPACITY - 1);
        final double[] next = new double[keep + 1];
        System.arraycopy(values, values.length - keep, next, 0, keep);
        next[keep] = value;
        return new RecentValues(next);
    }

    /** @return how many values are kept */
    public int size() {
        return values.length;
    }

    /** @return a copy, oldest first */
    public double[] toArray() {
        return values.clone();
    }

    /**
     * The conformal quantile: the {@code ceil(level (m + 1))}-th smallest of the m values, so that a
     * new value exchangeable with them falls at or below it with probability at least {@code level}.
     *
     * @param level in (0, 1)
     * @return that value; +∞ when m is too small for the level; NaN when empty
     */
    public double conformalQuantile(final double level) {
        if (values.length == 0) {
            return Double.NaN;
        }
        final int rank = (int) Math.ceil(level * (values.length + 1));
        if (rank > values.length) {
            return Double.POSITIVE_INFINITY;
        }
        final double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[Math.max(0, rank - 1)];
    }

    /** @return the median; NaN when empty */
    public double median() {
        return median(values);
    }

    /**
     * @param values any values (not changed)
     * @return their median; NaN when there are none
     */
    public static double median(final double[] values) {
        if (values.length == 0) {
            return Double.NaN;
        }
        final double[] sorted = values.clone();
        Arrays.sort(sorted);
        final int middle = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2.0;
    }

    @Override
    public boolean equals(final Object other) {
        return other instanceof RecentValues recent && Arrays.equals(values, recent.values);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(values);
    }

    @Override
    public String toString() {
        return "RecentValues" + Arrays.toString(values);
    }
}
