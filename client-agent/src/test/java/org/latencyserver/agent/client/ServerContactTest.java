package org.latencyserver.agent.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.latencyserver.orb.Backoff;

/** The agent's control thread's decisions, contact by contact, without a server. */
class ServerContactTest {

    private static final long POLL_MILLIS = 3_000;

    private final ServerContact contact = new ServerContact(POLL_MILLIS, new Backoff(500, 2_000));

    @Test
    void anAnsweringServerIsSubscribedToOnceAndPolledEveryInterval() {
        assertTrue(contact.needsSubscribing());
        assertEquals(0, contact.subscribed(41), "nothing to cancel at the first subscription");
        assertFalse(contact.needsSubscribing());
        for (int poll = 0; poll < 3; poll++) {
            final ServerContact.Next next = contact.answered();
            assertEquals(POLL_MILLIS, next.waitMillis());
            assertFalse(next.answersAgain() || next.outageBegins());
            assertFalse(contact.needsSubscribing());
        }
    }

    @Test
    void anOutageIsSaidOnceRetriedWithBackOffAndEndsWithANewSubscriptionThatCancelsTheOld() {
        contact.subscribed(41);
        contact.answered();
        final ServerContact.Next first = contact.unreachable();
        assertTrue(first.outageBegins());
        assertEquals(500, first.waitMillis());
        final ServerContact.Next second = contact.unreachable();
        assertFalse(second.outageBegins(), "the outage is said once");
        assertEquals(1_000, second.waitMillis());
        assertEquals(2_000, contact.unreachable().waitMillis());
        assertEquals(2_000, contact.unreachable().waitMillis(), "capped");

        assertTrue(contact.needsSubscribing(), "a server found again is subscribed to again");
        assertEquals(41, contact.subscribed(42), "the old subscription is cancelled");
        final ServerContact.Next back = contact.answered();
        assertTrue(back.answersAgain());
        assertEquals(POLL_MILLIS, back.waitMillis());
        assertFalse(contact.answered().answersAgain(), "said once");

        // the next outage starts from the first delay again
        final ServerContact.Next again = contact.unreachable();
        assertTrue(again.outageBegins());
        assertEquals(500, again.waitMillis());
    }

    @Test
    void aServerUnreachableAtTheFirstTryIsAnOutage() {
        final ServerContact.Next next = contact.unreachable();
        assertTrue(next.outageBegins());
        assertTrue(contact.needsSubscribing());
    }

    @Test
    void aRefusedSubscriptionIsSaidOnceAndAskedForAgainWhilePollingGoesOn() {
        assertTrue(contact.subscriptionRefused());
        assertEquals(POLL_MILLIS, contact.answered().waitMillis());
        assertTrue(contact.needsSubscribing());
        assertFalse(contact.subscriptionRefused(), "said once");
        assertEquals(0, contact.subscribed(7), "a refused subscription leaves nothing to cancel");
    }
}
