package org.latencyserver.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class MetricsTextTest {

    private static final MetricsText PAGE = MetricsText.parse(String.join("\n",
        "# HELP latency_server_calls_total calls by operation",
        "# TYPE latency_server_calls_total counter",
        "latency_server_calls_total{operation=\"RequestStatus\"} 12.0",
        "latency_server_calls_total{operation=\"PutMibUpdates\"} 3.0",
        "# TYPE latency_server_state_saves_total counter",
        "latency_server_state_saves_total{file=\"journal\",kind=\"append\"} 5.0",
        "latency_server_state_saves_total{file=\"state_file\",kind=\"full\"} 1.0",
        "# TYPE latency_server_request_status_seconds histogram",
        "latency_server_request_status_seconds_bucket{le=\"1.0E-6\"} 2",
        "latency_server_request_status_seconds_bucket{le=\"0.001\"} 7",
        "latency_server_request_status_seconds_bucket{le=\"+Inf\"} 9",
        "latency_server_request_status_seconds_count 9",
        "latency_server_request_status_seconds_sum 0.004",
        "latency_server_estimate_seconds{index_ref=\"1\",method=\"say \\\"hi\\\" \\\\ there\"} +Inf",
        "latency_server_uptime_seconds 42 1700000000000",
        ""));

    @Test
    void samplesAreReadByNameAndTheirExactLabels() {
        assertEquals(12.0, PAGE.get("latency_server_calls_total", "operation", "RequestStatus"));
        assertEquals(Optional.empty(), PAGE.value("latency_server_calls_total"));
        assertEquals(42.0, PAGE.get("latency_server_uptime_seconds"), "a timestamp is read past");
        assertEquals(2, PAGE.samples("latency_server_calls_total").size());
        assertThrows(AssertionError.class, () -> PAGE.get("latency_server_absent_total"));
    }

    @Test
    void typesAndLabelNamesOfFamilies() {
        assertEquals("histogram", PAGE.types().get("latency_server_request_status_seconds"));
        assertEquals(Set.of("operation"), PAGE.labelNames("latency_server_calls_total"));
        assertEquals(Set.of(), PAGE.labelNames("latency_server_request_status_seconds"), "le is left out");
    }

    @Test
    void sumsOverTheSamplesCarryingSomeLabels() {
        assertEquals(15.0, PAGE.sum("latency_server_calls_total"));
        assertEquals(5.0, PAGE.sum("latency_server_state_saves_total", "file", "journal"));
        assertEquals(0.0, PAGE.sum("latency_server_absent_total"));
        assertTrue(PAGE.has("latency_server_state_saves_total", "file", "state_file"));
        assertFalse(PAGE.has("latency_server_state_saves_total", "file", "other"));
    }

    @Test
    void classicBucketsByUpperBound() {
        assertEquals(new TreeMap<>(Map.of(1.0e-6, 2.0, 0.001, 7.0, Double.POSITIVE_INFINITY, 9.0)),
            PAGE.buckets("latency_server_request_status_seconds"));
    }

    @Test
    void infinitiesAndEscapedLabelValuesAreReadAsPrometheusWritesThem() {
        final MetricsText.Sample estimate = PAGE.samples("latency_server_estimate_seconds").get(0);
        assertEquals(Double.POSITIVE_INFINITY, estimate.value());
        assertEquals("say \"hi\" \\ there", estimate.labels().get("method"));
    }

    @Test
    void aLineThatIsNeitherACommentNorASampleIsRefusedByName() {
        for (final String bad : List.of("latency_server_calls_total", "latency_server_calls_total{operation=RequestStatus} 1",
            "latency_server_calls_total 1.2.3")) {
            final IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> MetricsText.parse(bad + "\n"));
            assertTrue(refused.getMessage().contains(bad), refused.getMessage());
        }
    }
}
