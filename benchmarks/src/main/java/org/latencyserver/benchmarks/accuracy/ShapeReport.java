package org.latencyserver.benchmarks.accuracy;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;
import org.latencyserver.benchmarks.accuracy.ShapeAnalysis.ShapeAccuracy;
import org.latencyserver.benchmarks.accuracy.ShapeTargets.Verdict;

/**
 * Every figure per application shape, judged PASS or MISS against {@link ShapeTargets}: a table per shape and
 * connection, a summary of the misses, and one CSV per shape ({@code accuracy-SHAPE.csv}: a row per connection and
 * load state, then the pooled row).
 */
public final class ShapeReport {

    /** CSV columns, in order. */
    static final String CSV_HEADER = String.join(",", "shape", "index_ref", "quality", "kind", "load_state", "cpu_state", "port_state",
        "bursts", "round_trips", "judged", "nominal", "p_nominal_ms", "coverage", "coverage_low", "coverage_high", "coverage_verdict",
        "coverage_interval_verdict", "bound_over_p_nominal", "bound_verdict", "served_means", "served_mean_error", "served_mean_verdict",
        "served_mean_floor", "burst_mean_floor", "inside_interval_share", "inside_verdict", "probe_round_trips_per_second",
        "client_agent_cpu_percent_of_core");

    private final List<ShapeAccuracy> shapes;
    private final ProbeCost cost;
    private final ShapeTargets targets;

    /**
     * @param shapes  the analysis per shape
     * @param cost    what probing cost over the run (all shapes together)
     * @param targets the targets
     */
    public ShapeReport(final List<ShapeAccuracy> shapes, final ProbeCost cost, final ShapeTargets targets) {
        this.shapes = List.copyOf(shapes);
        this.cost = cost;
        this.targets = targets;
    }

    /** @param out where the tables go */
    public void print(final PrintStream out) {
        out.println();
        out.printf(Locale.ROOT, "Per application shape (targets: QoS 2/4 pooled coverage nominal ± %.1f; per state with >= %d bursts the"
            + " point within ± %.1f and the block 95 %% CI overlapping ± %.1f; bound <= %.1f x the true percentile of what followed;"
            + " QoS 1/3 served mean within %.0f %% of the pooled mean of what followed it (median over served means); next-burst"
            + " means inside the served interval >= %.0f %%)%n", targets.pooledTolerance() * 100, targets.minBursts(),
            targets.statePointTolerance() * 100, targets.stateIntervalTolerance() * 100, targets.maxBoundRatio(),
            targets.maxServedMeanError() * 100, targets.minInsideShare() * 100);
        out.println("  " + costLine());
        for (final ShapeAccuracy shape : shapes) {
            out.println();
            out.printf(Locale.ROOT, "shape %s: %d plays; %s%n", shape.shape(), shape.plays(), shape.played());
            if (!shape.boundBases().isEmpty()) {
                out.printf(Locale.ROOT, "  %s%n", shape.boundBases());
            }
            for (final ConnectionAccuracy connection : shape.connections()) {
                if (!connection.checkable()) {
                    continue;
                }
                out.printf(Locale.ROOT, "  connection %d: QoS %d, %d B, %s%n", connection.indexRef(), connection.quality(),
                    connection.messageSizeBytes(), connection.bound() ? "bound" : "mean");
                if (connection.bound()) {
                    printBounds(out, connection);
                } else {
                    printMeans(out, connection);
                }
            }
        }
        out.println();
        printSummary(out);
    }

    private void printBounds(final PrintStream out, final ConnectionAccuracy connection) {
        out.printf(Locale.ROOT, "    %-22s %6s  %-27s %-9s %-9s %8s %6s %-9s%n", "state", "bursts", "coverage [block 95 % CI]",
            "point", "CI", "p ms", "b/p", "bound");
        for (final StateAccuracy state : connection.states()) {
            final StateAccuracy.Bound bound = state.bound();
            if (bound == null) {
                out.printf(Locale.ROOT, "    %-22s %6d  -%n", state.state().label(), state.bursts());
                continue;
            }
            final boolean pooled = state.state().equals(LoadState.POOLED);
            final BlockCoverage served = bound.served();
            out.printf(Locale.ROOT, "    %-22s %6d  %7s [%5s, %5s]      %-9s %-9s %8s %6s %-9s%n", state.state().label(), state.bursts(),
                percent(served.share()), number(served.lower()), number(served.upper()),
                (pooled ? targets.pooledCoverage(state) : targets.statePoint(state)).label(),
                pooled ? "" : targets.stateInterval(state).label(), millis(bound.percentileMs()), ratio(bound.servedRatio()),
                targets.boundRatio(state).label());
        }
    }

