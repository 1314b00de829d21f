package org.latencyserver.server.metrics;

import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import java.util.function.Supplier;
import org.latencyserver.server.logging.LogWarningCounts;

/**
 * The log's repeated-warning counters: JacORB's "thread pool exhausted" (a request refused for
 * want of a POA thread) and every warning held back as a repeat. Each scrape reads one
 * {@link LogWarningCounts}. Thread-safe as the supplier is.
 */
final class LogWarningsCollector extends SnapshotCollector<LogWarningCounts> {

    /** @param counts the repeated-warning filter's counts, read once per scrape */
    LogWarningsCollector(final Supplier<LogWarningCounts> counts) {
        super(counts);
    }

    @Override
    MetricSnapshots families(final LogWarningCounts now) {
        return MetricSnapshots.of(
            CounterFamily.single("latency_server_orb_thread_pool_exhausted_total",
                "requests JacORB's POA could not give a thread at once (its 'Thread pool exhausted' warning, counted, not logged)",
                now.poolExhausted()),
            CounterFamily.single("latency_server_log_warnings_suppressed_total",
                "warnings and errors not written because the same kind was logged within the last 10 s", now.suppressed()));
    }
}
