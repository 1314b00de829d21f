package org.latencyserver.server.metrics;

import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.Unit;
import java.util.List;
import java.util.Locale;
import org.latencyserver.core.estimate.Estimate;
import org.latencyserver.core.estimate.EstimateKind;
import org.latencyserver.server.table.ConnectionRow;

/**
 * The served estimates' gauges of one scrape, a series per connection that serves an estimate:
 * the value (s), the thesis's value behind it, a mean's interval (s), a bound's share and its
 * interval (ratios 0–1), and the stale flag with its reasons.
 *
 * <p>Not thread-safe: made, filled and added by one scraping thread.
 */
final class EstimateSeries {

    private final GaugeFamily value = new GaugeFamily("latency_server_estimate_seconds", Unit.SECONDS,
        "the estimate served: a mean (kind average, QoS 1, 3) or a bound (kind bound, QoS 2, 4)", "index_ref", "qos", "kind");
    private final GaugeFamily thesis = new GaugeFamily("latency_server_estimate_thesis_seconds", Unit.SECONDS,
        "the thesis's uncorrected value behind the served estimate (equal to it for calibration: thesis)", "index_ref");
    private final GaugeFamily meanInterval = new GaugeFamily("latency_server_estimate_interval_seconds", Unit.SECONDS,
        "95 % confidence interval of a mean (AVERAGE estimates, QoS 1, 3): its lower and upper end", "index_ref", "end");
    private final GaugeFamily boundShare = new GaugeFamily("latency_server_estimate_bound_ratio", Unit.RATIO,
        "the share of latencies a bound is for (0.96 for a 96 % bound; BOUND estimates, QoS 2, 4)", "index_ref");
    private final GaugeFamily shareInterval = new GaugeFamily("latency_server_estimate_share_interval_ratio", Unit.RATIO,
        "95 % confidence interval of the share of latencies at or below a bound (BOUND estimates, QoS 2, 4)", "index_ref", "end");
    private final GaugeFamily stale = new GaugeFamily("latency_server_estimate_stale", null,
        "1 while an input of the served estimate stopped answering (it may no longer hold), else 0", "index_ref");
    private final GaugeFamily staleReason = new GaugeFamily("latency_server_estimate_stale_reason", null,
        "1 for each input that stopped answering while an estimate is served (client_cpu_unknown,"
            + " peer_cpu_unknown, port_unknown); no series while the estimate is fresh", "index_ref", "reason");

    /**
     * Adds the series of one connection; none when it serves no estimate.
     *
     * @param row the connection's row of this scrape's snapshot
     * @param ref its {@code index_ref} label value
     */
    void add(final ConnectionRow row, final String ref) {
        final Estimate estimate = row.estimate();
        if (estimate == null) {
            return;
        }
        value.add(estimate.valueMillis() / 1e3, ref, Integer.toString(row.spec().qos()), estimate.kind().name().toLowerCase(Locale.ROOT));
        if (row.served().thesis() != null) {
            thesis.add(row.served().thesis().valueMillis() / 1e3, ref);
        }
        if (estimate.kind() == EstimateKind.AVERAGE) {
            meanInterval.add(estimate.interval().lower() / 1e3, ref, "lower");
            meanInterval.add(estimate.interval().upper() / 1e3, ref, "upper");
        } else if (estimate.kind() == EstimateKind.BOUND) {
            boundShare.add(estimate.boundPercent() / 100, ref);
            shareInterval.add(estimate.interval().lower(), ref, "lower");
            shareInterval.add(estimate.interval().upper(), ref, "upper");
        }
        stale.add(row.staleReason() != null ? 1 : 0, ref);
        if (row.staleReason() != null) {
            addStaleReasons(row, ref);
        }
    }

    private void addStaleReasons(final ConnectionRow row, final String ref) {
        if (row.latest().clientCpuPercent() < 0) {
            staleReason.add(1, ref, "client_cpu_unknown");
        }
        if (row.latest().peerCpuPercent() < 0) {
            staleReason.add(1, ref, "peer_cpu_unknown");
        }
        if (row.latest().portPercent() < 0) {
            staleReason.add(1, ref, "port_unknown");
        }
    }

    /** @param page the scrape's families, to which these are added */
    void addTo(final MetricSnapshots.Builder page) {
        for (final GaugeFamily family : List.of(value, thesis, meanInterval, boundShare, shareInterval, stale, staleReason)) {
            page.metricSnapshot(family.build());
        }
    }
}
