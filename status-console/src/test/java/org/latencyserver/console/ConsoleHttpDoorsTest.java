package org.latencyserver.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.latencyserver.console.ConsoleHttpClient.Response;

/**
 * The console answers only what its page asks: GET or HEAD (405 otherwise), addressed to the
 * address it is bound to (421 for any other Host: a DNS-rebinding page cannot read the snapshot),
 * on exactly its routes (404 for any other path, suffixes of a route included). Each refusal says
 * what was wrong in plain text.
 */
class ConsoleHttpDoorsTest {

    private static ConsoleWebServer web;
    private static String host;

    @BeforeAll
    static void start() throws Exception {
        web = ConsoleHttpClient.startServer();
        host = "127.0.0.1:" + web.port();
    }

    @AfterAll
    static void stop() {
        web.close();
    }

    @Test
    void getOfEveryRouteIsServed() throws Exception {
        final Response page = ConsoleHttpClient.request(web.port(), "GET", "/", host);
        assertEquals(200, page.status(), page.head());
        assertTrue(page.body().contains("<html"), page.body());
        final Response snapshot = ConsoleHttpClient.request(web.port(), "GET", "/api/snapshot", host);
        assertEquals(200, snapshot.status(), snapshot.head());
        assertTrue(snapshot.body().startsWith("{\"server\":\"test-server\""), snapshot.body());
        final Response query = ConsoleHttpClient.request(web.port(), "GET", "/api/snapshot?x=1", host);
        assertEquals(200, query.status(), query.head());
    }

    @Test
    void headIsAnsweredWithoutABody() throws Exception {
        final Response head = ConsoleHttpClient.request(web.port(), "HEAD", "/api/snapshot", host);
        assertEquals(200, head.status(), head.head());
        assertEquals("", head.body());
    }

    @Test
    void headOfTheEventsOpensNoStream() throws Exception {
        final Response head = ConsoleHttpClient.request(web.port(), "HEAD", "/events", host);
        assertEquals(200, head.status(), head.head());
        assertTrue(head.head().toLowerCase(java.util.Locale.ROOT).contains("content-type: text/event-stream"), head.head());
        assertEquals("", head.body());
        assertEquals(0, web.openStreams());
    }

    @Test
    void boundToEveryAddressTheMachinesAddressesWithThePortAreAcceptedAndOtherNamesRefused() throws Exception {
        final ServerFeed feed = new ServerFeed("test-server", () -> {
            throw new org.omg.CORBA.TRANSIENT("no server in this test");
        }, null, 1_000, System::currentTimeMillis);
        try (ConsoleWebServer wildcard = new ConsoleWebServer(feed, "0.0.0.0", 0, 1)) {
            wildcard.start();
            final int port = wildcard.port();
            assertEquals(200, ConsoleHttpClient.request(port, "GET", "/api/snapshot", "127.0.0.1:" + port).status());
            final Response refused = ConsoleHttpClient.request(port, "GET", "/api/snapshot", "evil.example:" + port);
            assertEquals(421, refused.status(), refused.head());
            assertEquals("the console answers requests for this machine's names and addresses with port " + port
                + " only, not Host: evil.example:" + port + "\n", refused.body());
            assertEquals(421, ConsoleHttpClient.request(port, "GET", "/api/snapshot", "127.0.0.1:" + (port + 1)).status());
            assertEquals(421, ConsoleHttpClient.request(port, "GET", "/api/snapshot", "192.0.2.1:" + port).status(),
                "a documentation address on no interface here");
        }
    }

    @Test
    void anyOtherMethodGets405NamingTheAllowedOnes() throws Exception {
        for (final String method : new String[] {"POST", "PUT", "DELETE", "OPTIONS", "TRACE", "PATCH"}) {
            final Response refused = ConsoleHttpClient.request(web.port(), method, "/api/snapshot", host);
            assertEquals(405, refused.status(), method + ": " + refused.head());
            assertTrue(refused.head().toLowerCase(java.util.Locale.ROOT).contains("allow: get, head"), refused.head());
            assertEquals("the console answers GET and HEAD only, not " + method + "\n", refused.body());
        }
    }

    @Test
    void aHostOtherThanTheBoundAddressGets421() throws Exception {
        for (final String other : new String[] {"evil.example:" + web.port(), "evil.example", "127.0.0.2:" + web.port(),
            "localhost.evil.example:" + web.port(), "127.0.0.1.evil.example:" + web.port(), "localhost:x@evil.example"}) {
            final Response refused = ConsoleHttpClient.request(web.port(), "GET", "/api/snapshot", other);
            assertEquals(421, refused.status(), other + ": " + refused.head());
            assertEquals("the console answers requests for 127.0.0.1:" + web.port() + " or localhost (loopback names on"
                + " any port) only, not Host: " + other + "\n", refused.body());
        }
        final Response none = ConsoleHttpClient.request(web.port(), "GET", "/api/snapshot", null);
        assertEquals(421, none.status(), none.head());
        assertTrue(none.body().endsWith("only, not a request without a Host header\n"), none.body());
    }

    @Test
    void loopbackNamesOfTheBoundLoopbackAddressAreAcceptedOnAnyPortAsThroughAForward() throws Exception {
        for (final String alias : new String[] {"localhost:" + web.port(), "LOCALHOST:" + web.port(), "[::1]:" + web.port(),
            "127.0.0.1:" + (web.port() + 1), "localhost", "[::1]"}) {
            final Response served = ConsoleHttpClient.request(web.port(), "GET", "/api/snapshot", alias);
            assertEquals(200, served.status(), alias + ": " + served.head());
        }
    }

    @Test
    void aPathThatIsNotExactlyARouteGets404() throws Exception {
        for (final String path : new String[] {"/events/../../etc/passwd", "/events/x", "/eventsX", "/api/snapshot/x",
            "/api/snapshotX", "/api", "/index.html", "/./events", "/%65vents"}) {
            final Response refused = ConsoleHttpClient.request(web.port(), "GET", path, host);
            assertEquals(404, refused.status(), path + ": " + refused.head());
            assertEquals("not found: the console serves /, /api/snapshot and /events\n", refused.body(), path);
        }
        assertEquals(0, web.openStreams(), "no refused path opened a stream");
    }
}
