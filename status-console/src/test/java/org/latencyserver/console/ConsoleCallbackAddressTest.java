package org.latencyserver.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.latencyserver.idl.StandInServer;
import org.latencyserver.idl.latency.ConnectionInfo;
import org.latencyserver.idl.latency.EstimateListener;
import org.latencyserver.idl.latency.MeasurementRequest;
import org.latencyserver.orb.CallbackReach;
import org.latencyserver.orb.CommandRun;
import org.latencyserver.orb.PublishedAddress;
import org.latencyserver.testkit.FreePorts;

/**
 * Where the console's callback object listens ({@code --host}, {@code --port}), its refusal of a
 * loopback callback address when the server is not on loopback, and {@code --once}, which serves no
 * callback at all. The refused server is a reference to 198.18.0.1 (a benchmarking address): the
 * refusal comes before any call to it.
 */
class ConsoleCallbackAddressTest {

    private static final String REMOTE_SERVER = "corbaloc::198.18.0.1:2809/LatencyServer";

    @Test
    void aLoopbackCallbackForAServerNotOnLoopbackIsRefusedNamingHost() {
        final CallbackReach.Unreachable refused = assertThrows(CallbackReach.Unreachable.class,
            () -> StatusConsole.launch(new ConsoleContext().server(REMOTE_SERVER).httpPort(0)));
        assertEquals("the server is at 198.18.0.1, but this console's callback address is 127.0.0.1, which the server cannot"
            + " reach; give --host with this host's address as the server reaches it", refused.getMessage());
    }

    @Test
    void theCommandLineRefusesItWithExitTwoAndOneLine() {
        final CommandRun run = CommandRun.of(new ConsoleMain(), "--server", REMOTE_SERVER, "--http-port", "0", "--watch");
        assertEquals(2, run.exit());
        assertEquals("latency console: the server is at 198.18.0.1, but this console's callback address is 127.0.0.1, which the"
            + " server cannot reach; give --host with this host's address as the server reaches it",
            run.standardError().strip());
    }

    @Test
    void aPortOutOfRangeIsRefusedNamingPort() {
        final IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
            () -> new ConsoleContext().server(REMOTE_SERVER).callbackPort(70_000).validate());
        assertEquals("--port must be 0..65535, was 70000", refused.getMessage());
    }

    @Test
    void theCallbackObjectTheServerIsGivenListensOnTheGivenHostAndPort() throws Exception {
        final CompletableFuture<EstimateListener> subscribed = new CompletableFuture<>();
        try (StandInServer server = StandInServer.start(Map.of(
            "subscribe", args -> {
                subscribed.complete((EstimateListener) args[0]);
                return 1L;
            },
            "pending_measurements", args -> new MeasurementRequest[0],
            "list_connections", args -> new ConnectionInfo[0],
            "unsubscribe", args -> null))) {
            final int port = FreePorts.belowEphemeralRange();
            try (StatusConsole console = StatusConsole.launch(new ConsoleContext().server(server.ior()).webPage(false)
                .callbackHost("127.0.0.1").callbackPort(port))) {
                assertEquals(new PublishedAddress("127.0.0.1", port), PublishedAddress.of(subscribed.get(60, TimeUnit.SECONDS)));
                assertEquals(-1, console.httpPort());
                assertEquals(port, console.readyFile().build().port("callback"), "the ready file names the port for a firewall");
            }
        }
    }

    @Test
    void showingEveryPartitionItListensOnTheGivenPortBeforeAnyPartitionIsFound() throws Exception {
        final int port = FreePorts.belowEphemeralRange();
        try (StatusConsole console = StatusConsole.launch(new ConsoleContext().naming("corbaloc::127.0.0.1:1/NameService")
            .allPartitions(true).webPage(false).callbackPort(port))) {
            assertEquals(port, console.readyFile().build().port("callback"));
        }
    }

    @Test
    void readingOnceServesNoCallbackSoTheGivenPortStaysFreeWhileItReads() throws Exception {
        final CountDownLatch inCall = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        try (StandInServer server = StandInServer.start(Map.of(
            "pending_measurements", args -> {
                inCall.countDown();
                release.await(60, TimeUnit.SECONDS);
                return new MeasurementRequest[0];
            },
            "list_connections", args -> new ConnectionInfo[0]))) {
            final int port = FreePorts.belowEphemeralRange();
            final CompletableFuture<ConsoleSnapshot> read = CompletableFuture.supplyAsync(
                () -> StatusConsole.readOnce(new ConsoleContext().server(server.ior()).callbackPort(port)));
            try {
                assertTrue(inCall.await(60, TimeUnit.SECONDS), "the console read the server");
                try (ServerSocket free = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
                    assertTrue(free.isBound(), "reading once, the console holds no port of its own");
                }
            } finally {
                release.countDown();
            }
            assertTrue(read.get(60, TimeUnit.SECONDS).reachable(), "and it reads the table all the same");
        }
    }
}
