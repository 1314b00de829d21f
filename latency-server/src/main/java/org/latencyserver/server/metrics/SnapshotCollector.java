package org.latencyserver.server.metrics;

import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.util.function.Supplier;

/**
 * A collector whose families all come from one snapshot read per scrape (from the scraping thread), so they agree with
 * each other. Thread-safe as the supplier is.
 *
 * @param <T> the snapshot's type
 */
abstract class SnapshotCollector<T> implements MultiCollector {

    private final Supplier<T> snapshots;

    /** @param snapshots gives the current snapshot, called once per scrape */
    SnapshotCollector(final Supplier<T> snapshots) {
        this.snapshots = snapshots;
    }

    @Override
    public final MetricSnapshots collect() {
        return families(snapshots.get());
    }

    /** @return the families of one snapshot */
    abstract MetricSnapshots families(T now);
}
