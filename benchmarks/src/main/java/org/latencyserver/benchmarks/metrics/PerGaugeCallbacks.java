package org.latencyserver.benchmarks.metrics;

import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.Unit;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;
import org.latencyserver.core.calibration.StateKnowledge;
import org.latencyserver.core.estimate.EstimateKind;
import org.latencyserver.server.table.ConnectionRow;
import org.latencyserver.server.table.ConnectionTable;

/**
 * The baseline the scrape harness compares with: the connection table's gauges as one callback
 * gauge each (client_java's {@code GaugeWithCallback}), every callback taking its own copy of the
 * table's rows ({@link ConnectionTable#rows()}), 16 per scrape. Same families, help, units,
 * labels and values as the server's collector, so the two pages can be compared line by line.
 */
final class PerGaugeCallbacks {

    /** Connections served as a bound (the calibration coverage gauges); the others serve an average. */
    private static final Predicate<ConnectionRow> BOUND = row -> row.spec().isBound();

    private final PrometheusRegistry registry;

    private PerGaugeCallbacks(final PrometheusRegistry registry) {
        this.registry = registry;
    }

    /**
     * @param table     the connection table
     * @param nanoClock the engine's clock, for the age of open requests
     * @return a registry holding the table's gauges, one callback each
     */
    static PrometheusRegistry register(final ConnectionTable table, final LongSupplier nanoClock) {
        final PerGaugeCallbacks callbacks = new PerGaugeCallbacks(new PrometheusRegistry());
        GaugeWithCallback.builder().name("latency_server_pending_measurements")
            .help("measurement requests open now").callback(cb -> cb.call(
                table.rows().stream().filter(row -> row.pending() != null).count())).register(callbacks.registry);
        callbacks.registerEstimates(table);
        callbacks.registerConnectionStates(table, nanoClock);
        callbacks.registerCalibration(table);
        return callbacks.registry;
    }

    private void registerEstimates(final ConnectionTable table) {
        GaugeWithCallback.builder().name("latency_server_estimate_seconds").unit(Unit.SECONDS)
            .help("the estimate served: a mean (kind average, QoS 1, 3) or a bound (kind bound, QoS 2, 4)")
            .labelNames("index_ref", "qos", "kind")
            .callback(cb -> {
                for (final ConnectionRow row : table.rows()) {
                    if (row.estimate() != null) {
                        cb.call(row.estimate().valueMillis() / 1e3, ref(row), Integer.toString(row.spec().qos()),
                            row.estimate().kind().name().toLowerCase(Locale.ROOT));
                    }
                }
            }).register(registry);
        GaugeWithCallback.builder().name("latency_server_estimate_thesis_seconds").unit(Unit.SECONDS)
            .help("the thesis's uncorrected value behind the served estimate (equal to it for calibration: thesis)")
            .labelNames("index_ref")
            .callback(cb -> {
                for (final ConnectionRow row : table.rows()) {
                    if (row.estimate() != null && row.served().thesis() != null) {
                        cb.call(row.served().thesis().valueMillis() / 1e3, ref(row));
                    }
                }
            }).register(registry);
        GaugeWithCallback.builder().name("latency_server_estimate_interval_seconds").unit(Unit.SECONDS)
            .help("95 % confidence interval of a mean (AVERAGE estimates, QoS 1, 3): its lower and upper end")
            .labelNames("index_ref", "end").callback(intervalEnds(table, EstimateKind.AVERAGE, 1e3)).register(registry);
        GaugeWithCallback.builder().name("latency_server_estimate_bound_ratio").unit(Unit.RATIO)
            .help("the share of latencies a bound is for (0.96 for a 96 % bound; BOUND estimates, QoS 2, 4)")
            .labelNames("index_ref").callback(cb -> {
                for (final ConnectionRow row : table.rows()) {
                    if (row.estimate() != null && row.estimate().kind() == EstimateKind.BOUND) {
                        cb.call(row.estimate().boundPercent() / 100, ref(row));
                    }
                }
            }).register(registry);
        GaugeWithCallback.builder().name("latency_server_estimate_share_interval_ratio").unit(Unit.RATIO)
            .help("95 % confidence interval of the share of latencies at or below a bound (BOUND estimates, QoS 2, 4)")
            .labelNames("index_ref", "end").callback(intervalEnds(table, EstimateKind.BOUND, 1)).register(registry);
        registerStaleness(table);
    }

    private void registerStaleness(final ConnectionTable table) {
        GaugeWithCallback.builder().name("latency_server_estimate_stale")
            .help("1 while an input of the served estimate stopped answering (it may no longer hold), else 0")
            .labelNames("index_ref").callback(cb -> {
                for (final ConnectionRow row : table.rows()) {
                    if (row.estimate() != null) {
                        cb.call(row.staleInputs().isStale() ? 1 : 0, ref(row));
                    }
                }
            }).register(registry);
        GaugeWithCallback.builder().name("latency_server_estimate_stale_reason")
            .help("1 for each input that stopped answering while an estimate is served (client_cpu_unknown,"
                + " peer_cpu_unknown, port_unknown); no series while the estimate is fresh")
            .labelNames("index_ref", "reason").callback(cb -> {
                for (final ConnectionRow row : table.rows()) {
                    if (row.estimate() != null && row.staleInputs().isStale()) {
                        final String ref = ref(row);
                        if (row.latest().clientCpuPercent() < 0) {
                            cb.call(1, ref, "client_cpu_unknown");
                        }
                        if (row.latest().peerCpuPercent() < 0) {
                            cb.call(1, ref, "peer_cpu_unknown");
                        }
                        if (row.latest().portPercent() < 0) {
                            cb.call(1, ref, "port_unknown");
                        }
                    }
                }
            }).register(registry);
    }

