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
}
