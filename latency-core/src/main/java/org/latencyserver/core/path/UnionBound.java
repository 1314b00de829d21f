package org.latencyserver.core.path;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.latencyserver.core.histogram.BoundResult;
import org.latencyserver.core.histogram.LatencyHistogram;

/**
 * The {@link BoundMethod#UNION} bound: each of k hops at its {@code 1 - (1 - x) / k} quantile,
 * summed. The path's latency exceeds the sum only if some hop exceeds its own quantile, so
 * {@code P(sum > Σ q_i) <= Σ P(X_i > q_i) <= k * (1 - x) / k = 1 - x}, whatever the dependence
 * between hops.
 *
 * <p>Each hop's quantile is the thesis's bound at the hop's share: the upper edge of the first bin
 * whose cumulative count reaches {@code n - floor(n * (100 - x) / (100 * k))} of its n samples,
 * computed exactly in decimal (x as written), so at most {@code (1 - x) / k} of the hop's samples
 * lie above it — exactly, not up to rounding. The per-hop percentage reported is that share rounded
 * up to nine decimals, for display only.
 *
 * <p>Stateless and thread-safe.
 */
final class UnionBound {

    /** Decimals of the per-hop percentage as reported (rounded up). */
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
            final BoundResult bound = hopBound(hop, boundPercent, k, hopPercent);
            quantiles.add(new HopQuantile(hop.name(), hopPercent, bound));
            sumNanos = HopHistograms.addNanos(sumNanos, bound.boundNanos());
            slackNanos = HopHistograms.addNanos(slackNanos, HopHistograms.widthOfBoundBin(hop.histogram(), bound));
            final String note = fewSamplesNote(hop, hopPercent, boundPercent, k);
            if (note != null) {
                notes.add(note);
            }
        }
        final String reason = k == 1
            ? "one hop: its own " + HopHistograms.plain(boundPercent) + " % bound, which holds on its own"
            : String.format(Locale.ROOT, "sound whatever the dependence between hops: each of the %d hops at its %s %% "
                + "bound, summed; the path exceeds the sum only if some hop exceeds its own bound, which happens for at "
                + "most %d x (%s %% / %d) = %s %% of round trips", k, HopHistograms.plain(hopPercent), k,
                HopHistograms.plain(100.0 - boundPercent), k, HopHistograms.plain(100.0 - boundPercent));
        return new PathBound(BoundMethod.UNION, reason, boundPercent, sumNanos, quantiles, slackNanos, notes);
    }

    /**
     * @return the hop's bound: the first bin reaching its exact required count
     * @throws HopBeyondHistogramException naming the hop, when that count is reached only in its overflow
     */
    private static BoundResult hopBound(final PathHop hop, final double boundPercent, final int k,
                                        final double hopPercent) {
        HopHistograms.requireSamples(hop, "union bound at " + HopHistograms.plain(boundPercent) + " %");
        final LatencyHistogram histogram = hop.histogram();
        final long required = requiredCount(histogram.totalCount(), boundPercent, k);
        final int bin = histogram.binOfRank(required);
        if (bin < 0) {
            throw new HopBeyondHistogramException(List.of(hop.name()), String.format(Locale.ROOT,
                "hop %s: its %s %% bound (for the union bound of %d hops at %s %%) needs %d of %d samples, but only %d lie "
                    + "at or below the last edge (%.3f ms); %d are above it", hop.name(), HopHistograms.plain(hopPercent),
                k, HopHistograms.plain(boundPercent), required, histogram.totalCount(),
                histogram.totalCount() - histogram.overflowCount(), histogram.lastEdgeNanos() / 1e6,
                histogram.overflowCount()));
        }
        return new BoundResult(histogram.upperEdgeNanos(bin), histogram.cumulativeCount(bin), histogram.totalCount(),
            hopPercent);
    }

    /**
     * @param totalCount   the hop's samples n, {@code >= 1}
     * @param boundPercent x, in (0, 100]
     * @param k            hops, {@code >= 1}
     * @return {@code max(1, n - floor(n * (100 - x) / (100 * k)))}, exact; for k = 1 the thesis's
     *         {@code max(1, ceil(x / 100 * n))}
     */
    static long requiredCount(final long totalCount, final double boundPercent, final int k) {
        final long allowedAbove = BigDecimal.valueOf(totalCount)
            .multiply(HUNDRED.subtract(BigDecimal.valueOf(boundPercent)))
            .divide(HUNDRED.multiply(BigDecimal.valueOf(k)), 0, RoundingMode.FLOOR)
            .longValueExact();
        return Math.max(1L, totalCount - allowedAbove);
    }

    /**
     * @param boundPercent x, in (0, 100]
     * @param hopCount     k, {@code >= 1}
     * @return {@code 100 - (100 - x) / k} rounded up to nine decimals, for display; exactly x for one hop
     */
    static double perHopPercent(final double boundPercent, final int hopCount) {
        if (hopCount == 1) {
            return boundPercent;
        }
        final BigDecimal allowancePerHop = HUNDRED.subtract(BigDecimal.valueOf(boundPercent))
            .divide(BigDecimal.valueOf(hopCount), PER_HOP_DECIMALS, RoundingMode.FLOOR);
        return Math.min(100.0, HUNDRED.subtract(allowancePerHop).doubleValue());
    }

    /** @return a note when the hop's share is its largest sample only because it has too few samples, else null */
    private static String fewSamplesNote(final PathHop hop, final double hopPercent, final double boundPercent,
                                         final int k) {
        final long n = hop.histogram().totalCount();
        if (hopPercent >= 100.0 || requiredCount(n, boundPercent, k) < n) {
            return null;
        }
        final long needed = (long) Math.ceil(100.0 / (100.0 - hopPercent) - 1e-9);
        return String.format(Locale.ROOT, "hop %s: %d samples are too few for its %s %% bound, which is therefore its"
            + " largest sample's bin (about %d samples would be needed)", hop.name(), n,
            HopHistograms.plain(hopPercent), needed);
    }
}
