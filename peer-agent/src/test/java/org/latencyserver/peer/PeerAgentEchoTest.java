package org.latencyserver.peer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencyserver.idl.latency.EchoPeer;
import org.latencyserver.idl.latency.EchoPeerHelper;
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
        final Path log = directory.resolve("peer.log");
        final Process peer = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-cp", System.getProperty("java.class.path"), "-Dlogback.configurationFile=logback.xml",
            PeerAgentMain.class.getName(), "--name", "ws2",
            "--ior-file", ior.toString(), "--tcp-port", "0", "--udp-port", "0")
            .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        final ORB orb = OrbSupport.init(new String[0], OrbSupport.properties("127.0.0.1", 0, 10_000));
        try {
            final String ready = awaitReady(log, peer);
            final EchoPeer echo = EchoPeerHelper.narrow(orb.string_to_object(Files.readString(ior).trim()));

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

            final int tcpPort = port(ready, "tcp echo 127.0.0.1:");
            try (Socket socket = new Socket("127.0.0.1", tcpPort)) {
                final OutputStream out = socket.getOutputStream();
                final InputStream in = socket.getInputStream();
                out.write(odd);
                assertArrayEquals(odd, in.readNBytes(odd.length));
            }
            final int udpPort = port(ready, "udp echo 127.0.0.1:");
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
    }

    private static int port(final String ready, final String prefix) {
        final int start = ready.indexOf(prefix) + prefix.length();
        int end = start;
        while (end < ready.length() && Character.isDigit(ready.charAt(end))) {
            end++;
        }
        return Integer.parseInt(ready.substring(start, end));
    }

    private static String awaitReady(final Path log, final Process process) throws Exception {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            if (Files.exists(log)) {
                for (final String line : Files.readAllLines(log)) {
                    if (line.startsWith("peer-agent ws2 ready")) {
                        return line;
                    }
                }
            }
            assertTrue(process.isAlive(), "the peer agent exited");
            Thread.sleep(100);
        }
        throw new AssertionError("not ready:\n" + Files.readString(log));
    }
}
