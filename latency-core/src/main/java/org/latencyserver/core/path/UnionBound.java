package org.latencyserver.core.path;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.latencyserver.core.histogram.BoundResult;

/**
 * The {@link BoundMethod#UNION} bound: each of k hops at its {@code 1 - (1 - x) / k} quantile,
 * summed. The path's latency exceeds the sum only if some hop exceeds its own quantile, so
 * {@code P(sum > Σ q_i) <= Σ P(X_i > q_i) <= k * (1 - x) / k = 1 - x}, whatever the dependence
 * between hops.
 *
 * <p>The per-hop percentage {@code 100 - (100 - x) / k} is computed in decimal and rounded up to
 * nine decimals, so rounding can only make each hop's quantile higher, never break the bound. Each
 * hop's bound is its histogram's thesis bound (the upper edge of the first bin reaching the share),
 * so its exceedance share is at most the hop's allowance exactly, not approximately.
 *
 * <p>Stateless and thread-safe.
 */
final class UnionBound {

    /** Decimals of the per-hop percentage (rounded up). */
    private static final int PER_HOP_DECIMALS = 9;
    private static final BigDecimal HUNDRED = BigDecimal.valueOf(100);

    private UnionBound() {
    }

    /**
     * @param hops         at least one hop
     * @param boundPercent in (0, 100]
     * @return the bound, with each hop's quantile
     */
    static PathBound of(final List<PathHop> hops, final double boundPercent) {
        final int k = hops.size();
        final double hopPercent = perHopPercent(boundPercent, k);
        final List<HopQuantile> quantiles = new ArrayList<>(k);
        final List<String> notes = new ArrayList<>();
        long sumNanos = 0;
        long slackNanos = 0;
        for (final PathHop hop : hops) {
            final BoundResult bound = HopHistograms.boundAt(hop, hopPercent);
            quantiles.add(new HopQuantile(hop.name(), hopPercent, bound));
            sumNanos = addNanos(sumNanos, bound.boundNanos());
            slackNanos = addNanos(slackNanos, HopHistograms.widthOfBoundBin(hop.histogram(), bound));
            final String note = HopHistograms.fewSamplesNote(hop, hopPercent);
            if (note != null) {
                notes.add(note);
            }
        }
        final String reason = k == 1
            ? "one hop: its own " + HopHistograms.plain(boundPercent) + " % bound, which holds on its own"
            : String.format(Locale.ROOT, "sound whatever the dependence between hops: each of the %d hops at its %s %% "
                + "bound, summed; the path exceeds the sum only if some hop exceeds its own bound, which happens for at "
                + "most %d x %s %% = %s %% of round trips", k, HopHistograms.plain(hopPercent), k,
                HopHistograms.plain(100.0 - hopPercent), HopHistograms.plain(100.0 - boundPercent));
        return new PathBound(BoundMethod.UNION, reason, boundPercent, sumNanos, quantiles, slackNanos, notes);
    }

    /**
     * @param boundPercent x, in (0, 100]
     * @param hopCount     k, {@code >= 1}
     * @return {@code 100 - (100 - x) / k}, rounded up to nine decimals, as a double whose decimal
     *         reading is not below it; exactly {@code x} for one hop
     */
    static double perHopPercent(final double boundPercent, final int hopCount) {
        if (hopCount == 1) {
            return boundPercent;
        }
        final BigDecimal allowancePerHop = HUNDRED.subtract(BigDecimal.valueOf(boundPercent))
            .divide(BigDecimal.valueOf(hopCount), PER_HOP_DECIMALS, RoundingMode.FLOOR);
        final BigDecimal exact = HUNDRED.subtract(allowancePerHop);
        double percent = exact.doubleValue();
        // LatencyHistogram reads a percentage as its shortest decimal; make sure that is not below the exact one.
        while (BigDecimal.valueOf(percent).compareTo(exact) < 0) {
            percent = Math.nextUp(percent);
        }
        return Math.min(percent, 100.0);
    }

    private static long addNanos(final long sum, final long nanos) {
        try {
            return Math.addExact(sum, nanos);
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("the hops' bounds sum beyond a long of nanoseconds (" + sum + " + "
                + nanos + ")", e);
        }
    }
}
