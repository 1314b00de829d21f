package org.latencyserver.server.metrics;

import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.Unit;
import java.util.List;
import org.latencyserver.core.calibration.StateKnowledge;
import org.latencyserver.core.state.ConnectionLoadState;
import org.latencyserver.server.table.ConnectionRow;

/**
 * The calibration gauges of one scrape, per connection and load state: a bound connection's
 * coverage (ratio) and the round trips behind it, an average connection's median relative error
 * of its mean (ratio), and every connection's drift alarms.
 *
 * <p>Not thread-safe: made, filled and added by one scraping thread.
 */
final class CalibrationSeries {

    private final GaugeFamily coverage = new GaugeFamily("latency_server_calibration_coverage_ratio", Unit.RATIO,
        "share of round trips (probes and measurements) at or below the bound served when they were sent, "
            + "per load state (BOUND connections)", "index_ref", "state");
    private final GaugeFamily roundTrips = new GaugeFamily("latency_server_calibration_round_trips", null,
        "round trips behind latency_server_calibration_coverage_ratio, per load state (BOUND connections)", "index_ref", "state");
    private final GaugeFamily meanError = new GaugeFamily("latency_server_calibration_mean_relative_error_ratio", Unit.RATIO,
        "median |served mean - mean of the following window| / window mean, per load state (AVERAGE connections)",
        "index_ref", "state");
    private final GaugeFamily driftAlarms = new GaugeFamily("latency_server_drift_alarms", null,
        "times the probe stream showed a served estimate had stopped holding (CUSUM), per connection", "index_ref");

    /**
     * @param row the connection's row of this scrape's snapshot
     * @param ref its {@code index_ref} label value
     */
    void add(final ConnectionRow row, final String ref) {
        final boolean bound = row.spec().isBound();
        long alarms = 0;
        for (final var entry : row.learning().byState().entrySet()) {
            final StateKnowledge known = entry.getValue();
            if (bound && known.coverage().roundTrips() > 0) {
                coverage.add(known.coverage().coverage(), ref, stateLabel(entry.getKey()));
                roundTrips.add(known.coverage().roundTrips(), ref, stateLabel(entry.getKey()));
            } else if (!bound && known.meanErrors().windows() > 0) {
                meanError.add(known.meanErrors().medianRelativeError(), ref, stateLabel(entry.getKey()));
            }
            alarms += known.driftAlarms();
        }
        driftAlarms.add(alarms, ref);
    }

    private static String stateLabel(final ConnectionLoadState state) {
        return state.cpu() + " " + state.port();
    }

    /** @param page the scrape's families, to which these are added */
    void addTo(final MetricSnapshots.Builder page) {
        for (final GaugeFamily family : List.of(coverage, roundTrips, meanError, driftAlarms)) {
            page.metricSnapshot(family.build());
        }
    }
}
