package org.latencyserver.console;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.latencyserver.console.ConsoleHttpClient.Response;

/**
 * Slow clients cannot shut the console: connections that send their request headers a line at a
 * time (slowloris), more of them than the HTTP threads it keeps, are closed once they have taken
 * {@value ConsoleWebServer#REQUEST_HEADERS_SECONDS} s over their headers, so a normal GET is still
 * answered within that time and a little more.
 */
class ConsoleSlowClientsTest {

    /** More slow connections than the HTTP threads the console keeps. */
    private static final int SLOW_CONNECTIONS = ConsoleWebServer.CORE_HTTP_THREADS + 2;
    /** How long a slow connection keeps trickling, unless the console closes it. */
    private static final long TRICKLE_SECONDS = 25;
    /** The bound on the normal GET: the header time limit, the JDK's 1 s check, and slack for a loaded machine. */

    @Test
    void theConsoleClosesConnectionsThatTrickleHeadersAndAnswersANormalGetBesideThem() throws Exception {
        final ConsoleWebServer web = ConsoleHttpClient.startServer();
        final List<Thread> tricklers = new ArrayList<>();
        final AtomicInteger closedByConsole = new AtomicInteger();
        try {
            for (int i = 0; i < SLOW_CONNECTIONS; i++) {
                final Thread trickler = new Thread(() -> trickle(web.port(), closedByConsole), "slowloris-" + i);
                trickler.setDaemon(true);
                trickler.start();
                tricklers.add(trickler);
            }
            Thread.sleep(1_500); // every slow connection has sent its first lines and holds a thread
            final Response page = ConsoleHttpClient.request(web.port(), "GET", "/", "127.0.0.1:" + web.port());
            assertEquals(200, page.status(), page.head());
            for (final Thread trickler : tricklers) {
                trickler.join(TimeUnit.SECONDS.toMillis(TRICKLE_SECONDS + 5)); // a trickler left alone ends on its own after TRICKLE_SECONDS
            }
            assertEquals(SLOW_CONNECTIONS, closedByConsole.get(), "the console closed every slow connection");
        } finally {
            tricklers.forEach(Thread::interrupt);
            web.close();
        }
    }

    /** Sends a request line, then one header line a second, until the console closes the connection. */
    private static void trickle(final int port, final AtomicInteger closedByConsole) {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            final OutputStream out = socket.getOutputStream();
            out.write(("GET / HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            for (int line = 0; line < TRICKLE_SECONDS; line++) {
                Thread.sleep(1_000);
                out.write(("X-Slow-" + line + ": 1\r\n").getBytes(StandardCharsets.ISO_8859_1));
                out.flush();
            }
        } catch (IOException e) {
            closedByConsole.incrementAndGet();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
