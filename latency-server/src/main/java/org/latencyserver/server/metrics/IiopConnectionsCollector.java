package org.latencyserver.server.metrics;

import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import org.latencyserver.server.transport.IiopConnections;

/**
 * The server's plain IIOP connections: {@code latency_server_iiop_connections_accepted_total},
 * {@code latency_server_iiop_connections_open} and {@code latency_server_giop_messages_refused_total}
 * (messages whose declared size was over {@code limits.max_giop_message_bytes}; each closed its
 * connection). Thread-safe: reads {@link IiopConnections}' counters.
 */
final class IiopConnectionsCollector implements MultiCollector {

    @Override
    public MetricSnapshots collect() {
        final GaugeFamily open = new GaugeFamily("latency_server_iiop_connections_open", null,
            "plain IIOP connections open now");
        open.add(IiopConnections.openCount());
        return MetricSnapshots.of(
            CounterFamily.single("latency_server_iiop_connections_accepted_total", "plain IIOP connections accepted",
                IiopConnections.acceptedCount()),
            open.build(),
            CounterFamily.single("latency_server_giop_messages_refused_total",
                "GIOP messages refused unread for declaring more than limits.max_giop_message_bytes (their connection closed)",
                IiopConnections.oversizedCount()));
    }
}
