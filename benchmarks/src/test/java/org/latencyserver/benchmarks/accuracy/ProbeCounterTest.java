package org.latencyserver.benchmarks.accuracy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

class ProbeCounterTest {

    @Test
    void readsTheServersProbeCounterAndIgnoresEverythingElse() {
        final String exposition = String.join("\n",
            "# HELP latency_server_probe_round_trips_total probe round trips reported by client agents",
            "# TYPE latency_server_probe_round_trips_total counter",
            "latency_server_probe_round_trips_total 1234.0",
            "latency_server_calls_total{operation=\"RequestStatus\"} 99.0",
            "");
        assertEquals(Map.of(ProbeCounter.ALL_CONNECTIONS, 1234.0), ProbeCounter.parse(exposition).orElseThrow());
    }

    @Test
    void perConnectionSamplesAreKeptApartAndAServerWithoutTheCounterReadsEmpty() {
        final String labelled = "latency_server_probe_round_trips_total{index_ref=\"2\"} 10\n"
            + "latency_server_probe_round_trips_total{index_ref=\"4\"} 30\n";
        assertEquals(Map.of(2, 10.0, 4, 30.0), ProbeCounter.parse(labelled).orElseThrow());
        assertTrue(ProbeCounter.parse("latency_server_calls_total 5\n").isEmpty());
    }
}
