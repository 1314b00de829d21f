package org.latencyserver.benchmarks;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.function.LongToDoubleFunction;
import org.HdrHistogram.Histogram;
import org.latencyserver.core.calibration.EstimateCorrection;
import org.latencyserver.core.calibration.MeanCorrection;
import org.latencyserver.core.calibration.RecentValues;
import org.latencyserver.core.calibration.StateKnowledge;
import org.latencyserver.core.estimate.Estimate;
import org.latencyserver.core.estimate.MeasuredAverageEstimator;
import org.latencyserver.core.estimate.Measurement;
import org.latencyserver.core.histogram.LatencyHistogram;
import org.latencyserver.core.stats.ConfidenceInterval;

/**
 * A seeded simulation of a QoS 3 connection in six synthetic load states: how often the application's next burst
 * mean falls inside the served interval, and how far the served mean is from the pooled mean of what followed,
 * for three ways of serving the same measurements on the same round trips:
 * <ul>
 * <li>{@code thesis}: the measured mean with its Eq. 1 confidence interval of the mean;</li>
 * <li>{@code before}: what an adaptive connection served before the next-burst prediction — the mean times the
 *     factor {@code e^μ} of the log ratios (applied when two standard errors from 1), with the conformal interval
 *     of the next probe window's mean (reconstructed here from the same learned state);</li>
 * <li>{@code after}: what it serves now ({@link EstimateCorrection#correct} with the burst length).</li>
 * </ul>
 * Each cycle: the estimate is read, the application sends a burst of n round trips (tested, never learned from),
 * a pause of 200 round trips, a probe window of 19 (learned from), a pause; a drift alarm opens a measurement of
 * 1000 round trips in 20 batch means, drawn from the same stream for every way that asked for one.
 *
 * <p>Arguments: {@code [cycles (3000)] [burst round trips (50)] [seed (1)]}. Prints one row per state and way.
 * Pure computation: the figures do not depend on the machine's load.
 */
public final class NextBurstSimulation {

    private static final int PROBE_WINDOW = 19;
    private static final int GAP = 200;
    private static final int WARM_UP_CYCLES = 300;

    private NextBurstSimulation() {
    }

    /** One way of serving, with its own learning. */
    private static final class Way {
        final String name;
        Estimate thesis;
        StateKnowledge knowledge;
        long tested;
        long inside;
        double servedSum;
        double burstSum;
        final List<Double> errors = new ArrayList<>();
        final List<Double> relativeHalfWidths = new ArrayList<>();

        Way(final String name, final Measurement first) {
            this.name = name;
            this.thesis = MeasuredAverageEstimator.estimate(first, "simulated");
            this.knowledge = StateKnowledge.fresh(0).withMeasurement(first, 0);
        }
    }

    public static void main(final String[] args) {
        final int cycles = args.length > 0 ? Integer.parseInt(args[0]) : 3000;
        final int burst = args.length > 1 ? Integer.parseInt(args[1]) : 50;
        final long seed = args.length > 2 ? Long.parseLong(args[2]) : 1;
        final long cycleRoundTrips = burst + PROBE_WINDOW + 2L * GAP;
        final long span = cycles * cycleRoundTrips;
        System.out.printf(Locale.ROOT, "# %d cycles, bursts of %d, probe windows of %d, seed %d; after a warm-up of %d cycles%n",
            cycles, burst, PROBE_WINDOW, seed, WARM_UP_CYCLES);
        System.out.println("| state | way | bursts inside | served vs pooled mean | median error per burst | median half-width |"
            + " measurements |");
        System.out.println("|---|---|---|---|---|---|---|");
        simulate("quiet (spells 8 %, 0.5 % outliers)", new Path(i -> 150_000, 0.995, 0.08, 0.3, 0.005, 5, seed), cycles, burst);
        simulate("busy (spells 15 %, 1 % outliers)", new Path(i -> 200_000, 0.995, 0.15, 0.4, 0.01, 5, seed + 1), cycles, burst);
        simulate("heavy tail (spells 25 %, 3 % outliers x8)", new Path(i -> 250_000, 0.998, 0.25, 0.5, 0.03, 8, seed + 2), cycles,
            burst);
        simulate("very heavy tail (sigma 1.0, 4 % outliers x15: mean 2.6 x median)",
            new Path(i -> 135_000, 0.995, 0.2, 1.0, 0.04, 15, seed + 5), cycles, burst);
        simulate("drifting (ramp x2 over half the run, then x0.6)",
            new Path(i -> i < span / 2 ? 200_000 + 200_000.0 * i / (span / 2) : 250_000, 0.995, 0.15, 0.4, 0.01, 5, seed + 3),
            cycles, burst);
        simulate("step (x2 at a third of the run)", new Path(i -> i < span / 3 ? 200_000 : 400_000, 0.995, 0.15, 0.4, 0.01, 5,
            seed + 4), cycles, burst);
    }

