package org.latencyserver.server.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import org.junit.jupiter.api.Test;
import org.latencyserver.core.state.ConnectionLoadState;
import org.latencyserver.core.state.WorkstationType;

/** The row's builder and withers change exactly the fields they name. */
class ConnectionRowTest {

    private static final ConnectionRow INITIAL = ConnectionRow.initial(new ConnectionSpec((short) 1, "ws1", (short) 1,
        WorkstationType.TAC_4, "ws2", (short) 2, WorkstationType.TAC_4, "port-a", 256, 3, 0, null), 5);

    @Test
    void aBuilderLeftAloneBuildsAnEqualRow() {
        assertEquals(INITIAL, INITIAL.toBuilder().build());
    }

    @Test
    void aBuilderChangesOnlyTheFieldsItIsGiven() {
        final ConnectionRow changed = INITIAL.toBuilder().staleInputs(StaleInputs.of(StaleInputs.Input.PORT)).version(9).build();
        assertEquals(StaleInputs.of(StaleInputs.Input.PORT), changed.staleInputs());
        assertEquals(9, changed.version());
        assertEquals(INITIAL, changed.toBuilder().staleInputs(StaleInputs.NONE).version(0).build(), "every other field is kept");
    }

    @Test
    void newMibValuesPushTheLatestToPreviousAndMoveTheVersionOn() {
        final MibReading reading = new MibReading((short) 10, (short) 20, (short) 30);
        final ConnectionRow changed = INITIAL.withMib(reading, ConnectionLoadState.UNKNOWN, 77);
        assertEquals(reading, changed.latest());
        assertEquals(INITIAL.latest(), changed.previous());
        assertEquals(INITIAL.version() + 1, changed.version());
        assertEquals(77, changed.changedEpochMillis());
        assertNotEquals(INITIAL.changedEpochMillis(), changed.changedEpochMillis());
    }

    @Test
    void theNextVersionChangesOnlyTheVersionAndItsTime() {
        final ConnectionRow next = INITIAL.withNextVersion(99);
        assertEquals(INITIAL.version() + 1, next.version());
        assertEquals(99, next.changedEpochMillis());
        assertEquals(INITIAL, next.toBuilder().version(INITIAL.version()).changedEpochMillis(INITIAL.changedEpochMillis()).build());
    }
}
