package org.latencyserver.server.metrics;

import io.prometheus.metrics.core.datapoints.CounterDataPoint;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.util.function.LongSupplier;
import org.latencyserver.core.estimate.EstimateKind;
import org.latencyserver.server.table.ConnectionRow;
import org.latencyserver.server.table.ConnectionTable;

/**
 * The server's metrics in the Prometheus text format, served on loopback: per connection the
 * estimate, its interval, load state, pending and stale flags and calibration (read from the
 * published rows at scrape time, so nothing is duplicated or kept in step); call, refusal and
 * update-error counts.
 *
 * <p>Thread-safe: counters are lock-free adders; the gauges read immutable published rows.
 */
public final class ServerMetrics implements AutoCloseable {

    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final Counter calls;
    private final Counter refusals;
    private final Counter unsavedWrites;
    /** Pre-resolved: {@code RequestStatus} is the hot path, so no label lookup per call. */
    private final CounterDataPoint requestStatusCalls;
    private HTTPServer server;

    /**
     * @param table        the connection table
     * @param updateErrors count of failed update commands
     */
    public ServerMetrics(final ConnectionTable table, final LongSupplier updateErrors) {
        calls = Counter.builder().name("latency_server_calls_total").help("CORBA calls served, by operation")
            .labelNames("operation").register(registry);
        refusals = Counter.builder().name("latency_server_refusals_total")
            .help("calls refused, by operation and reason (not_permitted, disabled, unknown_connection, bad_value, bad_ticket,"
                + " implausible, too_large, polled_source, bad_profile)")
            .labelNames("operation", "reason").register(registry);
        requestStatusCalls = calls.labelValues("RequestStatus");
        unsavedWrites = Counter.builder().name("latency_server_unsaved_writes_total")
            .help("writes answered before the state journal held them (append failed or slow); kill -9 could lose them")
            .register(registry);
        CounterWithCallback.builder().name("latency_server_update_errors_total")
            .help("update commands that failed; the table kept its last good state")
            .callback(cb -> cb.call(updateErrors.getAsLong())).register(registry);
        GaugeWithCallback.builder().name("latency_server_estimate_milliseconds")
            .help("the estimate served: a mean (QoS 1, 3) or a bound (QoS 2, 4)").labelNames("index_ref", "qos", "kind")
            .callback(cb -> {
                for (final ConnectionRow row : table.rows()) {
                    if (row.estimate() != null) {
                        cb.call(row.estimate().valueMillis(), ref(row), Integer.toString(row.spec().qos()),
                            row.estimate().kind().name().toLowerCase(java.util.Locale.ROOT));
                    }
                }
            }).register(registry);
        GaugeWithCallback.builder().name("latency_server_estimate_thesis_milliseconds")
            .help("the thesis's uncorrected value behind the served estimate (equal to it for calibration: thesis)")
            .labelNames("index_ref", "qos", "kind")
            .callback(cb -> {
                for (final ConnectionRow row : table.rows()) {
                    if (row.estimate() != null && row.served().thesis() != null) {
                        cb.call(row.served().thesis().valueMillis(), ref(row), Integer.toString(row.spec().qos()),
                            row.estimate().kind().name().toLowerCase(java.util.Locale.ROOT));
                    }
                }
            }).register(registry);
        GaugeWithCallback.builder().name("latency_server_estimate_interval")
            .help("95 % confidence interval of the estimate: ms around a mean, percent of latencies at or below a bound")
            .labelNames("index_ref", "end", "unit").callback(cb -> {
                for (final ConnectionRow row : table.rows()) {
                    if (row.estimate() != null) {
                        final String unit = row.estimate().kind() == EstimateKind.BOUND ? "percent" : "ms";
                        cb.call(row.lowerBoundEstimate(), ref(row), "lower", unit);
                        cb.call(row.upperBoundEstimate(), ref(row), "upper", unit);
                    }
                }
            }).register(registry);
        GaugeWithCallback.builder().name("latency_server_cpu_state")
            .help("CPU state code: 10 * client + peer, 1 LOW, 2 MEDIUM, 3 HIGH; 0 unknown").labelNames("index_ref")
            .callback(cb -> table.rows().forEach(row -> cb.call(row.load().cpu().code(), ref(row)))).register(registry);
        GaugeWithCallback.builder().name("latency_server_port_state")
            .help("port state code: 0 NORMAL, 91..100 LOADED at that percent, -1 unknown").labelNames("index_ref")
            .callback(cb -> table.rows().forEach(row -> cb.call(row.load().port().code(), ref(row)))).register(registry);
        GaugeWithCallback.builder().name("latency_server_update_required")
            .help("1 while a measurement is awaited (QoS 3, 4)").labelNames("index_ref")
            .callback(cb -> table.rows().forEach(row -> cb.call(row.updateRequired() ? 1 : 0, ref(row)))).register(registry);
        GaugeWithCallback.builder().name("latency_server_stale")
            .help("1 when an input stopped and the served estimate may no longer hold").labelNames("index_ref")
            .callback(cb -> table.rows().forEach(row -> cb.call(row.staleReason() != null ? 1 : 0, ref(row)))).register(registry);
        GaugeWithCallback.builder().name("latency_server_pending_measurements")
            .help("measurement requests open now").callback(cb -> cb.call(
                table.rows().stream().filter(row -> row.pending() != null).count())).register(registry);
        GaugeWithCallback.builder().name("latency_server_calibration_coverage_ratio")
            .help("share of round trips (probes and measurements) at or below the bound served when they were sent, "
                + "per load state (BOUND connections)").labelNames("index_ref", "state")
            .callback(cb -> table.rows().stream().filter(row -> row.spec().isBound()).forEach(row ->
                row.learning().byState().forEach((state, known) -> {
                    if (known.coverage().roundTrips() > 0) {
                        cb.call(known.coverage().coverage(), ref(row), stateLabel(state));
                    }
                }))).register(registry);
        GaugeWithCallback.builder().name("latency_server_calibration_mean_relative_error_ratio")
            .help("median |served mean - mean of the following window| / window mean, per load state (AVERAGE connections)")
            .labelNames("index_ref", "state")
            .callback(cb -> table.rows().stream().filter(row -> !row.spec().isBound()).forEach(row ->
                row.learning().byState().forEach((state, known) -> {
                    if (known.meanErrors().windows() > 0) {
                        cb.call(known.meanErrors().medianRelativeError(), ref(row), stateLabel(state));
                    }
                }))).register(registry);
        GaugeWithCallback.builder().name("latency_server_drift_alarms")
            .help("times the probe stream showed a served estimate had stopped holding (CUSUM), per connection")
            .labelNames("index_ref")
            .callback(cb -> table.rows().forEach(row -> cb.call(row.learning().byState().values().stream()
                .mapToLong(org.latencyserver.core.calibration.StateKnowledge::driftAlarms).sum(), ref(row)))).register(registry);
    }