    private static void simulate(final String state, final Path path, final int cycles, final int burst) {
        final Measurement first = path.measure(1000, 20);
        final Way[] ways = {new Way("thesis", first), new Way("before", first), new Way("after", first)};
        final long[] measurements = new long[ways.length];
        for (int cycle = 0; cycle < cycles; cycle++) {
            final Estimate[] served = new Estimate[ways.length];
            for (int w = 0; w < ways.length; w++) {
                served[w] = serve(ways[w], burst);
            }
            final double burstMean = path.windowMeanMillis(burst);
            for (int w = 0; w < ways.length; w++) {
                final Way way = ways[w];
                if (cycle >= WARM_UP_CYCLES) {
                    way.tested++;
                    way.inside += served[w].interval().contains(burstMean) ? 1 : 0;
                    way.servedSum += served[w].valueMillis();
                    way.burstSum += burstMean;
                    way.errors.add(Math.abs(served[w].valueMillis() - burstMean) / burstMean);
                    way.relativeHalfWidths.add(served[w].interval().halfWidth() / served[w].valueMillis());
                }
            }
            path.windowMeanMillis(GAP);
            final double probeMean = path.windowMeanMillis(PROBE_WINDOW);
            boolean alarm = false;
            for (int w = 0; w < ways.length; w++) {
                final Way way = ways[w];
                final boolean after = "after".equals(way.name);
                way.knowledge = way.knowledge.observeMean(way.thesis.valueMillis(), served[w].valueMillis(),
                    served[w].interval().lower(), served[w].interval().upper(), probeMean, PROBE_WINDOW, true,
                    !"thesis".equals(way.name), after ? way.knowledge.burstSpread() : null, burst);
                alarm |= way.knowledge.drift().alarm() != null;
            }
            if (alarm) {
                final Measurement fresh = path.measure(1000, 20);
                for (int w = 0; w < ways.length; w++) {
                    final Way way = ways[w];
                    if (way.knowledge.drift().alarm() == null) {
                        continue;
                    }
                    final boolean after = "after".equals(way.name);
                    way.knowledge = way.knowledge.withDriftHandled().observeMean(way.thesis.valueMillis(), served[w].valueMillis(),
                        served[w].interval().lower(), served[w].interval().upper(), fresh.meanMillis(), fresh.sampleCount(), false,
                        true, after ? way.knowledge.burstSpread() : null, burst).withMeasurement(fresh, cycle);
                    way.thesis = MeasuredAverageEstimator.estimate(fresh, "simulated");
                    measurements[w]++;
                }
            }
            path.windowMeanMillis(GAP);
        }
        for (int w = 0; w < ways.length; w++) {
            final Way way = ways[w];
            System.out.printf(Locale.ROOT, "| %s | %s | %.1f %% | %+.1f %% | %.1f %% | %.1f %% | %d |%n", state, way.name,
                100.0 * way.inside / way.tested, 100.0 * (way.servedSum - way.burstSum) / way.burstSum,
                100.0 * median(way.errors), 100.0 * median(way.relativeHalfWidths), measurements[w]);
        }
    }

    private static Estimate serve(final Way way, final int burst) {
        switch (way.name) {
            case "thesis":
                return way.thesis;
            case "after":
                return EstimateCorrection.correct(way.thesis, null, way.knowledge, RecentValues.EMPTY, burst).estimate();
            default:
                return before(way.thesis, way.knowledge.meanCorrection());
        }
    }

    /** The served mean and interval as they were before: factor e^μ when two standard errors from 1, next window's interval. */
    private static Estimate before(final Estimate thesis, final MeanCorrection correction) {
        if (correction.windows() == 0) {
            return thesis;
        }
        final double variance = Math.max(0.0, correction.logSquareMean() - correction.logFactor() * correction.logFactor());
        final double standardError = Math.sqrt(variance * MeanCorrection.SMOOTHING / (2 - MeanCorrection.SMOOTHING));
        final boolean significant = correction.windows() >= MeanCorrection.MIN_WINDOWS_FOR_FACTOR
            && Math.abs(correction.logFactor()) > MeanCorrection.SIGNIFICANCE_STANDARD_ERRORS * standardError;
        final double factor = significant ? Math.exp(correction.logFactor()) : 1.0;
        final double value = thesis.valueMillis() * factor;
        ConfidenceInterval interval = correction.predictiveInterval(value, Estimate.CONFIDENCE_LEVEL);
        if (interval == null) {
            interval = new ConfidenceInterval(thesis.interval().lower() * factor, thesis.interval().upper() * factor,
                Estimate.CONFIDENCE_LEVEL, thesis.interval().method());
        }
        return new Estimate(3, thesis.kind(), value, 0.0, interval, List.of(), thesis.basis(), List.of(), false);
    }

    private static double median(final List<Double> values) {
        final double[] sorted = values.stream().mapToDouble(Double::doubleValue).toArray();
        Arrays.sort(sorted);
        return sorted.length == 0 ? Double.NaN : sorted[sorted.length / 2];
    }

    /**
     * A synthetic path whose round trips are correlated in time: log round trip = log level(index) + an AR(1) spell
     * shared by neighbours + its own log-normal scatter; a share of round trips are slow outliers.
     */
    private static final class Path {
        private final LongToDoubleFunction medianNanosAt;
        private final double persistence;
        private final double spellSigma;
        private final double ownSigma;
        private final double outlierShare;
        private final double outlierFactor;
        private final Random random;
        private double spell;
        private long index;

        Path(final LongToDoubleFunction medianNanosAt, final double persistence, final double spellSigma, final double ownSigma,
             final double outlierShare, final double outlierFactor, final long seed) {
            this.medianNanosAt = medianNanosAt;
            this.persistence = persistence;
            this.spellSigma = spellSigma;
            this.ownSigma = ownSigma;
            this.outlierShare = outlierShare;
            this.outlierFactor = outlierFactor;
            this.random = new Random(seed);
        }

        long nextNanos() {
            spell = persistence * spell + spellSigma * Math.sqrt(1 - persistence * persistence) * random.nextGaussian();
            final double outlier = random.nextDouble() < outlierShare ? outlierFactor : 1.0;
            return Math.max(1, Math.round(medianNanosAt.applyAsDouble(index++) * outlier
                * Math.exp(spell + ownSigma * random.nextGaussian())));
        }

        double windowMeanMillis(final int roundTrips) {
            double sum = 0;
            for (int i = 0; i < roundTrips; i++) {
                sum += nextNanos();
            }
            return sum / roundTrips / 1e6;
        }

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
}
