package org.latencyserver.benchmarks.accuracy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;

/**
 * Turns burst records into per-connection, per-state accuracy: each burst tests the estimate read
 * just before it, keyed by the load state read before it; a burst during which the state changed
 * tests nothing (it is counted as discarded). Reads, available or not, count towards the share of
 * time without an estimate: plays start at Poisson moments, so the share of reads is the share of
 * time.
 */
public final class AccuracyAnalysis {

    private AccuracyAnalysis() {
    }

    /**
     * @param records every record of a run
     * @return one entry per connection, by index_ref
     */
    public static List<ConnectionAccuracy> analyse(final List<BurstRecord> records) {
        return analyse(records, false);
    }

    /**
     * @param records   every record of a run
     * @param portBands also a row per port state (band, SATURATED) over every CPU state, after the per-state rows
     *                  (a real port: its bands are what a deadline depends on, and the CPU states share one machine)
     * @return one entry per connection, by index_ref
     */
    public static List<ConnectionAccuracy> analyse(final List<BurstRecord> records, final boolean portBands) {
        final Map<Integer, List<BurstRecord>> byConnection = records.stream()
            .collect(Collectors.groupingBy(BurstRecord::indexRef, TreeMap::new, Collectors.toList()));
        final ValueBand bands = new ValueBand(records);
        final List<ConnectionAccuracy> connections = new ArrayList<>();
        for (final List<BurstRecord> ofConnection : byConnection.values()) {
            connections.add(connection(ofConnection, portBands, bands));
        }
        return connections;
    }

    private static ConnectionAccuracy connection(final List<BurstRecord> records, final boolean portBands, final ValueBand bands) {
        final BurstRecord first = records.get(0);
        final boolean checkable = records.stream().anyMatch(record -> record.rttNanos().length > 0);
        final boolean bound = records.stream().filter(BurstRecord::estimateAvailable).findFirst()
            .map(BurstRecord::isBound).orElse(first.quality() == 2 || first.quality() == 4);
        final double nominalPercent = records.stream().filter(BurstRecord::isBound).mapToDouble(BurstRecord::boundPercent)
            .findFirst().orElse(Double.NaN);
        final Map<LoadState, List<BurstRecord>> byState = records.stream()
            .collect(Collectors.groupingBy(BurstRecord::stateBefore, TreeMap::new, Collectors.toList()));
        final Map<LoadState, Double> percentileNanos = new TreeMap<>();
        byState.forEach((state, ofState) -> percentileNanos.put(state, percentileNanos(ofState, nominalPercent)));
        final List<StateAccuracy> states = new ArrayList<>();
        byState.forEach((state, ofState) -> states.add(state(state, ofState, bound, nominalPercent, percentileNanos,
            BurstRecord::stateBefore, bands)));
        if (portBands) {
            final Map<LoadState, List<BurstRecord>> byPort = records.stream()
                .collect(Collectors.groupingBy(record -> LoadState.port(record.portState()), TreeMap::new, Collectors.toList()));
            final Map<LoadState, Double> portPercentileNanos = new TreeMap<>();
            byPort.forEach((port, ofPort) -> portPercentileNanos.put(port, percentileNanos(ofPort, nominalPercent)));
            byPort.forEach((port, ofPort) -> states.add(state(port, ofPort, bound, nominalPercent, portPercentileNanos,
                record -> LoadState.port(record.portState()), bands)));
        }
        states.add(state(LoadState.POOLED, records, bound, nominalPercent, percentileNanos, BurstRecord::stateBefore, bands));
        return new ConnectionAccuracy(first.indexRef(), first.quality(), first.clientNode(), first.peerNode(),
            first.messageSizeBytes(), checkable, bound, List.copyOf(states));
    }

    /** The nominal percentile of the round trips of every state-held burst of one state. */
    private static double percentileNanos(final List<BurstRecord> ofState, final double nominalPercent) {
        if (Double.isNaN(nominalPercent)) {
            return Double.NaN;
        }
        final long[] all = ofState.stream().filter(BurstRecord::stateHeld).flatMapToLong(record -> Arrays.stream(record.rttNanos()))
            .sorted().toArray();
        return SampleStatistics.percentile(all, nominalPercent);
    }

