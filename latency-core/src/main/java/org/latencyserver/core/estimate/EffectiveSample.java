package org.latencyserver.core.estimate;

import org.latencyserver.core.histogram.LatencyHistogram;

/**
 * A histogram whose counts are a scale rather than samples (a composed path's convolution, scaled to
 * {@link org.latencyserver.core.path.PathComposition#HISTOGRAM_SCALE_COUNT}) held as the samples it rests on, so that
 * intervals computed from counts are as wide as those samples allow, not as narrow as the scale.
 *
 * <p>Stateless and thread-safe.
 */
public final class EffectiveSample {

    private EffectiveSample() {
    }

    /**
     * The histogram with its counts scaled to {@code samples}: the cumulative count at each edge is the original's share
     * times {@code samples}, rounded to the nearest whole count, so every quantile lies within one sample's rank of the
     * original's; the overflow is scaled the same way.
     *
     * @param histogram a non-empty histogram
     * @param samples   the count wanted, {@code >= 1}
     * @return the histogram itself when it holds no more than {@code samples}; else the same edges with scaled counts
     */
    public static LatencyHistogram scaledTo(final LatencyHistogram histogram, final long samples) {
        if (samples < 1) {
            throw new IllegalArgumentException("a sample count must be >= 1, was " + samples);
        }
        final long total = histogram.totalCount();
        if (total <= samples) {
            return histogram;
        }
        final long[] counts = histogram.counts();
        final long[] scaled = new long[counts.length];
        long cumulative = 0;
        long previous = 0;
        for (int i = 0; i < counts.length; i++) {
            cumulative += counts[i];
            final long now = Math.round((double) cumulative / total * samples);
            scaled[i] = now - previous;
            previous = now;
        }
        return LatencyHistogram.of(histogram.upperEdgesNanos(), scaled, samples - previous);
    }
}
