package org.latencyserver.agent.profiler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class PortCounterWindowTest {

    private static final long SECOND = 1_000_000_000L;
    /** 95 % of 20 Mbit/s for one second, in octets */
    private static final long OCTETS_95_PERCENT_SECOND = 19_000_000L / 8;

    @Test
    void theBusierDirectionsOctetsOverTheTimeBetweenFirstAndLastChangeAgainstTheSpeed() {
        final PortCounterWindow window = new PortCounterWindow();
        assertFalse(window.add(0, 1_000, 5_000), "the first reading is only a baseline");
        assertFalse(window.add(SECOND / 20, 1_000, 5_000), "an unchanged counter is the agent's cache");
        // refreshes every 3 s; out (toward the host) carries 95 %, in only acknowledgements
        for (int refresh = 1; refresh <= 4; refresh++) {
            assertTrue(window.add(refresh * 3 * SECOND, 1_000 + refresh * 3_000L, 5_000 + refresh * 3 * OCTETS_95_PERCENT_SECOND));
        }
        final List<PortCounterWindow.Change> changes = window.copy();
        assertEquals(4, changes.size());
        // first change at 3 s, last at 12 s: 9 s of 95 %
        assertEquals(95.0, PortCounterWindow.percent(changes, 0, 13 * SECOND, 20), 1e-9);
        // the window may start later: from the change at 6 s
        assertEquals(95.0, PortCounterWindow.percent(changes, 4 * SECOND, 13 * SECOND, 20), 1e-9);
        // a 50 Mbit/s speed reads the same octets as 38 %
        assertEquals(38.0, PortCounterWindow.percent(changes, 0, 13 * SECOND, 50), 1e-9);
    }

    @Test
    void theInDirectionCountsWhenItIsTheBusierOne() {
        final List<PortCounterWindow.Change> changes = List.of(new PortCounterWindow.Change(0, 0, 0),
            new PortCounterWindow.Change(3 * SECOND, 3 * OCTETS_95_PERCENT_SECOND / 95 * 50, 10),
            new PortCounterWindow.Change(6 * SECOND, 6 * OCTETS_95_PERCENT_SECOND / 95 * 50, 20));
        assertEquals(50.0, PortCounterWindow.percent(changes, 0, 6 * SECOND, 20), 1e-6);
    }

    @Test
    void fewerThanThreeChangesInTheWindowReadNothing() {
        final List<PortCounterWindow.Change> changes = List.of(new PortCounterWindow.Change(0, 0, 0),
            new PortCounterWindow.Change(3 * SECOND, 0, OCTETS_95_PERCENT_SECOND * 3),
            new PortCounterWindow.Change(6 * SECOND, 0, OCTETS_95_PERCENT_SECOND * 6));
        assertTrue(Double.isNaN(PortCounterWindow.percent(changes, 1, 6 * SECOND, 20)));
        assertTrue(Double.isNaN(PortCounterWindow.percent(changes, 0, 5 * SECOND, 20)));
        assertEquals(95.0, PortCounterWindow.percent(changes, 0, 6 * SECOND, 20), 1e-9);
    }

    @Test
    void aCounter64ThatWrappedCountsTheWrap() {
        assertEquals(20.0, PortCounterWindow.unsignedDelta(-10, 10), 0);
        assertEquals(0x1p63, PortCounterWindow.unsignedDelta(0, Long.MIN_VALUE), 0, "a delta above 2^63 is still positive");
        final List<PortCounterWindow.Change> changes = List.of(new PortCounterWindow.Change(0, 0, -1_000_000),
            new PortCounterWindow.Change(SECOND, 0, 1_375_000), new PortCounterWindow.Change(2 * SECOND, 0, 3_750_000));
        assertEquals(95.0, PortCounterWindow.percent(changes, 0, 2 * SECOND, 20), 1e-9);
    }

    @Test
    void theCheckAllowsTheToleranceEitherSideAndSaysWhatItRead() {
        assertEquals(Optional.empty(), PortCounterWindow.miss(93.0, 95, 2));
        assertEquals(Optional.empty(), PortCounterWindow.miss(97.0, 95, 2));
        assertEquals("the port read 92.9 % for a target of 95 % (more than 2 points off)",
            PortCounterWindow.miss(92.9, 95, 2).orElseThrow().detail());
        final LoadMiss still = PortCounterWindow.miss(Double.NaN, 95, 2).orElseThrow();
        assertTrue(still.detail().startsWith("the port's counters changed fewer than 3 times"), still::detail);
    }
}
