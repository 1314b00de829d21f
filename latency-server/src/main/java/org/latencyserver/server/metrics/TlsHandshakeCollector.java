package org.latencyserver.server.metrics;

import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import org.latencyserver.server.security.HandshakeFailure;
import org.latencyserver.server.security.TlsHandshakeFailures;

/**
 * {@code latency_server_tls_handshake_failures_total{reason}}: TLS callers whose certificate the
 * server refused at the handshake, a series per {@link HandshakeFailure} (0 until one happens).
 * Thread-safe: reads {@link TlsHandshakeFailures}' counters.
 */
final class TlsHandshakeCollector implements MultiCollector {

    @Override
    public MetricSnapshots collect() {
        final CounterFamily failures = new CounterFamily("latency_server_tls_handshake_failures_total",
            "TLS callers refused at the handshake for their certificate, by reason", "reason");
        for (final HandshakeFailure reason : HandshakeFailure.values()) {
            failures.add(TlsHandshakeFailures.count(reason), reason.label());
        }
        return MetricSnapshots.of(failures.build());
    }
}
