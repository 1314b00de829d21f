package org.latencyserver.benchmarks.accuracy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.ToDoubleFunction;

/**
 * Where a served mean's error (QoS 1, 3) comes from: the figure of {@link ServedMeans} — per served mean (one value served
 * in one load state) its relative error against the pooled mean of the round trips of every burst that followed it, the
 * median over served means — recomputed with other predictors in place of the served value, on the same served means and
 * the same round trips. Each predictor is asked at the served mean's first burst, so the targets, and their own noise,
 * are the same for every row and only the predictor differs.
 *
 * <p>An <em>occurrence</em> of a load state is a run of the connection's plays (any shape) read in the same state, the
 * state held through each: it ends at the first play read in another state or during which the state changed. The
 * predictors, per application shape:
 * <ul>
 * <li>{@code served}: the value served (the figure {@link ServedMeans} reports);</li>
 * <li>{@code best constant per state (hindsight)}: {@link ServedMeans#hindsightFloor()};</li>
 * <li>{@code the occurrence's mean (hindsight)}: the pooled mean of every burst of the shape in this occurrence, the
 *     served mean's own included — an oracle that knows the occurrence, not the moment; what is left is drift within the
 *     occurrence and the target's own noise;</li>
 * <li>{@code the state's mean over the run (hindsight)}: the pooled mean of every burst of the shape in the state;</li>
 * <li>{@code the state's earlier occurrences}: the pooled mean of the shape's bursts in the state before this
 *     occurrence (the long-run mean a server could know);</li>
 * <li>{@code this occurrence's earlier bursts} and {@code the previous burst}: of the shape, in this occurrence;</li>
 * <li>{@code measurement × the shape's ratio (hindsight)}: the thesis mean served with it (the state's measurement) times
 *     the shape's pooled mean over its thesis means over the run, and the same per state — the shape ratio made
 *     perfect;</li>
 * <li>{@code served × this occurrence's residual}: the served value times {@code exp(r)}, r the mean of
 *     {@code ln(burst mean / served mean)} over the occurrence's earlier bursts of every shape (what the server would
 *     learn from its own probe windows of this occurrence), and shrunk, {@code exp(n r / (n + }{@value #SHRINK_BURSTS}
 *     {@code ))} for n such bursts.</li>
 * </ul>
 * A causal predictor with nothing to go on serves the served value. Beside the rows, the target's expected noise: per
 * served mean of k bursts, {@code 0.674 s / √k} with {@code s} the standard deviation of the shape's
 * {@code ln(burst mean)} about their occurrence's mean (the median |error| of a mean of k normal draws; drift within an
 * occurrence counts as noise here, so it is an upper bound of the pure sampling noise).
 */
public final class MeanErrorSources {

    /** Earlier bursts a shrunk residual weighs as much as: below, the occurrence's residual is trusted proportionally less. */
    public static final double SHRINK_BURSTS = 3.0;

    private MeanErrorSources() {
    }

    /**
     * One predictor's figure.
     *
     * @param predictor   what stood in for the served value
     * @param medianError median over served means of |prediction − pooled mean of what followed| / that pooled mean
     */
    public record Row(String predictor, double medianError) {
    }

    /**
     * One shape's decomposition on one connection.
     *
     * @param shape                 the application shape
     * @param indexRef              the connection
     * @param servedMeans           served means judged
     * @param bursts                bursts tested
     * @param occurrences           occurrences of load states the shape's bursts fell in
     * @param medianBurstsPerMean   median bursts per served mean
     * @param expectedTargetNoise   median over served means of the target's expected |noise| (above), relative
     * @param rows                  one per predictor, in the order above
     */
    public record ShapeSources(String shape, int indexRef, int servedMeans, int bursts, int occurrences, double medianBurstsPerMean,
                               double expectedTargetNoise, List<Row> rows) {
    }

    /** A tested burst and where it fell. */
    private record Burst(int position, BurstRecord record, int occurrence, double meanMs) {
        LoadState state() {
            return record.stateBefore();
        }

        long sumNanos() {
            return Arrays.stream(record.rttNanos()).sum();
        }

        int roundTrips() {
            return record.rttNanos().length;
        }
    }

    /**
     * @param records every record of a run
     * @return per connection serving means (AVERAGE) and with bursts, per shape in the order first played
     */
    public static List<ShapeSources> analyse(final List<BurstRecord> records) {
        final Map<Integer, List<BurstRecord>> byConnection = new TreeMap<>();
        for (final BurstRecord record : records) {
            byConnection.computeIfAbsent(record.indexRef(), index -> new ArrayList<>()).add(record);
        }
        final List<ShapeSources> result = new ArrayList<>();
        byConnection.forEach((indexRef, ofConnection) -> {
            if (ofConnection.stream().anyMatch(record -> "AVERAGE".equals(record.kind()) && record.rttNanos().length > 0)) {
                result.addAll(connection(indexRef, ofConnection));
            }
        });
        return List.copyOf(result);
    }

