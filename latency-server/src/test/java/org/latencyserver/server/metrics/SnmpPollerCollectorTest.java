package org.latencyserver.server.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.latencyserver.server.snmp.SnmpPollerCounters;
import org.latencyserver.testkit.MetricsText;

class SnmpPollerCollectorTest {

    @Test
    void theCountersAndEachSourcesHealthAndRefreshComeFromOneSnapshot() {
        final Map<String, Boolean> up = new LinkedHashMap<>();
        up.put("ws1", true);
        up.put("port1", false);
        final AtomicInteger reads = new AtomicInteger();
        final MetricsText page = CollectorScrape.of(new SnmpPollerCollector(() -> {
            reads.incrementAndGet();
            return new SnmpPollerCounters(40, 38, 2, up, Map.of("ws1", 5.0));
        }));
        assertEquals(1, reads.get());
        assertEquals(40, page.get("latency_server_snmp_requests_total"));
        assertEquals(38, page.get("latency_server_snmp_answers_total"));
        assertEquals(2, page.get("latency_server_snmp_polls_skipped_total"));
        assertEquals(1, page.get("latency_server_snmp_source_up", "source", "ws1"));
        assertEquals(0, page.get("latency_server_snmp_source_up", "source", "port1"));
        assertEquals(5.0, page.get("latency_server_snmp_counter_refresh_seconds", "source", "ws1"));
        assertTrue(page.value("latency_server_snmp_counter_refresh_seconds", "source", "port1").isEmpty(), "not yet seen");
        assertEquals("gauge", page.types().get("latency_server_snmp_source_up"));
        assertEquals("counter", page.types().get("latency_server_snmp_requests_total"));
    }
}
