package org.latencyserver.server.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.junit.jupiter.api.Test;
import org.latencyserver.core.histogram.LatencyHistogram;
import org.latencyserver.testkit.MetricsText;

class RoundTripMetricsTest {

    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final RoundTripMetrics roundTrips = new RoundTripMetrics(registry);

    @Test
    void everyRoundTripIsObservedAtItsBinsMidpointAndTheOverflowAtTheLastEdge() {
        roundTrips.observe((short) 7, LatencyHistogram.of(new long[] {1_000_000, 2_000_000}, new long[] {10, 5}, 1));
        final MetricsText page = CollectorScrape.of(registry);
        assertEquals(16, page.get("latency_server_round_trip_seconds_count", "index_ref", "7"));
        assertEquals(10 * 0.5e-3 + 5 * 1.5e-3 + 2e-3, page.get("latency_server_round_trip_seconds_sum", "index_ref", "7"), 1e-12);
        assertEquals(10, page.get("latency_server_round_trip_seconds_bucket", "index_ref", "7", "le", "0.001"));
    }

    @Test
    void aReportOfMoreThanTheLimitIsObservedScaledDownKeepingItsShape() {
        final long many = 4 * RoundTripMetrics.MAX_OBSERVED_ROUND_TRIPS_PER_REPORT;
        roundTrips.observe((short) 1, LatencyHistogram.of(new long[] {1_000_000, 2_000_000}, new long[] {many / 2, many / 2}, 0));
        final MetricsText page = CollectorScrape.of(registry);
        final double count = page.get("latency_server_round_trip_seconds_count", "index_ref", "1");
        assertEquals(RoundTripMetrics.MAX_OBSERVED_ROUND_TRIPS_PER_REPORT, count, 2);
        assertEquals(count / 2, page.get("latency_server_round_trip_seconds_bucket", "index_ref", "1", "le", "0.001"), 1);
    }

    @Test
    void anSnmpAnswersWayToTheUpdateThreadIsTimedInSeconds() {
        roundTrips.snmpAnswerApplied(2_000_000);
        final MetricsText page = CollectorScrape.of(registry);
        assertEquals(1, page.get("latency_server_snmp_answer_to_update_seconds_count"));
        assertEquals(2e-3, page.get("latency_server_snmp_answer_to_update_seconds_sum"), 1e-12);
        assertTrue(page.value("latency_server_round_trip_seconds_count", "index_ref", "1").isEmpty(), "no report, no series");
    }
}
