package org.latencyserver.server.snmp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** An agent's counter refresh, learned from polls at 10 Hz that see its counters change every ~3 s. */
class CounterRefreshTest {

    private static final long MS = 1_000_000L;
    private static final long SECOND = 1_000 * MS;

    @Test
    void theRefreshIsTheMedianIntervalBetweenReadingsThatChanged() {
        final CounterRefresh refresh = new CounterRefresh();
        assertEquals(-1, refresh.periodNanos());
        refresh.changed(0);
        assertEquals(-1, refresh.periodNanos(), "one change says nothing of the period");
        refresh.changed(3_000 * MS);
        assertEquals(3_000 * MS, refresh.periodNanos());
        refresh.changed(5_900 * MS);
        refresh.changed(9_000 * MS);
        refresh.changed(30_000 * MS); // a refresh the agent skipped (or a port that stood idle) is outvoted
        refresh.changed(33_000 * MS);
        assertEquals(3_000 * MS, refresh.periodNanos());
        refresh.reset();
        assertEquals(-1, refresh.periodNanos());
    }

    @Test
    void aPortWhoseCountersStandStillForTwoRefreshesIsIdleNotBeforeAndNotTenSecondsLater() {
        final PortUtilisation port = new PortUtilisation(10 * SECOND);
        final long fullSecond = 20_000_000L / 8;
        long octets = 0;
        long now = 0;
        port.update(0, octets, 64, 20, now);
        for (int refresh = 1; refresh <= 4; refresh++) {     // the agent refreshes every 3 s; polls see each change
            now += 3 * SECOND;
            octets += 3 * fullSecond;
            assertEquals(100, port.update(0, octets, 64, 20, now));
        }
        assertEquals(3 * SECOND, port.refreshPeriodNanos());
        assertEquals(6 * SECOND, port.idleAfterNanos(), "twice the refresh");
        assertEquals(100, port.update(0, octets, 64, 20, now + 3 * SECOND + 100 * MS), "one refresh without a change: cached");
        assertEquals(0, port.update(0, octets, 64, 20, now + 6 * SECOND + 100 * MS), "two: the port is idle");
    }
}
