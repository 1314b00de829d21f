package org.latencyserver.benchmarks.accuracy;

import java.util.Arrays;

/** Order statistics of plain arrays, without a histogram: the harness keeps every round trip. */
public final class SampleStatistics {

    private SampleStatistics() {
    }

    /**
     * Nearest-rank percentile: the smallest value with at least {@code percent} % of the values at or
     * below it (the same reading as a bound's "x % of latencies at or below").
     *
     * @param sortedValues ascending
     * @param percent      0 &lt; percent &le; 100
     * @return the percentile; NaN when there are no values
     */
    public static double percentile(final long[] sortedValues, final double percent) {
        if (sortedValues.length == 0) {
            return Double.NaN;
        }
        final int rank = (int) Math.ceil(percent / 100.0 * sortedValues.length);
        return sortedValues[Math.max(0, Math.min(sortedValues.length - 1, rank - 1))];
    }

    /**
     * @param values any order; not changed
     * @param count  how many of them are used
     * @return the median; NaN when there are none
     */
    public static double median(final double[] values, final int count) {
        if (count == 0) {
            return Double.NaN;
        }
        final double[] sorted = Arrays.copyOf(values, count);
        Arrays.sort(sorted);
        return count % 2 == 1 ? sorted[count / 2] : (sorted[count / 2 - 1] + sorted[count / 2]) / 2;
    }

    /** @return the mean of the values; NaN when empty */
    public static double mean(final long[] values) {
        if (values.length == 0) {
            return Double.NaN;
        }
        double sum = 0;
        for (final long value : values) {
            sum += value;
        }
        return sum / values.length;
    }

    /** @return how many values are at or below the bound */
    public static long countAtOrBelow(final long[] values, final double bound) {
        long count = 0;
        for (final long value : values) {
            if (value <= bound) {
                count++;
            }
        }
        return count;
    }
}
