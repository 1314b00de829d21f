package org.latencyserver.server.metrics;

import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import org.latencyserver.server.transport.IiopConnections;

/**
 * The server's plain IIOP connections: {@code latency_server_iiop_connections_accepted_total},
 * {@code latency_server_iiop_connections_open} and {@code latency_server_giop_messages_refused_total{reason}}
 * ({@code too_large}: declared more than {@code limits.max_giop_message_bytes}; {@code bad_response_flags}:
 * a request whose response flags JacORB cannot take; each closed its connection, plain or TLS). Thread-safe: reads {@link IiopConnections}' counters.
 */
final class IiopConnectionsCollector implements MultiCollector {

    @Override
    public MetricSnapshots collect() {
        final GaugeFamily open = new GaugeFamily("latency_server_iiop_connections_open", null,
            "plain IIOP connections open now");
        open.add(IiopConnections.openCount());
        final CounterFamily refused = new CounterFamily("latency_server_giop_messages_refused_total",
            "GIOP messages refused before JacORB read them, their connection closed, by reason", "reason");
        refused.add(IiopConnections.oversizedCount(), "too_large");
        refused.add(IiopConnections.badResponseFlagsCount(), "bad_response_flags");
        return MetricSnapshots.of(
            CounterFamily.single("latency_server_iiop_connections_accepted_total", "plain IIOP connections accepted",
                IiopConnections.acceptedCount()),
            open.build(),
            refused.build());
    }
}
