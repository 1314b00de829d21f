package org.latencyserver.server.corba;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.latencyserver.idl.latency.MeasurementRequest;

/** A measurement request's deadline crosses hosts as a duration by the server's own clock. */
class IdlConversionsTest {

    @Test
    void theRemainingTimeIsTheDeadlineLessTheServersNowAndNeverNegative() {
        assertEquals(30_000, IdlConversions.remainingMillis(1_000_030_000L, 1_000_000_000L));
        assertEquals(0, IdlConversions.remainingMillis(1_000_000_000L, 1_000_000_000L));
        assertEquals(0, IdlConversions.remainingMillis(1_000_000_000L, 1_000_000_500L));
    }

    @Test
    void aRequestWithoutItsTicketKeepsItsRemainingTime() {
        final MeasurementRequest request = new MeasurementRequest((short) 3, 42, "ws1", "ws2", "peers/ws2", 64, 1000, 100,
            1_000L, 31_000L, 25_000L, "load state changed", 9_000_000L, 10_000L, 100);
        final MeasurementRequest shown = IdlConversions.withoutTicket(request);
        assertEquals(0, shown.ticket);
        assertEquals(25_000L, shown.remaining_millis);
        assertEquals(31_000L, shown.deadline_epoch_millis);
        assertEquals("load state changed", shown.reason);
        assertEquals(9_000_000L, shown.min_interval_nanos);
        assertEquals(10_000L, shown.time_budget_millis);
        assertEquals(100, shown.min_round_trips);
    }
}
