package org.latencyserver.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The console's web server keeps its live pages bounded: beyond {@code --max-streams} open event
 * streams it answers 503 with a reason and {@code Retry-After}, its threads do not grow with the
 * streams, the open streams keep receiving snapshots, and a place freed by a page that left is
 * given to the next one.
 */
class ConsoleStreamLimitTest {

    /**
     * Threads the web server runs when requests come one at a time: the HTTP threads it keeps (it starts more only for
     * requests that find none free), the broadcaster and the watchdog.
     */
    private static final int FIXED_THREADS = ConsoleWebServer.CORE_HTTP_THREADS + 2;
    /** Three times the fixed threads: a thread per stream would show. */
    private static final int MAX_STREAMS = 3 * FIXED_THREADS;

    @Test
    void streamsBeyondTheMaximumGet503WhileTheThreadsStayFixedAndOpenStreamsKeepGettingSnapshots() throws Exception {
        final AtomicLong clock = new AtomicLong(1_000_000);
        // The server is never reachable: each refresh publishes a new "unreachable" snapshot, stamped by the clock.
        final ServerFeed feed = new ServerFeed("test-server", () -> {
            throw new org.omg.CORBA.TRANSIENT("no server in this test");
        }, null, 1_000, clock::incrementAndGet);
        final ConsoleWebServer web = new ConsoleWebServer(feed, "127.0.0.1", 0, MAX_STREAMS);
        final List<EventStream> open = new ArrayList<>();
        try {
            web.start();
            final String events = "http://127.0.0.1:" + web.port() + "/events";
            for (int i = 0; i < MAX_STREAMS; i++) {
                final EventStream stream = new EventStream(events);
                open.add(stream);
                assertEquals(200, stream.status, "stream " + (i + 1) + " of " + MAX_STREAMS);
                stream.nextData(); // its first snapshot: the broadcaster has it
            }
            assertEquals(MAX_STREAMS, web.openStreams());
            final int threads = consoleThreads();
            assertTrue(threads <= FIXED_THREADS,
                MAX_STREAMS + " streams open, the console runs " + threads + " threads: " + consoleThreadNames());

            for (int i = 0; i < 3; i++) {
                final HttpURLConnection refused = (HttpURLConnection) new URL(events).openConnection();
                assertEquals(503, refused.getResponseCode());
                assertEquals("10", refused.getHeaderField("Retry-After"));
                final String reason = read(refused.getErrorStream());
                assertEquals("the console already serves as many live pages as it may (--max-streams " + MAX_STREAMS
                    + "); close another console page, or retry in 10 s\n", reason);
                refused.disconnect();
            }
            assertEquals(threads, consoleThreads(), "refusals start no threads: " + consoleThreadNames());

            final EventStream first = open.get(0);
            final EventStream last = open.get(MAX_STREAMS - 1);
            final String before = first.lastData;
            feed.refreshOnce();
            assertNotEquals(before, first.nextData(), "the first stream gets the new snapshot");
            assertEquals(first.lastData, last.nextData(), "and so does the last");

            // A page leaves; once the broadcaster finds its stream gone, its place is free again.
            open.remove(0).close();
            while (web.openStreams() == MAX_STREAMS) {
                feed.refreshOnce();
                Thread.sleep(20);
            }
            final EventStream next = new EventStream(events);
            open.add(next);
            assertEquals(200, next.status, "the freed place is given to the next page");
            next.nextData();
        } finally {
            open.forEach(EventStream::close);
            web.close();
        }
    }

    private static int consoleThreads() {
        return consoleThreadNames().size();
    }

    /** The live threads the console's web side names: "console-http-N", "console-events", ... */
    private static List<String> consoleThreadNames() {
        final List<String> names = new ArrayList<>();
        for (final Thread thread : Thread.getAllStackTraces().keySet()) {
            if (thread.isAlive() && thread.getName().startsWith("console-")) {
                names.add(thread.getName());
            }
        }
        return names;
    }

    private static String read(final InputStream in) throws IOException {
        try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** One browser's {@code /events}, read line by line. */
    private static final class EventStream implements AutoCloseable {
        private final HttpURLConnection connection;
        private final int status;
        private BufferedReader lines;
        private String lastData;

        EventStream(final String url) throws IOException {
            connection = (HttpURLConnection) new URL(url).openConnection();
            connection.setReadTimeout(60_000); // a hung test fails instead of hanging; never reached when it works
            status = connection.getResponseCode();
        }

        /** @return the data of the next event (keep-alive comments skipped) */
        String nextData() throws IOException {
            if (lines == null) {
                lines = new BufferedReader(new InputStreamReader(connection.getInputStream(), StandardCharsets.UTF_8));
            }
            String line;
            while ((line = lines.readLine()) != null) {
                if (line.startsWith("data: ")) {
                    lastData = line.substring("data: ".length());
                    return lastData;
                }
            }
            throw new IOException("the event stream ended");
        }

        @Override
        public void close() {
            connection.disconnect();
        }
    }
}
