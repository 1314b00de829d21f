package org.latencyserver.server.metrics;

import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.Unit;
import java.util.Locale;
import org.latencyserver.core.estimate.Estimate;
import org.latencyserver.core.estimate.EstimateKind;
import org.latencyserver.server.table.ConnectionRow;
import org.latencyserver.server.table.StaleInputs;

/**
 * The served estimates' gauges, a series per connection that serves an estimate: the value (s),
 * the thesis's value behind it, a mean's interval (s), a bound's share and its interval (ratios
 * 0–1), and the stale flag with its reasons. Each family is built in its own pass over the
 * scrape's one snapshot, so its series lie together in memory when the page is written.
 *
 * <p>Stateless; thread-safe.
 */
final class EstimateSeries {

    private EstimateSeries() {
    }

    /**
     * @param rows the scrape's snapshot
     * @param page the scrape's families, to which these are added
     */
    static void addTo(final ScrapedRows rows, final MetricSnapshots.Builder page) {
        page.metricSnapshot(values(rows).build());
        page.metricSnapshot(thesisValues(rows).build());
        page.metricSnapshot(intervals(rows, EstimateKind.AVERAGE, new GaugeFamily("latency_server_estimate_interval_seconds",
            Unit.SECONDS, "95 % confidence interval of a mean (AVERAGE estimates, QoS 1, 3): its lower and upper end", "index_ref", "end"),
            1e3).build());
        page.metricSnapshot(boundShares(rows).build());
        page.metricSnapshot(intervals(rows, EstimateKind.BOUND, new GaugeFamily("latency_server_estimate_share_interval_ratio",
            Unit.RATIO, "95 % confidence interval of the share of latencies at or below a bound (BOUND estimates, QoS 2, 4)",
            "index_ref", "end"), 1).build());
        page.metricSnapshot(staleFlags(rows).build());
        page.metricSnapshot(staleReasons(rows).build());
    }

    private static GaugeFamily values(final ScrapedRows rows) {
        final GaugeFamily family = new GaugeFamily("latency_server_estimate_seconds", Unit.SECONDS,
            "the estimate served: a mean (kind average, QoS 1, 3) or a bound (kind bound, QoS 2, 4)", "index_ref", "qos", "kind");
        for (int slot = 0; slot < rows.size(); slot++) {
            final ConnectionRow row = rows.row(slot);
            final Estimate estimate = row.estimate();
            if (estimate != null) {
                family.add(estimate.valueMillis() / 1e3, rows.ref(slot), Integer.toString(row.spec().qos()),
                    estimate.kind().name().toLowerCase(Locale.ROOT));
            }
        }
        return family;
    }

    private static GaugeFamily thesisValues(final ScrapedRows rows) {
        final GaugeFamily family = new GaugeFamily("latency_server_estimate_thesis_seconds", Unit.SECONDS,
            "the thesis's uncorrected value behind the served estimate (equal to it for calibration: thesis)", "index_ref");
        for (int slot = 0; slot < rows.size(); slot++) {
            final ConnectionRow row = rows.row(slot);
            if (row.estimate() != null && row.served().thesis() != null) {
                family.add(row.served().thesis().valueMillis() / 1e3, rows.byRef(slot));
            }
        }
        return family;
    }

    /** The interval ends of each estimate of one kind (a mean's in ms, a bound's share as a ratio), divided by {@code divisor}. */
    private static GaugeFamily intervals(final ScrapedRows rows, final EstimateKind kind, final GaugeFamily family,
                                         final double divisor) {
        for (int slot = 0; slot < rows.size(); slot++) {
            final Estimate estimate = rows.row(slot).estimate();
            if (estimate != null && estimate.kind() == kind) {
                family.add(estimate.interval().lower() / divisor, rows.ref(slot), "lower");
                family.add(estimate.interval().upper() / divisor, rows.ref(slot), "upper");
            }
        }
        return family;
    }

    private static GaugeFamily boundShares(final ScrapedRows rows) {
        final GaugeFamily family = new GaugeFamily("latency_server_estimate_bound_ratio", Unit.RATIO,
            "the share of latencies a bound is for (0.96 for a 96 % bound; BOUND estimates, QoS 2, 4)", "index_ref");
        for (int slot = 0; slot < rows.size(); slot++) {
            final Estimate estimate = rows.row(slot).estimate();
            if (estimate != null && estimate.kind() == EstimateKind.BOUND) {
                family.add(estimate.boundPercent() / 100, rows.byRef(slot));
            }
        }
        return family;
    }

    private static GaugeFamily staleFlags(final ScrapedRows rows) {
        final GaugeFamily family = new GaugeFamily("latency_server_estimate_stale", null,
            "1 while an input of the served estimate stopped answering (it may no longer hold), else 0", "index_ref");
        for (int slot = 0; slot < rows.size(); slot++) {
            final ConnectionRow row = rows.row(slot);
            if (row.estimate() != null) {
                family.add(row.staleInputs().isStale() ? 1 : 0, rows.byRef(slot));
            }
        }
        return family;
    }

    private static GaugeFamily staleReasons(final ScrapedRows rows) {
        final GaugeFamily family = new GaugeFamily("latency_server_estimate_stale_reason", null,
            "1 for each input that stopped answering while an estimate is served (client_cpu_unknown,"
                + " peer_cpu_unknown, port_unknown); no series while the estimate is fresh", "index_ref", "reason");
        for (int slot = 0; slot < rows.size(); slot++) {
            final ConnectionRow row = rows.row(slot);
            if (row.estimate() != null) {
                for (final StaleInputs.Input input : row.staleInputs().inputs()) {
                    family.add(1, rows.ref(slot), input.metricLabel());
                }
            }
        }
        return family;
    }
}
