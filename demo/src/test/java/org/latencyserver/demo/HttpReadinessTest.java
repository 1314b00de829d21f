package org.latencyserver.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class HttpReadinessTest {

    private HttpServer server;
    private final AtomicInteger requests = new AtomicInteger();

    /** A readiness endpoint that answers 503 to its first {@code notReadyAnswers} requests, then 200. */
    private URI endpointReadyAfter(final int notReadyAnswers) throws Exception {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/-/ready", exchange -> {
            final int status = requests.incrementAndGet() > notReadyAnswers ? 200 : 503;
            exchange.sendResponseHeaders(status, -1);
            exchange.close();
        });
        server.start();
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/-/ready");
    }

    @AfterEach
    void stopServer() {
        if (server != null) {
            server.stop(0);
        }
    }

    @Test
    void itReturnsOnceTheEndpointAnswers200AfterNotReadyAnswers() throws Exception {
        final URI endpoint = endpointReadyAfter(3);

        HttpReadiness.await(endpoint, Duration.ofSeconds(30), () -> true, () -> "log");

        assertEquals(4, requests.get(), "three 503s, then the 200 it waited for");
    }

    @Test
    void aProgramThatExitsBeforeItIsReadyIsReportedWithWhatItLastAnswered() throws Exception {
        final URI endpoint = endpointReadyAfter(Integer.MAX_VALUE);

        final DemoException failed = assertThrows(DemoException.class,
            () -> HttpReadiness.await(endpoint, Duration.ofSeconds(30), () -> false, () -> "its log ends: bye"));

        assertTrue(failed.getMessage().contains("exited before it was ready"), failed.getMessage());
        assertTrue(failed.getMessage().contains("503"), failed.getMessage());
        assertTrue(failed.getMessage().contains("its log ends: bye"), failed.getMessage());
    }

    @Test
    void nobodyListeningPastTheTimeoutIsReportedAsNotReady() throws Exception {
        final int freePort;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            freePort = socket.getLocalPort();
        }
        final URI endpoint = URI.create("http://127.0.0.1:" + freePort + "/-/ready");

        final DemoException failed = assertThrows(DemoException.class,
            () -> HttpReadiness.await(endpoint, Duration.ofMillis(300), () -> true, () -> "log"));

        assertTrue(failed.getMessage().contains("not ready within"), failed.getMessage());
        assertTrue(failed.getMessage().contains("no answer"), failed.getMessage());
    }
}
