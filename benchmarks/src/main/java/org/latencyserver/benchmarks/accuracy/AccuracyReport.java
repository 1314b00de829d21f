package org.latencyserver.benchmarks.accuracy;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;
import org.latencyserver.benchmarks.accuracy.AccuracyTargets.Verdict;

/**
 * The harness's results as a readable table (targets marked met or MISSED) and the same figures as
 * CSV, one row per connection and load state plus a pooled row ("all states") per connection.
 */
public final class AccuracyReport {

    private static final String CSV_HEADER = String.join(",", "index_ref", "quality", "client_node", "peer_node",
        "message_size_bytes", "checkable", "kind", "load_state", "cpu_state", "port_state", "reads", "no_estimate_share",
        "no_estimate_verdict", "update_pending_share", "bursts", "discarded_bursts", "round_trips", "mean_rtt_ms", "enough_data",
        "nominal", "p_nominal_ms", "served_coverage", "served_coverage_low", "served_coverage_high", "served_coverage_verdict",
        "served_bound_over_p_nominal", "served_bound_ratio_verdict", "thesis_coverage", "thesis_coverage_low",
        "thesis_coverage_high", "thesis_coverage_verdict", "thesis_bound_over_p_nominal", "thesis_bound_ratio_verdict",
        "served_median_relative_error", "served_mean_verdict", "served_inside_interval_share", "thesis_median_relative_error",
        "thesis_mean_verdict", "hindsight_floor_median_relative_error", "probe_round_trips_per_second",
        "client_agent_cpu_percent_of_core", "served_over_pooled_mean", "served_pooled_mean_verdict", "thesis_over_pooled_mean",
        "other_band_share", "other_band_verdict", "mixed_band_share", "unknown_band_share");

    private final List<ConnectionAccuracy> connections;
    private final ProbeCost cost;
    private final AccuracyTargets targets;

    /**
     * @param connections the analysis
     * @param cost        what measuring cost over the same window
     * @param targets     the targets and the minimum data to judge a state
     */
    public AccuracyReport(final List<ConnectionAccuracy> connections, final ProbeCost cost, final AccuracyTargets targets) {
        this.connections = List.copyOf(connections);
        this.cost = cost;
        this.targets = targets;
    }

    /** Prints the table. */
    public void print(final PrintStream out) {
        for (final ConnectionAccuracy connection : connections) {
            out.println();
            out.printf(Locale.ROOT, "connection %d: QoS %d, %s -> %s, %d B, %s%n", connection.indexRef(), connection.quality(),
                connection.clientNode(), connection.peerNode(), connection.messageSizeBytes(), kindLabel(connection));
            if (!connection.checkable()) {
                out.println("  NOT CHECKABLE: no agents on its nodes (emulated workstations); its estimate comes from a profile of other"
                    + " hardware and cannot be checked against real round trips. Reads only:");
                out.printf(Locale.ROOT, "  %-20s %6s %17s %8s%n", "state", "reads", "no estimate", "pending");
                for (final StateAccuracy state : connection.states()) {
                    out.printf(Locale.ROOT, "  %-20s %6d %17s %8s%n", state.state().label(), state.reads(), noEstimate(state),
                        percent(state.updatePendingShare()));
                }
                continue;
            }
            out.println("  " + costLine(connection.indexRef()));
            if (connection.bound()) {
                printBounds(out, connection);
            } else {
                printMeans(out, connection);
            }
        }
        out.println();
        out.println("  " + summary());
    }

    private void printBounds(final PrintStream out, final ConnectionAccuracy connection) {
        final String percentile = connection.states().stream().filter(state -> state.bound() != null).findFirst()
            .map(state -> String.format(Locale.ROOT, "p%.0f", state.bound().nominal() * 100)).orElse("p");
        out.printf(Locale.ROOT, "  %-22s %6s %17s %8s %17s %6s %4s %8s | %-44s | %-44s%n", "state", "reads", "no estimate", "pending",
            "other band", "bursts", "disc", percentile + " ms", "served: coverage [95 % CI]         bound/" + percentile,
            "thesis: coverage [95 % CI]         bound/" + percentile);
        for (final StateAccuracy state : connection.states()) {
            out.printf(Locale.ROOT, "  %-22s %6d %17s %8s %17s %6d %4d %8s | %-44s | %-44s%n", state.state().label(), state.reads(),
                noEstimate(state), percent(state.updatePendingShare()), otherBand(state), state.bursts(), state.discardedBursts(),
                state.bound() == null ? "-" : millis(state.bound().percentileMs()),
                state.bound() == null ? "-" : boundCell(state, state.bound().served(), state.bound().servedRatio()),
                state.bound() == null ? "-" : boundCell(state, state.bound().thesis(), state.bound().thesisRatio()));
        }
    }

