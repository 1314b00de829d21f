package org.latencyserver.peer;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import org.junit.jupiter.api.Test;

/** {@link SocketsOfThisProcess} sees this JVM's own bound sockets, and no longer once they are closed. */
class SocketsOfThisProcessTest {

    @Test
    void aListeningTcpSocketIsSeenWhileOpenAndNotOnceClosed() throws Exception {
        final int port;
        try (ServerSocket tcp = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            port = tcp.getLocalPort();
            assertTrue(SocketsOfThisProcess.holdPort("tcp", port), "listening on " + port);
        }
        assertFalse(SocketsOfThisProcess.holdPort("tcp", port), "closed: " + port);
    }

    @Test
    void aBoundUdpSocketIsSeenWhileOpenAndNotOnceClosed() throws Exception {
        final int port;
        try (DatagramSocket udp = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
            port = udp.getLocalPort();
            assertTrue(SocketsOfThisProcess.holdPort("udp", port), "bound to " + port);
        }
        assertFalse(SocketsOfThisProcess.holdPort("udp", port), "closed: " + port);
    }
}
