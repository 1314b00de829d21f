package org.latencyserver.benchmarks.accuracy;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/**
 * Splits a run's records by the application shape each burst played and analyses each shape's bursts on their own
 * ({@link AccuracyAnalysis}): every figure — coverage, the true percentile of what followed, served means — is the
 * shape's, from its bursts only. Shapes come in the order their first burst was recorded.
 */
public final class ShapeAnalysis {

    private ShapeAnalysis() {
    }

    /**
     * One application shape's figures.
     *
     * @param shape       its name ({@link BurstRecord#shape()})
     * @param plays       records of it (reads, with or without a burst)
     * @param played      what its bursts were: spacings, lengths and calls seen
     * @param connections its figures per connection, per state and pooled
     * @param boundBases  what the bounds served to it were read at, counted ({@link #boundBases}), then what its means
     *                    were made from ({@link #meanBases}); empty when neither was served
     */
    public record ShapeAccuracy(String shape, int plays, String played, List<ConnectionAccuracy> connections, String boundBases) {
    }

    /**
     * @param records   every record of a run
     * @param portBands also a row per port state (real network), as {@link AccuracyAnalysis#analyse(List, boolean)}
     * @return one entry per shape
     */
    public static List<ShapeAccuracy> analyse(final List<BurstRecord> records, final boolean portBands) {
        final Map<String, List<BurstRecord>> byShape = new LinkedHashMap<>();
        for (final BurstRecord record : records) {
            byShape.computeIfAbsent(record.shape(), shape -> new ArrayList<>()).add(record);
        }
        final List<ShapeAccuracy> shapes = new ArrayList<>();
        byShape.forEach((shape, ofShape) -> shapes.add(new ShapeAccuracy(shape, ofShape.size(), played(ofShape),
            AccuracyAnalysis.analyse(ofShape, portBands), bases(ofShape))));
        return List.copyOf(shapes);
    }

    /** @return e.g. "spacing 2 ms, 50 round trips, arrays+octets" or ranges for a drawn shape */
    static String played(final List<BurstRecord> records) {
        final List<BurstRecord> bursts = records.stream().filter(record -> record.rttNanos().length > 0).toList();
        if (bursts.isEmpty()) {
            return "no bursts";
        }
        if (bursts.stream().allMatch(record -> record.spacingMicros() == 0)) {
            return "shape not recorded (an older file)";
        }
        final long minSpacing = bursts.stream().mapToLong(BurstRecord::spacingMicros).min().orElseThrow();
        final long maxSpacing = bursts.stream().mapToLong(BurstRecord::spacingMicros).max().orElseThrow();
        final int minLength = bursts.stream().mapToInt(record -> record.rttNanos().length).min().orElseThrow();
        final int maxLength = bursts.stream().mapToInt(record -> record.rttNanos().length).max().orElseThrow();
        final TreeSet<String> calls = new TreeSet<>();
        bursts.forEach(record -> calls.add(record.call().isEmpty() ? "?" : record.call()));
        return String.format(Locale.ROOT, "spacing %s µs, %s round trips, %s", range(minSpacing, maxSpacing), range(minLength, maxLength),
            String.join("+", calls));
    }

    /**
     * @return e.g. "bounds read at: shape model 120, the class's own level 3, the worst class 40, the state's level or the
     *         thesis 12" — what each bound served to the shape was read at, from its correction text (empty when no bound)
     */
    static String boundBases(final List<BurstRecord> records) {
        final Map<String, Integer> counts = new LinkedHashMap<>();
        for (final String basis : List.of("shape model", "the class's own level", "the class's excess", "the worst class",
            "the state's level or the thesis")) {
            counts.put(basis, 0);
        }
        int bounds = 0;
        for (final BurstRecord record : records) {
            if (!"BOUND".equals(record.kind())) {
                continue;
            }
            bounds++;
            final String correction = record.correction() == null ? "" : record.correction();
            final String basis = correction.startsWith("shape model from") ? "shape model"
                : correction.contains("the class's own level in this state") ? "the class's own level"
                : correction.contains("excess learned on the whole connection") ? "the class's excess"
                : correction.contains("worst shape") ? "the worst class" : "the state's level or the thesis";
            counts.merge(basis, 1, Integer::sum);
        }
        if (bounds == 0) {
            return "";
        }
        final List<String> parts = new ArrayList<>();
        counts.forEach((basis, count) -> parts.add(basis + " " + count));
        return "bounds read at: " + String.join(", ", parts);
    }

    private static String bases(final List<BurstRecord> records) {
        final String bounds = boundBases(records);
        final String means = meanBases(records);
        return bounds.isEmpty() ? means : means.isEmpty() ? bounds : bounds + "; " + means;
    }

    /**
     * @return e.g. "means from: the shape mean model 300, the state's served mean 20" — what each mean (QoS 1, 3) served
     *         to the shape was made from, from its correction text (empty when no mean)
     */
    static String meanBases(final List<BurstRecord> records) {
        int model = 0;
        int means = 0;
        for (final BurstRecord record : records) {
            if (!"AVERAGE".equals(record.kind())) {
                continue;
            }
            means++;
            if (record.correction() != null && record.correction().startsWith("shape mean:")) {
                model++;
            }
        }
        return means == 0 ? "" : "means from: the shape mean model " + model + ", the state's served mean " + (means - model);
    }

    private static String range(final long low, final long high) {
        return low == high ? Long.toString(low) : low + "–" + high;
    }
}
