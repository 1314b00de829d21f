package org.latencyserver.server.metrics;

import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot.GaugeDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.Unit;

/**
 * One gauge family being built during one scrape: its name, help, unit and label names, and the
 * series added so far. A family without series is left off the page, as client_java leaves off
 * a callback gauge that reported none.
 *
 * <p>Not thread-safe: made, filled and built by one scraping thread.
 */
final class GaugeFamily {

    private final GaugeSnapshot.Builder snapshot;
    private final String[] labelNames;

    /**
     * @param name       the metric name, ending in the unit's name when there is one
     * @param unit       the base unit, or null for a plain number
     * @param help       the help text
     * @param labelNames the label names, in the order {@link #add} takes their values
     */
    GaugeFamily(final String name, final Unit unit, final String help, final String... labelNames) {
        snapshot = GaugeSnapshot.builder().name(name).help(help);
        if (unit != null) {
            snapshot.unit(unit);
        }
        this.labelNames = labelNames.clone();
    }

    /**
     * @param value       the series' value
     * @param labelValues one per label name, in their order
     */
    void add(final double value, final String... labelValues) {
        snapshot.dataPoint(GaugeDataPointSnapshot.builder().value(value).labels(labels(labelValues)).build());
    }

    /**
     * @param value  the series' value
     * @param labels its labels, with exactly this family's label names (built once and shared by
     *               the families of one connection: client_java validates every label set built)
     */
    void add(final double value, final Labels labels) {
        snapshot.dataPoint(GaugeDataPointSnapshot.builder().value(value).labels(labels).build());
    }

    private Labels labels(final String[] labelValues) {
        return labelNames.length == 0 ? Labels.EMPTY : Labels.of(labelNames, labelValues);
    }

    /** @return the family with every series added */
    GaugeSnapshot build() {
        return snapshot.build();
    }
}
