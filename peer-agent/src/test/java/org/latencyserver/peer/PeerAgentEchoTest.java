package org.latencyserver.peer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencyserver.idl.latency.EchoPeer;
import org.latencyserver.idl.latency.EchoPeerHelper;
import org.latencyserver.launch.ReadyFile;
import org.latencyserver.orb.Fm1Arrays;
import org.latencyserver.orb.OrbSupport;
import org.omg.CORBA.ORB;

/**
 * The peer agent as a user starts it, in its own JVM: every thesis size through {@code fm1}, any
 * size through the octet echo, and the plain TCP and UDP echoes, all over loopback sockets.
 */
class PeerAgentEchoTest {

    @TempDir
    Path directory;

    @Test
    void echoesFm1ArraysOctetSequencesTcpAndUdpExactly() throws Exception {
        final Path ior = directory.resolve("peer.ior");
        final Path readyFile = directory.resolve("peer.ready.json");
        final Path log = directory.resolve("peer.log");
        final Process peer = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-cp", System.getProperty("java.class.path"), "-Dlogback.configurationFile=logback.xml",
            PeerAgentMain.class.getName(), "--name", "ws2",
            "--ior-file", ior.toString(), "--ready-file", readyFile.toString(), "--tcp-port", "0", "--udp-port", "0")
            .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        final ORB orb = OrbSupport.init(new String[0], OrbSupport.properties("127.0.0.1", 0, 10_000));
        try {
            final ReadyFile ready = ReadyFile.await(readyFile, Duration.ofSeconds(30), peer::isAlive, () -> logOf(log));
            assertEquals(Files.readString(ior).trim(), ready.reference("peer"));
            final EchoPeer echo = EchoPeerHelper.narrow(orb.string_to_object(ready.reference("peer")));

            for (final int sizeBytes : Fm1Arrays.SIZES_BYTES) {
                final int[][] array = Fm1Arrays.numbered(sizeBytes);
                assertArrayEquals(array, Fm1Arrays.roundTrip(echo, array), sizeBytes + " bytes");
            }
            final byte[] odd = new byte[3000];
            for (int i = 0; i < odd.length; i++) {
                odd[i] = (byte) (i * 7);
            }
            assertArrayEquals(odd, echo.echo(odd));
            assertEquals(0, echo.echo(new byte[0]).length);

            final int tcpPort = ready.port("tcp");
            try (Socket socket = new Socket("127.0.0.1", tcpPort)) {
                final OutputStream out = socket.getOutputStream();
                final InputStream in = socket.getInputStream();
                out.write(odd);
                assertArrayEquals(odd, in.readNBytes(odd.length));
            }
            final int udpPort = ready.port("udp");
            try (DatagramSocket socket = new DatagramSocket()) {
                socket.setSoTimeout(5_000);
                socket.send(new DatagramPacket(odd, 256, new InetSocketAddress("127.0.0.1", udpPort)));
                final DatagramPacket answer = new DatagramPacket(new byte[512], 512);
                socket.receive(answer);
                assertEquals(256, answer.getLength());
                assertArrayEquals(java.util.Arrays.copyOf(odd, 256), java.util.Arrays.copyOf(answer.getData(), 256));
            }
        } finally {
            orb.shutdown(false);
            peer.destroy();
            assertTrue(peer.waitFor(10, TimeUnit.SECONDS));
        }
        assertTrue(Files.readString(log).contains("stopping after"), "a clean stop logs the echo count");
        assertFalse(Files.exists(readyFile), "a clean stop deletes the ready file");
    }

    private static String logOf(final Path log) {
        try {
            return Files.exists(log) ? Files.readString(log) : "(no log)";
        } catch (java.io.IOException e) {
            return "(log unreadable: " + e.getMessage() + ")";
        }
    }
}
