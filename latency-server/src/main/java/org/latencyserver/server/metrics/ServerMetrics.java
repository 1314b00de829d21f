package org.latencyserver.server.metrics;

import io.prometheus.metrics.core.datapoints.CounterDataPoint;
import io.prometheus.metrics.core.datapoints.DistributionDataPoint;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.Unit;
import java.io.IOException;
import java.util.Arrays;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;
import org.latencyserver.core.calibration.StateKnowledge;
import org.latencyserver.core.estimate.EstimateKind;
import org.latencyserver.core.histogram.LatencyHistogram;
import org.latencyserver.server.engine.EngineQuery;
import org.latencyserver.server.engine.Refusal;
import org.latencyserver.server.persistence.StateSaveCounters;
import org.latencyserver.server.table.ConnectionRow;
import org.latencyserver.server.table.ConnectionTable;
import org.latencyserver.server.table.StaleInputs;

/**
 * The server's metrics, served on loopback in Prometheus conventions: base units (seconds, ratios
 * 0–1), counters ending in {@code _total}. Per connection the estimate, its interval, load state,
 * pending and stale flags and calibration are read from the published rows at scrape time, so
 * nothing is duplicated or kept in step; call, refusal and update-error counts; and two
 * histograms, native (schema-based, exposed in the protobuf format a scraper asks for with
 * {@code Accept: application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited})
 * with classic buckets in the text format: every round trip a result or probe carries, and the
 * time the servant spends answering {@code RequestStatus}. The operator guide's "Metrics" table
 * lists them all (a test holds the two in step).
 *
 * <p>Thread-safe: counters and histograms are lock-free adders; the gauges read immutable
 * published rows. Counting and timing a {@code RequestStatus} allocates nothing (see
 * {@link DurationHistogram}).
 */
public final class ServerMetrics implements AutoCloseable {

    /**
     * Classic buckets of {@code latency_server_round_trip_seconds}: loopback round trips take
     * 20–200 µs, a LAN's a few hundred µs, loaded workstations' and ports' tens of ms (the
     * thesis's histograms span 0–100 ms); 50 µs … 1 s in 1-2.5-5 steps covers all of them with a
     * bucket per factor of 2–2.5 and leaves the rest to the native buckets.
     */
    static final double[] ROUND_TRIP_BUCKETS = {50e-6, 100e-6, 250e-6, 500e-6, 1e-3, 2.5e-3, 5e-3, 10e-3, 25e-3, 50e-3,
        100e-3, 250e-3, 500e-3, 1.0};
    /**
     * Native schema of the round-trip histogram: buckets grow by 2^(1/8) (±4.5 %), and bucket
     * indexes stay within the JDK's cached {@code Integer}s for values from 15 µs up (client_java
     * boxes them).
     */
    static final int ROUND_TRIP_SCHEMA = 3;
    /**
     * Round trips observed exactly per report; a report carrying more (an agent may send any
     * count) is observed scaled down to about this many, keeping its shape, so one report cannot
     * hold its caller's thread for long (about 30 ms at most).
     */
    static final long MAX_OBSERVED_ROUND_TRIPS_PER_REPORT = 1_000_000;

    /** Connections served as a bound (the calibration coverage gauges); the others serve an average. */
    private static final Predicate<ConnectionRow> BOUND = row -> row.spec().isBound();

    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final Counter calls;
    private final Counter refusals;
    private final Counter unsavedWrites;
    private final Histogram roundTrips;
    /** Pre-resolved: {@code RequestStatus} is the hot path, so no label lookup per call. */
    private final CounterDataPoint requestStatusCalls;
    /** Allocation-free, unlike client_java's Histogram (see there). */
    private final DurationHistogram requestStatusSeconds;
    private final DurationHistogram snmpAnswerToUpdateSeconds;
    private HTTPServer server;

    /**
     * @param table        the connection table
     * @param updateErrors count of failed update commands
     */
    public ServerMetrics(final ConnectionTable table, final LongSupplier updateErrors) {
        this(table, updateErrors, System::nanoTime);
    }

