package org.latencyserver.benchmarks.calibration;

import java.util.Locale;
import java.util.Random;
import java.util.function.DoubleToLongFunction;
import org.HdrHistogram.Histogram;
import org.latencyserver.core.calibration.AdaptiveQuantileLevel;
import org.latencyserver.core.calibration.CoverageTally;
import org.latencyserver.core.calibration.EstimateCorrection;
import org.latencyserver.core.calibration.RecentValues;
import org.latencyserver.core.calibration.StateKnowledge;
import org.latencyserver.core.estimate.Estimate;
import org.latencyserver.core.estimate.EstimateRefusedException;
import org.latencyserver.core.estimate.MeasuredBoundEstimator;
import org.latencyserver.core.estimate.Measurement;
import org.latencyserver.core.histogram.BoundBeyondHistogramException;
import org.latencyserver.core.histogram.LatencyHistogram;
import org.latencyserver.core.stats.ConfidenceInterval;

/**
 * Per-load-state coverage of a served 96 % bound, with and without borrowing from the connection's pooled level
 * ({@code BorrowedLevel}), on a synthetic drifting workload: three load states whose reference histograms were
 * measured once at the start (a profile), probe windows of 8 round trips, the state of each window drawn at random —
 * A 66.5 %, B 33 %, C 0.5 % (the young state: about 100 windows in a run). Seeded, no network, the server's own
 * correction code ({@link EstimateCorrection}, {@link StateKnowledge#observeBound}).
 *
 * <p>Scenarios: {@code common} — every state's latencies grow ×1.5 over the run (a drift the pooled level learns
 * and a young state can borrow); {@code unlike} — A and B drift so, C does not (borrowing then over-covers C).
 *
 * <p>Reported per state, pooled over the seeds' runs: coverage over the whole run and over the state's first
 * {@value #EARLY_WINDOWS} windows (while it is young), how many runs ended with the state flagged below nominal
 * ({@link StateKnowledge#coverageBelowNominal}), and the mean bound served.
 *
 * <p>Run: {@code java -cp benchmarks/target/benchmarks.jar
 * org.latencyserver.benchmarks.calibration.GroupCalibrationSimulation [windows] [seeds]}.
 */
public final class GroupCalibrationSimulation {

    private static final double BOUND_PERCENT = 96.0;
    private static final int WINDOW = 8;
    private static final double[] STATE_SHARE = {0.665, 0.33, 0.005};
    private static final double[] MEDIAN_NANOS = {200_000, 400_000, 300_000};
    private static final double LOG_SIGMA = 0.3;
    private static final String[] NAMES = {"A", "B", "C (young)"};

    private GroupCalibrationSimulation() {
    }

    /** A state's first windows, whose coverage shows what a young state is served. */
    private static final int EARLY_WINDOWS = 30;

    /** Per-state outcome of one run; {@code early} tallies each state's first {@value #EARLY_WINDOWS} windows. */
    private record Outcome(StateKnowledge[] knowledge, double[] servedMillisSum, long[] windows, CoverageTally[] early) {
    }

    /**
     * @param args windows per run (default 20000), seeds (default 10)
     */
    public static void main(final String[] args) throws EstimateRefusedException {
        final int windows = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
        final int seeds = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        System.out.printf(Locale.ROOT, "%d windows of %d round trips per run, seeds 1..%d, nominal %.0f %%, n0 = 20 blocks%n%n",
            windows, WINDOW, seeds, BOUND_PERCENT);
        for (final String scenario : new String[] {"common", "unlike"}) {
            System.out.println("scenario " + scenario + " (coverage pooled over the seeds' runs; interval over blocks)");
            System.out.println("| state | windows per run | coverage without borrowing | with borrowing | first " + EARLY_WINDOWS
                + " windows without | with | runs flagged below nominal without / with | mean bound without / with, ms |");
            System.out.println("|---|---|---|---|---|---|---|---|");
            final CoverageTally[][] all = new CoverageTally[2][NAMES.length];
            final CoverageTally[][] early = new CoverageTally[2][NAMES.length];
            final long[][] flagged = new long[2][NAMES.length];
            final double[][] servedSum = new double[2][NAMES.length];
            final long[] windowsSum = new long[NAMES.length];
            for (int seed = 1; seed <= seeds; seed++) {
                for (int b = 0; b < 2; b++) {
                    final Outcome outcome = run(scenario, windows, seed, b == 1);
                    for (int s = 0; s < NAMES.length; s++) {
                        all[b][s] = all[b][s] == null ? outcome.knowledge[s].coverage() : all[b][s].plus(outcome.knowledge[s].coverage());
                        early[b][s] = early[b][s] == null ? outcome.early[s] : early[b][s].plus(outcome.early[s]);
                        flagged[b][s] += outcome.knowledge[s].coverageBelowNominal() ? 1 : 0;
                        servedSum[b][s] += outcome.servedMillisSum[s];
                        if (b == 0) {
                            windowsSum[s] += outcome.windows[s];
                        }
                    }
                }
            }
            for (int s = 0; s < NAMES.length; s++) {
                System.out.printf(Locale.ROOT, "| %s | %d | %s | %s | %s | %s | %d / %d of %d | %.3f / %.3f |%n", NAMES[s],
                    windowsSum[s] / seeds, coverage(all[0][s]), coverage(all[1][s]), coverage(early[0][s]), coverage(early[1][s]),
                    flagged[0][s], flagged[1][s], seeds, servedSum[0][s] / windowsSum[s], servedSum[1][s] / windowsSum[s]);
            }
            System.out.println();
        }
    }

