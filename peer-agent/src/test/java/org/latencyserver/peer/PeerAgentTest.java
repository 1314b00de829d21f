package org.latencyserver.peer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencyserver.idl.latency.EchoPeer;
import org.latencyserver.idl.latency.EchoPeerHelper;
import org.latencyserver.launch.ReadyFile;
import org.latencyserver.orb.OrbSupport;
import org.omg.CORBA.ORB;

/** The peer agent launched from a context in this JVM, as {@link PeerAgentMain} launches it. */
class PeerAgentTest {

    @TempDir
    Path directory;

    @Test
    void theReportedReferenceEchoesTheReportedPortsAreItsEchoesAndCloseReleasesThem() throws Exception {
        final Path iorFile = directory.resolve("peer-ws2.ior");
        final PeerAgent peer = PeerAgent.launch(new PeerAgentContext().node("ws2").iorFile(iorFile).tcpPort(0).udpPort(0));
        final ReadyFile ready;
        final ORB orb = OrbSupport.init(new String[0], OrbSupport.properties("127.0.0.1", 0, 10_000));
        try {
            ready = peer.readyFile().build();
            assertEquals("peer-agent", ready.component());
            assertEquals("ws2", ready.fact("node"));
            assertEquals(iorFile.toAbsolutePath(), ready.file("ior"));
            assertEquals(ready.reference("peer"), Files.readString(iorFile).trim());
            assertFalse(ready.facts().containsKey("name"), "registered nowhere without a naming service");

            final EchoPeer echo = EchoPeerHelper.narrow(orb.string_to_object(ready.reference("peer")));
            final byte[] payload = {1, 2, 3, 5, 8, 13};
            assertArrayEquals(payload, echo.echo(payload));
            assertEquals(1, peer.echoCount());
            assertEquals(peer.tcpPort(), ready.port("tcp"));
            assertEquals(peer.udpPort(), ready.port("udp"));
        } finally {
            orb.shutdown(false);
            peer.close();
        }
        peer.close();
        final int tcpPort = ready.port("tcp");
        final int udpPort = ready.port("udp");
        assertReleased("tcp", tcpPort, () -> {
            try (ServerSocket tcp = new ServerSocket(tcpPort, 50, InetAddress.getLoopbackAddress())) {
                assertTrue(tcp.isBound(), "bound again");
            }
        });
        assertReleased("udp", udpPort, () -> {
            try (DatagramSocket udp = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), udpPort))) {
                assertTrue(udp.isBound(), "bound again");
            }
        });
    }

    /** Binds a port again and closes it; throws what binding throws. */
    private interface Rebind {
        void bindAndClose() throws java.io.IOException;
    }

    /**
     * Closed, the peer agent no longer holds {@code port}: binding it again succeeds or, when another
     * process took the freed OS-assigned port meanwhile (other tests' clients on a busy machine), no
     * socket of this JVM is bound to it.
     */
    private static void assertReleased(final String protocol, final int port, final Rebind rebind) throws Exception {
        // First, straight after close(): no socket of this JVM may still hold the port (a close that returned
        // before releasing its sockets fails here).
        assertFalse(SocketsOfThisProcess.holdPort(protocol, port), "closed, the peer agent no longer holds its "
            + protocol + " echo port " + port);
        try {
            rebind.bindAndClose();
        } catch (java.net.BindException takenMeanwhile) {
            // Another process took the freed port at once (other modules' tests run beside this one): still not ours.
            assertFalse(SocketsOfThisProcess.holdPort(protocol, port), "closed, the peer agent no longer holds its "
                + protocol + " echo port " + port + " (binding it again: " + takenMeanwhile.getMessage() + ")");
        }
    }

    @Test
    void withoutSocketEchoesTheReadyFileHasNoPorts() throws Exception {
        try (PeerAgent peer = PeerAgent.launch(new PeerAgentContext().node("ws3"))) {
            final ReadyFile ready = peer.readyFile().build();
            assertTrue(ready.ports().isEmpty(), ready.ports().toString());
            assertTrue(ready.reference("peer").startsWith("IOR:"));
            assertTrue(ready.files().isEmpty(), "no IOR file was asked for");
        }
    }

    @Test
    void aPortInUseFailsTheLaunchAndLeavesNoIorFile() throws Exception {
        final Path iorFile = directory.resolve("peer-ws2.ior");
        Files.writeString(iorFile, "IOR:of-an-earlier-run");
        try (ServerSocket taken = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            assertThrows(java.io.IOException.class, () -> PeerAgent.launch(
                new PeerAgentContext().node("ws2").iorFile(iorFile).tcpPort(taken.getLocalPort())));
        }
        assertFalse(Files.exists(iorFile), "an IOR file would point at a peer that is not there");
    }

    @Test
    void badSettingsAreRefusedNamingTheOptionAndValue() {
        final IllegalArgumentException node = assertThrows(IllegalArgumentException.class,
            () -> new PeerAgentContext().node("peers/ws2").validate());
        assertTrue(node.getMessage().contains("--name") && node.getMessage().contains("peers/ws2"), node.getMessage());
        final IllegalArgumentException port = assertThrows(IllegalArgumentException.class,
            () -> new PeerAgentContext().node("ws2").udpPort(70_000).validate());
        assertTrue(port.getMessage().contains("--udp-port") && port.getMessage().contains("70000"), port.getMessage());
        final IllegalArgumentException corba = assertThrows(IllegalArgumentException.class,
            () -> new PeerAgentContext().node("ws2").corbaPort(-1).validate());
        assertTrue(corba.getMessage().contains("--port"), corba.getMessage());
    }

    @Test
    void servingOverTlsWithoutThePeersCertificateIsRefusedNamingTheOptions() {
        final IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
            () -> new PeerAgentContext().node("ws2").tlsPort(0).validate());
        assertTrue(refused.getMessage().contains("--tls-port") && refused.getMessage().contains("--tls-keystore")
            && refused.getMessage().contains("peer-ws2.p12"), refused.getMessage());
        final IllegalArgumentException port = assertThrows(IllegalArgumentException.class,
            () -> new PeerAgentContext().node("ws2").tlsPort(-2).validate());
        assertTrue(port.getMessage().contains("--tls-port"), port.getMessage());
    }
}
