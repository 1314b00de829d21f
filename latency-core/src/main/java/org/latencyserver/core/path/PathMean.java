package org.latencyserver.core.path;

import java.util.List;

/**
 * A path's mean latency: the sum of its hops' means, each read from its histogram at the bins'
 * midpoints. Means add whatever the dependence between hops, so no method label is needed.
 *
 * <p>Immutable and thread-safe.
 *
 * @param meanNanos     the sum of the hops' means, ns
 * @param hopMeansNanos each hop's mean, ns, in path order
 * @param slackNanos    the most the midpoints can be off the exact mean: the sum over hops of half
 *                      the widest non-empty bin, ns
 */
public record PathMean(double meanNanos, List<Double> hopMeansNanos, double slackNanos) {

    /** Copies the hop means. */
    public PathMean {
        hopMeansNanos = List.copyOf(hopMeansNanos);
    }

    /** @return the mean in milliseconds */
    public double meanMillis() {
        return meanNanos / 1_000_000.0;
    }
}
