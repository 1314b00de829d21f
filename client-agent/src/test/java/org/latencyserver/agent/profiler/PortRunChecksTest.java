package org.latencyserver.agent.profiler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The port run's decisions that need no port: when a load counts as reached, and how the next try is asked. */
class PortRunChecksTest {

    @Test
    void aLoadOfZeroAllowsTheRoundTripsOwnShareAndTheTolerance() {
        assertEquals(Optional.empty(), PortRun.portMiss(0, 4.4, 5, 2));
        assertEquals(Optional.empty(), PortRun.portMiss(0, 7.0, 5, 2));
        final LoadMiss miss = PortRun.portMiss(0, 7.5, 5, 2).orElseThrow();
        assertEquals(LoadMiss.Kind.PORT_BUSY_UNLOADED, miss.kind());
        assertTrue(miss.detail().startsWith("the port read 7.5 % with no load driven (more than the round trips' 5 % share plus 2"
            + " points"), miss::detail);
    }

    @Test
    void aLoadAbove0MustReadWithinTheTolerance() {
        assertEquals(Optional.empty(), PortRun.portMiss(95, 96.9, 5, 2));
        assertEquals(new LoadMiss(LoadMiss.Kind.PORT_OFF_TARGET, "the port read 97.2 % for a target of 95 % (more than 2 points off)"),
            PortRun.portMiss(95, 97.2, 5, 2).orElseThrow());
        final LoadMiss still = PortRun.portMiss(0, Double.NaN, 5, 2).orElseThrow();
        assertTrue(still.detail().contains("changed fewer than 3 times"), still::detail);
        assertEquals(LoadMiss.Kind.PORT_COUNTERS_STILL, still.kind());
    }

    @Test
    void theNextTryAsksForTheMissMoreOrLessWithinLimits() {
        assertEquals(91.0, PortRun.corrected(95, 95, 99.0), 1e-9);
        assertEquals(97.1, PortRun.corrected(95, 95, 92.9), 1e-9);
        assertEquals(110, PortRun.corrected(108, 100, 90), 1e-9, "at most 110 % is asked");
        assertEquals(95, PortRun.corrected(95, 95, Double.NaN), 1e-9, "no reading, no correction");
        assertEquals(0, PortRun.corrected(0, 0, 6), 1e-9, "no load is never corrected into one");
    }

    @Test
    void thePeersCpuIsTheBusyShareOfItsTicksAndNothingWhenTheyDidNotMove() {
        assertEquals(25.0, PortRun.peerPercent(new long[] {100, 1000}, new long[] {150, 1200}), 1e-9);
        assertTrue(Double.isNaN(PortRun.peerPercent(new long[] {100, 1000}, new long[] {100, 1000})));
    }

    @Test
    void iperf3IsAskedForThePayloadThatMakesTheFramesTheLoad() {
        // 95 % of 20 Mbit/s in 1442-byte frames of 1400-byte datagrams
        assertEquals(Math.round(19e6 * 1400 / 1442), PortLoadDriver.payloadBitsPerSecond(95, 20));
        assertEquals(0, PortLoadDriver.payloadBitsPerSecond(0, 20));
    }
}
