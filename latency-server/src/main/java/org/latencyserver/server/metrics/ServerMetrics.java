package org.latencyserver.server.metrics;

import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.IOException;
import java.util.List;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.latencyserver.core.histogram.LatencyHistogram;
import org.latencyserver.server.engine.EngineCounters;
import org.latencyserver.server.engine.EngineQuery;
import org.latencyserver.server.engine.Refusal;
import org.latencyserver.server.logging.LogWarningCounts;
import org.latencyserver.server.persistence.StateSaveCounters;
import org.latencyserver.server.security.ServerTlsCredentials;
import org.latencyserver.server.snmp.SnmpPollerCounters;
import org.latencyserver.server.table.ConnectionTable;

/**
 * The server's metrics, served on loopback in Prometheus conventions: base units (seconds, ratios
 * 0–1), counters ending in {@code _total}. A facade over one collector per subsystem, registered
 * in one registry: the connection table ({@link ConnectionsCollector}, every per-connection
 * series from one snapshot of the published rows per scrape), the engine's counters, the state
 * store, the SNMP poller, the profiles' drift and the log's repeated warnings (each read once per
 * scrape from a typed snapshot), and what is counted where it happens: calls and refusals
 * ({@link CallMetrics}) and the round-trip and SNMP-answer histograms ({@link RoundTripMetrics}),
 * native (exposed in the protobuf format a scraper asks for with
 * {@code Accept: application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited})
 * with classic buckets in the text format. The operator guide's "Metrics" table lists them all
 * (a test holds the two in step).
 *
 * <p>Thread-safe: counters and histograms are lock-free adders; the collectors read immutable
 * snapshots. Counting and timing a {@code RequestStatus} allocates nothing (see
 * {@link DurationHistogram}).
 */
public final class ServerMetrics implements AutoCloseable {

    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final CallMetrics calls = new CallMetrics(registry);
    private final RoundTripMetrics roundTrips = new RoundTripMetrics(registry);
    private HTTPServer server;

    /**
     * @param table          the connection table
     * @param engineCounters the engine's counters, read once per scrape
     */
    public ServerMetrics(final ConnectionTable table, final Supplier<EngineCounters> engineCounters) {
        this(table, engineCounters, System::nanoTime);
    }

    /**
     * @param table          the connection table
     * @param engineCounters the engine's counters, read once per scrape
     * @param nanoClock      the update engine's monotonic clock, for the age of open measurement requests
     */
    public ServerMetrics(final ConnectionTable table, final Supplier<EngineCounters> engineCounters, final LongSupplier nanoClock) {
        this(table, engineCounters, nanoClock, true);
    }

    /**
     * @param table          the connection table
     * @param engineCounters the engine's counters, read once per scrape
     * @param nanoClock      the update engine's monotonic clock, for the age of open measurement requests
     * @param perConnection  whether to serve the gauges with a series per connection (estimates, load
     *                       states, calibration: about 590 bytes of page per connection, 14.7 MB at
     *                       25,000 connections, every scrape); false leaves the totals
     *                       ({@code latency_server_pending_measurements} …)
     */
    public ServerMetrics(final ConnectionTable table, final Supplier<EngineCounters> engineCounters, final LongSupplier nanoClock,
                         final boolean perConnection) {
        registry.register(new ConnectionsCollector(table::rows, nanoClock, perConnection));
        registry.register(new EngineCountersCollector(engineCounters));
        registry.register(new TlsHandshakeCollector());
        registry.register(new IiopConnectionsCollector());
    }

    /** @param drifts every learned profile cell tested against its profile's cell, read once per scrape */
    public void registerProfileDrift(final Supplier<List<EngineQuery.CellDrift>> drifts) {
        registry.register(new ProfileDriftCollector(drifts));
    }

    /**
     * Adds the saved state's counters: how often the journal and the state file are written for
     * how many changes, and how much ({@code file="journal"}, {@code file="state_file"}).
     *
     * @param counters the state store's counters since start, read once per scrape
     */
    public void registerStateStore(final Supplier<StateSaveCounters> counters) {
        registry.register(new StateStoreCollector(counters));
    }

