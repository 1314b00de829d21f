package org.latencyserver.server.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencyserver.idl.Latserv;
import org.latencyserver.idl.LatservHelper;
import org.latencyserver.idl.LatservPackage.IdlMibUpdates;
import org.latencyserver.idl.LatservPackage.IdlStatusToClient;
import org.latencyserver.launch.ReadyFile;
import org.latencyserver.orb.PlainOrbs;
import org.latencyserver.server.config.TestbedConfigLines;
import org.latencyserver.testkit.config.ServerYaml;
import org.latencyserver.testkit.config.ServerYaml.Connection;
import org.omg.CORBA.ORB;

/**
 * A server launched in the test's JVM from a context, called over real JacORB sockets on loopback
 * by a client ORB of its own, and closed again.
 */
class LatencyServerNodeTest {


    @TempDir
    Path directory;
    private Path config;
    private ORB client;

    @BeforeEach
    void writeConfigurationAndStartAClientOrb() throws IOException {
        // One QoS 1 connection on the thesis's TAC-4 profile (Appendix A), its state kept in a file.
        config = TestbedConfigLines.pushedWs1Ws2OnAtmPort(ServerYaml.named("NodeTestServer")
                .stateFile(Path.of("node-test.state.json"))
                .profile(TestbedConfigLines.profiles().resolve("thesis-tac4-corba.json")), "ws1")
            .connection(Connection.of(1, "ws1", "ws2", 1).link("atm-port").profile("thesis-tac4-corba").calibration("thesis")
                .probeRatePerSecond(0))
            .writeTo(directory.resolve("node-test.yaml"));
        client = PlainOrbs.init();
    }

    @AfterEach
    void stopTheClientOrb() {
        client.shutdown(true);
    }

    @Test
    void aLaunchedServerAnswersRequestStatusOverIiopAndWritesItsReadyFile() throws Exception {
        final Path readyFile = directory.resolve("server.ready.json");
        final Path iorFile = directory.resolve("server.ior");
        try (LatencyServerNode server = LatencyServerNode.launch(context().iorFile(iorFile).readyFile(readyFile).metricsPort(0))) {
            final Latserv latserv = LatservHelper.narrow(client.string_to_object(server.serverIor()));
            latserv.PutMibUpdates(new IdlMibUpdates((short) 1, (short) 10, (short) 80, (short) 50), (short) 1);
            final IdlStatusToClient status = latserv.RequestStatus((short) 1);
            assertEquals(1, status.server_acknowledges_client);
            assertEquals(2.386f, status.latency_estimate, "Appendix A, TAC-4 CORBA 256 B, 0-33 % / 67-100 %");

            final ReadyFile ready = ReadyFile.read(readyFile);
            assertEquals("server", ready.component());
            assertEquals(server.serverIor(), ready.reference("server"));
            assertEquals(server.serverIor(), Files.readString(iorFile).trim());
            assertEquals(iorFile.toAbsolutePath(), ready.file("ior"));
            assertEquals(directory.resolve("node-test.state.json").toAbsolutePath(), ready.file("state"));
            assertEquals("1", ready.fact("connections"));
            assertEquals(server.metricsPort().orElseThrow(), ready.port("metrics"));
            assertEquals(server.metricsUrl().orElseThrow(), ready.url("metrics"));
            assertFalse(ready.facts().containsKey("name"), "no naming service was given, so there is no name");
            final String scrape = new String(URI.create(ready.url("metrics")).toURL().openStream().readAllBytes(),
                StandardCharsets.UTF_8);
            assertTrue(scrape.contains("latency_server_"), scrape);
        }
        assertFalse(Files.exists(readyFile), "a clean stop deletes the ready file");
    }

    @Test
    void closeReleasesThePortsSoThatASecondServerListensOnThemAndRestoresTheFirstsState() throws Exception {
        final int orbPort = freePort();
        final int metricsPort = freePort();
        final LatencyServerNode first = LatencyServerNode.launch(context().orbPort(orbPort).metricsPort(metricsPort));
        final Latserv firstClient = LatservHelper.narrow(client.string_to_object(first.serverIor()));
        firstClient.PutMibUpdates(new IdlMibUpdates((short) 1, (short) 10, (short) 80, (short) 50), (short) 1);
        first.close();
        assertTrue(first.isClosed());

        try (LatencyServerNode second = LatencyServerNode.launch(context().orbPort(orbPort).metricsPort(metricsPort))) {
            assertEquals(metricsPort, second.metricsPort().orElseThrow());
            final Latserv secondClient = LatservHelper.narrow(client.string_to_object(second.serverIor()));
            final IdlStatusToClient status = secondClient.RequestStatus((short) 1);
            assertEquals(1, status.server_acknowledges_client);
            assertEquals(2.386f, status.latency_estimate, "the MIB values pushed to the first server, restored from the state file");
        }
    }