    private String boundCell(final StateAccuracy state, final BlockCoverage coverage, final double ratio) {
        final double nominal = state.bound().nominal();
        return String.format(Locale.ROOT, "%6s [%5s, %5s] %-8s %5s %-8s", percent(coverage.share()), percentNumber(coverage.lower()),
            percentNumber(coverage.upper()), targets.coverage(state, coverage, nominal).label(), ratio(ratio),
            targets.boundRatio(state, ratio).label());
    }

    private void printMeans(final PrintStream out, final ConnectionAccuracy connection) {
        out.printf(Locale.ROOT, "  %-22s %6s %17s %8s %17s %6s %4s %8s | %-26s | %-36s | %-26s | %s%n", "state", "reads", "no estimate",
            "pending", "other band", "bursts", "disc", "mean ms", "served vs pooled  (thesis)", "served: median error   inside CI",
            "thesis: median error", "floor");
        for (final StateAccuracy state : connection.states()) {
            final StateAccuracy.Mean mean = state.mean();
            out.printf(Locale.ROOT, "  %-22s %6d %17s %8s %17s %6d %4d %8s | %-26s | %-36s | %-26s | %s%n", state.state().label(),
                state.reads(), noEstimate(state), percent(state.updatePendingShare()), otherBand(state), state.bursts(),
                state.discardedBursts(), millis(state.meanRttMs()),
                mean == null ? "-" : String.format(Locale.ROOT, "%7s %-8s (%7s)", signedPercent(mean.servedOverPooled()),
                    targets.pooledMean(state, mean.servedOverPooled()).label(), signedPercent(mean.thesisOverPooled())),
                mean == null ? "-" : String.format(Locale.ROOT, "%7s %-10s %9s", percent(mean.servedMedianRelativeError()),
                    targets.meanError(state, mean.servedMedianRelativeError()).label(), percent(mean.insideIntervalShare())),
                mean == null ? "-" : String.format(Locale.ROOT, "%7s %-10s", percent(mean.thesisMedianRelativeError()),
                    targets.meanError(state, mean.thesisMedianRelativeError()).label()),
                mean == null ? "-" : percent(mean.hindsightFloor()));
        }
    }

    private String otherBand(final StateAccuracy state) {
        return String.format(Locale.ROOT, "%7s %-9s", percent(state.otherBandShare()), targets.otherBand(state).label());
    }

    private String noEstimate(final StateAccuracy state) {
        return String.format(Locale.ROOT, "%7s %-9s", percent(state.noEstimateShare()), targets.availability(state).label());
    }

    private String costLine(final int indexRef) {
        final OptionalDouble rate = cost.roundTripsPerSecondOf(indexRef);
        final String probes = rate.isPresent()
            ? String.format(Locale.ROOT, "%.1f probe round trips/s%s", rate.getAsDouble(), cost.perConnection() ? "" : " (all connections)")
            : "probe round trips/s n/a (the server does not count them)";
        final String cpu = Double.isNaN(cost.clientAgentCpuPercent()) ? "client agent CPU n/a"
            : String.format(Locale.ROOT, "client agent CPU %.1f %% of one core (all its work)", cost.clientAgentCpuPercent());
        return "probe cost: " + probes + "; " + cpu;
    }

    private String summary() {
        int met = 0;
        final List<String> missed = new ArrayList<>();
        for (final ConnectionAccuracy connection : connections) {
            for (final StateAccuracy state : connection.states()) {
                final List<Verdict> verdicts = new ArrayList<>(List.of(targets.availability(state), targets.otherBand(state)));
                final List<String> names = new ArrayList<>(List.of("no estimate", "other band"));
                if (connection.checkable() && state.bound() != null) {
                    verdicts.add(targets.coverage(state, state.bound().served(), state.bound().nominal()));
                    names.add("coverage");
                    verdicts.add(targets.boundRatio(state, state.bound().servedRatio()));
                    names.add("bound/p");
                } else if (connection.checkable() && state.mean() != null) {
                    verdicts.add(targets.meanError(state, state.mean().servedMedianRelativeError()));
                    names.add("mean error");
                    verdicts.add(targets.pooledMean(state, state.mean().servedOverPooled()));
                    names.add("mean vs pooled");
                }
                for (int i = 0; i < verdicts.size(); i++) {
                    if (verdicts.get(i) == Verdict.MET) {
                        met++;
                    } else if (verdicts.get(i) == Verdict.MISSED) {
                        missed.add("connection " + connection.indexRef() + " " + state.state().label() + " " + names.get(i));
                    }
                }
            }
        }
        return String.format(Locale.ROOT, "served estimates: %d targets met, %d missed%s", met, missed.size(),
            missed.isEmpty() ? "" : ":\n    " + String.join("\n    ", missed));
    }

