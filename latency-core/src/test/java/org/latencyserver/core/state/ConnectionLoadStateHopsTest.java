package org.latencyserver.core.state;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class ConnectionLoadStateHopsTest {

    private static final CpuStatePair LOW_LOW = new CpuStatePair(CpuState.LOW, CpuState.LOW);

    @Test
    void theWorstHopIsTheHighestCodeAndAnUnknownHopMakesThePathUnknown() {
        assertEquals(PortState.loaded(97), ConnectionLoadState.worstOf(List.of(PortState.NORMAL, PortState.loaded(97),
            PortState.loaded(93))));
        assertEquals(PortState.SATURATED, ConnectionLoadState.worstOf(List.of(PortState.loaded(100), PortState.SATURATED)));
        assertEquals(PortState.UNKNOWN, ConnectionLoadState.worstOf(List.of(PortState.SATURATED, PortState.UNKNOWN)));
    }

    @Test
    void aChangeOfAnyHopIsAStateChangeEvenWhenTheWorstHopStaysTheSame() {
        final ConnectionLoadState before = ConnectionLoadState.ofHops(LOW_LOW, List.of(PortState.loaded(97), PortState.NORMAL));
        final ConnectionLoadState after = ConnectionLoadState.ofHops(LOW_LOW, List.of(PortState.loaded(97), PortState.loaded(93)));
        assertEquals(before.port(), after.port());
        assertTrue(after.isStateChangeFrom(before));
        assertEquals(2, after.loadedHopCount());
    }

    @Test
    void aOneHopPathIsTheThesisState() {
        assertEquals(new ConnectionLoadState(LOW_LOW, PortState.loaded(95)),
            ConnectionLoadState.ofHops(LOW_LOW, List.of(PortState.loaded(95))));
        assertNotEquals(new ConnectionLoadState(LOW_LOW, PortState.loaded(95)),
            ConnectionLoadState.ofHops(LOW_LOW, List.of(PortState.loaded(95), PortState.NORMAL)));
    }

    @Test
    void aPortThatIsNotTheWorstHopOrNoHopAtAllIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new ConnectionLoadState(LOW_LOW, PortState.NORMAL,
            List.of(PortState.loaded(95))));
        assertThrows(IllegalArgumentException.class, () -> new ConnectionLoadState(LOW_LOW, PortState.NORMAL, List.of()));
    }
}
