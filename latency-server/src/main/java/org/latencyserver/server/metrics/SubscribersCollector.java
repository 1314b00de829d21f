package org.latencyserver.server.metrics;

import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.util.Map;
import java.util.function.Supplier;

/**
 * {@code latency_server_subscribers{kind}} (listeners now, {@code kind} = {@code estimate},
 * {@code measurement}) and {@code latency_server_subscribers_reaped_total{reason}} (listeners the
 * server dropped on its own), from one {@link SubscriberCounts} per scrape. Thread-safe as the
 * supplier is.
 */
final class SubscribersCollector extends SnapshotCollector<SubscriberCounts> {

    /** @param counts the subscriptions' counts, read once per scrape */
    SubscribersCollector(final Supplier<SubscriberCounts> counts) {
        super(counts);
    }

    @Override
    MetricSnapshots families(final SubscriberCounts now) {
        final GaugeFamily subscribers = new GaugeFamily("latency_server_subscribers", null,
            "listeners subscribed now, by kind (estimate: subscribe, measurement: subscribe_measurements)", "kind");
        subscribers.add(now.estimateSubscribers(), "estimate");
        subscribers.add(now.measurementSubscribers(), "measurement");
        final CounterFamily reaped = new CounterFamily("latency_server_subscribers_reaped_total",
            "subscribers the server dropped on its own (listener gone, failed calls, full queue), by reason", "reason");
        for (final Map.Entry<String, Long> reason : now.reapedByReason().entrySet()) {
            reaped.add(reason.getValue(), reason.getKey());
        }
        return MetricSnapshots.of(subscribers.build(), reaped.build());
    }
}