    /**
     * @param learnedCells what probes taught about profile cells, and the profiles, for the drift gauge
     */
    public void registerProfileDrift(final java.util.function.Supplier<java.util.Map<String, java.util.Map<
        org.latencyserver.core.calibration.LearnedProfiles.CellKey, org.latencyserver.core.calibration.LearnedCell>>> learnedCells,
                                     final java.util.function.Supplier<java.util.Map<String, org.latencyserver.core.profile.Profile>> profiles) {
        GaugeWithCallback.builder().name("latency_server_profile_cell_drifting")
            .help("1 when live probes disagree significantly with a profile cell (two-sample Kolmogorov-Smirnov, 1 % level)")
            .labelNames("profile", "cell").callback(cb -> learnedCells.get().forEach((name, cells) -> {
                final org.latencyserver.core.profile.Profile profile = profiles.get().get(name);
                if (profile != null) {
                    cells.forEach((key, live) -> profile.cell(key.cpuStates(), key.messageSizeBytes()).ifPresent(cell ->
                        cb.call(live.compareWith(cell).drifting() ? 1 : 0, name, cell.label())));
                }
            })).register(registry);
    }

    /**
     * @param probeRoundTrips probe round trips accepted and tested since start
     */
    public void registerProbes(final LongSupplier probeRoundTrips) {
        CounterWithCallback.builder().name("latency_server_probe_round_trips_total")
            .help("probe round trips reported by client agents and tested against the served estimates")
            .callback(cb -> cb.call(probeRoundTrips.getAsLong())).register(registry);
    }