    /**
     * @param table        the connection table
     * @param updateErrors count of failed update commands
     * @param nanoClock    the update engine's monotonic clock, for the age of open measurement requests
     */
    public ServerMetrics(final ConnectionTable table, final LongSupplier updateErrors, final LongSupplier nanoClock) {
        this(table, updateErrors, nanoClock, true);
    }

    /**
     * @param table         the connection table
     * @param updateErrors  count of failed update commands
     * @param nanoClock     the update engine's monotonic clock, for the age of open measurement requests
     * @param perConnection whether to serve the gauges with a series per connection (estimates, load
     *                      states, calibration: about 590 bytes of page per connection, 14.7 MB and
     *                      1.7 s of a core to build at 25,000 connections, every scrape); false
     *                      leaves the totals ({@code latency_server_pending_measurements} …)
     */
    public ServerMetrics(final ConnectionTable table, final LongSupplier updateErrors, final LongSupplier nanoClock,
                         final boolean perConnection) {
        calls = Counter.builder().name("latency_server_calls_total").help("CORBA calls served, by operation")
            .labelNames("operation").register(registry);
        refusals = Counter.builder().name("latency_server_refusals_total")
            .help("calls refused, by operation and reason (" + Arrays.stream(Refusal.Kind.values()).map(Refusal.Kind::metricLabel)
                .collect(Collectors.joining(", ")) + ")")
            .labelNames("operation", "reason").register(registry);
        requestStatusCalls = calls.labelValues(Operation.REQUEST_STATUS.label());
        unsavedWrites = Counter.builder().name("latency_server_unsaved_writes_total")
            .help("writes answered before the state journal held them (append failed or slow); kill -9 could lose them")
            .register(registry);
        roundTrips = Histogram.builder().name("latency_server_round_trip_seconds").unit(Unit.SECONDS)
            .help("round trips measured by the agents: every one a measured result or probe report carries, at its bin's"
                + " midpoint (above the last bin: at the last edge)")
            .labelNames("index_ref").classicUpperBounds(ROUND_TRIP_BUCKETS).nativeInitialSchema(ROUND_TRIP_SCHEMA)
            .withoutExemplars().register(registry);
        requestStatusSeconds = new DurationHistogram("latency_server_request_status_seconds",
            "time the server spends answering RequestStatus (the published row read and the reply built; the ORB's share of"
                + " the call is not included)");
        registry.register(requestStatusSeconds);
        snmpAnswerToUpdateSeconds = new DurationHistogram("latency_server_snmp_answer_to_update_seconds",
            "time from an SNMP answer that changed a connection's polled values to the update thread applying them (its"
                + " estimate is published right after): what the server adds to a polled state change");
        registry.register(snmpAnswerToUpdateSeconds);
        CounterWithCallback.builder().name("latency_server_update_errors_total")
            .help("update commands that failed; the table kept its last good state")
            .callback(cb -> cb.call(updateErrors.getAsLong())).register(registry);
        GaugeWithCallback.builder().name("latency_server_pending_measurements")
            .help("measurement requests open now").callback(cb -> cb.call(
                table.rows().stream().filter(row -> row.pending() != null).count())).register(registry);
        if (perConnection) {
            registerEstimates(table);
            registerConnectionStates(table, nanoClock);
            registerCalibration(table);
        }
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
                    if (row.estimate() != null) {
                        for (final StaleInputs.Input input : row.staleInputs().inputs()) {
                            cb.call(1, ref(row), input.metricLabel());
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
     * @param drifts every learned profile cell tested against its profile's cell, read at scrape time
     */
    public void registerProfileDrift(final java.util.function.Supplier<java.util.List<EngineQuery.CellDrift>> drifts) {
        GaugeWithCallback.builder().name("latency_server_profile_cell_drifting")
            .help("1 when live probes disagree significantly with a profile cell (two-sample Kolmogorov-Smirnov, 1 % level)")
            .labelNames("profile", "cell").callback(cb -> drifts.get().forEach(drift ->
                cb.call(drift.verdict().drifting() ? 1 : 0, drift.profileName(), drift.cell().label()))).register(registry);
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
     * @param polledJitterKept polled readings not published as tick-counter noise since start
     */
    public void registerPolledJitter(final LongSupplier polledJitterKept) {
        CounterWithCallback.builder().name("latency_server_polled_readings_within_jitter_total")
            .help("polled connection readings that moved by at most a point per end within their load state and were not"
                + " published (tick-counter noise; the row keeps its previous values)")
            .callback(cb -> cb.call(polledJitterKept.getAsLong())).register(registry);
    }

    /**
     * @param resultsTakenBack measurement results taken back from a load state that changed within the settle window
     */
    public void registerResultsTakenBack(final LongSupplier resultsTakenBack) {
        CounterWithCallback.builder().name("latency_server_measurements_taken_back_total")
            .help("measurement results taken back from the load state they were filed under, because that state changed"
                + " within measurement.settle_millis after them (SNMP counters lag the load)")
            .callback(cb -> cb.call(resultsTakenBack.getAsLong())).register(registry);
    }

    /**
     * @param resultsPooled measurement results pooled with their port state's probes because the CPU states moved while they ran
     */
    public void registerResultsPooledInBand(final LongSupplier resultsPooled) {
        CounterWithCallback.builder().name("latency_server_measurements_pooled_in_band_total")
            .help("measurement results filed under no load state because the CPU states moved while they ran on a loaded"
                + " port: their round trips joined the port state's probes")
            .callback(cb -> cb.call(resultsPooled.getAsLong())).register(registry);
    }

    /**
     * Adds the saved state's counters: how often the journal and the state file are written for
     * how many changes, and how much ({@code file="journal"}, {@code file="state_file"}).
     *
     * @param counters the state store's counters since start, read at each scrape
     */
    public void registerStateStore(final Supplier<StateSaveCounters> counters) {
        CounterWithCallback.builder().name("latency_server_state_changes_total")
            .help("changes of the connection table, each of which marks its connection for saving")
            .callback(cb -> cb.call(counters.get().changesSeen())).register(registry);
        CounterWithCallback.builder().name("latency_server_state_saves_total")
            .help("writes of the saved state: appends to the journal (one write for any number of changed connections) and"
                + " whole state files (forced to disk)").labelNames("file")
            .callback(cb -> {
                final StateSaveCounters now = counters.get();
                cb.call(now.journalAppends(), "journal");
                cb.call(now.stateFiles(), "state_file");
            }).register(registry);
        CounterWithCallback.builder().name("latency_server_state_saved_bytes_total")
            .help("bytes of the saved state written: appended to the journal, and of whole state files").labelNames("file")
            .callback(cb -> {
                final StateSaveCounters now = counters.get();
                cb.call(now.journalBytes(), "journal");
                cb.call(now.stateFileBytes(), "state_file");
            }).register(registry);
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

    /** Counts a write answered before the journal held it (see the servant). */
    public void unsavedWrite() {
        unsavedWrites.inc();
    }

    /** Counts one {@code RequestStatus}; lock-free, allocation-free. */
    public void requestStatusCalled() {
        requestStatusCalls.inc();
    }

    /**
     * Observes how long answering one {@code RequestStatus} took; lock-free and allocation-free
     * (but while a scrape collects the histogram, when client_java buffers the observation).
     *
     * @param nanos {@code System.nanoTime()} at the end minus at the start
     */
    public void requestStatusAnswered(final long nanos) {
        requestStatusSeconds.observe(nanos * 1e-9);
    }

    /**
     * Observes how long polled values took from their SNMP answer to the update thread; lock-free and
     * allocation-free.
     *
     * @param nanos monotonic time applied minus time answered
     */
    public void snmpAnswerApplied(final long nanos) {
        snmpAnswerToUpdateSeconds.observe(nanos * 1e-9);
    }

    /**
     * Observes every round trip of an accepted measured result or probe report, each at its bin's
     * midpoint, those above the last bin at the last edge (they have no value; this is a lower
     * bound). client_java 1.3.1 has no bulk observation, so each is observed once; a report of
     * more than {@link #MAX_OBSERVED_ROUND_TRIPS_PER_REPORT} is scaled down to about that many.
     *
     * @param indexRef   the connection
     * @param histogram  the round trips
     */
    public void roundTrips(final short indexRef, final LatencyHistogram histogram) {
        final long total = histogram.totalCount();
        if (total == 0) {
            return;
        }
        final DistributionDataPoint point = roundTrips.labelValues(Short.toString(indexRef));
        final double scale = total > MAX_OBSERVED_ROUND_TRIPS_PER_REPORT ? (double) MAX_OBSERVED_ROUND_TRIPS_PER_REPORT / total : 1;
        for (int bin = 0; bin < histogram.binCount(); bin++) {
            final double seconds = (histogram.lowerEdgeNanos(bin) + histogram.upperEdgeNanos(bin)) * 0.5e-9;
            observe(point, seconds, histogram.count(bin), scale);
        }
        observe(point, histogram.lastEdgeNanos() * 1e-9, histogram.overflowCount(), scale);
    }

    private static void observe(final DistributionDataPoint point, final double seconds, final long count, final double scale) {
        final long times = scale == 1 ? count : Math.round(count * scale);
        for (long i = 0; i < times; i++) {
            point.observe(seconds);
        }
    }

    /**
     * Counts one call ({@code RequestStatus} has its own allocation-free {@link #requestStatusCalled}).
     *
     * @param operation the operation called
     */
    public void called(final Operation operation) {
        calls.labelValues(operation.label()).inc();
    }

    /**
     * Counts one refusal.
     *
     * @param operation the operation refused
     * @param kind      why: its {@link Refusal.Kind#metricLabel()} is the {@code reason} label
     */
    public void refused(final Operation operation, final Refusal.Kind kind) {
        refusals.labelValues(operation.label(), kind.metricLabel()).inc();
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
        registerSnmpPoller(requests, answers, skipped, java.util.Map::of);
    }

    /**
     * As {@link #registerSnmpPoller(LongSupplier, LongSupplier, LongSupplier)}, with each polled
     * source's health.
     *
     * @param requests  SNMP requests sent
     * @param answers   SNMP answers received
     * @param skipped   polls skipped
     * @param sourcesUp per polled node or link name: true while it answers, false while UNKNOWN
     */
    public void registerSnmpPoller(final LongSupplier requests, final LongSupplier answers, final LongSupplier skipped,
                                   final java.util.function.Supplier<java.util.Map<String, Boolean>> sourcesUp) {
        GaugeWithCallback.builder().name("latency_server_snmp_source_up")
            .help("1 while a polled SNMP source (node or link) answers, 0 while it is UNKNOWN (missed polls)")
            .labelNames("source").callback(cb -> sourcesUp.get().forEach((source, up) -> cb.call(up ? 1 : 0, source)))
            .register(registry);
        CounterWithCallback.builder().name("latency_server_snmp_requests_total").help("SNMP GET requests sent by the poller")
            .callback(cb -> cb.call(requests.getAsLong())).register(registry);
        CounterWithCallback.builder().name("latency_server_snmp_answers_total").help("SNMP answers received by the poller")
            .callback(cb -> cb.call(answers.getAsLong())).register(registry);
        CounterWithCallback.builder().name("latency_server_snmp_polls_skipped_total")
            .help("polls skipped because the agent had not yet answered the previous one")
            .callback(cb -> cb.call(skipped.getAsLong())).register(registry);
    }

    /**
     * @param refreshSeconds per polled node or link name, its agent's counter refresh period as the polls saw it, s
     */
    public void registerCounterRefresh(final java.util.function.Supplier<java.util.Map<String, Double>> refreshSeconds) {
        GaugeWithCallback.builder().name("latency_server_snmp_counter_refresh_seconds")
            .help("how often a polled SNMP source's agent refreshes the counters it is read from (the median interval"
                + " between polls that saw them change); a load change shows up to this late")
            .unit(Unit.SECONDS).labelNames("source")
            .callback(cb -> refreshSeconds.get().forEach((source, seconds) -> cb.call(seconds, source))).register(registry);
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
