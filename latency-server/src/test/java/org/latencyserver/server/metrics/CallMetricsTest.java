package org.latencyserver.server.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.junit.jupiter.api.Test;
import org.latencyserver.server.engine.Refusal;
import org.latencyserver.testkit.MetricsText;

class CallMetricsTest {

    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final CallMetrics calls = new CallMetrics(registry);

    @Test
    void callsRefusalsAndUnsavedWritesAreCountedUnderTheirLabels() {
        calls.called(Operation.PUT_MIB_UPDATES);
        calls.called(Operation.PUT_MIB_UPDATES);
        calls.refused(Operation.PUT_MIB_UPDATES, Refusal.Kind.UNKNOWN_CONNECTION);
        calls.unsavedWrite();
        final MetricsText page = CollectorScrape.of(registry);
        assertEquals(2, page.get("latency_server_calls_total", "operation", "PutMibUpdates"));
        assertEquals(1, page.get("latency_server_refusals_total", "operation", "PutMibUpdates",
            "reason", Refusal.Kind.UNKNOWN_CONNECTION.metricLabel()));
        assertEquals(1, page.get("latency_server_unsaved_writes_total"));
    }

    @Test
    void aRequestStatusIsCountedUnderItsOperationAndTimedInSeconds() {
        calls.requestStatusCalled();
        calls.requestStatusAnswered(3_000_000);
        calls.requestStatusCalled();
        calls.requestStatusAnswered(1_000_000);
        final MetricsText page = CollectorScrape.of(registry);
        assertEquals(2, page.get("latency_server_calls_total", "operation", "RequestStatus"));
        assertEquals(2, page.get("latency_server_request_status_seconds_count"));
        assertEquals(4e-3, page.get("latency_server_request_status_seconds_sum"), 1e-12);
    }
}
