package org.latencyserver.core.path;

import java.util.List;

/**
 * A path's x % latency bound, composed from its hops, with how and why.
 *
 * <p>{@link #slackNanos()} is how far binning may have raised the value above what the same method
 * gives on the hops' exact samples: the value is never below that, and at most this much above.
 *
 * <p>Immutable and thread-safe.
 *
 * @param method       how the hops were composed
 * @param reason       why this method and what it assumes, one sentence for an operator
 * @param boundPercent the percentage asked for, in (0, 100]
 * @param boundNanos   the bound, ns, {@code > 0}
 * @param hopQuantiles for {@link BoundMethod#UNION}: each hop's quantile that was summed, in path
 *                     order; empty for {@link BoundMethod#INDEPENDENT}
 * @param slackNanos   the most binning may have added, ns, {@code >= 0}
 * @param notes        caveats an operator should see, e.g. a hop with too few samples for its
 *                     quantile; often empty
 */
public record PathBound(BoundMethod method, String reason, double boundPercent, long boundNanos,
                        List<HopQuantile> hopQuantiles, long slackNanos, List<String> notes) {

    /**
     * @throws IllegalArgumentException when a component is outside the range documented above
     */
    public PathBound {
        if (method == null || reason == null || hopQuantiles == null || notes == null) {
            throw new IllegalArgumentException("method, reason, hop quantiles and notes must not be null");
        }
        if (!(boundPercent > 0.0 && boundPercent <= 100.0)) {
            throw new IllegalArgumentException("bound percentage must be in (0, 100], was " + boundPercent);
        }
        if (boundNanos <= 0) {
            throw new IllegalArgumentException("bound must be > 0 ns, was " + boundNanos);
        }
        if (slackNanos < 0) {
            throw new IllegalArgumentException("slack must be >= 0 ns, was " + slackNanos);
        }
        hopQuantiles = List.copyOf(hopQuantiles);
        notes = List.copyOf(notes);
    }

    /** @return the bound in milliseconds */
    public double boundMillis() {
        return boundNanos / 1_000_000.0;
    }
}
