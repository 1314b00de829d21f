package org.latencyserver.benchmarks.accuracy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.TreeMap;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;

/**
 * A path of several switch ports, per loading pattern: which of its hops were loaded (LOADED or SATURATED)
 * when the estimate was read — idle, hop 1, hop 2, both (hops 1+2) — and how each of the three QoS 2 bounds
 * held for the round trips that followed: the union bound ({@code union_bound_ms}), the independent-hops
 * bound ({@code independent_bound_ms}) and the bound served ({@code value_ms}, corrected).
 *
 * <p>A burst tests the estimate read just before it when the pattern and the CPU state were the same before
 * the estimate and after the burst (a band change within a loaded hop, 95 to 98 %, keeps the pattern: the
 * application cannot tell it). Bursts with an unknown hop are left out. Where nothing was composed (fewer than
 * two loaded hops) both methods' value is the one part's own bound: the profile's cell, the estimate's thesis
 * value when its source is the profile; a burst without it (another source, or two loaded hops served
 * otherwise than by composition) does not count for those two columns.
 *
 * <p>Stateless; thread-safe.
 */
public final class PathAnalysis {

    private PathAnalysis() {
    }

    /**
     * How one bound held in one pattern.
     *
     * @param coverage      share of round trips at or below it, 95 % interval over bursts as blocks
     * @param medianRatio   per burst, the bound over the pattern's nominal percentile of what followed; their median
     * @param medianBoundMs the bound's median, ms
     */
    public record BoundHeld(BlockCoverage coverage, double medianRatio, double medianBoundMs) {
    }

    /**
     * One loading pattern of one connection.
     *
     * @param pattern          "idle", "hop 1", "hop 2", "hops 1+2", …
     * @param reads            plays whose state before was this pattern
     * @param tested           bursts that tested an estimate (pattern and CPU state held, estimate available)
     * @param discarded        bursts during which the pattern or CPU state changed
     * @param percentileMs     the nominal percentile (p96) of every tested burst's round trips pooled, ms
     * @param union            the union bound
     * @param independent      the independent-hops bound
     * @param served           the bound served
     * @param composedShare    share of tested bursts whose bound was composed (union_bound_ms &gt; 0)
     * @param noEstimateShare  share of reads that found no estimate (refused, e.g. a SATURATED hop no profile covers)
     */
    public record PatternAccuracy(String pattern, int reads, int tested, int discarded, double percentileMs, BoundHeld union,
                                  BoundHeld independent, BoundHeld served, double composedShare, double noEstimateShare) {
    }

    /**
     * @param records every record of a run
     * @return per connection with a path of two or more hops whose estimates are bounds, its patterns (idle, then
     *         fewer loaded hops first); empty when there is none
     */
    public static Map<Integer, List<PatternAccuracy>> analyse(final List<BurstRecord> records) {
        final Map<Integer, List<BurstRecord>> byConnection = records.stream()
            .filter(record -> record.hopPortStates().length >= 2)
            .collect(Collectors.groupingBy(BurstRecord::indexRef, TreeMap::new, Collectors.toList()));
        final Map<Integer, List<PatternAccuracy>> result = new LinkedHashMap<>();
        byConnection.forEach((indexRef, ofConnection) -> {
            final boolean bound = ofConnection.stream().anyMatch(BurstRecord::isBound);
            if (bound) {
                result.put(indexRef, connection(ofConnection));
            }
        });
        return result;
    }

    private static List<PatternAccuracy> connection(final List<BurstRecord> records) {
        final double nominalPercent = records.stream().filter(BurstRecord::isBound).mapToDouble(BurstRecord::boundPercent)
            .findFirst().orElse(Double.NaN);
        final Map<String, List<BurstRecord>> byPattern = new TreeMap<>(PathAnalysis::comparePatterns);
        for (final BurstRecord record : records) {
            final String pattern = pattern(record.hopPortStates());
            if (pattern != null) {
                byPattern.computeIfAbsent(pattern, p -> new ArrayList<>()).add(record);
            }
        }
        final List<PatternAccuracy> patterns = new ArrayList<>();
        byPattern.forEach((pattern, ofPattern) -> patterns.add(pattern(pattern, ofPattern, nominalPercent)));
        return patterns;
    }

