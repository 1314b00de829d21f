package org.latencyserver.server.corba;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.latencyserver.server.metrics.Operation;
import org.latencyserver.server.security.AccessPolicy;
import org.latencyserver.server.security.Caller;

/** What the servant asks before a write: switches, roles, polled sources. */
class WriteGuardTest {

    @Test
    void operatorCallsSwitchedOffRefuseExactlyPutMibUpdatesAndRequestTableStatus() {
        final WriteGuard guard = new WriteGuard(AccessPolicy.open(), () -> Caller.PLAIN, false, true, Map.of());
        for (final Operation operation : new Operation[] {Operation.PUT_MIB_UPDATES, Operation.REQUEST_TABLE_STATUS}) {
            final WriteGuard.Denial denied = guard.operator(operation);
            assertEquals(Refusal.DISABLED, denied.why());
            assertTrue(denied.reason().contains("server.operator_calls_enabled: false"), denied.reason());
        }
        assertNull(guard.planner(), "planner calls have their own switch");
        assertNull(guard.agent(Operation.SUBMIT_MEASUREMENT, "ws1"), "agents' results are not operator calls");
    }

    @Test
    void plannerCallsSwitchedOffRefuseLoadProfile() {
        final WriteGuard guard = new WriteGuard(AccessPolicy.open(), () -> Caller.PLAIN, true, false, Map.of());
        assertEquals(Refusal.DISABLED, guard.planner().why());
        assertNull(guard.operator(Operation.PUT_MIB_UPDATES));
    }

    @Test
    void aPushedReadingForAConnectionPolledAtEveryEndIsRefusedNamingTheSources() {
        final WriteGuard guard = new WriteGuard(AccessPolicy.open(), () -> Caller.PLAIN, true, true,
            Map.of((short) 7, new PolledSources("ws7", "ws8", null, false), (short) 8, new PolledSources("ws7", null, null, true)));
        final WriteGuard.Denial denied = guard.pushedReading((short) 7);
        assertEquals(Refusal.POLLED_SOURCE, denied.why());
        assertTrue(denied.reason().contains("its client ws7 and peer ws8 are polled by SNMP"), denied.reason());
        assertNull(guard.pushedReading((short) 1), "a pushed connection takes readings");
        assertNull(guard.pushedReading((short) 8), "a connection polled at one end takes readings for the others");
    }

    @Test
    void aPartlyPolledConnectionTakesThePushOnlyForItsPushedEnds() {
        final PolledSources clientPolled = new PolledSources("ws7", null, null, true);
        final org.latencyserver.server.table.MibReading merged = clientPolled.keepPolled(
            new org.latencyserver.server.table.MibReading((short) 90, (short) 20, (short) 95),
            new org.latencyserver.server.table.MibReading((short) 12, (short) 50, (short) 40));
        assertEquals(12, merged.clientCpuPercent(), "the polled client keeps its polled value");
        assertEquals(20, merged.peerCpuPercent());
        assertEquals(95, merged.portPercent());
    }

    @Test
    void theTicketIsShownOnlyWhenThePolicyAllows() {
        final WriteGuard open = WriteGuard.open();
        assertTrue(open.maySeeTicket("ws1"));
        final WriteGuard closed = new WriteGuard(AccessPolicy.authenticated(java.util.List.of()), () -> Caller.PLAIN, true, true,
            Map.of());
        assertEquals(false, closed.maySeeTicket("ws1"));
        assertEquals(Refusal.NOT_PERMITTED, closed.operator(Operation.PUT_MIB_UPDATES).why());
    }
}
