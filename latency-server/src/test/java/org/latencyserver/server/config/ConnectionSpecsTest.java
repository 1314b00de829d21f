package org.latencyserver.server.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.latencyserver.core.state.WorkstationType;
import org.latencyserver.server.table.CalibrationMode;
import org.latencyserver.server.table.ConnectionSpec;

class ConnectionSpecsTest {

    private static final NodeConfig WS1 = new NodeConfig("ws1", (short) 11, WorkstationType.TAC_4, MibSource.PUSH, null);
    private static final NodeConfig WS2 = new NodeConfig("ws2", (short) 12, WorkstationType.TAC_3, MibSource.PUSH, null);
    private static final LinkConfig PORT = new LinkConfig("port-a", MibSource.PUSH, null, 0, 0);

    @Test
    void theSpecCarriesEachEndsNameIdAndTypeAndTheLinksName() {
        final ConnectionSpec spec = ConnectionSpecs.of((short) 3, WS1, WS2, PORT, 512, 4, 96, null, CalibrationMode.ADAPTIVE, 5);

        assertEquals("ws1", spec.clientNodeName());
        assertEquals(11, spec.clientNodeId());
        assertEquals(WorkstationType.TAC_4, spec.clientWorkstationType());
        assertEquals("ws2", spec.peerNodeName());
        assertEquals(12, spec.peerNodeId());
        assertEquals(WorkstationType.TAC_3, spec.peerWorkstationType());
        assertEquals(List.of("port-a"), spec.linkNames());
        assertEquals(5.0, spec.probeRatePerSecond());
    }

    @Test
    void withoutALinkTheSpecNamesNoneAndTheShortFormHasTheThesisSemanticsWithoutProbes() {
        final ConnectionSpec spec = ConnectionSpecs.of((short) 3, WS1, WS2, null, 512, 3, 0, null);

        assertEquals(List.of(), spec.linkNames());
        assertEquals(CalibrationMode.THESIS, spec.calibration());
        assertEquals(0.0, spec.probeRatePerSecond());
    }

    @Test
    void aConnectionFromANodeToItselfIsRefusedNamingTheNode() {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> ConnectionSpecs.of((short) 3, WS1, WS1, null, 512, 3, 0, null));

        assertTrue(e.getMessage().contains("connection 3") && e.getMessage().contains("ws1"), e.getMessage());
    }
}
