package org.latencyserver.core.stats;

/**
 * Sums of counts (round trips, blocks, windows) that never wrap: a sum that would pass
 * {@link Long#MAX_VALUE} stays there, so a running tally can only ever be too small by what no
 * long can hold, never negative.
 *
 * <p>Stateless and thread-safe.
 */
public final class Counts {

    private Counts() {
    }

    /**
     * @param a a count, {@code >= 0}
     * @param b a count, {@code >= 0}
     * @return {@code a + b}, or {@link Long#MAX_VALUE} when that does not fit in a long
     */
    public static long saturatedSum(final long a, final long b) {
        final long sum = a + b;
        // Overflow only when both have the sign the sum lacks.
        return ((a ^ sum) & (b ^ sum)) < 0 ? (sum < 0 ? Long.MAX_VALUE : Long.MIN_VALUE) : sum;
    }
}