    private void printMeans(final PrintStream out, final ConnectionAccuracy connection) {
        out.printf(Locale.ROOT, "    %-22s %6s %7s %8s  %-20s %-9s %-9s  %-15s%n", "state", "bursts", "served", "mean ms",
            "vs what followed", "floor", "(burst)", "inside interval");
        for (final StateAccuracy state : connection.states()) {
            final StateAccuracy.Mean mean = state.mean();
            if (mean == null) {
                out.printf(Locale.ROOT, "    %-22s %6d  -%n", state.state().label(), state.bursts());
                continue;
            }
            out.printf(Locale.ROOT, "    %-22s %6d %7d %8s  %7s %-12s %-9s %-9s  %6s %-8s%n", state.state().label(), state.bursts(),
                mean.servedMeans().servedMeans(), millis(state.meanRttMs()), percent(mean.servedMeans().medianError()),
                targets.servedMean(state).label(), percent(mean.servedMeans().hindsightFloor()), percent(mean.hindsightFloor()),
                percent(mean.insideIntervalShare()), targets.inside(state).label());
        }
    }

    private void printSummary(final PrintStream out) {
        out.println("Summary per application shape (PASS / MISS of every judged target; few data: not judged)");
        for (final ShapeAccuracy shape : shapes) {
            int passed = 0;
            final List<String> missed = new ArrayList<>();
            int few = 0;
            for (final ConnectionAccuracy connection : shape.connections()) {
                if (!connection.checkable()) {
                    continue;
                }
                for (final StateAccuracy state : connection.states()) {
                    for (final Judged judged : judged(state)) {
                        switch (judged.verdict()) {
                            case PASS -> passed++;
                            case MISS -> missed.add("connection " + connection.indexRef() + " " + state.state().label() + " " + judged.name());
                            case FEW_DATA -> few++;
                            default -> { }
                        }
                    }
                }
            }
            out.printf(Locale.ROOT, "  %-12s %3d PASS, %3d MISS, %3d few data%s%n", shape.shape(), passed, missed.size(), few,
                missed.isEmpty() ? "" : ":\n      MISS " + String.join("\n      MISS ", missed));
        }
    }

    /** One judged figure. */
    private record Judged(String name, Verdict verdict) {
    }

    private List<Judged> judged(final StateAccuracy state) {
        final boolean pooled = state.state().equals(LoadState.POOLED);
        if (state.bound() != null) {
            return pooled ? List.of(new Judged("coverage", targets.pooledCoverage(state)), new Judged("bound/p", targets.boundRatio(state)))
                : List.of(new Judged("coverage point", targets.statePoint(state)),
                    new Judged("coverage CI", targets.stateInterval(state)), new Judged("bound/p", targets.boundRatio(state)));
        }
        if (state.mean() != null) {
            return List.of(new Judged("served mean", targets.servedMean(state)), new Judged("inside interval", targets.inside(state)));
        }
        return List.of();
    }

    /**
     * Writes one CSV per shape.
     *
     * @param directory where
     * @return the files written, in shape order
     * @throws IOException when one cannot be written
     */
    public List<Path> writeCsv(final Path directory) throws IOException {
        final List<Path> files = new ArrayList<>();
        for (final ShapeAccuracy shape : shapes) {
            final List<String> lines = new ArrayList<>(List.of(CSV_HEADER));
            for (final ConnectionAccuracy connection : shape.connections()) {
                if (!connection.checkable()) {
                    continue;
                }
                final OptionalDouble rate = cost.roundTripsPerSecondOf(connection.indexRef());
                for (final StateAccuracy state : connection.states()) {
                    lines.add(String.join(",", row(shape, connection, state, rate)));
                }
            }
            final Path file = directory.resolve(csvFileName(shape.shape()));
            Files.write(file, lines);
            files.add(file);
        }
        return files;
    }

