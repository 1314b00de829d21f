package org.latencyserver.server.metrics;

import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.Unit;
import java.util.function.Supplier;
import org.latencyserver.server.snmp.SnmpPollerCounters;

/**
 * The SNMP poller's metrics: requests sent, answers received, polls skipped because an agent had
 * not answered the previous one (a slow or dead agent shows here first), each polled source's
 * health and its agent's counter refresh period (s).
 *
 * <p>Each scrape reads one {@link SnmpPollerCounters} snapshot. Thread-safe as the supplier is.
 */
final class SnmpPollerCollector extends SnapshotCollector<SnmpPollerCounters> {

    /** @param counters the poller's counters, read once per scrape */
    SnmpPollerCollector(final Supplier<SnmpPollerCounters> counters) {
        super(counters);
    }

    @Override
    MetricSnapshots families(final SnmpPollerCounters now) {
        final GaugeFamily up = new GaugeFamily("latency_server_snmp_source_up", null,
            "1 while a polled SNMP source (node or link) answers, 0 while it is UNKNOWN (missed polls)", "source");
        now.sourcesUp().forEach((source, answers) -> up.add(answers ? 1 : 0, source));
        final GaugeFamily refresh = new GaugeFamily("latency_server_snmp_counter_refresh_seconds", Unit.SECONDS,
            "how often a polled SNMP source's agent refreshes the counters it is read from (the median interval"
                + " between polls that saw them change); a load change shows up to this late", "source");
        now.counterRefreshSeconds().forEach((source, seconds) -> refresh.add(seconds, source));
        return MetricSnapshots.of(up.build(), refresh.build(),
            CounterFamily.single("latency_server_snmp_requests_total", "SNMP GET requests sent by the poller", now.requestsSent()),
            CounterFamily.single("latency_server_snmp_answers_total", "SNMP answers received by the poller", now.answersReceived()),
            CounterFamily.single("latency_server_snmp_polls_skipped_total",
                "polls skipped because the agent had not yet answered the previous one", now.pollsSkipped()));
    }
}
