package org.latencyserver.core.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class MeasurementScheduleTest {

    private static final long SECOND = 1_000_000_000L;

    @Test
    void aConnectionNeverMeasuredIsMeasuredAtOnce() {
        final MeasurementSchedule.Decision decision = new MeasurementSchedule(5 * SECOND).decide(100, MeasurementSchedule.NEVER, false);
        assertEquals(MeasurementSchedule.Action.MEASURE_NOW, decision.action());
        assertEquals(100, decision.notBeforeNanos());
        assertFalse(decision.coalesced());
    }

    @Test
    void aMeasurementDueTooSoonIsDeferredToTheEarliestAllowedStart() {
        final MeasurementSchedule schedule = new MeasurementSchedule(5 * SECOND);
        final MeasurementSchedule.Decision tooSoon = schedule.decide(2 * SECOND, SECOND, false);
        assertEquals(MeasurementSchedule.Action.DEFER, tooSoon.action());
        assertFalse(tooSoon.measureNow());
        assertEquals(6 * SECOND, tooSoon.notBeforeNanos());
        assertTrue(schedule.decide(6 * SECOND, SECOND, false).measureNow(), "exactly the interval later");
        assertFalse(schedule.decide(6 * SECOND - 1, SECOND, false).measureNow(), "one ns short");
        assertTrue(new MeasurementSchedule(0).decide(5, 5, false).measureNow(), "no minimum");
        assertEquals(schedule.decide(2 * SECOND, SECOND, false), schedule.decide(2 * SECOND, SECOND));
    }

    @Test
    void theRuleHoldsAcrossTheWrapOfTheNanosecondClock() {
        final MeasurementSchedule schedule = new MeasurementSchedule(5 * SECOND);
        final long lastStart = Long.MAX_VALUE - SECOND;
        final MeasurementSchedule.Decision decision = schedule.decide(lastStart + 2 * SECOND, lastStart, false);
        assertFalse(decision.measureNow());
        assertEquals(lastStart + 5 * SECOND, decision.notBeforeNanos(), "wrapped sum, still 5 s after the start");
        assertTrue(schedule.decide(lastStart + 5 * SECOND, lastStart, false).measureNow());
    }

    @Test
    void aNewNeedWhileOneIsPendingIsCoalescedIntoOneMeasurementAtTheSameTime() {
        final MeasurementSchedule schedule = new MeasurementSchedule(5 * SECOND);
        final MeasurementSchedule.Decision first = schedule.decide(2 * SECOND, SECOND, false);
        final MeasurementSchedule.Decision second = schedule.decide(3 * SECOND, SECOND, true);
        assertTrue(second.coalesced());
        assertEquals(MeasurementSchedule.Action.DEFER, second.action());
        assertEquals(first.notBeforeNanos(), second.notBeforeNanos(), "the pending request keeps its time");
        assertTrue(schedule.decide(7 * SECOND, SECOND, true).coalesced());
    }

    /**
     * A load flapping every 100 ms for a minute, as a caller would drive the rule: never two
     * starts within the interval, never a need dropped, and the last state measured.
     */
    @Test
    void aFlappingLoadCannotCauseAMeasurementStormAndTheLastStateIsMeasured() {
        final long interval = 5 * SECOND;
        final MeasurementSchedule schedule = new MeasurementSchedule(interval);
        final List<Long> starts = new ArrayList<>();
        long lastStart = MeasurementSchedule.NEVER;
        long pendingAt = Long.MIN_VALUE;
        boolean pending = false;
        final long lastChange = 60 * SECOND;
        for (long now = 0; now <= 80 * SECOND; now += 10_000_000L) {
            if (pending && now - pendingAt >= 0) {
                starts.add(now);
                lastStart = now;
                pending = false;
            }
            final boolean stateChanges = now <= lastChange && now % (100_000_000L) == 0;
            if (stateChanges) {
                final MeasurementSchedule.Decision decision = schedule.decide(now, lastStart, pending);
                assertEquals(pending, decision.coalesced());
                if (decision.measureNow()) {
                    starts.add(now);
                    lastStart = now;
                    pending = false;
                } else {
                    pending = true;
                    pendingAt = decision.notBeforeNanos();
                }
            }
        }
        for (int i = 1; i < starts.size(); i++) {
            assertTrue(starts.get(i) - starts.get(i - 1) >= interval, "starts " + starts.get(i - 1) + " and " + starts.get(i));
        }
        // 601 changes over 60 s: starts at 0, 5, ..., 60 s; the change at 60 s comes just after the
        // deferred start at 60 s, so one more at 65 s measures it.
        assertEquals(14, starts.size(), starts.toString());
        assertEquals(65 * SECOND, starts.get(starts.size() - 1));
        assertTrue(starts.get(starts.size() - 1) >= lastChange, "the last state is measured");
        assertFalse(pending, "nothing left waiting");
    }

    @Test
    void aNegativeIntervalIsRefusedWithTheValue() {
        final IllegalArgumentException error = assertThrows(IllegalArgumentException.class, () -> new MeasurementSchedule(-1));
        assertTrue(error.getMessage().contains("-1"), error.getMessage());
        assertThrows(NullPointerException.class, () -> new MeasurementSchedule.Decision(null, 0, false));
    }
}
