package org.latencyserver.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.latencyserver.launch.ReadyFile;

/**
 * The console launched from a context in this JVM, as {@link ConsoleMain} launches it. Its server
 * is a reference nothing answers: the console serves its page all the same and says so.
 */
class StatusConsoleTest {

    /** Port 1 on loopback: nothing listens there, a call is refused at once. */
    private static final String NO_SERVER = "corbaloc::127.0.0.1:1/LatencyServer";

    @Test
    void theReportedUrlAnswersWithThePageAndCloseReleasesItsPort() throws Exception {
        final StatusConsole console = StatusConsole.launch(new ConsoleContext().server(NO_SERVER).httpPort(0));
        final ReadyFile ready;
        try {
            ready = console.readyFile().build();
            assertEquals("console", ready.component());
            assertEquals("http://127.0.0.1:" + ready.port("http") + "/", ready.url("console"));
            assertEquals(console.url(), ready.url("console"));

            final HttpURLConnection page = (HttpURLConnection) new URL(ready.url("console")).openConnection();
            assertEquals(200, page.getResponseCode());
            assertTrue(page.getContentType().startsWith("text/html"), page.getContentType());
            page.disconnect();
        } finally {
            console.close();
        }
        console.close();
        try (ServerSocket again = new ServerSocket(ready.port("http"), 50, InetAddress.getLoopbackAddress())) {
            assertTrue(again.isBound(), "closed, the console no longer holds its port");
        }
    }

    @Test
    void withoutAWebPageItServesNoPortAndItsObserverLearnsTheServerIsUnreachable() throws Exception {
        final CompletableFuture<ConsoleSnapshot> first = new CompletableFuture<>();
        try (StatusConsole console = StatusConsole.launch(new ConsoleContext().server(NO_SERVER).webPage(false)
            .refreshMillis(ConsoleContext.MIN_REFRESH_MILLIS).onSnapshot(first::complete))) {
            assertEquals(-1, console.httpPort());
            assertEquals(java.util.Set.of("callback"), console.readyFile().build().ports().keySet(),
                "no web page: only the callback object's port");
            final ConsoleSnapshot snapshot = first.get(60, TimeUnit.SECONDS);
            assertFalse(snapshot.reachable());
            assertEquals(NO_SERVER, snapshot.server());
        }
    }

    @Test
    void readOnceSaysTheServerIsUnreachableWithTheProblem() {
        final ConsoleSnapshot snapshot = StatusConsole.readOnce(new ConsoleContext().server(NO_SERVER));
        assertFalse(snapshot.reachable());
        assertFalse(snapshot.problem().isBlank());
    }

    @Test
    void aPortInUseFailsTheLaunchNamingTheAddressAndPort() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            final IOException refused = assertThrows(IOException.class,
                () -> StatusConsole.launch(new ConsoleContext().server(NO_SERVER).httpPort(taken.getLocalPort())));
            assertTrue(refused.getMessage().contains("127.0.0.1:" + taken.getLocalPort()), refused.getMessage());
        }
    }

    @Test
    void badSettingsAreRefusedNamingTheOptionAndValue() {
        final IllegalArgumentException refresh = assertThrows(IllegalArgumentException.class,
            () -> new ConsoleContext().server(NO_SERVER).refreshMillis(99).validate());
        assertTrue(refresh.getMessage().contains("--refresh-millis") && refresh.getMessage().contains("99"), refresh.getMessage());
        final IllegalArgumentException streams = assertThrows(IllegalArgumentException.class,
            () -> new ConsoleContext().server(NO_SERVER).maxStreams(0).validate());
        assertTrue(streams.getMessage().contains("--max-streams"), streams.getMessage());
        final IllegalArgumentException server = assertThrows(IllegalArgumentException.class,
            () -> new ConsoleContext().validate());
        assertTrue(server.getMessage().contains("--server"), server.getMessage());
    }

    @Test
    void everyPartitionNeedsANamingServiceAndExcludesOneNodesPartition() {
        final IllegalArgumentException noNaming = assertThrows(IllegalArgumentException.class,
            () -> new ConsoleContext().server("LatencyServer").allPartitions(true).validate());
        assertTrue(noNaming.getMessage().contains("--all-partitions") && noNaming.getMessage().contains("--naming"),
            noNaming.getMessage());
        final IllegalArgumentException both = assertThrows(IllegalArgumentException.class,
            () -> new ConsoleContext().naming(NO_SERVER).allPartitions(true).node("ws1").validate());
        assertTrue(both.getMessage().contains("--node"), both.getMessage());
        assertEquals("LatencyServer", new ConsoleContext().naming(NO_SERVER).validate().serverReference(),
            "with a naming service and no --server, the server is LatencyServer (or its partitions)");
    }
}