    private static StateAccuracy state(final LoadState state, final List<BurstRecord> records, final boolean bound,
                                       final double nominalPercent, final Map<LoadState, Double> percentileNanos,
                                       final java.util.function.Function<BurstRecord, LoadState> percentileKey, final ValueBand bands) {
        final int reads = records.size();
        final long without = records.stream().filter(BurstRecord::withoutEstimateForState).count();
        final long pending = records.stream().filter(BurstRecord::updatePending).count();
        final List<BurstRecord> tested = records.stream()
            .filter(record -> record.estimateAvailable() && record.stateHeld() && record.rttNanos().length > 0).toList();
        final int discarded = (int) records.stream().filter(record -> record.rttNanos().length > 0 && !record.stateHeld()).count();
        final long roundTrips = tested.stream().mapToLong(record -> record.rttNanos().length).sum();
        final double meanRttMs = tested.stream().flatMapToLong(record -> Arrays.stream(record.rttNanos())).average().orElse(Double.NaN) / 1e6;
        StateAccuracy.Bound boundAccuracy = null;
        StateAccuracy.Mean meanAccuracy = null;
        if (!tested.isEmpty() && bound) {
            boundAccuracy = new StateAccuracy.Bound(nominalPercent / 100,
                state.equals(LoadState.POOLED) ? Double.NaN : percentileNanos.get(state) / 1e6,
                coverage(tested, BurstRecord::valueMs), coverage(tested, BurstRecord::thesisValueOrServedMs),
                medianRatio(tested, BurstRecord::valueMs, percentileNanos, percentileKey),
                medianRatio(tested, BurstRecord::thesisValueOrServedMs, percentileNanos, percentileKey));
        } else if (!tested.isEmpty()) {
            meanAccuracy = new StateAccuracy.Mean(medianRelativeError(tested, BurstRecord::valueMs),
                medianRelativeError(tested, BurstRecord::thesisValueOrServedMs), insideIntervalShare(tested),
                hindsightFloor(tested), overPooledMean(tested, BurstRecord::valueMs), overPooledMean(tested, BurstRecord::thesisValueOrServedMs),
                ServedMeans.of(tested));
        }
        final Map<ValueBand.Verdict, Long> verdicts = records.stream()
            .collect(Collectors.groupingBy(bands::judge, () -> new java.util.EnumMap<>(ValueBand.Verdict.class), Collectors.counting()));
        final long unknownWithEstimate = records.stream().filter(record -> record.estimateAvailable()
            && bands.judge(record) == ValueBand.Verdict.UNKNOWN).count();
        return new StateAccuracy(state, reads, reads == 0 ? Double.NaN : (double) without / reads,
            reads == 0 ? Double.NaN : (double) pending / reads, tested.size(), discarded, roundTrips, meanRttMs, boundAccuracy, meanAccuracy,
            share(verdicts.getOrDefault(ValueBand.Verdict.OTHER, 0L), reads), share(verdicts.getOrDefault(ValueBand.Verdict.MIXED, 0L), reads),
            share(unknownWithEstimate, reads));
    }

    private static double share(final long count, final int of) {
        return of == 0 ? Double.NaN : (double) count / of;
    }

    /**
     * The mean of the served means over the bursts against the pooled mean of every round trip that followed them:
     * does the served level hold on average (the application's view over many messages), whatever each burst's spell.
     */
    static double overPooledMean(final List<BurstRecord> tested, final ToDoubleFunction<BurstRecord> meanMs) {
        final double servedMs = tested.stream().mapToDouble(meanMs).average().orElse(Double.NaN);
        final double pooledMs = tested.stream().flatMapToLong(record -> Arrays.stream(record.rttNanos())).average().orElse(Double.NaN) / 1e6;
        return servedMs / pooledMs - 1;
    }

