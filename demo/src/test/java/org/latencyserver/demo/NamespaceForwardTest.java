package org.latencyserver.demo;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Both ends of the forward in one namespace: a TCP client on the listener's port reaches a TCP echo
 * server through the socket file and the inner end, bytes unchanged both ways, and a half-close
 * passes through (the echo server sees the end of the request and answers it).
 */
class NamespaceForwardTest {

    @TempDir
    Path directory;

    @Test
    void aConnectionToTheListenerReachesThePortBehindTheSocketFileBothWays() throws Exception {
        try (ServerSocket echo = new ServerSocket(0, 10, InetAddress.getLoopbackAddress())) {
            final Thread echoer = new Thread(() -> {
                try (Socket s = echo.accept(); InputStream in = s.getInputStream(); OutputStream out = s.getOutputStream()) {
                    out.write(in.readAllBytes()); // to the end of the request: the client's half-close must arrive
                } catch (Exception e) {
                    // the test fails on what it reads
                }
            });
            echoer.setDaemon(true);
            echoer.start();
            final Path socket = directory.resolve("web.sock");
            final Thread inner = new Thread(() -> {
                try {
                    NamespaceForward.main(new String[] {socket + "=" + echo.getLocalPort()});
                } catch (Exception e) {
                    // ends with the test's JVM
                }
            });
            inner.setDaemon(true);
            inner.start();
            final long deadline = System.nanoTime() + 10_000_000_000L;
            while (!Files.exists(socket) && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertTrue(Files.exists(socket), "the inner end made its socket file");
            final byte[] request = new byte[100_000];
            new Random(7).nextBytes(request);
            try (NamespaceForward.Listener listener = NamespaceForward.Listener.open(0, socket);
                 Socket client = new Socket(InetAddress.getLoopbackAddress(), listener.port())) {
                client.getOutputStream().write(request);
                client.shutdownOutput();
                assertArrayEquals(request, client.getInputStream().readAllBytes());
            }
        }
    }
}
