package org.latencyserver.core.path;

import java.math.BigDecimal;
import java.util.List;
import java.util.Locale;
import org.latencyserver.core.histogram.BoundBeyondHistogramException;
import org.latencyserver.core.histogram.BoundResult;
import org.latencyserver.core.histogram.EmptyHistogramException;
import org.latencyserver.core.histogram.LatencyHistogram;

/**
 * What the composition methods read off one hop's histogram, with the hop named in every refusal.
 * Stateless and thread-safe.
 */
final class HopHistograms {

    private HopHistograms() {
    }

    /**
     * @return the hop's bound at {@code percent}
     * @throws EmptyHistogramException     naming the hop, when it has no samples
     * @throws HopBeyondHistogramException naming the hop, when the bound lies in its overflow
     */
    static BoundResult boundAt(final PathHop hop, final double percent) {
        requireSamples(hop, "a bound at " + plain(percent) + " %");
        try {
            return hop.histogram().boundAt(percent);
        } catch (BoundBeyondHistogramException e) {
            throw new HopBeyondHistogramException(List.of(hop.name()), "hop " + hop.name() + ": " + e.getMessage());
        }
    }

    /** @throws EmptyHistogramException naming the hop and what was asked, when it has no samples */
    static void requireSamples(final PathHop hop, final String asked) {
        if (hop.histogram().isEmpty()) {
            throw new EmptyHistogramException("hop " + hop.name() + " has no samples (" + hop.histogram().binCount()
                + " empty bins): no " + asked + " for the path");
        }
    }

    /** @return the width of the bin whose upper edge is the bound, ns */
    static long widthOfBoundBin(final LatencyHistogram histogram, final BoundResult bound) {
        final int bin = histogram.binOf(bound.boundNanos());
        return histogram.upperEdgeNanos(bin) - histogram.lowerEdgeNanos(bin);
    }

    /** @return the widest bin that holds a sample, ns; 0 when no bin does */
    static long widestNonEmptyBinNanos(final LatencyHistogram histogram) {
        long widest = 0;
        for (int bin = 0; bin < histogram.binCount(); bin++) {
            if (histogram.count(bin) > 0) {
                widest = Math.max(widest, histogram.upperEdgeNanos(bin) - histogram.lowerEdgeNanos(bin));
            }
        }
        return widest;
    }

    /**
     * @return a note when the hop has too few samples to tell its bound at {@code percent} from its
     *         largest binned sample, else null
     */
    static String fewSamplesNote(final PathHop hop, final double percent) {
        final LatencyHistogram histogram = hop.histogram();
        if (percent >= 100.0 || histogram.requiredCount(percent) < histogram.totalCount()) {
            return null;
        }
        final long needed = (long) Math.ceil(100.0 / (100.0 - percent));
        return String.format(Locale.ROOT, "hop %s: %d samples are too few for its %s %% bound, which is therefore its"
            + " largest sample's bin (about %d samples would be needed)", hop.name(), histogram.totalCount(),
            plain(percent), needed);
    }

    /** @return the number as written, without trailing zeros or an exponent */
    static String plain(final double value) {
        return BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
    }

    /**
     * @return {@code sum + nanos}
     * @throws IllegalArgumentException when the sum overflows a long: the hops' latencies are implausible
     */
    static long addNanos(final long sum, final long nanos) {
        try {
            return Math.addExact(sum, nanos);
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("the hops' latencies sum beyond a long of nanoseconds (" + sum + " + "
                + nanos + ")", e);
        }
    }
}
