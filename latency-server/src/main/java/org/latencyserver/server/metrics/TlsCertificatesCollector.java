package org.latencyserver.server.metrics;

import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.Unit;
import java.security.cert.X509Certificate;
import java.util.Map;
import java.util.Optional;
import org.latencyserver.server.security.ServerTlsCredentials;
import org.latencyserver.server.security.ServerTlsMaterial;

/**
 * When the server's certificates expire, from the TLS files in force (re-read ones included):
 * <ul>
 *   <li>{@code latency_server_tls_certificate_expiry_timestamp_seconds{role,subject}}: the server's
 *       own certificate ({@code role="own"}) and each authority of its trust store ({@code role="ca"});</li>
 *   <li>{@code latency_server_tls_client_certificate_earliest_expiry_timestamp_seconds{subject}}: of the
 *       client certificates accepted at handshakes since start, the latest per subject, the one that expires
 *       first; no series until a client was accepted.</li>
 * </ul>
 * Values are the certificates' notAfter in seconds since the epoch.
 *
 * <p>Thread-safe: reads the credentials' current reading once per scrape.
 */
final class TlsCertificatesCollector implements MultiCollector {

    private final ServerTlsCredentials credentials;

    /** @param credentials the server's TLS files in force */
    TlsCertificatesCollector(final ServerTlsCredentials credentials) {
        this.credentials = credentials;
    }

    @Override
    public MetricSnapshots collect() {
        final ServerTlsMaterial material = credentials.current();
        final GaugeFamily expiry = new GaugeFamily("latency_server_tls_certificate_expiry_timestamp_seconds", Unit.SECONDS,
            "When a certificate of the server expires (notAfter, seconds since the epoch): its own (role=own) and its"
                + " trust store's authorities (role=ca)", "role", "subject");
        expiry.add(seconds(material.own()), "own", material.own().getSubjectX500Principal().getName());
        for (final X509Certificate authority : material.authorities()) {
            expiry.add(seconds(authority), "ca", authority.getSubjectX500Principal().getName());
        }
        final GaugeFamily clients = new GaugeFamily("latency_server_tls_client_certificate_earliest_expiry_timestamp_seconds",
            Unit.SECONDS, "Of the client certificates accepted since start (the latest per subject), when the first expires"
                + " (notAfter, seconds since the epoch)", "subject");
        final Optional<Map.Entry<String, Long>> earliest = credentials.earliestClientExpiry();
        earliest.ifPresent(entry -> clients.add(entry.getValue() / 1000.0, entry.getKey()));
        return MetricSnapshots.of(expiry.build(), clients.build());
    }

    private static double seconds(final X509Certificate certificate) {
        return certificate.getNotAfter().getTime() / 1000.0;
    }
}
