package org.latencyserver.server.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.latencyserver.server.security.HandshakeFailure;
import org.latencyserver.server.security.TlsHandshakeFailures;
import org.latencyserver.testkit.MetricsText;

class TlsHandshakeCollectorTest {

    @Test
    void everyReasonIsASeriesOfTheCounterWithTheProcessCount() {
        final MetricsText page = CollectorScrape.of(new TlsHandshakeCollector());
        assertEquals("counter", page.types().get("latency_server_tls_handshake_failures_total"));
        for (final HandshakeFailure reason : HandshakeFailure.values()) {
            final double shown = page.value("latency_server_tls_handshake_failures_total", "reason", reason.label())
                .orElseThrow(() -> new AssertionError("no series for " + reason.label()));
            assertEquals(TlsHandshakeFailures.count(reason), shown, 0.0, reason.label() + ": the process's count");
        }
    }
}