    private void registerConnectionStates(final ConnectionTable table, final LongSupplier nanoClock) {
        GaugeWithCallback.builder().name("latency_server_cpu_state")
            .help("CPU state code: 10 * client + peer, 1 LOW, 2 MEDIUM, 3 HIGH; 0 unknown").labelNames("index_ref")
            .callback(cb -> table.rows().forEach(row -> cb.call(row.load().cpu().code(), ref(row)))).register(registry);
        GaugeWithCallback.builder().name("latency_server_port_state")
            .help("port state code: 0 NORMAL, 91..100 LOADED at that percent, 101 SATURATED, -1 unknown").labelNames("index_ref")
            .callback(cb -> table.rows().forEach(row -> cb.call(row.load().port().code(), ref(row)))).register(registry);
        GaugeWithCallback.builder().name("latency_server_update_required")
            .help("1 while a measurement is awaited (QoS 3, 4)").labelNames("index_ref")
            .callback(cb -> table.rows().forEach(row -> cb.call(row.updateRequired() ? 1 : 0, ref(row)))).register(registry);
        GaugeWithCallback.builder().name("latency_server_measurement_pending_age_seconds").unit(Unit.SECONDS)
            .help("age of the open measurement request (QoS 3, 4); no series while none is open").labelNames("index_ref")
            .callback(cb -> {
                final long now = nanoClock.getAsLong();
                for (final ConnectionRow row : table.rows()) {
                    if (row.pending() != null) {
                        cb.call(Math.max(0, now - row.pending().issuedNanos()) / 1e9, ref(row));
                    }
                }
            }).register(registry);
    }

    private void registerCalibration(final ConnectionTable table) {
        GaugeWithCallback.builder().name("latency_server_calibration_coverage_ratio").unit(Unit.RATIO)
            .help("share of round trips (probes and measurements) at or below the bound served when they were sent, "
                + "per load state (BOUND connections)").labelNames("index_ref", "state")
            .callback(perLoadState(table, BOUND, known -> known.coverage().roundTrips() > 0, known -> known.coverage().coverage()))
            .register(registry);
        GaugeWithCallback.builder().name("latency_server_calibration_round_trips")
            .help("round trips behind latency_server_calibration_coverage_ratio, per load state (BOUND connections)")
            .labelNames("index_ref", "state")
            .callback(perLoadState(table, BOUND, known -> known.coverage().roundTrips() > 0, known -> known.coverage().roundTrips()))
            .register(registry);
        GaugeWithCallback.builder().name("latency_server_state_coverage_below_nominal")
            .help("1 when the load state's coverage 95 % interval (over blocks, after at least "
                + org.latencyserver.core.calibration.StateKnowledge.MIN_BLOCKS_FOR_COVERAGE_ALARM + " blocks) lies wholly below the"
                + " nominal share: the bounds served in it under-cover; else 0 (BOUND connections)")
            .labelNames("index_ref", "state")
            .callback(perLoadState(table, BOUND, known -> known.level() != null && known.coverage().roundTrips() > 0,
                known -> known.coverageBelowNominal() ? 1 : 0))
            .register(registry);
        GaugeWithCallback.builder().name("latency_server_calibration_mean_relative_error_ratio").unit(Unit.RATIO)
            .help("median |served mean - mean of the following window| / window mean, per load state (AVERAGE connections)")
            .labelNames("index_ref", "state")
            .callback(perLoadState(table, BOUND.negate(), known -> known.meanErrors().windows() > 0,
                known -> known.meanErrors().medianRelativeError()))
            .register(registry);
        GaugeWithCallback.builder().name("latency_server_drift_alarms")
            .help("times the probe stream showed a served estimate had stopped holding (CUSUM), per connection")
            .labelNames("index_ref")
            .callback(cb -> table.rows().forEach(row -> cb.call(row.learning().byState().values().stream()
                .mapToLong(StateKnowledge::driftAlarms).sum(), ref(row)))).register(registry);
    }

    /**
     * A gauge's callback with the lower and upper end of the interval of each served estimate of
     * one kind (a mean's in ms, a bound's share as a ratio), divided by {@code divisor}.
     */
    private static Consumer<GaugeWithCallback.Callback> intervalEnds(final ConnectionTable table, final EstimateKind kind,
                                                                    final double divisor) {
        return cb -> {
            for (final ConnectionRow row : table.rows()) {
                if (row.estimate() != null && row.estimate().kind() == kind) {
                    cb.call(row.estimate().interval().lower() / divisor, ref(row), "lower");
                    cb.call(row.estimate().interval().upper() / divisor, ref(row), "upper");
                }
            }
        };
    }

    /**
     * A gauge's callback with one value per connection and load state: for each connection
     * {@code rows} chooses, each load state whose knowledge {@code hasValue}, labelled with the
     * connection's index_ref and the state. Runs at a scrape, on the scraping thread.
     */
    private static Consumer<GaugeWithCallback.Callback> perLoadState(final ConnectionTable table, final Predicate<ConnectionRow> rows,
                                                                    final Predicate<StateKnowledge> hasValue,
                                                                    final ToDoubleFunction<StateKnowledge> value) {
        return cb -> table.rows().stream().filter(rows).forEach(row ->
            row.learning().byState().forEach((state, known) -> {
                if (hasValue.test(known)) {
                    cb.call(value.applyAsDouble(known), ref(row), stateLabel(state));
                }
            }));
    }

    private static String stateLabel(final org.latencyserver.core.state.ConnectionLoadState state) {
        return state.cpu() + " " + state.port();
    }

    private static String ref(final ConnectionRow row) {
        return Short.toString(row.spec().indexRef());
    }
}