    private static List<ShapeSources> connection(final int indexRef, final List<BurstRecord> records) {
        final List<BurstRecord> ordered = records.stream().sorted(java.util.Comparator.comparingLong(BurstRecord::epochMillis)).toList();
        final List<Burst> tested = new ArrayList<>();
        int occurrence = 0;
        BurstRecord previous = null;
        for (final BurstRecord record : ordered) {
            if (previous != null && (!previous.stateHeld() || !previous.stateBefore().equals(record.stateBefore()))) {
                occurrence++;
            }
            previous = record;
            if (record.estimateAvailable() && record.stateHeld() && record.rttNanos().length > 0 && "AVERAGE".equals(record.kind())
                && record.valueMs() > 0) {
                tested.add(new Burst(tested.size(), record, occurrence, SampleStatistics.mean(record.rttNanos()) / 1e6));
            }
        }
        final Map<String, List<Burst>> byShape = new LinkedHashMap<>();
        tested.forEach(burst -> byShape.computeIfAbsent(burst.record().shape(), shape -> new ArrayList<>()).add(burst));
        final List<ShapeSources> shapes = new ArrayList<>();
        byShape.forEach((shape, ofShape) -> shapes.add(shape(shape, indexRef, ofShape, tested)));
        return shapes;
    }

    private static ShapeSources shape(final String shape, final int indexRef, final List<Burst> bursts, final List<Burst> all) {
        // served means as ServedMeans keys them: per state, per value served
        final Map<LoadState, Map<Double, List<Burst>>> served = new TreeMap<>();
        for (final Burst burst : bursts) {
            served.computeIfAbsent(burst.state(), state -> new LinkedHashMap<>())
                .computeIfAbsent(burst.record().valueMs(), value -> new ArrayList<>()).add(burst);
        }
        final List<List<Burst>> groups = new ArrayList<>();
        served.values().forEach(byValue -> groups.addAll(byValue.values()));
        final double[] targetMs = groups.stream().mapToDouble(MeanErrorSources::pooledMs).toArray();
        final double shapeRatio = thesisRatio(bursts);
        final Map<LoadState, Double> stateRatios = new TreeMap<>();
        bursts.stream().map(Burst::state).distinct().forEach(state ->
            stateRatios.put(state, thesisRatio(bursts.stream().filter(burst -> burst.state().equals(state)).toList())));

        final Map<String, ToDoubleFunction<Burst>> predictors = new LinkedHashMap<>();
        predictors.put("served", first -> first.record().valueMs());
        predictors.put("the occurrence's mean (hindsight)", first -> pooledMs(bursts, burst -> burst.occurrence() == first.occurrence()));
        predictors.put("the state's mean over the run (hindsight)", first -> pooledMs(bursts, burst -> burst.state().equals(first.state())));
        predictors.put("the state's earlier occurrences", first -> orServed(first, pooledMs(bursts,
            burst -> burst.state().equals(first.state()) && burst.occurrence() < first.occurrence())));
        predictors.put("this occurrence's earlier bursts", first -> orServed(first, pooledMs(bursts,
            burst -> burst.occurrence() == first.occurrence() && burst.position() < first.position())));
        predictors.put("the previous burst", first -> orServed(first, bursts.stream()
            .filter(burst -> burst.occurrence() == first.occurrence() && burst.position() < first.position())
            .reduce((earlier, later) -> later).map(Burst::meanMs).orElse(Double.NaN)));
        predictors.put("measurement × the shape's ratio (hindsight)", first -> thesisMs(first) * shapeRatio);
        predictors.put("measurement × the shape's ratio per state (hindsight)", first -> thesisMs(first) * stateRatios.get(first.state()));
        predictors.put("served × this occurrence's residual", first -> first.record().valueMs() * residualFactor(first, all, 0));
        predictors.put("served × this occurrence's residual, shrunk", first -> first.record().valueMs()
            * residualFactor(first, all, SHRINK_BURSTS));

        final List<Row> rows = new ArrayList<>();
        predictors.forEach((name, predictor) -> {
            final double[] errors = new double[groups.size()];
            for (int i = 0; i < errors.length; i++) {
                errors[i] = Math.abs(predictor.applyAsDouble(groups.get(i).get(0)) - targetMs[i]) / targetMs[i];
            }
            rows.add(new Row(name, SampleStatistics.median(errors, errors.length)));
            if (name.equals("served")) {
                rows.add(new Row("best constant per state (hindsight)", ServedMeans.of(bursts.stream().map(Burst::record).toList())
                    .hindsightFloor()));
            }
        });
        final double[] sizes = groups.stream().mapToDouble(List::size).toArray();
        final double spread = occurrenceSpread(bursts);
        final double[] noise = groups.stream().mapToDouble(group -> 0.674 * spread / Math.sqrt(group.size())).toArray();
        return new ShapeSources(shape, indexRef, groups.size(), bursts.size(), (int) bursts.stream().mapToInt(Burst::occurrence).distinct().count(),
            SampleStatistics.median(sizes, sizes.length), SampleStatistics.median(noise, noise.length), List.copyOf(rows));
    }

