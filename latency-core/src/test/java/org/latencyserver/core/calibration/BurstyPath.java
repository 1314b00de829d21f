package org.latencyserver.core.calibration;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.LongToDoubleFunction;
import org.HdrHistogram.Histogram;
import org.latencyserver.core.estimate.Measurement;
import org.latencyserver.core.histogram.LatencyHistogram;

/**
 * A synthetic path whose round trips are correlated in time, as on a shared machine: the log of a round
 * trip is its level (a function of the round trip's index: flat, a ramp, a step) plus a slow AR(1) spell
 * shared by neighbouring round trips, plus its own log-normal scatter, and 1 % of round trips are slow
 * outliers. Reproducible from its seed.
 */
final class BurstyPath {

    private final LongToDoubleFunction medianNanosAt;
    private final double spellPersistence;
    private final double spellSigma;
    private final double ownSigma;
    private final Random random;
    private double spell;
    private long index;

    /**
     * @param medianNanosAt    median round trip, ns, by index
     * @param spellPersistence φ of the AR(1) spell per round trip, in [0, 1)
     * @param spellSigma       stationary sd of the spell, log units
     * @param ownSigma         a round trip's own log-normal sd
     */
    BurstyPath(final LongToDoubleFunction medianNanosAt, final double spellPersistence, final double spellSigma,
               final double ownSigma, final long seed) {
        this.medianNanosAt = medianNanosAt;
        this.spellPersistence = spellPersistence;
        this.spellSigma = spellSigma;
        this.ownSigma = ownSigma;
        this.random = new Random(seed);
    }

    /** A stationary path: 200 µs median, spells of about 200 round trips. */
    static BurstyPath stationary(final long seed) {
        return new BurstyPath(i -> 200_000, 0.995, 0.15, 0.4, seed);
    }

    /** The median grows from 200 µs to 400 µs over {@code overRoundTrips}, then steps back to 250 µs. */
    static BurstyPath drifting(final long overRoundTrips, final long seed) {
        return new BurstyPath(i -> i < overRoundTrips ? 200_000 + 200_000.0 * i / overRoundTrips : 250_000, 0.995, 0.15, 0.4,
            seed);
    }

    long nextNanos() {
        final double innovation = spellSigma * Math.sqrt(1 - spellPersistence * spellPersistence) * random.nextGaussian();
        spell = spellPersistence * spell + innovation;
        final double outlier = random.nextDouble() < 0.01 ? 5.0 : 1.0;
        return Math.max(1, Math.round(medianNanosAt.applyAsDouble(index++) * outlier
            * Math.exp(spell + ownSigma * random.nextGaussian())));
    }

    /** @return the mean of the next {@code roundTrips} round trips, ms */
    double windowMeanMillis(final int roundTrips) {
        double sum = 0;
        for (int i = 0; i < roundTrips; i++) {
            sum += nextNanos();
        }
        return sum / roundTrips / 1e6;
    }

    /** A measurement of {@code roundTrips} round trips with {@code batches} batch means, as an agent submits it. */
    Measurement measure(final int roundTrips, final int batches) {
        final Histogram hdr = new Histogram(1, 60_000_000_000L, 3);
        double sum = 0;
        double sumSquares = 0;
        long max = 0;
        final List<Double> batchMeans = new ArrayList<>();
        double batchSum = 0;
        final int perBatch = roundTrips / batches;
        for (int i = 0; i < roundTrips; i++) {
            final long rttNanos = nextNanos();
            hdr.recordValue(rttNanos);
            sum += rttNanos;
            sumSquares += (double) rttNanos * rttNanos;
            max = Math.max(max, rttNanos);
            batchSum += rttNanos;
            if ((i + 1) % perBatch == 0 && batchMeans.size() < batches) {
                batchMeans.add(batchSum / perBatch / 1e6);
                batchSum = 0;
            }
        }
        final double mean = sum / roundTrips;
        final double stdDev = Math.sqrt(Math.max(0, (sumSquares - roundTrips * mean * mean) / (roundTrips - 1)));
        return new Measurement(LatencyHistogram.fromHdr(hdr), roundTrips, mean / 1e6, stdDev / 1e6,
            Math.max(max / 1e6, mean / 1e6), batchMeans);
    }
}
