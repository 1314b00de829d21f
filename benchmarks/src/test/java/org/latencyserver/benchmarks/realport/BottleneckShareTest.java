package org.latencyserver.benchmarks.realport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.latencyserver.benchmarks.realport.RealPortAnalysisTest.T0;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class BottleneckShareTest {

    @Test
    void theAgentsShareIsTheBytesOverTheRateWhileMeasuringAndWhileProbing() {
        // idle from +1 s; a measurement open +2..+6 s at 125,000 B/s (5 % of 20 Mbit/s); probes at 25,000 B/s (1 %) otherwise
        final List<RunRecord.Change> changes = List.of(new RunRecord.Change(1, 95, 0, T0 + 1000));
        final List<RunRecord.PortCounter> counters = new ArrayList<>();
        long bytes = 0;
        for (long t = T0; t <= T0 + 10_000; t += 250) {
            counters.add(new RunRecord.PortCounter(t, bytes, 0, 0));
            final boolean measuring = t >= T0 + 2000 && t < T0 + 6000;
            bytes += (measuring ? 125_000 : 25_000) / 4;
        }
        final List<RunRecord.Request> requests = List.of(new RunRecord.Request(3, T0 + 2000, T0 + 2000, T0 + 5900, "x", 2_848_000, 10_000, 256));
        final List<RunRecord.Filed> filed = List.of(new RunRecord.Filed(T0 + 6050, 3, 11, 0, 1, T0 + 6000));
        final BottleneckShare.AgentsShare share = BottleneckShare.agentsShare(RealPortAnalysisTest.record(changes, List.of(),
            requests, filed, counters, List.of(), T0 + 10_000));
        assertEquals(1, share.idleSteps());
        assertEquals(4.0, share.measuring().seconds(), 1e-9);
        assertEquals(0.05, share.measuring().share(), 1e-9);
        assertEquals(0.05, share.measuring().maxSecondShare(), 1e-9);
        assertEquals(0.01, share.probing().share(), 1e-9);
        assertEquals(8.5, share.all().seconds(), 1e-9, "from 500 ms after the stop");
        assertEquals((4 * 0.05 + 4.5 * 0.01) / 8.5, share.all().share(), 1e-9);
        assertTrue(Double.isNaN(share.measuring().bytesPerFrame()), "no packets counted");
        assertEquals((256 + 100) * 8 / 2.848e-3 / 20e6, share.paces().get(256), 1e-9);
    }

    @Test
    void overlappingWindowsAreMerged() {
        final List<long[]> merged = BottleneckShare.union(List.of(new long[] {5, 9}, new long[] {1, 3}, new long[] {2, 6}, new long[] {10, 11}));
        assertEquals(2, merged.size());
        assertEquals(1, merged.get(0)[0]);
        assertEquals(9, merged.get(0)[1]);
    }
}