    /**
     * Adds the SNMP poller's counters (requests, answers, polls skipped) and its sources' health
     * and counter refresh periods.
     *
     * @param counters the poller's counters, read once per scrape
     */
    public void registerSnmpPoller(final Supplier<SnmpPollerCounters> counters) {
        registry.register(new SnmpPollerCollector(counters));
    }

    /**
     * Adds the log's repeated-warning counters: JacORB's "thread pool exhausted" and every
     * warning held back as a repeat.
     *
     * @param counts the repeated-warning filter's counts, read once per scrape
     */
    public void registerLogWarnings(final Supplier<LogWarningCounts> counts) {
        registry.register(new LogWarningsCollector(counts));
    }

    /**
     * Adds the subscribers now, by kind, and those the server dropped on its own, by reason.
     *
     * @param counts the subscriptions' counts, read once per scrape
     */
    public void registerSubscribers(final Supplier<SubscriberCounts> counts) {
        registry.register(new SubscribersCollector(counts));
    }

    /**
     * Adds the name keeper's repairs: one of the server's names found bound to something else in the
     * naming service and bound again.
     *
     * @param repairs the repairs since start (0 without a naming service), read once per scrape
     */
    public void registerNameRepairs(final Supplier<Long> repairs) {
        registry.register(new NameRepairsCollector(repairs));
    }

    /**
     * Adds the expiry of the server's TLS certificates: its own, its authorities', and the earliest of
     * the clients it accepted ({@code latency_server_tls_certificate_expiry_timestamp_seconds},
     * {@code latency_server_tls_client_certificate_earliest_expiry_timestamp_seconds}).
     *
     * @param credentials the TLS files in force, read once per scrape
     */
    public void registerTlsCertificates(final ServerTlsCredentials credentials) {
        registry.register(new TlsCertificatesCollector(credentials));
    }

    /**
     * Adds the hot standby's gauges and counters: role, protection of acknowledged writes, records
     * sent and applied, takeovers ({@code latency_server_standby_*}).
     *
     * @param counters the pair's counters, read once per scrape
     */
    public void registerStandby(final Supplier<org.latencyserver.server.standby.StandbyCounters> counters) {
        registry.register(new StandbyCollector(counters));
    }

    /** Counts a write answered before the journal held it (see the servant). */
    public void unsavedWrite() {
        calls.unsavedWrite();
    }

    /** Counts one {@code RequestStatus}; lock-free, allocation-free. */
    public void requestStatusCalled() {
        calls.requestStatusCalled();
    }

    /**
     * Observes how long answering one {@code RequestStatus} took; lock-free and allocation-free
     * (but while a scrape collects the histogram, when client_java buffers the observation).
     *
     * @param nanos {@code System.nanoTime()} at the end minus at the start
     */
    public void requestStatusAnswered(final long nanos) {
        calls.requestStatusAnswered(nanos);
    }

    /**
     * Observes how long polled values took from their SNMP answer to the update thread; lock-free and
     * allocation-free.
     *
     * @param nanos monotonic time applied minus time answered
     */
    public void snmpAnswerApplied(final long nanos) {
        roundTrips.snmpAnswerApplied(nanos);
    }

    /**
     * Observes every round trip of an accepted measured result or probe report (see
     * {@link RoundTripMetrics#observe}).
     *
     * @param indexRef  the connection
     * @param histogram the round trips
     */
    public void roundTrips(final short indexRef, final LatencyHistogram histogram) {
        roundTrips.observe(indexRef, histogram);
    }

    /**
     * Counts one call ({@code RequestStatus} has its own allocation-free {@link #requestStatusCalled}).
     *
     * @param operation the operation called
     */
    public void called(final Operation operation) {
        calls.called(operation);
    }

    /**
     * Counts one refusal.
     *
     * @param operation the operation refused
     * @param kind      why: its {@link Refusal.Kind#metricLabel()} is the {@code reason} label
     */
    public void refused(final Operation operation, final Refusal.Kind kind) {
        calls.refused(operation, kind);
    }

    /** @return the registry every family is registered in (for tests and benchmarks that scrape without HTTP) */
    public PrometheusRegistry registry() {
        return registry;
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
