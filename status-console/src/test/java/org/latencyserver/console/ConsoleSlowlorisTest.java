package org.latencyserver.console;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.latencyserver.console.ConsoleHttpClient.Response;

/**
 * Fifty slow connections at once (slowloris: a request head sent one line every 2 s, each
 * connection opened again as soon as the console closes it) do not stop the console serving its
 * page: over plain HTTP on loopback, and over HTTPS, where a client without a certificate can only
 * trickle its TLS handshake. Every page fetched while they trickle is served, from the first
 * moment (all fifty holding a thread) until the console has closed as many slow connections as
 * there are and they have come back. A console that never closed them would hang, hence the timeout.
 */
class ConsoleSlowlorisTest {

    /** Slow connections kept open at once. */
    private static final int SLOW_CONNECTIONS = 50;
    /** Milliseconds between two lines (or bytes of a handshake) of a slow connection. */
    private static final long TRICKLE_INTERVAL_MILLIS = 2_000;
    /** Milliseconds between two pages fetched while the slow connections trickle: until the console has closed as many as there are. */
    private static final long PAGE_INTERVAL_MILLIS = 500;

    @TempDir
    Path directory;

    @Test
    @Timeout(180)
    void fiftySlowHttpConnectionsLeaveThePageServed() throws Exception {
        try (ConsoleWebServer web = new ConsoleWebServer(unreachableFeed(), "127.0.0.1", 0, 4)) {
            web.start();
            final byte[] head = ("GET / HTTP/1.1\r\nHost: 127.0.0.1:" + web.port() + "\r\n").getBytes(StandardCharsets.ISO_8859_1);
            try (Tricklers slow = new Tricklers(web.port(), head, "X-Slow: 1\r\n".getBytes(StandardCharsets.ISO_8859_1))) {
                slow.awaitAllOpen();
                do {
                    final Response response = ConsoleHttpClient.request(web.port(), "GET", "/", "127.0.0.1:" + web.port());
                    assertEquals(200, response.status(), response.head());
                    Thread.sleep(PAGE_INTERVAL_MILLIS);
                } while (slow.closedByConsole() < SLOW_CONNECTIONS);
            }
        }
    }

    @Test
    @Timeout(180)
    void fiftySlowHandshakesLeaveThePageServedToAnOperatorOverHttps() throws Exception {
        final HttpsTestStores stores = HttpsTestStores.make(directory);
        try (ConsoleWebServer web = new ConsoleWebServer(unreachableFeed(), "127.0.0.1", 0, 4, OperatorHttps.of(stores.consoleStores()))) {
            web.start();
            final javax.net.ssl.SSLContext operatorTls = stores.clientContext(stores.client("operator", "alice"));
            // The first bytes of a TLS handshake record, then one byte of the ClientHello at a time.
            try (Tricklers slow = new Tricklers(web.port(), new byte[] {0x16, 0x03, 0x01, 0x02, 0x00}, new byte[] {0x01})) {
                slow.awaitAllOpen();
                do {
                    // A client of its own each time, so each page makes its own connection and handshake beside the slow ones.
                    final HttpClient operator = HttpClient.newBuilder().sslContext(operatorTls).version(HttpClient.Version.HTTP_1_1)
                        .connectTimeout(Duration.ofSeconds(10)).build();
                    final HttpResponse<String> response = operator.send(HttpRequest.newBuilder(
                            URI.create("https://127.0.0.1:" + web.port() + "/")).timeout(Duration.ofSeconds(20)).build(),
                        HttpResponse.BodyHandlers.ofString());
                    assertEquals(200, response.statusCode(), response.body());
                    Thread.sleep(PAGE_INTERVAL_MILLIS);
                } while (slow.closedByConsole() < SLOW_CONNECTIONS);
            }
        }
    }

    private static ServerFeed unreachableFeed() {
        return new ServerFeed("test-server", () -> {
            throw new org.omg.CORBA.TRANSIENT("no server in this test");
        }, null, 1_000, System::currentTimeMillis);
    }

    /** {@value #SLOW_CONNECTIONS} connections, each sending its first bytes then a piece every 2 s, reopened when closed. */
    private static final class Tricklers implements AutoCloseable {
        private final List<Thread> threads = new ArrayList<>();
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final AtomicInteger opened = new AtomicInteger();
        private final AtomicInteger closedByConsole = new AtomicInteger();

        Tricklers(final int port, final byte[] first, final byte[] piece) {
            for (int i = 0; i < SLOW_CONNECTIONS; i++) {
                final Thread thread = new Thread(() -> {
                    while (running.get()) {
                        trickle(port, first, piece);
                    }
                }, "slowloris-" + i);
                thread.setDaemon(true);
                thread.start();
                threads.add(thread);
            }
        }

        private void trickle(final int port, final byte[] first, final byte[] piece) {
            try (Socket socket = new Socket("127.0.0.1", port)) {
                final OutputStream out = socket.getOutputStream();
                out.write(first);
                out.flush();
                opened.incrementAndGet();
                while (running.get()) {
                    Thread.sleep(TRICKLE_INTERVAL_MILLIS);
                    out.write(piece);
                    out.flush();
                }
            } catch (IOException e) {
                if (running.get()) {
                    closedByConsole.incrementAndGet();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                running.set(false);
            }
        }

        /** Waits until every slow connection has sent its first bytes. */
        void awaitAllOpen() throws InterruptedException {
            while (opened.get() < SLOW_CONNECTIONS) {
                Thread.sleep(50);
            }
        }

        int closedByConsole() {
            return closedByConsole.get();
        }

        @Override
        public void close() throws InterruptedException {
            running.set(false);
            threads.forEach(Thread::interrupt);
            for (final Thread thread : threads) {
                thread.join();
            }
        }
    }
}
