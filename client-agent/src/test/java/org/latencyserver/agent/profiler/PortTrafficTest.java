package org.latencyserver.agent.profiler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code --port-traffic}: what each shape asks iperf3 for, and how a bad one is refused. */
class PortTrafficTest {

    @Test
    void smoothAsksForTheRateAlone() {
        final PortTraffic smooth = PortTraffic.parse("smooth");
        assertEquals("18446393", smooth.bitrateArgument(18_446_393L));
        assertEquals("smooth", smooth.label());
        assertTrue(smooth.describe().startsWith("smooth cross-traffic"), smooth.describe());
    }

    @Test
    void burstyAsksForBurstsOfTheGivenPacketsAtTheSameAverageRate() {
        assertEquals("18446393/32", PortTraffic.parse("bursty").bitrateArgument(18_446_393L));
        assertEquals("18446393/8", PortTraffic.parse(" Bursty:8 ").bitrateArgument(18_446_393L));
        assertEquals("bursty:8", PortTraffic.parse("bursty:8").label());
        assertTrue(PortTraffic.parse("bursty:8").describe().contains("iperf3 -b RATE/8"), PortTraffic.parse("bursty:8").describe());
    }

    @Test
    void theDriverPutsTheShapeIntoIperf3sCommandAndItsDescription() {
        final PortLoadDriver bursty = new PortLoadDriver("198.18.0.3:5202", 20, Path.of("/tmp/x.log"), PortTraffic.DEFAULT);
        final List<String> command = bursty.command(95);
        assertEquals(List.of("-c", "198.18.0.3", "-p", "5202", "-u", "-l", "1400", "-b",
            PortLoadDriver.payloadBitsPerSecond(95, 20) + "/32", "-t", "86400"), command.subList(1, command.size()));
        assertTrue(bursty.describe().contains("x 1400/1442)/32: bursty cross-traffic"), bursty.describe());
        final PortLoadDriver smooth = new PortLoadDriver("198.18.0.3", 20, Path.of("/tmp/x.log"), PortTraffic.SMOOTH);
        assertEquals(Long.toString(PortLoadDriver.payloadBitsPerSecond(95, 20)), smooth.command(95).get(9));
    }

    @Test
    void badShapesAreRefusedNamingTheOption() {
        assertEquals("--port-traffic: 'x' is not a packet count (bursty:PACKETS, e.g. bursty:32)",
            assertThrows(IllegalArgumentException.class, () -> PortTraffic.parse("bursty:x")).getMessage());
        assertEquals("--port-traffic: a burst is 1..1000 packets, was 0",
            assertThrows(IllegalArgumentException.class, () -> PortTraffic.parse("bursty:0")).getMessage());
        assertEquals("--port-traffic: 'paced' is not smooth, bursty or bursty:PACKETS",
            assertThrows(IllegalArgumentException.class, () -> PortTraffic.parse("paced")).getMessage());
        assertEquals("--port-traffic: 'null' is not smooth, bursty or bursty:PACKETS",
            assertThrows(IllegalArgumentException.class, () -> PortTraffic.parse(null)).getMessage());
    }
}
