package org.latencyserver.systemtests.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencyserver.launch.ChildProcess;
import org.latencyserver.launch.Component;
import org.latencyserver.server.config.TestbedConfigLines;
import org.latencyserver.systemtests.kit.ReadyProcess;
import org.latencyserver.systemtests.kit.SystemUnderTest;
import org.latencyserver.testkit.MetricsText;
import org.latencyserver.testkit.config.ServerYaml;
import org.latencyserver.testkit.config.ServerYaml.Connection;

/**
 * {@code ./latency console --once} against the primary of a pair of server processes: its title
 * says the pair protects the writes while the standby answers, and, once the standby is killed,
 * that the server is alone and its writes are unprotected (on its disk alone); a web console's
 * snapshot, which its page's header shows, follows the same change live.
 */
class ConsoleStandbyRoleTest {

    private static final long DEADLINE_NANOS = 60_000_000_000L;

    @TempDir
    Path directory;

    @Test
    void theConsoleTitleSaysProtectedWhileTheStandbyAnswersAndUnprotectedOnceItIsKilled() throws Exception {
        try (SystemUnderTest system = SystemUnderTest.in(directory)) {
            final int portA = SystemUnderTest.freeTcpPort();
            int chosen = SystemUnderTest.freeTcpPort();
            while (Math.abs(chosen - portA) == 100 || chosen == portA) {
                chosen = SystemUnderTest.freeTcpPort();
            }
            final ReadyProcess primary = start(system, "a", config("a", portA, chosen));
            final ReadyProcess standby = start(system, "b", config("b", chosen, portA));
            assertEquals("standing by", standby.ready().fact("standby"), standby.child().log());
            awaitMetric(primary, "latency_server_standby_protected", 1);

            final String paired = title(system, "console-paired", primary);
            assertTrue(paired.endsWith("[hot standby: primary, protected (a standby holds every acknowledged write)]"), paired);
            final String page = system.start(system.launch(Component.CONSOLE).name("console-web")
                .args("--server", primary.ready().reference("server"), "--http-port", "0")).ready().url("console");
            final JsonNode protectedPair = awaitPair(page, pair -> pair.get("writesProtected").asBoolean());
            assertEquals("primary", protectedPair.get("role").asText(), protectedPair.toString());
            assertEquals(2, protectedPair.get("members").asInt(), protectedPair.toString());

            standby.child().kill();
            awaitMetric(primary, "latency_server_standby_members", 1);
            final String alone = title(system, "console-alone", primary);
            assertTrue(alone.endsWith("[hot standby: alone, UNPROTECTED: writes answered from this server's disk alone"
                + " (no standby in the pair)]"), alone);
            // The live page follows: its snapshot (what the page's header shows) says so too.
            final JsonNode unprotected = awaitPair(page, pair -> "alone".equals(pair.get("role").asText()));
            assertFalse(unprotected.get("writesProtected").asBoolean(), unprotected.toString());
            assertTrue(unprotected.get("text").asText().contains("UNPROTECTED"), unprotected.toString());
        }
    }

    /** @return the web console's {@code pair} once its snapshot has one that meets the condition (within 60 s) */
    private static JsonNode awaitPair(final String page, final java.util.function.Predicate<JsonNode> condition) throws Exception {
        final HttpClient http = HttpClient.newHttpClient();
        final long deadline = System.nanoTime() + DEADLINE_NANOS;
        JsonNode pair = null;
        while (System.nanoTime() < deadline) {
            final String body = http.send(HttpRequest.newBuilder(URI.create(page).resolve("/api/snapshot")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
            pair = new ObjectMapper().readTree(body).get("pair");
            if (pair != null && !pair.isNull() && condition.test(pair)) {
                return pair;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("the web console's snapshot shows no such pair within 60 s; last: " + pair);
    }

    /** @return the first line {@code console --once} prints for the server */
    private static String title(final SystemUnderTest system, final String name, final ReadyProcess server) throws Exception {
        final ChildProcess console = system.launchOneShot(name, Component.CONSOLE)
            .args("--server", server.ready().reference("server"), "--once").errorsApart().start();
        assertEquals(0, console.awaitExit(Duration.ofSeconds(60)), console.log() + console.errors());
        return console.log().lines().filter(l -> l.startsWith("Latency Server ")).findFirst()
            .orElseThrow(() -> new AssertionError("no title line:\n" + console.log()));
    }

    private static ReadyProcess start(final SystemUnderTest system, final String name, final Path config) throws Exception {
        return system.start(system.serverLaunch(name, config).args("--metrics-port", "0"));
    }

    private static void awaitMetric(final ReadyProcess server, final String name, final double value) throws Exception {
        final long deadline = System.nanoTime() + DEADLINE_NANOS;
        while (MetricsText.scrape(server.ready().url("metrics")).get(name) != value) {
            assertTrue(System.nanoTime() < deadline, name + " " + value + " within 60 s\n" + server.child().log());
            Thread.sleep(50);
        }
    }

    private Path config(final String name, final int listen, final int peer) {
        return TestbedConfigLines.pushedWs1Ws2OnAtmPort(ServerYaml.named("ConsolePair").stateFile(Path.of(name + ".state.json"))
                .server("standby", Map.of("listen", "127.0.0.1:" + listen, "peer", "127.0.0.1:" + peer))
                .profile(Path.of("../profiles/thesis-tac4-corba.json").toAbsolutePath().normalize()), "ws1")
            .connection(Connection.of(1, "ws1", "ws2", 1).link("atm-port").profile("thesis-tac4-corba").calibration("thesis")
                .probeRatePerSecond(0))
            .writeTo(directory.resolve(name + ".yaml"));
    }
}
