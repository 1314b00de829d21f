package org.latencyserver.server.metrics;

import io.prometheus.metrics.core.datapoints.CounterDataPoint;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.Arrays;
import java.util.stream.Collectors;
import org.latencyserver.server.engine.Refusal;

/**
 * The calls' metrics, counted where they happen: calls by operation, refusals by operation and
 * reason, writes answered before the journal held them, and the time spent answering
 * {@code RequestStatus}.
 *
 * <p>Thread-safe: lock-free adders. Counting and timing a {@code RequestStatus} allocates nothing
 * (its data point is resolved once; see {@link DurationHistogram}).
 */
final class CallMetrics {

    private final Counter calls;
    private final Counter refusals;
    private final Counter unsavedWrites;
    /** Pre-resolved: {@code RequestStatus} is the hot path, so no label lookup per call. */
    private final CounterDataPoint requestStatusCalls;
    /** Allocation-free, unlike client_java's Histogram (see there). */
    private final DurationHistogram requestStatusSeconds;

    /** @param registry where the families are registered */
    CallMetrics(final PrometheusRegistry registry) {
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
        requestStatusSeconds = new DurationHistogram("latency_server_request_status_seconds",
            "time the server spends answering RequestStatus (the published row read and the reply built; the ORB's share of"
                + " the call is not included)");
        registry.register(requestStatusSeconds);
    }

    /** @param operation the operation called (not {@code RequestStatus}, see {@link #requestStatusCalled}) */
    void called(final Operation operation) {
        calls.labelValues(operation.label()).inc();
    }

    /** Counts one {@code RequestStatus}; lock-free, allocation-free. */
    void requestStatusCalled() {
        requestStatusCalls.inc();
    }

    /** @param nanos how long answering one {@code RequestStatus} took; lock-free, allocation-free */
    void requestStatusAnswered(final long nanos) {
        requestStatusSeconds.observe(nanos * 1e-9);
    }

    /**
     * @param operation the operation refused
     * @param kind      why: its {@link Refusal.Kind#metricLabel()} is the {@code reason} label
     */
    void refused(final Operation operation, final Refusal.Kind kind) {
        refusals.labelValues(operation.label(), kind.metricLabel()).inc();
    }

    /** Counts a write answered before the journal held it. */
    void unsavedWrite() {
        unsavedWrites.inc();
    }
}
