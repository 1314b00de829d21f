package org.latencyserver.server.metrics;

import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.CounterSnapshot.CounterDataPointSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;

/**
 * One counter family being built during one scrape. Named as exposed ({@code …_total}); the
 * snapshot carries the name without the suffix, which the exposition formats add back.
 *
 * <p>Not thread-safe: made, filled and built by one scraping thread.
 */
final class CounterFamily {

    private static final String TOTAL = "_total";

    private final CounterSnapshot.Builder snapshot;
    private final String[] labelNames;

    /**
     * @param name       the exposed name, ending in {@code _total}
     * @param help       the help text
     * @param labelNames the label names, in the order {@link #add} takes their values
     */
    CounterFamily(final String name, final String help, final String... labelNames) {
        if (!name.endsWith(TOTAL)) {
            throw new IllegalArgumentException("a counter's name ends in _total: " + name);
        }
        snapshot = CounterSnapshot.builder().name(name.substring(0, name.length() - TOTAL.length())).help(help);
        this.labelNames = labelNames.clone();
    }

    /**
     * @param name  the exposed name, ending in {@code _total}
     * @param help  the help text
     * @param value the count, read at this scrape
     * @return a family of one unlabelled series
     */
    static CounterSnapshot single(final String name, final String help, final double value) {
        final CounterFamily family = new CounterFamily(name, help);
        family.add(value);
        return family.build();
    }

    /**
     * @param value       the count, read at this scrape
     * @param labelValues one per label name, in their order
     */
    void add(final double value, final String... labelValues) {
        final Labels labels = labelNames.length == 0 ? Labels.EMPTY : Labels.of(labelNames, labelValues);
        snapshot.dataPoint(CounterDataPointSnapshot.builder().value(value).labels(labels).build());
    }

    /** @return the family with every series added */
    CounterSnapshot build() {
        return snapshot.build();
    }
}
