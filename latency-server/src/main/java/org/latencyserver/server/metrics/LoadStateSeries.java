package org.latencyserver.server.metrics;

import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.Unit;
import java.util.List;
import java.util.function.ToDoubleFunction;
import org.latencyserver.server.table.ConnectionRow;

/**
 * The load states' and measurement requests' gauges, a series per connection: the CPU and port
 * state codes (and each hop's of a path of several ports), the update-required flag, and the age of an open request (s). Each family is built
 * in its own pass over the scrape's one snapshot.
 *
 * <p>Stateless; thread-safe.
 */
final class LoadStateSeries {

    private LoadStateSeries() {
    }

    /**
     * @param rows     the scrape's snapshot
     * @param nowNanos the update engine's monotonic clock at this scrape, ns
     * @param page     the scrape's families, to which these are added
     */
    static void addTo(final ScrapedRows rows, final long nowNanos, final MetricSnapshots.Builder page) {
        page.metricSnapshot(everyRow(rows, new GaugeFamily("latency_server_cpu_state", null,
            "CPU state code: 10 * client + peer, 1 LOW, 2 MEDIUM, 3 HIGH; 0 unknown", "index_ref"), row -> row.load().cpu().code()));
        page.metricSnapshot(everyRow(rows, new GaugeFamily("latency_server_port_state", null,
            "port state code: 0 NORMAL, 91..100 LOADED at that percent, 101 SATURATED, -1 unknown", "index_ref"),
            row -> row.load().port().code()));
        final GaugeFamily hops = new GaugeFamily("latency_server_hop_port_state", null,
            "each switch port's state code on a path of several (0 NORMAL, 91..100 LOADED, 101 SATURATED, -1 unknown);"
                + " latency_server_port_state is the worst hop; no series for a connection with one link",
            "index_ref", "hop", "link");
        for (int slot = 0; slot < rows.size(); slot++) {
            final ConnectionRow row = rows.row(slot);
            final List<String> links = row.spec().linkNames();
            if (links.size() > 1) {
                final boolean known = row.load().hops().size() == links.size();
                for (int hop = 0; hop < links.size(); hop++) {
                    hops.add(known ? row.load().hops().get(hop).code() : -1, rows.ref(slot), Integer.toString(hop + 1), links.get(hop));
                }
            }
        }
        page.metricSnapshot(hops.build());
        page.metricSnapshot(everyRow(rows, new GaugeFamily("latency_server_update_required", null,
            "1 while a measurement is awaited (QoS 3, 4)", "index_ref"), row -> row.updateRequired() ? 1 : 0));
        final GaugeFamily pendingAge = new GaugeFamily("latency_server_measurement_pending_age_seconds", Unit.SECONDS,
            "age of the open measurement request (QoS 3, 4); no series while none is open", "index_ref");
        for (int slot = 0; slot < rows.size(); slot++) {
            final ConnectionRow row = rows.row(slot);
            if (row.pending() != null) {
                pendingAge.add(Math.max(0, nowNanos - row.pending().issuedNanos()) / 1e9, rows.byRef(slot));
            }
        }
        page.metricSnapshot(pendingAge.build());
    }

    /** @return {@code family} with a series per row: {@code value} of it */
    private static GaugeSnapshot everyRow(final ScrapedRows rows, final GaugeFamily family,
                                          final ToDoubleFunction<ConnectionRow> value) {
        for (int slot = 0; slot < rows.size(); slot++) {
            family.add(value.applyAsDouble(rows.row(slot)), rows.byRef(slot));
        }
        return family.build();
    }
}
