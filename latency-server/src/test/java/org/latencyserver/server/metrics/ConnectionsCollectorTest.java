package org.latencyserver.server.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencyserver.server.table.ConnectionRow;
import org.latencyserver.testkit.MetricsText;

/**
 * The connection table's families: one snapshot of the published rows per scrape, every
 * per-connection series of a scrape from that one snapshot, and the values the rows hold.
 */
class ConnectionsCollectorTest {

    /** Every family with a series per connection. */
    private static final List<String> PER_CONNECTION = List.of("latency_server_estimate_seconds",
        "latency_server_estimate_thesis_seconds", "latency_server_estimate_interval_seconds", "latency_server_estimate_bound_ratio",
        "latency_server_estimate_share_interval_ratio", "latency_server_estimate_stale", "latency_server_estimate_stale_reason",
        "latency_server_cpu_state", "latency_server_port_state", "latency_server_update_required",
        "latency_server_measurement_pending_age_seconds", "latency_server_calibration_coverage_ratio",
        "latency_server_calibration_round_trips", "latency_server_state_coverage_below_nominal",
        "latency_server_calibration_mean_relative_error_ratio",
        "latency_server_drift_alarms");

    @TempDir
    Path directory;
    private MetricsEngineFixture fixture;
    private long nowNanos;

    @BeforeEach
    void drive() throws Exception {
        fixture = MetricsEngineFixture.in(directory);
        nowNanos = 1_000_000_000L;
        fixture.push(1, 50, 50, 10, nowNanos);
        fixture.push(2, 10, 10, 10, nowNanos);
        fixture.push(3, 50, 50, 10, nowNanos);
        for (int second = 0; second < 600 && fixture.row(3).pending() == null; second++) {
            nowNanos += 1_000_000_000L;
            fixture.engine.tick(nowNanos); // the scheduler opens the due request once its budget has room
        }
        fixture.push(1, -1, 50, -1, nowNanos); // stale: the client's CPU and the port stopped answering
    }

    /** A supplier of the published rows that counts how often it is asked. */
    private Supplier<List<ConnectionRow>> counted(final AtomicInteger snapshots) {
        return () -> {
            snapshots.incrementAndGet();
            return fixture.engine.table().rows();
        };
    }

    @Test
    void oneScrapeTakesOneSnapshotOfTheTableForEveryFamily() {
        final AtomicInteger snapshots = new AtomicInteger();
        final MetricsText page = CollectorScrape.of(new ConnectionsCollector(counted(snapshots), () -> nowNanos, true));
        assertEquals(1, snapshots.get(), "one snapshot of the rows per scrape");
        for (final String family : List.of("latency_server_estimate_seconds", "latency_server_cpu_state",
            "latency_server_measurement_pending_age_seconds", "latency_server_drift_alarms", "latency_server_estimate_stale_reason",
            "latency_server_pending_measurements")) {
            assertTrue(page.has(family), family + " in " + page);
        }
        CollectorScrape.of(new ConnectionsCollector(counted(snapshots), () -> nowNanos, false));
        assertEquals(2, snapshots.get(), "and one without the per-connection series");
    }

    /**
     * Each call of the supplier returns a different table (one connection: 1, then 2, then 3, …),
     * as a table being published while a scrape runs would: every series of the scrape must be of
     * the first, the only snapshot taken.
     */
    @Test
    void everyPerConnectionSeriesOfOneScrapeComesFromTheSameSnapshot() {
        final List<ConnectionRow> published = fixture.engine.table().rows();
        final AtomicInteger version = new AtomicInteger();
        final MetricsText page = CollectorScrape.of(new ConnectionsCollector(
            () -> List.of(published.get(version.getAndIncrement() % published.size())), () -> nowNanos, true));
        assertEquals(1, version.get());
        final Set<String> refs = new TreeSet<>();
        for (final String family : PER_CONNECTION) {
            page.samples(family).forEach(sample -> refs.add(sample.labels().get("index_ref")));
        }
        assertEquals(Set.of("1"), refs, page::toString);
        assertEquals(1, page.get("latency_server_estimate_stale", "index_ref", "1"));
        assertTrue(page.has("latency_server_cpu_state", "index_ref", "1"));
    }

    @Test
    void theSeriesAreTheRowsValuesInBaseUnits() {
        final MetricsText page = CollectorScrape.of(new ConnectionsCollector(fixture.engine.table()::rows, () -> nowNanos, true));
        final ConnectionRow average = fixture.row(1);
        final ConnectionRow bound = fixture.row(2);
        assertEquals(average.estimate().valueMillis() / 1e3,
            page.get("latency_server_estimate_seconds", "index_ref", "1", "qos", "1", "kind", "average"), 1e-15);
        assertEquals(average.estimate().interval().upper() / 1e3,
            page.get("latency_server_estimate_interval_seconds", "index_ref", "1", "end", "upper"), 1e-15);
        assertEquals(bound.estimate().boundPercent() / 100, page.get("latency_server_estimate_bound_ratio", "index_ref", "2"), 1e-15);
        assertEquals(bound.estimate().interval().lower(),
            page.get("latency_server_estimate_share_interval_ratio", "index_ref", "2", "end", "lower"), 1e-15);
        assertEquals(average.load().cpu().code(), page.get("latency_server_cpu_state", "index_ref", "1"));
        assertEquals(bound.load().port().code(), page.get("latency_server_port_state", "index_ref", "2"));
        assertEquals(1, page.get("latency_server_estimate_stale_reason", "index_ref", "1", "reason", "client_cpu_unknown"));
        assertEquals(1, page.get("latency_server_estimate_stale_reason", "index_ref", "1", "reason", "port_unknown"));
        assertEquals(2, page.samples("latency_server_estimate_stale_reason").size(), page::toString);
        assertEquals("gauge", page.types().get("latency_server_estimate_seconds"));
    }

    @Test
    void anOpenRequestIsCountedAndAgedOnTheEnginesClock() {
        final ConnectionRow measured = fixture.row(3);
        assertNotNull(measured.pending(), "the tick opened connection 3's request");
        final long scrapeNanos = measured.pending().issuedNanos() + 2_500_000_000L;
        final MetricsText page = CollectorScrape.of(new ConnectionsCollector(fixture.engine.table()::rows, () -> scrapeNanos, true));
        assertEquals(1, page.get("latency_server_pending_measurements"));
        assertEquals(2.5, page.get("latency_server_measurement_pending_age_seconds", "index_ref", "3"), 1e-12);
        assertEquals(1, page.get("latency_server_update_required", "index_ref", "3"));
        assertEquals(0, page.get("latency_server_update_required", "index_ref", "1"));
    }

    @Test
    void withoutPerConnectionSeriesOnlyTheTotalIsServed() {
        final MetricsText page = CollectorScrape.of(new ConnectionsCollector(fixture.engine.table()::rows, () -> nowNanos, false));
        assertEquals(Set.of("latency_server_pending_measurements"), page.types().keySet(), page::toString);
        assertEquals(1, page.get("latency_server_pending_measurements"));
    }
}
