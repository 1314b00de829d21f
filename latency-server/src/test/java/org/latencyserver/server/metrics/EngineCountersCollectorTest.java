package org.latencyserver.server.metrics;

import org.latencyserver.server.engine.ProbeShapes;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencyserver.core.histogram.LatencyHistogram;
import org.latencyserver.server.engine.EngineCounters;
import org.latencyserver.testkit.MetricsText;

class EngineCountersCollectorTest {

    @TempDir
    Path directory;

    @Test
    void theLoopsCountersAreTheEnginesProbeRoundTripsAndItsCommandErrors() throws Exception {
        final MetricsEngineFixture fixture = MetricsEngineFixture.in(directory);
        fixture.push(1, 50, 50, 10, 1_000_000_000L);
        fixture.engine.submitProbe((short) 1, "ws1", LatencyHistogram.of(new long[] {2_000_000, 4_000_000}, new long[] {7, 2}, 1),
            2.5, 10, ProbeShapes.CLASSIC, 2_000_000_000L);
        final MetricsText page = CollectorScrape.of(new EngineCountersCollector(fixture.loop::counters));
        assertEquals(10, page.get("latency_server_probe_round_trips_total"));
        assertEquals(0, page.get("latency_server_update_errors_total"));
    }

    @Test
    void eachCounterIsItsFieldOfOneSnapshotPerScrape() {
        final AtomicInteger reads = new AtomicInteger();
        final MetricsText page = CollectorScrape.of(new EngineCountersCollector(() -> {
            reads.incrementAndGet();
            return new EngineCounters(1, 2, 3, 4, 5, 6);
        }));
        assertEquals(1, reads.get());
        assertEquals(1, page.get("latency_server_update_errors_total"));
        assertEquals(2, page.get("latency_server_probe_round_trips_total"));
        assertEquals(3, page.get("latency_server_polled_readings_within_jitter_total"));
        assertEquals(4, page.get("latency_server_measurements_taken_back_total"));
        assertEquals(5, page.get("latency_server_measurements_pooled_in_band_total"));
        assertEquals(6, page.get("latency_server_shape_trains_taken_back_total"));
        assertEquals("counter", page.types().get("latency_server_update_errors_total"), page.types()::toString);
        assertEquals(6, page.types().size(), page::toString);
    }
}