    private static Outcome run(final String scenario, final int windows, final long seed, final boolean borrow)
        throws EstimateRefusedException {
        final Random random = new Random(seed);
        final Measurement[] reference = new Measurement[NAMES.length];
        final Estimate[] thesis = new Estimate[NAMES.length];
        final StateKnowledge[] knowledge = new StateKnowledge[NAMES.length];
        for (int s = 0; s < NAMES.length; s++) {
            reference[s] = measure(random, MEDIAN_NANOS[s], 1000);
            thesis[s] = MeasuredBoundEstimator.estimate(reference[s], BOUND_PERCENT, "synthetic profile cell");
            knowledge[s] = StateKnowledge.fresh(BOUND_PERCENT);
        }
        AdaptiveQuantileLevel pooled = AdaptiveQuantileLevel.start(BOUND_PERCENT);
        final double[] servedSum = new double[NAMES.length];
        final long[] counted = new long[NAMES.length];
        final CoverageTally[] early = new CoverageTally[NAMES.length];
        java.util.Arrays.fill(early, CoverageTally.EMPTY);
        final long[] window = new long[WINDOW];
        for (int w = 0; w < windows; w++) {
            final int s = drawState(random);
            final double progress = (double) w / windows;
            final boolean drifts = "common".equals(scenario) || s != 2;
            final double median = MEDIAN_NANOS[s] * (drifts ? 1.0 + 0.5 * progress : 1.0);
            for (int i = 0; i < WINDOW; i++) {
                window[i] = Math.max(1, Math.round(median * Math.exp(LOG_SIGMA * random.nextGaussian())));
            }
            final Estimate served = EstimateCorrection.correct(thesis[s], reference[s].histogram(), knowledge[s], RecentValues.EMPTY,
                borrow ? pooled : null, null).estimate();
            final long boundNanos = Math.round(served.valueMillis() * 1e6);
            final long hits = countAtOrBelow(window, boundNanos);
            final LatencyHistogram histogram = reference[s].histogram();
            final DoubleToLongFunction missesAt = levelPercent -> WINDOW - countAtOrBelow(window, boundNanosAt(histogram, levelPercent));
            knowledge[s] = knowledge[s].observeBound(WINDOW, hits, true, true, null, missesAt);
            pooled = pooled.observe(WINDOW, missesAt.applyAsLong(pooled.servedPercent()));
            servedSum[s] += served.valueMillis();
            if (counted[s] < EARLY_WINDOWS) {
                early[s] = early[s].add(WINDOW, hits);
            }
            counted[s]++;
        }
        return new Outcome(knowledge, servedSum, counted, early);
    }

    private static int drawState(final Random random) {
        final double u = random.nextDouble();
        return u < STATE_SHARE[0] ? 0 : u < STATE_SHARE[0] + STATE_SHARE[1] ? 1 : 2;
    }

    private static long boundNanosAt(final LatencyHistogram histogram, final double levelPercent) {
        try {
            return Math.round(histogram.boundAt(levelPercent).boundMillis() * 1e6);
        } catch (BoundBeyondHistogramException | IllegalArgumentException beyond) {
            return histogram.lastEdgeNanos();
        }
    }

    private static long countAtOrBelow(final long[] values, final long boundNanos) {
        long hits = 0;
        for (final long value : values) {
            if (value <= boundNanos) {
                hits++;
            }
        }
        return hits;
    }

    private static Measurement measure(final Random random, final double medianNanos, final int roundTrips) {
        final Histogram hdr = new Histogram(1, 60_000_000_000L, 3);
        double sum = 0;
        double sumSquares = 0;
        long max = 0;
        for (int i = 0; i < roundTrips; i++) {
            final long rttNanos = Math.max(1, Math.round(medianNanos * Math.exp(LOG_SIGMA * random.nextGaussian())));
            hdr.recordValue(rttNanos);
            sum += rttNanos;
            sumSquares += (double) rttNanos * rttNanos;
            max = Math.max(max, rttNanos);
        }
        final double mean = sum / roundTrips;
        final double stdDev = Math.sqrt(Math.max(0, (sumSquares - roundTrips * mean * mean) / (roundTrips - 1)));
        return new Measurement(LatencyHistogram.fromHdr(hdr), roundTrips, mean / 1e6, stdDev / 1e6, Math.max(max / 1e6, mean / 1e6));
    }

    private static String coverage(final CoverageTally tally) {
        final ConfidenceInterval interval = tally.interval(0.95);
        return String.format(Locale.ROOT, "%.1f %% (%s)", 100 * tally.coverage(),
            interval == null ? "–" : String.format(Locale.ROOT, "%.1f–%.1f", 100 * interval.lower(), 100 * interval.upper()));
    }

}
