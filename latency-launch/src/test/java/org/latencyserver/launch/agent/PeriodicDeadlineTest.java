package org.latencyserver.launch.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class PeriodicDeadlineTest {

    @Test
    void aFixedRateKeepsItsGridWhenARoundIsLate() {
        final PeriodicDeadline due = new PeriodicDeadline(PeriodicDeadline.Kind.FIXED_RATE, 100, 0);
        assertTrue(due.take(0));
        assertFalse(due.take(99));
        assertTrue(due.take(130));
        assertEquals(200, due.dueNanos());
        assertEquals(20, due.nanosUntilDue(180));
    }

    @Test
    void aFixedRateCatchesUpRoundsMissedWhileHeldUpOneAfterTheOther() {
        final PeriodicDeadline due = new PeriodicDeadline(PeriodicDeadline.Kind.FIXED_RATE, 100, 0);
        assertTrue(due.take(0));
        int caughtUp = 0;
        while (due.take(450)) {
            caughtUp++;
        }
        assertEquals(4, caughtUp, "the rounds due at 100, 200, 300 and 400");
        assertEquals(500, due.dueNanos());
        assertFalse(due.take(499));
        assertTrue(due.take(500));
    }

    @Test
    void aFixedDelayCountsFromTheRoundThatRan() {
        final PeriodicDeadline due = new PeriodicDeadline(PeriodicDeadline.Kind.FIXED_DELAY, 5, 5);
        assertFalse(due.take(4));
        assertTrue(due.take(7));
        assertEquals(12, due.dueNanos());
        assertEquals(0, due.nanosUntilDue(13));
    }
}