    /**
     * Adds the saved state's counters: how often the journal and the state file are written for
     * how many changes, and how much ({@code file="journal"}, {@code file="state_file"}).
     *
     * @param changes        changes the state store was told of since start
     * @param journalAppends appends to the journal since start
     * @param journalBytes   bytes appended to the journal since start
     * @param stateFiles     state files written since start
     * @param stateFileBytes bytes of state files written since start
     */
    public void registerStateStore(final LongSupplier changes, final LongSupplier journalAppends, final LongSupplier journalBytes,
                                   final LongSupplier stateFiles, final LongSupplier stateFileBytes) {
        CounterWithCallback.builder().name("latency_server_state_changes_total")
            .help("changes of the connection table, each of which marks its connection for saving")
            .callback(cb -> cb.call(changes.getAsLong())).register(registry);
        CounterWithCallback.builder().name("latency_server_state_saves_total")
            .help("writes of the saved state: appends to the journal (one write for any number of changed connections) and"
                + " whole state files (forced to disk)").labelNames("file")
            .callback(cb -> {
                cb.call(journalAppends.getAsLong(), "journal");
                cb.call(stateFiles.getAsLong(), "state_file");
            }).register(registry);
        CounterWithCallback.builder().name("latency_server_state_saved_bytes_total")
            .help("bytes of the saved state written: appended to the journal, and of whole state files").labelNames("file")
            .callback(cb -> {
                cb.call(journalBytes.getAsLong(), "journal");
                cb.call(stateFileBytes.getAsLong(), "state_file");
            }).register(registry);
    }

    private static String stateLabel(final org.latencyserver.core.state.ConnectionLoadState state) {
        return state.cpu() + " " + state.port();
    }

    private static String ref(final ConnectionRow row) {
        return Short.toString(row.spec().indexRef());
    }

    /** Counts a write answered before the journal held it (see the servant). */
    public void unsavedWrite() {
        unsavedWrites.inc();
    }

    /** Counts one {@code RequestStatus}; lock-free, allocation-free. */
    public void requestStatusCalled() {
        requestStatusCalls.inc();
    }

    /** @param operation an operation name; counts one call */
    public void called(final String operation) {
        calls.labelValues(operation).inc();
    }

    /**
     * Counts one refusal.
     *
     * @param operation an operation name
     * @param reason    a bounded reason label
     */
    public void refused(final String operation, final String reason) {
        refusals.labelValues(operation, reason).inc();
    }

    /**
     * Adds the log's repeated-warning counters: JacORB's "thread pool exhausted" (a request refused
     * for want of a POA thread) and every warning held back as a repeat.
     *
     * @param poolExhausted read at scrape time
     * @param suppressed    read at scrape time
     */
    public void registerLogFilter(final LongSupplier poolExhausted, final LongSupplier suppressed) {
        CounterWithCallback.builder().name("latency_server_orb_thread_pool_exhausted_total")
            .help("requests JacORB's POA could not give a thread at once (its 'Thread pool exhausted' warning, counted, not logged)")
            .callback(cb -> cb.call(poolExhausted.getAsLong())).register(registry);
        CounterWithCallback.builder().name("latency_server_log_warnings_suppressed_total")
            .help("warnings and errors not written because the same kind was logged within the last 10 s")
            .callback(cb -> cb.call(suppressed.getAsLong())).register(registry);
    }

    /**
     * Adds the SNMP poller's counters: requests sent, answers received, and polls skipped because
     * an agent had not answered the previous one (a slow or dead agent shows here first).
     *
     * @param requests answers and skipped read at scrape time from the poller's lock-free counters
     */
    public void registerSnmpPoller(final LongSupplier requests, final LongSupplier answers, final LongSupplier skipped) {
        CounterWithCallback.builder().name("latency_server_snmp_requests_total").help("SNMP GET requests sent by the poller")
            .callback(cb -> cb.call(requests.getAsLong())).register(registry);
        CounterWithCallback.builder().name("latency_server_snmp_answers_total").help("SNMP answers received by the poller")
            .callback(cb -> cb.call(answers.getAsLong())).register(registry);
        CounterWithCallback.builder().name("latency_server_snmp_polls_skipped_total")
            .help("polls skipped because the agent had not yet answered the previous one")
            .callback(cb -> cb.call(skipped.getAsLong())).register(registry);
    }

    /**
     * @param host address to listen on
     * @param port port; 0 for any free port
     * @return the port listened on
     * @throws IOException when the port cannot be bound
     */
    public int serve(final String host, final int port) throws IOException {
        server = HTTPServer.builder().hostname(host).port(port).registry(registry).buildAndStart();
        return server.getPort();
    }

    @Override
    public void close() {
        if (server != null) {
            server.close();
        }
    }
}
