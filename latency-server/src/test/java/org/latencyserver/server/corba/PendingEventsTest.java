package org.latencyserver.server.corba;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Undelivered events: every one while few wait, the newest per connection beyond the threshold, one out per connection. */
class PendingEventsTest {

    @Test
    void belowTheThresholdEveryEventIsKeptInTheOrderOfItsConnection() {
        final PendingEvents<String> pending = new PendingEvents<>(10);
        pending.add((short) 1, "1a");
        pending.add((short) 2, "2a");
        pending.add((short) 1, "1b");
        pending.add((short) 1, "1c");
        assertEquals(4, pending.waitingEvents());
        final List<String> delivered = new ArrayList<>();
        PendingEvents.Taken<String> taken;
        while ((taken = pending.takeNext()) != null || pending.waitingEvents() > 0) {
            if (taken == null) {
                throw new AssertionError("events wait but none was handed out");
            }
            delivered.add(taken.event());
            pending.delivered(taken.queue());
        }
        assertEquals(List.of("1a", "2a", "1b", "1c"), delivered, "connections take turns");
        assertEquals(0, pending.replacedEvents());
    }

    @Test
    void beyondTheThresholdANewEventReplacesWhatItsConnectionHasWaitingAndNothingElse() {
        final PendingEvents<String> pending = new PendingEvents<>(3);
        pending.add((short) 1, "1a");
        pending.add((short) 1, "1b");
        pending.add((short) 2, "2a");
        pending.add((short) 1, "1c");          // 3 wait: 1a and 1b give way to 1c
        assertEquals(2, pending.waitingEvents());
        assertEquals(2, pending.replacedEvents());
        pending.add((short) 3, "3a");          // a connection with nothing waiting is added, not replaced
        assertEquals(3, pending.waitingEvents());
        final List<String> delivered = new ArrayList<>();
        for (PendingEvents.Taken<String> taken = pending.takeNext(); taken != null; taken = pending.takeNext()) {
            delivered.add(taken.event());
            pending.delivered(taken.queue());
        }
        assertEquals(List.of("1c", "2a", "3a"), delivered, "the newest of connection 1 keeps its place");
    }

    @Test
    void aConnectionWithAnEventOutWaitsForItWhileOthersGoAhead() {
        final PendingEvents<String> pending = new PendingEvents<>(100);
        pending.add((short) 1, "1a");
        pending.add((short) 1, "1b");
        pending.add((short) 2, "2a");
        final PendingEvents.Taken<String> first = pending.takeNext();
        assertEquals("1a", first.event());
        assertTrue(pending.hasDeliverable());
        final PendingEvents.Taken<String> second = pending.takeNext();
        assertEquals("2a", second.event(), "1b must wait until 1a is delivered");
        assertFalse(pending.hasDeliverable(), "only 1b waits, and 1a is out");
        assertNull(pending.takeNext());
        pending.delivered(first.queue());
        assertTrue(pending.hasDeliverable());
        assertEquals("1b", pending.takeNext().event());
    }

    @Test
    void clearForgetsTheWaitingEvents() {
        final PendingEvents<String> pending = new PendingEvents<>(100);
        pending.add((short) 1, "1a");
        pending.add((short) 2, "2a");
        pending.clear();
        assertEquals(0, pending.waitingEvents());
        assertNull(pending.takeNext());
        assertFalse(pending.hasDeliverable());
    }
}