    private static PatternAccuracy pattern(final String pattern, final List<BurstRecord> records, final double nominalPercent) {
        final List<BurstRecord> tested = records.stream().filter(r -> r.estimateAvailable() && r.isBound() && r.rttNanos().length > 0
            && patternHeld(r)).toList();
        final int discarded = (int) records.stream().filter(r -> r.rttNanos().length > 0 && !patternHeld(r)).count();
        final long[] pooled = tested.stream().flatMapToLong(r -> Arrays.stream(r.rttNanos())).sorted().toArray();
        final double percentileNanos = SampleStatistics.percentile(pooled, nominalPercent);
        final long composed = tested.stream().filter(r -> r.unionBoundMs() > 0).count();
        return new PatternAccuracy(pattern, records.size(), tested.size(), discarded, percentileNanos / 1e6,
            held(tested, PathAnalysis::unionMs, percentileNanos), held(tested, PathAnalysis::independentMs, percentileNanos),
            held(tested, BurstRecord::valueMs, percentileNanos), tested.isEmpty() ? Double.NaN : (double) composed / tested.size(),
            (double) records.stream().filter(r -> !r.estimateAvailable()).count() / records.size());
    }

    /**
     * @param hopPortStates each hop's port state, path order (0 NORMAL, 91..100 LOADED, 101 SATURATED, -1 unknown)
     * @return "idle" when no hop is loaded, else the loaded hops ("hop 2", "hops 1+2"); null when a hop is unknown
     */
    static String pattern(final int[] hopPortStates) {
        final StringJoiner loaded = new StringJoiner("+");
        int count = 0;
        for (int i = 0; i < hopPortStates.length; i++) {
            if (hopPortStates[i] < 0) {
                return null;
            }
            if (hopPortStates[i] > 0) {
                loaded.add(Integer.toString(i + 1));
                count++;
            }
        }
        return count == 0 ? "idle" : (count == 1 ? "hop " : "hops ") + loaded;
    }

    /** @return whether the loaded hops and the CPU state were the same before the estimate and after the burst */
    static boolean patternHeld(final BurstRecord record) {
        final String before = pattern(record.hopPortStates());
        return before != null && before.equals(pattern(record.hopPortStatesAfter())) && record.cpuState() == record.cpuStateAfter();
    }

    /** The union bound: as served when composed; else the one part's own bound (the profile's cell); NaN without it. */
    static double unionMs(final BurstRecord record) {
        return record.unionBoundMs() > 0 ? record.unionBoundMs() : partBoundMs(record);
    }

    /** The independent-hops bound: as served when composed (NaN when it could not be had); else the one part's own bound. */
    static double independentMs(final BurstRecord record) {
        if (record.unionBoundMs() > 0) {
            return record.independentBoundMs() > 0 ? record.independentBoundMs() : Double.NaN;
        }
        return partBoundMs(record);
    }

    /** Nothing composed: with fewer than two loaded hops, the profile cell's bound (the thesis value); NaN otherwise. */
    private static double partBoundMs(final BurstRecord record) {
        final String pattern = pattern(record.hopPortStates());
        final boolean onePartAtMost = pattern != null && !pattern.startsWith("hops ");
        final boolean fromProfile = record.source() != null && record.source().startsWith("profile");
        return onePartAtMost && fromProfile ? record.thesisValueOrServedMs() : Double.NaN;
    }

    private static BoundHeld held(final List<BurstRecord> tested, final ToDoubleFunction<BurstRecord> boundMs,
                                  final double percentileNanos) {
        final List<BurstRecord> with = tested.stream().filter(r -> !Double.isNaN(boundMs.applyAsDouble(r))).toList();
        final long[] atOrBelow = new long[with.size()];
        final long[] sent = new long[with.size()];
        final double[] ratios = new double[with.size()];
        final double[] bounds = new double[with.size()];
        for (int i = 0; i < with.size(); i++) {
            final BurstRecord record = with.get(i);
            bounds[i] = boundMs.applyAsDouble(record);
            atOrBelow[i] = SampleStatistics.countAtOrBelow(record.rttNanos(), bounds[i] * 1e6);
            sent[i] = record.rttNanos().length;
            ratios[i] = bounds[i] * 1e6 / percentileNanos;
        }
        return new BoundHeld(BlockCoverage.of(atOrBelow, sent, with.size()), SampleStatistics.median(ratios, ratios.length),
            SampleStatistics.median(bounds, bounds.length));
    }

    /** idle first, then by how many hops are loaded, then by which. */
    private static int comparePatterns(final String a, final String b) {
        return Integer.compare(rank(a), rank(b)) != 0 ? Integer.compare(rank(a), rank(b)) : a.compareTo(b);
    }

    private static int rank(final String pattern) {
        return pattern.equals("idle") ? 0 : pattern.startsWith("hop ") ? 1 : 2;
    }
}
