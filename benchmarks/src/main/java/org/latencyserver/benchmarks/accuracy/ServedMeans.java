package org.latencyserver.benchmarks.accuracy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * How served means (QoS 1, 3) held against everything that followed them: the server serves one mean for a while (until
 * new data move it), and an application sends many bursts under it. Per served mean — one value served in one load
 * state — the pooled mean of all round trips of the bursts that followed it in that state; its relative error
 * |served − pooled| / pooled; and the median of those errors over the served means. Beside it the floor: per state,
 * the one constant that, chosen in hindsight, would have had the smallest median error against the same pooled means.
 *
 * <p>Immutable.
 *
 * @param servedMeans    how many distinct served means the bursts tested
 * @param medianError    median over served means of |served − pooled mean of what followed it| / that pooled mean; NaN
 *                       without bursts
 * @param hindsightFloor the same with each state's best constant in place of the served means
 */
public record ServedMeans(int servedMeans, double medianError, double hindsightFloor) {

    /** No bursts: nothing to judge. */
    public static final ServedMeans NONE = new ServedMeans(0, Double.NaN, Double.NaN);

    /**
     * @param tested bursts that tested a served mean (estimate available, state held), any states
     * @return their served means' accuracy
     */
    public static ServedMeans of(final List<BurstRecord> tested) {
        // served mean in a state -> its bursts' round trips: sum (ns) and count
        final Map<LoadState, Map<Double, double[]>> byState = new TreeMap<>();
        for (final BurstRecord record : tested) {
            if (record.rttNanos().length == 0) {
                continue;
            }
            final double[] pooled = byState.computeIfAbsent(record.stateBefore(), state -> new LinkedHashMap<>())
                .computeIfAbsent(record.valueMs(), value -> new double[2]);
            pooled[0] += Arrays.stream(record.rttNanos()).sum();
            pooled[1] += record.rttNanos().length;
        }
        final List<Double> errors = new ArrayList<>();
        final List<Double> floorErrors = new ArrayList<>();
        for (final Map<Double, double[]> served : byState.values()) {
            final List<Double> pooledMs = new ArrayList<>();
            served.forEach((servedMs, pooled) -> {
                final double followedMs = pooled[0] / pooled[1] / 1e6;
                pooledMs.add(followedMs);
                errors.add(Math.abs(servedMs - followedMs) / followedMs);
            });
            floorErrors.addAll(bestConstantErrors(pooledMs));
        }
        if (errors.isEmpty()) {
            return NONE;
        }
        return new ServedMeans(errors.size(), median(errors), median(floorErrors));
    }

    /** The errors of each mean against the constant within their range with the smallest median error (a fine grid). */
    private static List<Double> bestConstantErrors(final List<Double> means) {
        final double lowMs = means.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
        final double highMs = means.stream().mapToDouble(Double::doubleValue).max().orElseThrow();
        double bestMs = lowMs;
        double bestError = Double.POSITIVE_INFINITY;
        for (int step = 0; step <= 400; step++) {
            final double candidateMs = lowMs + (highMs - lowMs) * step / 400.0;
            final double error = median(errorsAgainst(means, candidateMs));
            if (error < bestError) {
                bestError = error;
                bestMs = candidateMs;
            }
        }
        return errorsAgainst(means, bestMs);
    }

    private static List<Double> errorsAgainst(final List<Double> means, final double constantMs) {
        return means.stream().map(meanMs -> Math.abs(constantMs - meanMs) / meanMs).toList();
    }

    private static double median(final List<Double> values) {
        return SampleStatistics.median(values.stream().mapToDouble(Double::doubleValue).toArray(), values.size());
    }
}
