package org.latencyserver.server.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.latencyserver.server.persistence.StateSaveCounters;
import org.latencyserver.testkit.MetricsText;

class StateStoreCollectorTest {

    @Test
    void theThreeFamiliesComeFromOneSnapshotUnderTheirFileLabels() {
        final AtomicLong reads = new AtomicLong();
        final StateStoreCollector collector = new StateStoreCollector(() -> {
            final long read = reads.incrementAndGet();
            return new StateSaveCounters(10 * read, 3 * read, 300 * read, 2 * read, 5_000 * read);
        });
        final MetricsText page = CollectorScrape.of(collector);
        assertEquals(1, reads.get());
        assertEquals(10, page.get("latency_server_state_changes_total"));
        assertEquals(3, page.get("latency_server_state_saves_total", "file", "journal"));
        assertEquals(2, page.get("latency_server_state_saves_total", "file", "state_file"));
        assertEquals(300, page.get("latency_server_state_saved_bytes_total", "file", "journal"));
        assertEquals(5_000, page.get("latency_server_state_saved_bytes_total", "file", "state_file"));
        assertEquals(Set.of("file"), page.labelNames("latency_server_state_saves_total"));
        assertEquals("counter", page.types().get("latency_server_state_saved_bytes_total"));
    }
}
