package org.latencyserver.client.mirror;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencyserver.idl.StandInServer;
import org.latencyserver.idl.latency.ConnectionInfo;
import org.latencyserver.idl.latency.EstimateListener;
import org.latencyserver.orb.CallbackReach;
import org.latencyserver.orb.CommandRun;
import org.latencyserver.orb.PublishedAddress;
import org.latencyserver.testkit.FreePorts;

/**
 * Where the mirror's callback object listens ({@code --host}, {@code --port}), and its refusal of a
 * loopback callback address when the server is not on loopback. The refused server is a reference to
 * 198.18.0.1 (a benchmarking address): the refusal comes before any call to it.
 */
class MirrorCallbackAddressTest {

    private static final String REMOTE_SERVER = "corbaloc::198.18.0.1:2809/LatencyServer";

    @TempDir
    Path directory;

    @Test
    void aLoopbackCallbackForAServerNotOnLoopbackIsRefusedNamingHostAndTheFileIsNotCreated() {
        final Path file = directory.resolve("estimates.mirror");
        final CallbackReach.Unreachable refused = assertThrows(CallbackReach.Unreachable.class,
            () -> Mirror.launch(new MirrorContext().server(REMOTE_SERVER).file(file)));
        assertEquals("the server is at 198.18.0.1, but this mirror's callback address is 127.0.0.1, which the server cannot reach;"
            + " give --host with this host's address as the server reaches it", refused.getMessage());
        assertTrue(Files.notExists(file), "a refused mirror leaves the file as it was");
    }

    @Test
    void theCommandLineRefusesItWithExitTwoAndOneLineAndTakesTheOlderNameListenHost() {
        final CommandRun run = CommandRun.of(new MirrorMain(), "--server", REMOTE_SERVER, "--listen-host", "::1",
                "--file", directory.resolve("m").toString());
        assertEquals(2, run.exit());
        assertEquals("latency mirror: the server is at 198.18.0.1, but this mirror's callback address is ::1, which the server"
            + " cannot reach; give --host with this host's address as the server reaches it", run.standardError().strip());
    }

    @Test
    void aPortOutOfRangeIsRefusedNamingPort() {
        final IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
            () -> new MirrorContext().server(REMOTE_SERVER).file(directory.resolve("m")).listenPort(-1).validate());
        assertEquals("--port must be 0..65535, was -1", refused.getMessage());
    }

    @Test
    void theCallbackObjectTheServerIsGivenListensOnTheGivenHostAndPort() throws Exception {
        final CompletableFuture<EstimateListener> subscribed = new CompletableFuture<>();
        try (StandInServer server = StandInServer.start(Map.of(
            "list_connections", args -> new ConnectionInfo[0],
            "subscribe", args -> {
                subscribed.complete((EstimateListener) args[0]);
                return 1L;
            },
            "unsubscribe", args -> null))) {
            final int port = FreePorts.belowEphemeralRange();
            try (Mirror mirror = Mirror.launch(new MirrorContext().server(server.ior()).file(directory.resolve("m"))
                .listenHost("127.0.0.1").listenPort(port))) {
                assertEquals(new PublishedAddress("127.0.0.1", port), PublishedAddress.of(subscribed.get(60, TimeUnit.SECONDS)));
                mirror.awaitFirstContact();
                assertEquals(port, mirror.readyFile().build().port("callback"), "the ready file names the port for a firewall");
            }
        }
    }
}
