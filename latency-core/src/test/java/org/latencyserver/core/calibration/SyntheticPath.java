package org.latencyserver.core.calibration;

import java.util.Random;
import java.util.function.LongToDoubleFunction;
import org.HdrHistogram.Histogram;
import org.latencyserver.core.estimate.Measurement;
import org.latencyserver.core.histogram.LatencyHistogram;

/**
 * A synthetic message path for the correction's tests: round trips drawn from a distribution that
 * may change with the round trip's index (a step, a ramp), reproducible from its seed.
 */
final class SyntheticPath {

    /** Median round trip in ns as a function of the round trip's index, with a log-normal spread. */
    private final LongToDoubleFunction medianNanosAt;
    private final double logSigma;
    private final double slowShare;
    private final double slowFactor;
    private final Random random;
    private long index;

    private SyntheticPath(final LongToDoubleFunction medianNanosAt, final double logSigma, final double slowShare,
                          final double slowFactor, final long seed) {
        this.medianNanosAt = medianNanosAt;
        this.logSigma = logSigma;
        this.slowShare = slowShare;
        this.slowFactor = slowFactor;
        this.random = new Random(seed);
    }

    static SyntheticPath stationary(final long seed) {
        return new SyntheticPath(i -> 200_000, 0.3, 0, 1, seed);
    }

    /** A stationary path whose round trips are all {@code factor} times those of {@link #stationary}'s. */
    static SyntheticPath scaled(final double factor, final long seed) {
        return new SyntheticPath(i -> 200_000 * factor, 0.3, 0, 1, seed);
    }

    /** The median doubles at round trip {@code atIndex}. */
    static SyntheticPath step(final long atIndex, final long seed) {
        return new SyntheticPath(i -> i < atIndex ? 200_000 : 400_000, 0.3, 0, 1, seed);
    }

    /** The median grows linearly from 200 µs to 600 µs over {@code overRoundTrips}. */
    static SyntheticPath ramp(final long overRoundTrips, final long seed) {
        return new SyntheticPath(i -> 200_000 + 400_000.0 * Math.min(1.0, (double) i / overRoundTrips), 0.3, 0, 1, seed);
    }

    /** 90 % fast round trips around 200 µs, 10 % four times slower: the 96th percentile lies in the slow mode. */
    static SyntheticPath bimodal(final long seed) {
        return new SyntheticPath(i -> 200_000, 0.15, 0.10, 4.0, seed);
    }

    long nextNanos() {
        final double median = medianNanosAt.applyAsDouble(index++);
        final double mode = random.nextDouble() < slowShare ? slowFactor : 1.0;
        return Math.max(1, Math.round(median * mode * Math.exp(logSigma * random.nextGaussian())));
    }

    /** A measurement of {@code roundTrips} round trips taken now, as an agent would submit it. */
    Measurement measure(final int roundTrips) {
        final Histogram hdr = new Histogram(1, 60_000_000_000L, 3);
        double sum = 0;
        double sumSquares = 0;
        long max = 0;
        for (int i = 0; i < roundTrips; i++) {
            final long rttNanos = nextNanos();
            hdr.recordValue(rttNanos);
            sum += rttNanos;
            sumSquares += (double) rttNanos * rttNanos;
            max = Math.max(max, rttNanos);
        }
        final double mean = sum / roundTrips;
        final double stdDev = Math.sqrt(Math.max(0, (sumSquares - roundTrips * mean * mean) / (roundTrips - 1)));
        final LatencyHistogram histogram = LatencyHistogram.fromHdr(hdr);
        return new Measurement(histogram, roundTrips, mean / 1e6, stdDev / 1e6, Math.max(max / 1e6, mean / 1e6));
    }
}