    /**
     * Prints one block per shape and connection: the served means judged, then each predictor's median error.
     *
     * @param sources {@link #analyse}'s result
     * @param out     where to
     */
    public static void print(final List<ShapeSources> sources, final java.io.PrintStream out) {
        out.println();
        out.println("Where the served means' error comes from: each predictor in place of the served value, on the same served"
            + " means and round trips (median over served means of |prediction - pooled mean of what followed| / pooled)");
        for (final ShapeSources shape : sources) {
            out.printf(java.util.Locale.ROOT, "  %s, connection %d: %d served means over %d bursts in %d occurrences, median %.1f bursts"
                    + " a served mean; the target's expected noise %.1f %%%n", shape.shape(), shape.indexRef(), shape.servedMeans(),
                shape.bursts(), shape.occurrences(), shape.medianBurstsPerMean(), shape.expectedTargetNoise() * 100);
            for (final Row row : shape.rows()) {
                out.printf(java.util.Locale.ROOT, "    %-56s %6.1f %%%n", row.predictor(), row.medianError() * 100);
            }
        }
    }

    /** The thesis mean served with the burst (the state's measurement), else the served value. */
    private static double thesisMs(final Burst burst) {
        return burst.record().thesisValueOrServedMs();
    }

    private static double orServed(final Burst first, final double predictionMs) {
        return Double.isNaN(predictionMs) ? first.record().valueMs() : predictionMs;
    }

    /** {@code exp(n r / (n + shrink))}: r the mean log residual of the occurrence's earlier bursts of any shape. */
    private static double residualFactor(final Burst first, final List<Burst> all, final double shrink) {
        double sum = 0;
        int count = 0;
        for (final Burst burst : all) {
            if (burst.occurrence() == first.occurrence() && burst.record().epochMillis() < first.record().epochMillis()) {
                sum += Math.log(burst.meanMs() / burst.record().valueMs());
                count++;
            }
        }
        return count == 0 ? 1.0 : Math.exp(sum / (count + shrink));
    }

    /** The bursts' pooled round trips over their thesis means, each weighted by its round trips. */
    private static double thesisRatio(final List<Burst> bursts) {
        double rttNanos = 0;
        double thesisNanos = 0;
        for (final Burst burst : bursts) {
            rttNanos += burst.sumNanos();
            thesisNanos += thesisMs(burst) * 1e6 * burst.roundTrips();
        }
        return rttNanos / thesisNanos;
    }

    private static double pooledMs(final List<Burst> bursts) {
        return pooledMs(bursts, burst -> true);
    }

    private static double pooledMs(final List<Burst> bursts, final java.util.function.Predicate<Burst> which) {
        long sum = 0;
        long count = 0;
        for (final Burst burst : bursts) {
            if (which.test(burst)) {
                sum += burst.sumNanos();
                count += burst.roundTrips();
            }
        }
        return count == 0 ? Double.NaN : sum / (double) count / 1e6;
    }

    /** Standard deviation of ln(burst mean) about the mean of its occurrence's (occurrences of one burst carry none). */
    private static double occurrenceSpread(final List<Burst> bursts) {
        final Map<Integer, List<Double>> logs = new TreeMap<>();
        bursts.forEach(burst -> logs.computeIfAbsent(burst.occurrence(), o -> new ArrayList<>()).add(Math.log(burst.meanMs())));
        double squares = 0;
        int freedom = 0;
        for (final List<Double> values : logs.values()) {
            final double mean = values.stream().mapToDouble(Double::doubleValue).average().orElse(0);
            for (final double value : values) {
                squares += (value - mean) * (value - mean);
            }
            freedom += values.size() - 1;
        }
        return freedom == 0 ? Double.NaN : Math.sqrt(squares / freedom);
    }
}
