package org.latencyserver.server.corba;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.latencyserver.server.engine.Refusal;
import org.latencyserver.server.metrics.Operation;
import org.latencyserver.server.security.AccessPolicy;
import org.latencyserver.server.security.Caller;

/** What the servant asks before a write: switches, roles, polled sources. */
class WriteGuardTest {

    @Test
    void operatorCallsSwitchedOffRefuseExactlyPutMibUpdatesAndRequestTableStatus() {
        final WriteGuard guard = new WriteGuard(AccessPolicy.open(), () -> Caller.PLAIN, false, true, Map.of());
        for (final Operation operation : new Operation[] {Operation.PUT_MIB_UPDATES, Operation.REQUEST_TABLE_STATUS}) {
            final Refusal denied = guard.operator(operation).orElseThrow();
            assertEquals(Refusal.Kind.DISABLED, denied.kind());
            assertTrue(denied.message().contains("server.operator_calls_enabled: false"), denied.message());
        }
        assertEquals(Optional.empty(), guard.planner(), "planner calls have their own switch");
        assertEquals(Optional.empty(), guard.agent(Operation.SUBMIT_MEASUREMENT, "ws1"), "agents' results are not operator calls");
    }

    @Test
    void plannerCallsSwitchedOffRefuseLoadProfile() {
        final WriteGuard guard = new WriteGuard(AccessPolicy.open(), () -> Caller.PLAIN, true, false, Map.of());
        assertEquals(Refusal.Kind.DISABLED, guard.planner().orElseThrow().kind());
        assertEquals(Optional.empty(), guard.operator(Operation.PUT_MIB_UPDATES));
    }

    @Test
    void aPushedReadingForAConnectionPolledAtEveryEndIsRefusedNamingTheSources() {
        final WriteGuard guard = new WriteGuard(AccessPolicy.open(), () -> Caller.PLAIN, true, true,
            Map.of((short) 7, new PolledSources("ws7", "ws8", null, false), (short) 8, new PolledSources("ws7", null, null, true)));
        final Refusal denied = guard.pushedReading((short) 7).orElseThrow();
        assertEquals(Refusal.Kind.POLLED_SOURCE, denied.kind());
        assertTrue(denied.message().contains("its client ws7 and peer ws8 are polled by SNMP"), denied.message());
        assertEquals(Optional.empty(), guard.pushedReading((short) 1), "a pushed connection takes readings");
        assertEquals(Optional.empty(), guard.pushedReading((short) 8), "a connection polled at one end takes readings for the others");
    }

    @Test
    void aPartlyPolledConnectionTakesThePushOnlyForItsPushedEnds() {
        final PolledSources clientPolled = new PolledSources("ws7", null, null, true);
        final org.latencyserver.server.table.MibReading merged = clientPolled.pushed(
            new org.latencyserver.server.table.MibReading((short) 90, (short) 20, (short) 95))
            .mergeInto(new org.latencyserver.server.table.MibReading((short) 12, (short) 50, (short) 40));
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
        assertEquals(Refusal.Kind.NOT_PERMITTED, closed.operator(Operation.PUT_MIB_UPDATES).orElseThrow().kind());
    }
}
