package org.latencyserver.core.path;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.latencyserver.core.histogram.LatencyHistogram;

/**
 * Hops with known delay distributions for the composition tests: each hop a shift plus an
 * exponential tail, drawn with a fixed seed, either independently per hop or comonotone (one
 * uniform drives every hop). Samples are whole nanoseconds; histograms have equal-width bins.
 */
final class SimulatedHops {

    static final long MS = 1_000_000L;

    private final long[] shiftNanos;
    private final double[] meanTailNanos;

    /**
     * @param shiftNanos    each hop's fixed delay, ns
     * @param meanTailNanos each hop's mean exponential delay on top, ns
     */
    SimulatedHops(final long[] shiftNanos, final double[] meanTailNanos) {
        this.shiftNanos = shiftNanos.clone();
        this.meanTailNanos = meanTailNanos.clone();
    }

    int hopCount() {
        return shiftNanos.length;
    }

    /** @return hop {@code hop}'s delay at the uniform {@code u} in [0, 1): its inverse CDF */
    long delayNanos(final int hop, final double u) {
        return shiftNanos[hop] + (long) Math.ceil(-meanTailNanos[hop] * Math.log1p(-u));
    }

    /** @return {@code draws} samples per hop, independent across hops and draws: {@code [hop][draw]} */
    long[][] independentDraws(final int draws, final long seed) {
        final Random random = new Random(seed);
        final long[][] samples = new long[hopCount()][draws];
        for (int d = 0; d < draws; d++) {
            for (int h = 0; h < hopCount(); h++) {
                samples[h][d] = delayNanos(h, random.nextDouble());
            }
        }
        return samples;
    }

    /** @return {@code draws} samples per hop, the same uniform driving every hop in a draw: {@code [hop][draw]} */
    long[][] comonotoneDraws(final int draws, final long seed) {
        final Random random = new Random(seed);
        final long[][] samples = new long[hopCount()][draws];
        for (int d = 0; d < draws; d++) {
            final double u = random.nextDouble();
            for (int h = 0; h < hopCount(); h++) {
                samples[h][d] = delayNanos(h, u);
            }
        }
        return samples;
    }

    /** @return the path latency of each draw: the sum over hops */
    static long[] sums(final long[][] draws) {
        final long[] sums = new long[draws[0].length];
        for (final long[] hop : draws) {
            for (int d = 0; d < sums.length; d++) {
                sums[d] += hop[d];
            }
        }
        return sums;
    }

    /** @return the hops as named path hops, each binned at {@code binWidthNanos} over {@code bins} bins */
    static List<PathHop> hops(final long[][] draws, final long binWidthNanos, final int bins) {
        final List<PathHop> hops = new ArrayList<>();
        for (int h = 0; h < draws.length; h++) {
            hops.add(new PathHop("sw" + (h + 1) + "-p1", histogram(draws[h], binWidthNanos, bins)));
        }
        return hops;
    }

    /** @return the samples in bins {@code (i * width, (i + 1) * width]}, those above the last edge in the overflow */
    static LatencyHistogram histogram(final long[] samplesNanos, final long binWidthNanos, final int bins) {
        final long[] counts = new long[bins];
        long overflow = 0;
        for (final long sample : samplesNanos) {
            final long bin = Math.max(0, (sample + binWidthNanos - 1) / binWidthNanos - 1);
            if (bin < bins) {
                counts[(int) bin]++;
            } else {
                overflow++;
            }
        }
        return LatencyHistogram.uniform(binWidthNanos, counts, overflow);
    }

    /** @return the share of {@code values} at or below {@code boundNanos} */
    static double coverage(final long[] values, final long boundNanos) {
        long below = 0;
        for (final long value : values) {
            if (value <= boundNanos) {
                below++;
            }
        }
        return (double) below / values.length;
    }

    /** @return the empirical quantile: the {@code ceil(q * n)}-th smallest value */
    static long empiricalQuantile(final long[] values, final double quantile) {
        final long[] sorted = values.clone();
        Arrays.sort(sorted);
        final int rank = (int) Math.max(1, Math.ceil(quantile * sorted.length));
        return sorted[rank - 1];
    }

    /**
     * The Dvoretzky–Kiefer–Wolfowitz half-width: with probability at least {@code 1 - alpha}, an
     * empirical CDF of {@code n} samples is within this of the true CDF everywhere.
     */
    static double dkwHalfWidth(final long n, final double alpha) {
        return Math.sqrt(Math.log(2.0 / alpha) / (2.0 * n));
    }
}
