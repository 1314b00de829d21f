package org.latencyserver.server.metrics;

import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.util.List;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.latencyserver.server.table.ConnectionRow;

/**
 * The connection table's metrics: the open measurement requests in total and, unless turned off,
 * the per-connection gauges — estimates ({@link EstimateSeries}), load states and requests
 * ({@link LoadStateSeries}), calibration ({@link CalibrationSeries}).
 *
 * <p>Each scrape takes ONE snapshot of the published rows and builds every family from it, so
 * all series of a scrape describe the same rows. Each family is one pass over that in-memory
 * snapshot, so its series lie together in memory when the page is written (interleaving the
 * families in a single pass made writing the page slower). Thread-safe: a scrape touches only
 * the immutable rows and families of its own.
 */
final class ConnectionsCollector implements MultiCollector {

    private final Supplier<List<ConnectionRow>> publishedRows;
    private final LongSupplier nanoClock;
    private final boolean perConnection;

    /**
     * @param publishedRows a snapshot of the published rows, taken once per scrape
     * @param nanoClock     the update engine's monotonic clock, ns, for the age of open measurement requests
     * @param perConnection whether to serve the series per connection; false leaves the totals
     */
    ConnectionsCollector(final Supplier<List<ConnectionRow>> publishedRows, final LongSupplier nanoClock,
                         final boolean perConnection) {
        this.publishedRows = publishedRows;
        this.nanoClock = nanoClock;
        this.perConnection = perConnection;
    }

    @Override
    public MetricSnapshots collect() {
        final List<ConnectionRow> rows = publishedRows.get();
        final MetricSnapshots.Builder page = MetricSnapshots.builder();
        final GaugeFamily pending = new GaugeFamily("latency_server_pending_measurements", null, "measurement requests open now");
        pending.add(rows.stream().filter(row -> row.pending() != null).count());
        page.metricSnapshot(pending.build());
        if (perConnection) {
            addPerConnection(rows, page);
        }
        return page.build();
    }

    private void addPerConnection(final List<ConnectionRow> rows, final MetricSnapshots.Builder page) {
        final ScrapedRows scraped = new ScrapedRows(rows);
        EstimateSeries.addTo(scraped, page);
        LoadStateSeries.addTo(scraped, nanoClock.getAsLong(), page);
        CalibrationSeries.addTo(scraped, page);
    }
}
