package org.latencyserver.server.metrics;

import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.util.List;
import java.util.function.Supplier;
import org.latencyserver.server.engine.EngineQuery;

/**
 * The profiles' drift: per learned profile cell, whether live probes disagree with the profile's
 * cell. Each scrape reads the verdicts once. Thread-safe as the supplier is.
 */
final class ProfileDriftCollector extends SnapshotCollector<List<EngineQuery.CellDrift>> {

    /** @param drifts every learned profile cell tested against its profile's cell, read once per scrape */
    ProfileDriftCollector(final Supplier<List<EngineQuery.CellDrift>> drifts) {
        super(drifts);
    }

    @Override
    MetricSnapshots families(final List<EngineQuery.CellDrift> drifts) {
        final GaugeFamily drifting = new GaugeFamily("latency_server_profile_cell_drifting", null,
            "1 when live probes disagree significantly with a profile cell (two-sample Kolmogorov-Smirnov, 1 % level)",
            "profile", "cell");
        for (final EngineQuery.CellDrift drift : drifts) {
            drifting.add(drift.verdict().drifting() ? 1 : 0, drift.profileName(), drift.cell().label());
        }
        return MetricSnapshots.of(drifting.build());
    }
}
