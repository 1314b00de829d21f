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
 * <li>{@code the occurrence's other bursts (hindsight)}: the same without the served mean's own bursts (the served value
 *     when the occurrence has no other burst of the shape) — the occurrence's level known from other samples of it;</li>
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
 *     {@code ))} for n such bursts;</li>
 * <li>{@code served × the state's residual so far}: the same over the state's earlier bursts of every occurrence (a
 *     per-state correction on top of what is served), plain and exponentially weighted
 *     (λ = {@value #RESIDUAL_SMOOTHING}).</li>
 * </ul>
 * A causal predictor with nothing to go on serves the served value. Beside the rows, the target's own noise, by split
 * halves ({@link #splitHalfNoise}): the median over served means of two bursts or more; no predictor, however good, is
 * judged much closer than that. And the same were every served mean held through its occurrence (one target per
 * occurrence): what serving fewer, steadier values would leave. Last, the served value's figure over the served means
 * made from the occurrence's own measurement ({@code source} "measurement") and from an earlier occurrence's
 * ("remembered measurement"), each whatever corrected it: the staleness of the measurement behind a served mean, seen
 * directly.
 */
public final class MeanErrorSources {

    /** Earlier bursts a shrunk residual weighs as much as: below, the occurrence's residual is trusted proportionally less. */
    public static final double SHRINK_BURSTS = 3.0;
    /** {@code Estimate.source} of a mean made from this occurrence's own measurement. */
    static final String FRESH = "measurement";
    /** {@code Estimate.source} of a mean made from the state's measurement of an earlier occurrence. */
    static final String REMEMBERED = "remembered measurement";
    /** Weight of the newest burst in the weighted residual of a state. */
    public static final double RESIDUAL_SMOOTHING = 0.1;

    private MeanErrorSources() {
    }

    /**
     * One predictor's figure.
     *
     * @param predictor   what stood in for the served value
     * @param servedMeans the served means it was judged on
     * @param medianError median over those served means of |prediction − pooled mean of what followed| / that pooled mean;
     *                    NaN over none
     */
    public record Row(String predictor, int servedMeans, double medianError) {
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
     * @param targetNoise           median over served means of two bursts or more of their target's noise by split halves,
     *                              relative; NaN when none has two
     * @param heldNoise             the same were each served mean held through its occurrence (one target per occurrence:
     *                              every burst of the shape in it)
     * @param rows                  one per predictor, in the order above
     */
    public record ShapeSources(String shape, int indexRef, int servedMeans, int bursts, int occurrences, double medianBurstsPerMean,
                               double targetNoise, double heldNoise, List<Row> rows) {
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
        predictors.put("the occurrence's other bursts (hindsight)", first -> orServed(first, pooledMs(bursts,
            burst -> burst.occurrence() == first.occurrence() && !groupOf(groups, first).contains(burst))));
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
        predictors.put("served × the state's residual so far", first -> first.record().valueMs()
            * stateResidualFactor(first, all, Double.NaN));
        predictors.put("served × the state's residual so far, weighted", first -> first.record().valueMs()
            * stateResidualFactor(first, all, RESIDUAL_SMOOTHING));

        final List<Row> rows = new ArrayList<>();
        predictors.forEach((name, predictor) -> {
            final double[] errors = new double[groups.size()];
            for (int i = 0; i < errors.length; i++) {
                errors[i] = Math.abs(predictor.applyAsDouble(groups.get(i).get(0)) - targetMs[i]) / targetMs[i];
            }
            rows.add(new Row(name, errors.length, SampleStatistics.median(errors, errors.length)));
            if (name.equals("served")) {
                rows.add(new Row("best constant per state (hindsight)", errors.length,
                    ServedMeans.of(bursts.stream().map(Burst::record).toList()).hindsightFloor()));
            }
        });
        for (final String source : List.of(FRESH, REMEMBERED)) {
            final double[] errors = java.util.stream.IntStream.range(0, groups.size())
                .filter(i -> source.equals(groups.get(i).get(0).record().source()))
                .mapToDouble(i -> Math.abs(groups.get(i).get(0).record().valueMs() - targetMs[i]) / targetMs[i]).toArray();
            rows.add(new Row("served, made from a " + source, errors.length, SampleStatistics.median(errors, errors.length)));
        }
        final double[] sizes = groups.stream().mapToDouble(List::size).toArray();
        final double[] noise = groups.stream().mapToDouble(MeanErrorSources::splitHalfNoise).filter(value -> !Double.isNaN(value))
            .toArray();
        final Map<Integer, List<Burst>> byOccurrence = new TreeMap<>();
        bursts.forEach(burst -> byOccurrence.computeIfAbsent(burst.occurrence(), o -> new ArrayList<>()).add(burst));
        final double[] heldNoise = byOccurrence.values().stream().mapToDouble(MeanErrorSources::splitHalfNoise)
            .filter(value -> !Double.isNaN(value)).toArray();
        return new ShapeSources(shape, indexRef, groups.size(), bursts.size(), (int) bursts.stream().mapToInt(Burst::occurrence).distinct().count(),
            SampleStatistics.median(sizes, sizes.length), SampleStatistics.median(noise, noise.length),
            SampleStatistics.median(heldNoise, heldNoise.length), List.copyOf(rows));
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
                    + " a served mean; the target's own noise (split halves) %.1f %%, were each served mean held through its occurrence %.1f %%%n",
                shape.shape(), shape.indexRef(), shape.servedMeans(), shape.bursts(), shape.occurrences(), shape.medianBurstsPerMean(),
                shape.targetNoise() * 100, shape.heldNoise() * 100);
            for (final Row row : shape.rows()) {
                out.printf(java.util.Locale.ROOT, "    %-56s %6.1f %%  (%d)%n", row.predictor(), row.medianError() * 100,
                    row.servedMeans());
            }
        }
    }

    private static List<Burst> groupOf(final List<List<Burst>> groups, final Burst first) {
        return groups.stream().filter(group -> group.get(0) == first).findFirst().orElseThrow();
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

    /**
     * {@code exp(r)}: r the mean of {@code ln(burst mean / served mean)} over the state's earlier bursts of every shape, every
     * occurrence (what a server learns per state from the probe windows that followed its served means); with a smoothing
     * λ, their exponentially weighted mean (weight λ to the newest), else their plain mean.
     */
    private static double stateResidualFactor(final Burst first, final List<Burst> all, final double smoothing) {
        double sum = 0;
        double level = 0;
        int count = 0;
        for (final Burst burst : all) {
            if (burst.state().equals(first.state()) && burst.record().epochMillis() < first.record().epochMillis()) {
                final double residual = Math.log(burst.meanMs() / burst.record().valueMs());
                sum += residual;
                level = count == 0 ? residual : level + smoothing * (residual - level);
                count++;
            }
        }
        return count == 0 ? 1.0 : Math.exp(Double.isNaN(smoothing) ? sum / count : level);
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

    /**
     * A served mean's target noise by split halves: its bursts in turn into two halves, {@code |m_A − m_B| / (2 m)} with
     * m the pooled mean of all (for equal halves of independent bursts, {@code m_A − m_B} has twice the standard deviation
     * of m's own noise); NaN for a served mean of one burst.
     */
    private static double splitHalfNoise(final List<Burst> group) {
        if (group.size() < 2) {
            return Double.NaN;
        }
        final List<Burst> even = new ArrayList<>();
        final List<Burst> odd = new ArrayList<>();
        for (int i = 0; i < group.size(); i++) {
            (i % 2 == 0 ? even : odd).add(group.get(i));
        }
        return Math.abs(pooledMs(even) - pooledMs(odd)) / (2 * pooledMs(group));
    }
}
