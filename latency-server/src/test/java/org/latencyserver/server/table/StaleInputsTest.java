package org.latencyserver.server.table;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The inputs that stopped answering: read from the MIB values, named in the reason and the metric labels, immutable. */
class StaleInputsTest {

    private static MibReading mib(final int client, final int peer, final int port) {
        return new MibReading((short) client, (short) peer, (short) port);
    }

    @Test
    void theUnknownValuesAreTheStaleInputsInTheirOrder() {
        assertEquals(StaleInputs.NONE, StaleInputs.unknownIn(mib(10, 20, 30)));
        assertFalse(StaleInputs.unknownIn(mib(10, 20, 30)).isStale());
        assertEquals(List.of(StaleInputs.Input.CLIENT_CPU, StaleInputs.Input.PEER_CPU, StaleInputs.Input.PORT),
            List.copyOf(StaleInputs.unknownIn(mib(-1, -1, -1)).inputs()));
        assertEquals(StaleInputs.of(StaleInputs.Input.PORT, StaleInputs.Input.PEER_CPU), StaleInputs.unknownIn(mib(10, -1, -1)),
            "the order given does not matter");
        assertTrue(StaleInputs.unknownIn(mib(10, 20, -1)).contains(StaleInputs.Input.PORT));
    }

    @Test
    void theReasonIsTheTextTheInterfaceCarries() {
        assertEquals("", StaleInputs.NONE.reason());
        assertEquals("client workstation CPU utilisation unknown", StaleInputs.unknownIn(mib(-1, 20, 30)).reason());
        assertEquals("peer workstation CPU utilisation unknown", StaleInputs.unknownIn(mib(10, -1, 30)).reason());
        assertEquals("switch port utilisation unknown", StaleInputs.unknownIn(mib(10, 20, -1)).reason());
        assertEquals("peer workstation CPU utilisation unknown; switch port utilisation unknown",
            StaleInputs.unknownIn(mib(10, -1, -1)).reason());
        assertEquals("CPU utilisation of both workstations unknown; switch port utilisation unknown",
            StaleInputs.unknownIn(mib(-1, -1, -1)).reason());
    }

    @Test
    void eachInputHasItsMetricLabel() {
        assertEquals(List.of("client_cpu_unknown", "peer_cpu_unknown", "port_unknown"),
            List.of(StaleInputs.Input.values()).stream().map(StaleInputs.Input::metricLabel).toList());
    }

    @Test
    void theSetCannotBeChangedFromOutside() {
        final StaleInputs port = StaleInputs.of(StaleInputs.Input.PORT);
        assertThrows(UnsupportedOperationException.class, () -> port.inputs().add(StaleInputs.Input.CLIENT_CPU));
        assertEquals(StaleInputs.of(StaleInputs.Input.PORT), port);
    }
}
