package org.latencyserver.server.metrics;

import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.util.function.Supplier;
import org.latencyserver.server.engine.EngineCounters;

/**
 * The update engine's counters: failed update commands, probe round trips tested, polled readings
 * kept as jitter, measurement results taken back or pooled in their port state's band, and trains whose teaching of
 * the shape models was taken back.
 *
 * <p>Each scrape reads one {@link EngineCounters} snapshot. Thread-safe as the supplier is.
 */
final class EngineCountersCollector extends SnapshotCollector<EngineCounters> {

    /** @param counters the engine's counters, read once per scrape (from the scraping thread) */
    EngineCountersCollector(final Supplier<EngineCounters> counters) {
        super(counters);
    }

    @Override
    MetricSnapshots families(final EngineCounters now) {
        return MetricSnapshots.of(
            CounterFamily.single("latency_server_update_errors_total",
                "update commands that failed; the table kept its last good state", now.commandErrors()),
            CounterFamily.single("latency_server_probe_round_trips_total",
                "probe round trips reported by client agents and tested against the served estimates", now.probeRoundTrips()),
            CounterFamily.single("latency_server_polled_readings_within_jitter_total",
                "polled connection readings that moved by at most a point per end within their load state and were not"
                    + " published (tick-counter noise; the row keeps its previous values)", now.polledJitterKept()),
            CounterFamily.single("latency_server_measurements_taken_back_total",
                "measurement results taken back from the load state they were filed under, because that state changed"
                    + " within measurement.settle_millis after them (SNMP counters lag the load)", now.resultsTakenBack()),
            CounterFamily.single("latency_server_measurements_pooled_in_band_total",
                "measurement results filed under no load state because the CPU states moved while they ran on a loaded"
                    + " port: their round trips joined the port state's probes", now.resultsPooledInBand()),
            CounterFamily.single("latency_server_shape_trains_taken_back_total",
                "probe windows and measurement results whose teaching of the shape models was taken back, because the"
                    + " connection's ports moved between idle and loaded (or to another set of loaded hops) within"
                    + " measurement.settle_millis after them (SNMP counters lag the load)", now.shapeTrainsTakenBack()));
    }
}