    /** @return the CSV file name of a shape: {@code accuracy-NAME.csv}, the name's other characters than [a-z0-9-] as '_' */
    static String csvFileName(final String shape) {
        return "accuracy-" + shape.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9-]", "_") + ".csv";
    }

    private List<String> row(final ShapeAccuracy shape, final ConnectionAccuracy connection, final StateAccuracy state,
                             final OptionalDouble rate) {
        final boolean pooled = state.state().equals(LoadState.POOLED);
        final List<String> cells = new ArrayList<>(List.of(shape.shape(), Integer.toString(connection.indexRef()),
            Integer.toString(connection.quality()), connection.bound() ? "BOUND" : "AVERAGE", state.state().label(),
            Integer.toString(state.state().cpuState()), Integer.toString(state.state().portState()), Integer.toString(state.bursts()),
            Long.toString(state.roundTrips()), Boolean.toString(state.bursts() >= targets.minBursts())));
        final StateAccuracy.Bound bound = state.bound();
        if (bound != null) {
            cells.addAll(List.of(csv(bound.nominal()), csv(bound.percentileMs()), csv(bound.served().share()), csv(bound.served().lower()),
                csv(bound.served().upper()), (pooled ? targets.pooledCoverage(state) : targets.statePoint(state)).name(),
                pooled ? "" : targets.stateInterval(state).name(), csv(bound.servedRatio()), targets.boundRatio(state).name()));
        } else {
            cells.addAll(List.of("", "", "", "", "", "", "", "", ""));
        }
        final StateAccuracy.Mean mean = state.mean();
        if (mean != null) {
            cells.addAll(List.of(Integer.toString(mean.servedMeans().servedMeans()), csv(mean.servedMeans().medianError()),
                targets.servedMean(state).name(), csv(mean.servedMeans().hindsightFloor()), csv(mean.hindsightFloor()),
                csv(mean.insideIntervalShare()), targets.inside(state).name()));
        } else {
            cells.addAll(List.of("", "", "", "", "", "", ""));
        }
        cells.add(rate.isPresent() ? csv(rate.getAsDouble()) : "");
        cells.add(csv(cost.clientAgentCpuPercent()));
        return cells;
    }

    private String costLine() {
        final OptionalDouble all = cost.roundTripsPerSecondOf(ProbeCounter.ALL_CONNECTIONS);
        final double perConnectionSum = cost.roundTripsPerSecond().entrySet().stream()
            .filter(entry -> entry.getKey() != ProbeCounter.ALL_CONNECTIONS).mapToDouble(java.util.Map.Entry::getValue).sum();
        final String probes = cost.perConnection()
            ? String.format(Locale.ROOT, "%.1f probe round trips/s (all connections)", perConnectionSum)
            : all.isPresent() ? String.format(Locale.ROOT, "%.1f probe round trips/s (all connections)", all.getAsDouble())
            : "probe round trips/s n/a (the server does not count them)";
        final String cpu = Double.isNaN(cost.clientAgentCpuPercent()) ? "client agent CPU n/a"
            : String.format(Locale.ROOT, "client agent CPU %.1f %% of one core", cost.clientAgentCpuPercent());
        return String.format(Locale.ROOT, "cost over the same %.0f s (every shape together): %s; %s", cost.seconds(), probes, cpu);
    }

    private static String csv(final double value) {
        return Double.isNaN(value) ? "" : String.format(Locale.ROOT, "%.6g", value);
    }

    private static String percent(final double share) {
        return Double.isNaN(share) ? "-" : String.format(Locale.ROOT, "%.1f %%", share * 100);
    }

    private static String number(final double share) {
        return Double.isNaN(share) ? "-" : String.format(Locale.ROOT, "%.1f", share * 100);
    }

    private static String millis(final double value) {
        return Double.isNaN(value) ? "-" : String.format(Locale.ROOT, "%.3f", value);
    }

    private static String ratio(final double value) {
        return Double.isNaN(value) ? "-" : String.format(Locale.ROOT, "%.2f", value);
    }
}
