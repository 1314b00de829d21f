package org.latencyserver.server.metrics;

import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.util.function.Supplier;

/**
 * How often the server found one of its names in the naming service bound to something else and
 * bound it again (its name keeper's repairs). Each scrape reads the count once. Thread-safe as the
 * supplier is.
 */
final class NameRepairsCollector extends SnapshotCollector<Long> {

    /** @param repairs the repairs since start (0 without a naming service), read once per scrape */
    NameRepairsCollector(final Supplier<Long> repairs) {
        super(repairs);
    }

    @Override
    MetricSnapshots families(final Long now) {
        return MetricSnapshots.of(CounterFamily.single("latency_server_name_repairs_total",
            "times one of the server's names in the naming service was found bound to another object or a naming context"
                + " and bound to the server again", now));
    }
}