    /**
     * Writes the CSV.
     *
     * @param file where
     * @throws IOException when it cannot be written
     */
    public void writeCsv(final Path file) throws IOException {
        final List<String> lines = new ArrayList<>(List.of(CSV_HEADER));
        for (final ConnectionAccuracy connection : connections) {
            final OptionalDouble rate = cost.roundTripsPerSecondOf(connection.indexRef());
            for (final StateAccuracy state : connection.states()) {
                final List<String> cells = new ArrayList<>(List.of(Integer.toString(connection.indexRef()),
                    Integer.toString(connection.quality()), connection.clientNode(), connection.peerNode(),
                    Integer.toString(connection.messageSizeBytes()), Boolean.toString(connection.checkable()),
                    connection.bound() ? "BOUND" : "AVERAGE", state.state().label(), Integer.toString(state.state().cpuState()),
                    Integer.toString(state.state().portState()), Integer.toString(state.reads()), number(state.noEstimateShare()),
                    targets.availability(state).name(), number(state.updatePendingShare()), Integer.toString(state.bursts()),
                    Integer.toString(state.discardedBursts()), Long.toString(state.roundTrips()), number(state.meanRttMs()),
                    Boolean.toString(state.bursts() >= targets.minBursts())));
                final StateAccuracy.Bound bound = state.bound();
                if (bound != null) {
                    cells.addAll(List.of(number(bound.nominal()), number(bound.percentileMs()), number(bound.served().share()),
                        number(bound.served().lower()), number(bound.served().upper()),
                        targets.coverage(state, bound.served(), bound.nominal()).name(), number(bound.servedRatio()),
                        targets.boundRatio(state, bound.servedRatio()).name(), number(bound.thesis().share()),
                        number(bound.thesis().lower()), number(bound.thesis().upper()),
                        targets.coverage(state, bound.thesis(), bound.nominal()).name(), number(bound.thesisRatio()),
                        targets.boundRatio(state, bound.thesisRatio()).name()));
                } else {
                    cells.addAll(List.of("", "", "", "", "", "", "", "", "", "", "", "", "", ""));
                }
                final StateAccuracy.Mean mean = state.mean();
                if (mean != null) {
                    cells.addAll(List.of(number(mean.servedMedianRelativeError()),
                        targets.meanError(state, mean.servedMedianRelativeError()).name(), number(mean.insideIntervalShare()),
                        number(mean.thesisMedianRelativeError()), targets.meanError(state, mean.thesisMedianRelativeError()).name(),
                        number(mean.hindsightFloor())));
                } else {
                    cells.addAll(List.of("", "", "", "", "", ""));
                }
                cells.add(rate.isPresent() ? number(rate.getAsDouble()) : "");
                cells.add(number(cost.clientAgentCpuPercent()));
                cells.addAll(mean == null ? List.of("", "", "") : List.of(number(mean.servedOverPooled()),
                    targets.pooledMean(state, mean.servedOverPooled()).name(), number(mean.thesisOverPooled())));
                cells.addAll(List.of(number(state.otherBandShare()), targets.otherBand(state).name(), number(state.mixedBandShare()),
                    number(state.unknownBandShare())));
                lines.add(String.join(",", cells.stream().map(AccuracyReport::csvCell).toList()));
            }
        }
        Files.write(file, lines);
    }

    private static String kindLabel(final ConnectionAccuracy connection) {
        return connection.bound() ? "bound" : "mean";
    }

    private static String csvCell(final String text) {
        return text.contains(",") || text.contains("\"") ? "\"" + text.replace("\"", "\"\"") + "\"" : text;
    }

    private static String number(final double value) {
        return Double.isNaN(value) ? "" : String.format(Locale.ROOT, "%.6g", value);
    }

    private static String percent(final double share) {
        return Double.isNaN(share) ? "-" : String.format(Locale.ROOT, "%.1f %%", share * 100);
    }

    private static String signedPercent(final double share) {
        return Double.isNaN(share) ? "-" : String.format(Locale.ROOT, "%+.1f %%", share * 100);
    }

    private static String percentNumber(final double share) {
        return Double.isNaN(share) ? "-" : String.format(Locale.ROOT, "%.1f", share * 100);
    }

    private static String millis(final double value) {
        return Double.isNaN(value) ? "-" : String.format(Locale.ROOT, "%.3f", value);
    }

    private static String ratio(final double value) {
        return Double.isNaN(value) ? "-" : String.format(Locale.ROOT, "%.2f", value);
    }
}