    @Test
    void twoServersRunSideBySideInOneJvmEachWithItsOwnTable() throws Exception {
        final Path otherConfig = directory.resolve("other.yaml");
        Files.writeString(otherConfig, Files.readString(config).replace("node-test.state.json", "other.state.json"));
        try (LatencyServerNode first = LatencyServerNode.launch(context().metricsPort(ServerContext.METRICS_OFF));
             LatencyServerNode second = LatencyServerNode.launch(new ServerContext().configFile(otherConfig)
                 .metricsPort(ServerContext.METRICS_OFF))) {
            final Latserv one = LatservHelper.narrow(client.string_to_object(first.serverIor()));
            final Latserv two = LatservHelper.narrow(client.string_to_object(second.serverIor()));
            one.PutMibUpdates(new IdlMibUpdates((short) 1, (short) 10, (short) 80, (short) 50), (short) 1);
            two.PutMibUpdates(new IdlMibUpdates((short) 1, (short) 5, (short) 5, (short) 5), (short) 1);
            assertEquals(2.386f, one.RequestStatus((short) 1).latency_estimate, "Appendix A, TAC-4 256 B, 0-33 % / 67-100 %");
            assertEquals(1.365f, two.RequestStatus((short) 1).latency_estimate, "Appendix A, TAC-4 256 B, 0-33 % / 0-33 %");
        }
    }

    @Test
    void closingTwiceStopsOnceAndLeavesNoReadyFile() throws Exception {
        final Path readyFile = directory.resolve("twice.ready.json");
        final LatencyServerNode server = LatencyServerNode.launch(context().readyFile(readyFile).metricsPort(ServerContext.METRICS_OFF));
        assertTrue(Files.exists(readyFile));
        assertTrue(server.metricsUrl().isEmpty(), "metrics were switched off");
        server.close();
        server.close();
        assertTrue(server.isClosed());
        assertFalse(Files.exists(readyFile));
    }

    @Test
    void aLaunchFromAContextWithBothAFileAndALoadedConfigurationIsRefusedBeforeAnythingStarts() throws Exception {
        final ServerContext both = context().metricsPort(ServerContext.METRICS_OFF);
        both.conclude();
        final ServerContext twice = new ServerContext().configFile(config).configuration(both.configuration());
        final LaunchFailure failure = assertThrows(LaunchFailure.class, () -> LatencyServerNode.launch(twice));
        assertEquals(LaunchFailure.Kind.INVALID_CONTEXT, failure.kind());
        assertTrue(failure.getMessage().contains("not both"), failure.getMessage());
    }

    @Test
    void aMetricsPortOutOfRangeIsRefusedNamingTheSetting() {
        final LaunchFailure failure = assertThrows(LaunchFailure.class, () -> context().metricsPort(70_000).conclude());
        assertEquals(LaunchFailure.Kind.INVALID_CONTEXT, failure.kind());
        assertTrue(failure.getMessage().contains("metrics port") && failure.getMessage().contains("70000"), failure.getMessage());
    }

    @Test
    void aBrokenConfigurationIsRefusedWithItsFaultsAndLeavesNoReadyFile() throws Exception {
        final Path readyFile = directory.resolve("broken.ready.json");
        Files.writeString(readyFile, "{}"); // an earlier run's
        Files.writeString(config, Files.readString(config).replace("qos: 1", "qos: 9"));
        final LaunchFailure failure = assertThrows(LaunchFailure.class,
            () -> LatencyServerNode.launch(context().readyFile(readyFile)));
        assertEquals(LaunchFailure.Kind.CONFIGURATION_REFUSED, failure.kind());
        assertTrue(failure.getMessage().contains("qos"), failure.getMessage());
        assertFalse(Files.exists(readyFile), "an earlier run's ready file would say ready");
    }

    @Test
    void aTakenOrbPortIsRefusedNamingTheAddressAndLeavesNothingRunning() throws Exception {
        final int orbPort = freePort();
        final int metricsPort = freePort();
        final Path readyFile = directory.resolve("taken.ready.json");
        try (ServerSocket taken = new ServerSocket(orbPort, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
            final LaunchFailure failure = assertThrows(LaunchFailure.class,
                () -> LatencyServerNode.launch(context().orbPort(orbPort).metricsPort(metricsPort).readyFile(readyFile)));
            assertEquals(LaunchFailure.Kind.CANNOT_LISTEN, failure.kind());
            assertTrue(failure.getMessage().contains("127.0.0.1:" + orbPort), failure.getMessage());
            assertFalse(Files.exists(readyFile));
        }
        // The refused launch released what it had opened: its metrics port serves the next one.
        try (LatencyServerNode server = LatencyServerNode.launch(context().orbPort(orbPort).metricsPort(metricsPort))) {
            assertEquals(metricsPort, server.metricsPort().orElseThrow());
        }
    }

    private ServerContext context() {
        return new ServerContext().configFile(config);
    }

    /** A port below the kernel's ephemeral range: no outgoing connection of a test beside this one is given it. */
    private static int freePort() {
        return org.latencyserver.testkit.FreePorts.belowEphemeralRange();
    }
}
