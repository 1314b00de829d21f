package org.latencyserver.server.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.latencyserver.server.logging.LogWarningCounts;
import org.latencyserver.testkit.MetricsText;

class LogWarningsCollectorTest {

    @Test
    void bothCountsAreCounters() {
        final MetricsText page = CollectorScrape.of(new LogWarningsCollector(() -> new LogWarningCounts(7, 11)));
        assertEquals(7, page.get("latency_server_orb_thread_pool_exhausted_total"));
        assertEquals(11, page.get("latency_server_log_warnings_suppressed_total"));
        assertEquals("counter", page.types().get("latency_server_log_warnings_suppressed_total"));
    }
}
