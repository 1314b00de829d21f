package org.latencyserver.testkit;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.ServerSocket;
import org.junit.jupiter.api.Test;

class FreePortsTest {

    @Test
    void thePortIsBelowTheEphemeralRangeAndCanBeBound() throws Exception {
        final int port = FreePorts.belowEphemeralRange();
        assertTrue(port >= 20_000 && port < FreePorts.ephemeralStart(), port + " against " + FreePorts.ephemeralStart());
        try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            assertTrue(socket.isBound());
        }
    }

    @Test
    void aPortWithHeadroomHasThatManyPortsAboveItBelowTheEphemeralRange() {
        // A tenth of the range: a pick that ignored it would land there at least once in 50 picks (1 - 0.9^50, 99.5 %).
        final int headroom = (FreePorts.ephemeralStart() - 20_000) / 10;
        for (int i = 0; i < 50; i++) {
            final int port = FreePorts.belowEphemeralRange(headroom);
            assertTrue(port >= 20_000 && port + headroom < FreePorts.ephemeralStart(),
                port + " + " + headroom + " against " + FreePorts.ephemeralStart());
        }
    }
}
