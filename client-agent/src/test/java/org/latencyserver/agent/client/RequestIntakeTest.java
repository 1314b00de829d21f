package org.latencyserver.agent.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.latencyserver.agent.client.RequestIntake.Decision;
import org.latencyserver.idl.latency.MeasurementRequest;

/**
 * The agent's control logic without CORBA, on an injected monotonic clock: which requests it takes,
 * in which order, and when their deadlines come. The deadline is the receipt time plus the
 * request's remaining_millis; the server's epoch times (its own wall clock) play no part, so a
 * server whose clock is hours off this workstation's is served alike.
 */
class RequestIntakeTest {

    private static final long MS = 1_000_000L;
    private static final long HOUR_MS = 3_600_000L;
    /** This workstation's wall clock in the scenarios (the intake never reads it). */
    private static final long AGENT_WALL_MS = 1_700_000_000_000L;

    /** An arbitrary origin, negative like nanoTime may be. */
    private final AtomicLong nanos = new AtomicLong(-5_000_000_000L);
    private final RequestIntake intake = new RequestIntake(node -> Set.of("ws1").contains(node), nanos::get);

    private static MeasurementRequest request(final long ticket, final long serverNowMillis, final long remainingMillis) {
        return new MeasurementRequest((short) 3, ticket, "ws1", "ws2", "peers/ws2", 64, 1000, 100,
            serverNowMillis - 1_000, serverNowMillis + remainingMillis, remainingMillis, "load state changed", 0L, 0L, 100,
            new org.latencyserver.idl.latency.TrafficShape(1_000, 1000, 0, (short) 2));
    }

    private void advanceMillis(final long millis) {
        nanos.addAndGet(millis * MS);
    }

    @Test
    void aRequestWithTimeLeftIsTakenAndExpiresWhenItsRemainingTimeHasRunOutOnTheInjectedClock() throws Exception {
        assertEquals(Decision.TAKEN, intake.offer(request(7, AGENT_WALL_MS, 30_000)));
        final ReceivedRequest taken = intake.next(0, TimeUnit.MILLISECONDS);
        assertEquals(7, taken.request().ticket);
        assertEquals(30_000, intake.remainingMillis(taken));
        advanceMillis(29_999);
        assertFalse(intake.expired(taken));
        assertEquals(1, intake.remainingMillis(taken));
        advanceMillis(1);
        assertTrue(intake.expired(taken), "due at receipt + remaining_millis");
        advanceMillis(5_000);
        assertEquals(-5_000, intake.remainingMillis(taken));
    }

    @Test
    void aRetryWaitsTheBackOffDelayButNeverPastTheRequestsDeadline() throws Exception {
        assertEquals(Decision.TAKEN, intake.offer(request(7, AGENT_WALL_MS, 10_000)));
        final ReceivedRequest taken = intake.next(0, TimeUnit.MILLISECONDS);
        assertEquals(4_000, intake.retryDelayMillis(taken, 4_000));
        advanceMillis(8_500);
        assertEquals(1_500, intake.retryDelayMillis(taken, 4_000), "only what is left before the deadline");
        assertEquals(500, intake.retryDelayMillis(taken, 500));
        advanceMillis(2_000);
        assertEquals(0, intake.retryDelayMillis(taken, 4_000), "past the deadline: no wait, the loop gives up");
    }

    @Test
    void aRequestWithNoTimeLeftIsNotTaken() throws Exception {
        assertEquals(Decision.EXPIRED, intake.offer(request(7, AGENT_WALL_MS, 0)));
        assertEquals(Decision.EXPIRED, intake.offer(request(8, AGENT_WALL_MS, -500)));
        assertNull(intake.next(0, TimeUnit.MILLISECONDS));
        assertEquals(0, intake.rememberedTickets());
    }

    @Test
    void aServerClockHoursBehindDoesNotMakeAFreshRequestLookExpired() throws Exception {
        // The server's epoch deadline is three hours before this workstation's "now": compared
        // with the agent's wall clock it would be long past, yet the server waits 30 s more.
        final MeasurementRequest behind = request(7, AGENT_WALL_MS - 3 * HOUR_MS, 30_000);
        assertTrue(behind.deadline_epoch_millis < AGENT_WALL_MS);
        assertEquals(Decision.TAKEN, intake.offer(behind));
        final ReceivedRequest taken = intake.next(0, TimeUnit.MILLISECONDS);
        assertFalse(intake.expired(taken));
        assertEquals(30_000, intake.remainingMillis(taken));
    }

