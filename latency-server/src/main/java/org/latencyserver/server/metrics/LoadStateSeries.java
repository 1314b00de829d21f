package org.latencyserver.server.metrics;

import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.Unit;
import java.util.List;
import org.latencyserver.server.table.ConnectionRow;

/**
 * The load states' and measurement requests' gauges of one scrape, a series per connection: the
 * CPU and port state codes, the update-required flag, and the age of an open request (s).
 *
 * <p>Not thread-safe: made, filled and added by one scraping thread.
 */
final class LoadStateSeries {

    private final GaugeFamily cpuState = new GaugeFamily("latency_server_cpu_state", null,
        "CPU state code: 10 * client + peer, 1 LOW, 2 MEDIUM, 3 HIGH; 0 unknown", "index_ref");
    private final GaugeFamily portState = new GaugeFamily("latency_server_port_state", null,
        "port state code: 0 NORMAL, 91..100 LOADED at that percent, 101 SATURATED, -1 unknown", "index_ref");
    private final GaugeFamily updateRequired = new GaugeFamily("latency_server_update_required", null,
        "1 while a measurement is awaited (QoS 3, 4)", "index_ref");
    private final GaugeFamily pendingAge = new GaugeFamily("latency_server_measurement_pending_age_seconds", Unit.SECONDS,
        "age of the open measurement request (QoS 3, 4); no series while none is open", "index_ref");
    private final long nowNanos;

    /** @param nowNanos the update engine's monotonic clock at this scrape, ns */
    LoadStateSeries(final long nowNanos) {
        this.nowNanos = nowNanos;
    }

    /**
     * @param row the connection's row of this scrape's snapshot
     * @param ref its {@code index_ref} label value
     */
    void add(final ConnectionRow row, final String ref) {
        cpuState.add(row.load().cpu().code(), ref);
        portState.add(row.load().port().code(), ref);
        updateRequired.add(row.updateRequired() ? 1 : 0, ref);
        if (row.pending() != null) {
            pendingAge.add(Math.max(0, nowNanos - row.pending().issuedNanos()) / 1e9, ref);
        }
    }

    /** @param page the scrape's families, to which these are added */
    void addTo(final MetricSnapshots.Builder page) {
        for (final GaugeFamily family : List.of(cpuState, portState, updateRequired, pendingAge)) {
            page.metricSnapshot(family.build());
        }
    }
}
