package org.latencyserver.core.calibration;

import java.util.Arrays;
import org.latencyserver.core.histogram.LatencyHistogram;

/**
 * Recent round trips that followed a served bound, each as its ratio to the thesis's (uncorrected) bound it followed:
 * {@code rtt / thesisBound}, dimensionless. Their conformal upper quantile {@code Q} says by how much the thesis's bound
 * must be multiplied to hold for what follows, however far off its histogram is: a reference whose every quantile lies
 * above the round trips (a profile cell measured under burstier cross-traffic) gives {@code Q < 1}, one whose top lies
 * below them gives {@code Q > 1}. The adaptive level cannot do either: it reads the same histogram at another level,
 * so it is bounded by the histogram's own range, and after a burst of misses it comes back down by only {@code γ ·
 * α_target} per clean round trip.
 *
 * <p>A block (a probe window, a measurement) adds at most {@value #MAX_SCORES_PER_BLOCK} scores, taken evenly by rank
 * from its histogram (a bin's round trips at its upper edge; those beyond the last edge at the last edge), each to three
 * significant digits, so that a
 * measurement's thousand correlated round trips weigh like a few probe windows; at most {@value #CAPACITY} scores are
 * kept, the oldest dropped first.
 *
 * <p>Immutable and thread-safe: {@link #add} copies (a few kB, once per block).
 */
public final class RatioScores {

    /** Scores kept: the newest. */
    public static final int CAPACITY = 400;
    /** Most scores one block adds. */
    public static final int MAX_SCORES_PER_BLOCK = 50;
    /** Scores before {@link #quantile} answers: at least two blocks' worth. */
    public static final int MIN_SCORES = 100;

    /** No scores. */
    public static final RatioScores EMPTY = new RatioScores(new double[0]);

    private final double[] scores; // oldest first, at most CAPACITY, each finite and >= 0
    private final double[] sorted; // the same scores in ascending order: a quantile is read without sorting

    private RatioScores(final double[] scores) {
        this.scores = scores;
        this.sorted = scores.clone();
        Arrays.sort(this.sorted);
    }

    /**
     * @param scores oldest first, each finite and {@code >= 0}; only the newest {@value #CAPACITY} are kept
     * @return them (as read back from a file)
     * @throws IllegalArgumentException on a score that is negative or not finite
     */
    public static RatioScores of(final double[] scores) {
        for (final double score : scores) {
            if (!(score >= 0) || Double.isInfinite(score)) {
                throw new IllegalArgumentException("a ratio score must be finite and >= 0, one was " + score);
            }
        }
        return scores.length == 0 ? EMPTY : new RatioScores(Arrays.copyOfRange(scores, Math.max(0, scores.length - CAPACITY),
            scores.length));
    }

    /** @return a copy of the scores, oldest first */
    public double[] toArray() {
        return scores.clone();
    }

    /**
     * @param roundTrips  a block of round trips, ns
     * @param thesisMillis the thesis's bound they followed, ms, {@code > 0}
     * @return these with the block's scores appended (the oldest dropped beyond {@value #CAPACITY}); these themselves
     *         when the block is empty
     * @throws IllegalArgumentException when {@code thesisMillis} is not a positive finite number
     */
    public RatioScores add(final LatencyHistogram roundTrips, final double thesisMillis) {
        if (!(thesisMillis > 0) || Double.isInfinite(thesisMillis)) {
            throw new IllegalArgumentException("the thesis bound must be finite and > 0 ms, was " + thesisMillis);
        }
        final long total = roundTrips.totalCount();
        if (total == 0) {
            return this;
        }
        final int added = (int) Math.min(total, MAX_SCORES_PER_BLOCK);
        final double[] block = new double[added];
        final double thesisNanos = thesisMillis * 1e6;
        for (int i = 0; i < added; i++) {
            // rank in [1, total]: the middle of the i-th of `added` equal slices of the block
            final long rank = Math.min(total, Math.max(1, (long) Math.ceil((i + 0.5) * total / added)));
            final long nanos = rank > total - roundTrips.overflowCount() ? roundTrips.lastEdgeNanos()
                : roundTrips.upperEdgeNanos(roundTrips.binOfRank(rank));
            block[i] = threeDigits(nanos / thesisNanos);
        }
        return append(block);
    }

    /** A score to three significant digits (half a percent): short in a state file, read back as the same double. */
    private static double threeDigits(final double score) {
        return score == 0 ? 0 : new java.math.BigDecimal(score).round(new java.math.MathContext(3)).doubleValue();
    }

    /**
     * @param other scores of another state (e.g. a pooled neighbour)
     * @return these followed by {@code other}'s, the oldest of these dropped beyond {@value #CAPACITY}
     */
    public RatioScores plus(final RatioScores other) {
        return other.scores.length == 0 ? this : scores.length == 0 ? other : append(other.scores);
    }

    private RatioScores append(final double[] more) {
        final int keep = Math.min(scores.length, Math.max(0, CAPACITY - more.length));
        final int fresh = Math.min(more.length, CAPACITY);
        final double[] next = new double[keep + fresh];
        System.arraycopy(scores, scores.length - keep, next, 0, keep);
        System.arraycopy(more, more.length - fresh, next, keep, fresh);
        return new RatioScores(next);
    }

    /** @return how many scores are kept */
    public int size() {
        return scores.length;
    }

    /**
     * The split-conformal upper quantile: the {@code ⌈(m + 1)(1 − α)⌉}-th smallest of the {@code m} scores.
     *
     * @param targetMissFraction α, in (0, 1)
     * @return the factor the thesis's bound is multiplied by to cover {@code 1 − α} of what follows; NaN below
     *         {@value #MIN_SCORES} scores (or when the rank lies beyond them)
     */
    public double quantile(final double targetMissFraction) {
        if (!(targetMissFraction > 0 && targetMissFraction < 1)) {
            throw new IllegalArgumentException("target miss fraction must be in (0, 1), was " + targetMissFraction);
        }
        final int m = scores.length;
        if (m < MIN_SCORES) {
            return Double.NaN;
        }
        final long rank = (long) Math.ceil((m + 1) * (1.0 - targetMissFraction) - 1e-9);
        if (rank > m) {
            return Double.NaN;
        }
        return sorted[(int) Math.max(0, rank - 1)];
    }

    @Override
    public boolean equals(final Object other) {
        return other instanceof RatioScores r && Arrays.equals(r.scores, scores);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(scores);
    }

    @Override
    public String toString() {
        return "RatioScores[" + scores.length + "]";
    }
}