    @Test
    void aServerClockHoursAheadDoesNotKeepAnExpiredRequestAlive() throws Exception {
        // The server's epoch deadline is five hours after this workstation's "now": compared with
        // the agent's wall clock the request would be measured for hours after the server gave up.
        final MeasurementRequest ahead = request(7, AGENT_WALL_MS + 5 * HOUR_MS, 2_000);
        assertTrue(ahead.deadline_epoch_millis > AGENT_WALL_MS + HOUR_MS);
        assertEquals(Decision.TAKEN, intake.offer(ahead));
        final ReceivedRequest taken = intake.next(0, TimeUnit.MILLISECONDS);
        advanceMillis(2_000);
        assertTrue(intake.expired(taken));
        assertEquals(Decision.EXPIRED, intake.offer(request(8, AGENT_WALL_MS + 5 * HOUR_MS, 0)));
    }

    @Test
    void aRequestPolledAgainIsNotTakenTwiceAndItsDeadlineIsNotExtended() throws Exception {
        assertEquals(Decision.TAKEN, intake.offer(request(7, AGENT_WALL_MS, 10_000)));
        advanceMillis(5_000);
        // The server lists it again with 5 s left (pushed, then polled): the first receipt counts.
        assertEquals(Decision.ALREADY_TAKEN, intake.offer(request(7, AGENT_WALL_MS + 5_000, 5_000)));
        final ReceivedRequest taken = intake.next(0, TimeUnit.MILLISECONDS);
        assertNull(intake.next(0, TimeUnit.MILLISECONDS), "measured once");
        assertEquals(5_000, intake.remainingMillis(taken));
    }

    @Test
    void requestsForOtherNodesWithoutATicketOrNullAreLeftAlone() throws Exception {
        final MeasurementRequest otherNode = request(7, AGENT_WALL_MS, 10_000);
        otherNode.client_node_name = "ws9";
        assertEquals(Decision.NOT_OURS, intake.offer(otherNode));
        assertEquals(Decision.NOT_OURS, intake.offer(null));
        assertEquals(Decision.NO_TICKET, intake.offer(request(0, AGENT_WALL_MS, 10_000)));
        assertNull(intake.next(0, TimeUnit.MILLISECONDS));
        assertEquals(0, intake.rememberedTickets());
    }

    @Test
    void takenRequestsAreMeasuredFirstComeFirstServedAndOneThatExpiredWhileWaitingIsSeenAsExpired() throws Exception {
        assertEquals(Decision.TAKEN, intake.offer(request(1, AGENT_WALL_MS, 1_000)));
        advanceMillis(10);
        assertEquals(Decision.TAKEN, intake.offer(request(2, AGENT_WALL_MS, 60_000)));
        assertEquals(2, intake.waiting());
        advanceMillis(1_000); // the first waited behind another measurement past its deadline
        final ReceivedRequest first = intake.next(0, TimeUnit.MILLISECONDS);
        assertEquals(1, first.request().ticket);
        assertTrue(intake.expired(first), "dropped by the measuring thread, not measured");
        final ReceivedRequest second = intake.next(0, TimeUnit.MILLISECONDS);
        assertEquals(2, second.request().ticket);
        assertFalse(intake.expired(second));
    }

    @Test
    void takenTicketsAreForgottenAMinuteAfterTheirDeadline() {
        assertEquals(Decision.TAKEN, intake.offer(request(1, AGENT_WALL_MS, 1_000)));
        assertEquals(Decision.TAKEN, intake.offer(request(2, AGENT_WALL_MS, 120_000)));
        advanceMillis(1_000 + 60_000);
        intake.forgetExpiredTickets();
        assertEquals(2, intake.rememberedTickets(), "not yet more than a minute past");
        advanceMillis(1);
        intake.forgetExpiredTickets();
        assertEquals(1, intake.rememberedTickets());
        // Still remembered: listed again (late), it is not taken a second time.
        assertEquals(Decision.ALREADY_TAKEN, intake.offer(request(2, AGENT_WALL_MS, 60_000)));
    }

    @Test
    void aHugeRemainingTimeDoesNotOverflowTheLocalDeadline() throws Exception {
        nanos.set(Long.MAX_VALUE / 2);
        assertEquals(Decision.TAKEN, intake.offer(request(7, AGENT_WALL_MS, Long.MAX_VALUE)));
        final ReceivedRequest taken = intake.next(0, TimeUnit.MILLISECONDS);
        assertFalse(intake.expired(taken));
        assertTrue(intake.remainingMillis(taken) > 0);
    }

    @Test
    void theLocalDeadlineIsTheReceiptTimePlusTheRemainingTime() {
        final MeasurementRequest request = request(7, AGENT_WALL_MS, 2_500);
        final ReceivedRequest received = ReceivedRequest.receivedAt(request, 123_456_789L);
        assertSame(request, received.request());
        assertEquals(123_456_789L + 2_500 * MS, received.deadlineNanos());
        assertFalse(received.expired(123_456_789L + 2_500 * MS - 1));
        assertTrue(received.expired(123_456_789L + 2_500 * MS));
    }
}