    private static BlockCoverage coverage(final List<BurstRecord> tested, final ToDoubleFunction<BurstRecord> boundMs) {
        final long[] atOrBelow = new long[tested.size()];
        final long[] sent = new long[tested.size()];
        for (int i = 0; i < tested.size(); i++) {
            final BurstRecord record = tested.get(i);
            atOrBelow[i] = SampleStatistics.countAtOrBelow(record.rttNanos(), boundMs.applyAsDouble(record) * 1e6);
            sent[i] = record.rttNanos().length;
        }
        return BlockCoverage.of(atOrBelow, sent, tested.size());
    }

    /** Per burst, its bound over the nominal percentile of its state's round trips; the median of those. */
    private static double medianRatio(final List<BurstRecord> tested, final ToDoubleFunction<BurstRecord> boundMs,
                                      final Map<LoadState, Double> percentileNanos,
                                      final java.util.function.Function<BurstRecord, LoadState> percentileKey) {
        final double[] ratios = new double[tested.size()];
        for (int i = 0; i < ratios.length; i++) {
            final BurstRecord record = tested.get(i);
            ratios[i] = boundMs.applyAsDouble(record) * 1e6 / percentileNanos.get(percentileKey.apply(record));
        }
        return SampleStatistics.median(ratios, ratios.length);
    }

    private static double medianRelativeError(final List<BurstRecord> tested, final ToDoubleFunction<BurstRecord> meanMs) {
        final double[] errors = new double[tested.size()];
        for (int i = 0; i < errors.length; i++) {
            final double burstMeanMs = SampleStatistics.mean(tested.get(i).rttNanos()) / 1e6;
            errors[i] = Math.abs(meanMs.applyAsDouble(tested.get(i)) - burstMeanMs) / burstMeanMs;
        }
        return SampleStatistics.median(errors, errors.length);
    }

    /**
     * The floor of the median error for any estimate that is one number per load state: per state,
     * the constant that, chosen in hindsight from the bursts themselves, gives the smallest median
     * relative error; the median of every burst's error against its state's constant. Burst means
     * scatter around their state's level (slow and fast spells), and no served mean, however good,
     * can come closer than this.
     */
    private static double hindsightFloor(final List<BurstRecord> tested) {
        final Map<LoadState, List<Double>> meansByState = new java.util.HashMap<>();
        for (final BurstRecord record : tested) {
            meansByState.computeIfAbsent(record.stateBefore(), s -> new java.util.ArrayList<>())
                .add(SampleStatistics.mean(record.rttNanos()) / 1e6);
        }
        final List<Double> errors = new java.util.ArrayList<>();
        for (final List<Double> means : meansByState.values()) {
            double bestMs = means.get(0);
            double bestError = Double.POSITIVE_INFINITY;
            // The best constant lies within the means' range; their own values and a fine grid between suffice.
            final double lowMs = means.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
            final double highMs = means.stream().mapToDouble(Double::doubleValue).max().orElseThrow();
            for (int step = 0; step <= 400; step++) {
                final double candidateMs = lowMs + (highMs - lowMs) * step / 400.0;
                final double error = medianError(means, candidateMs);
                if (error < bestError) {
                    bestError = error;
                    bestMs = candidateMs;
                }
            }
            for (final double meanMs : means) {
                errors.add(Math.abs(bestMs - meanMs) / meanMs);
            }
        }
        return SampleStatistics.median(errors.stream().mapToDouble(Double::doubleValue).toArray(), errors.size());
    }

    private static double medianError(final List<Double> means, final double candidateMs) {
        final double[] errors = new double[means.size()];
        for (int i = 0; i < errors.length; i++) {
            errors[i] = Math.abs(candidateMs - means.get(i)) / means.get(i);
        }
        return SampleStatistics.median(errors, errors.length);
    }

    private static double insideIntervalShare(final List<BurstRecord> tested) {
        long inside = 0;
        for (final BurstRecord record : tested) {
            final double burstMeanMs = SampleStatistics.mean(record.rttNanos()) / 1e6;
            if (burstMeanMs >= record.intervalLower() && burstMeanMs <= record.intervalUpper()) {
                inside++;
            }
        }
        return (double) inside / tested.size();
    }
}
