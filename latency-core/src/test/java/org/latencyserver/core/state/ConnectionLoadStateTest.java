package org.latencyserver.core.state;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ConnectionLoadStateTest {

    private static ConnectionLoadState state(final CpuState client, final CpuState peer, final PortState port) {
        return new ConnectionLoadState(new CpuStatePair(client, peer), port);
    }

    @Test
    void aChangeOfEitherCpuStateOrThePortIsAStateChange() {
        final ConnectionLoadState base = state(CpuState.LOW, CpuState.MEDIUM, PortState.NORMAL);
        assertFalse(state(CpuState.LOW, CpuState.MEDIUM, PortState.NORMAL).isStateChangeFrom(base));
        assertTrue(state(CpuState.HIGH, CpuState.MEDIUM, PortState.NORMAL).isStateChangeFrom(base), "client CPU");
        assertTrue(state(CpuState.LOW, CpuState.LOW, PortState.NORMAL).isStateChangeFrom(base), "peer CPU");
        assertTrue(state(CpuState.MEDIUM, CpuState.LOW, PortState.NORMAL).isStateChangeFrom(base), "ends swapped loads");
        assertTrue(state(CpuState.LOW, CpuState.MEDIUM, PortState.loaded(91)).isStateChangeFrom(base), "port over 90 %");
        assertTrue(state(CpuState.LOW, CpuState.MEDIUM, PortState.loaded(92))
            .isStateChangeFrom(state(CpuState.LOW, CpuState.MEDIUM, PortState.loaded(91))), "loaded port changed");
        assertTrue(state(CpuState.LOW, CpuState.MEDIUM, PortState.UNKNOWN).isStateChangeFrom(base), "port lost");
        assertTrue(base.isStateChangeFrom(ConnectionLoadState.UNKNOWN), "first state known");
        assertTrue(base.isStateChangeFrom(null), "no state before");
    }

    @Test
    void aStateIsKnownWhenBothCpuStatesAreKnownWhateverThePort() {
        assertTrue(state(CpuState.LOW, CpuState.HIGH, PortState.UNKNOWN).isKnown());
        assertFalse(state(CpuState.UNKNOWN, CpuState.HIGH, PortState.NORMAL).isKnown());
        assertFalse(ConnectionLoadState.UNKNOWN.isKnown());
        assertThrows(NullPointerException.class, () -> new ConnectionLoadState(null, PortState.NORMAL));
        assertThrows(NullPointerException.class,
            () -> new ConnectionLoadState(new CpuStatePair(CpuState.LOW, CpuState.LOW), null));
    }
}
