package org.latencyserver.server.metrics;

import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.Unit;
import java.util.Map;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;
import org.latencyserver.core.calibration.StateKnowledge;
import org.latencyserver.core.state.ConnectionLoadState;
import org.latencyserver.server.table.ConnectionRow;

/**
 * The calibration gauges, per connection and load state: a bound connection's coverage (ratio)
 * and the round trips behind it, whether a state's coverage interval lies below nominal (0/1), an
 * average connection's median relative error of its mean (ratio), and every connection's drift alarms. Each family is built in its own pass over the
 * scrape's one snapshot.
 *
 * <p>Stateless; thread-safe.
 */
final class CalibrationSeries {

    private static final String[] STATE_LABELS = {"index_ref", "state"};

    private CalibrationSeries() {
    }

    /**
     * @param rows the scrape's snapshot
     * @param page the scrape's families, to which these are added
     */
    static void addTo(final ScrapedRows rows, final MetricSnapshots.Builder page) {
        page.metricSnapshot(perLoadState(rows, true, new GaugeFamily("latency_server_calibration_coverage_ratio", Unit.RATIO,
            "share of round trips (probes and measurements) at or below the bound served when they were sent, "
                + "per load state (BOUND connections)", STATE_LABELS),
            known -> known.coverage().roundTrips() > 0, known -> known.coverage().coverage()));
        page.metricSnapshot(perLoadState(rows, true, new GaugeFamily("latency_server_calibration_round_trips", null,
            "round trips behind latency_server_calibration_coverage_ratio, per load state (BOUND connections)", STATE_LABELS),
            known -> known.coverage().roundTrips() > 0, known -> known.coverage().roundTrips()));
        page.metricSnapshot(perLoadState(rows, true, new GaugeFamily("latency_server_state_coverage_below_nominal", null,
            "1 when the load state's coverage 95 % interval (over blocks, after at least "
                + StateKnowledge.MIN_BLOCKS_FOR_COVERAGE_ALARM + " blocks) lies wholly below the nominal share: the bounds "
                + "served in it under-cover; else 0 (BOUND connections)", STATE_LABELS),
            known -> known.level() != null && known.coverage().roundTrips() > 0, known -> known.coverageBelowNominal() ? 1 : 0));
        page.metricSnapshot(perLoadState(rows, false, new GaugeFamily("latency_server_calibration_mean_relative_error_ratio",
            Unit.RATIO, "median |served mean - mean of the following window| / window mean, per load state (AVERAGE connections)",
            STATE_LABELS), known -> known.meanErrors().windows() > 0, known -> known.meanErrors().medianRelativeError()));
        final GaugeFamily driftAlarms = new GaugeFamily("latency_server_drift_alarms", null,
            "times the probe stream showed a served estimate had stopped holding (CUSUM), per connection", "index_ref");
        for (int slot = 0; slot < rows.size(); slot++) {
            long alarms = 0;
            for (final StateKnowledge known : rows.row(slot).learning().byState().values()) {
                alarms += known.driftAlarms();
            }
            driftAlarms.add(alarms, rows.byRef(slot));
        }
        page.metricSnapshot(driftAlarms.build());
    }

    /**
     * @return {@code family} with a value per connection of the kind {@code bound} says and load state
     *         whose knowledge {@code hasValue}, labelled with the connection's index_ref and the state
     */
    private static GaugeSnapshot perLoadState(final ScrapedRows rows, final boolean bound,
                                              final GaugeFamily family,
                                              final Predicate<StateKnowledge> hasValue,
                                              final ToDoubleFunction<StateKnowledge> value) {
        for (int slot = 0; slot < rows.size(); slot++) {
            final ConnectionRow row = rows.row(slot);
            if (row.spec().isBound() != bound) {
                continue;
            }
            for (final Map.Entry<ConnectionLoadState, StateKnowledge> entry : row.learning().byState().entrySet()) {
                if (hasValue.test(entry.getValue())) {
                    family.add(value.applyAsDouble(entry.getValue()),
                        Labels.of(STATE_LABELS, new String[] {rows.ref(slot), stateLabel(entry.getKey())}));
                }
            }
        }
        return family.build();
    }

    private static String stateLabel(final ConnectionLoadState state) {
        return state.label();
    }
}
