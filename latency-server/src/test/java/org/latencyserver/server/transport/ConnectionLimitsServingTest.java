package org.latencyserver.server.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.net.Socket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jacorb.orb.ParsedIOR;
import org.jacorb.orb.iiop.IIOPAddress;
import org.jacorb.orb.iiop.IIOPProfile;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;
import org.latencyserver.idl.Latserv;
import org.latencyserver.idl.LatservHelper;
import org.latencyserver.idl.LatservPackage.IdlMibUpdates;
import org.latencyserver.idl.latency.HistogramBins;
import org.latencyserver.idl.latency.LatencyService;
import org.latencyserver.idl.latency.LatencyServiceHelper;
import org.latencyserver.idl.latency.MeasuredResult;
import org.latencyserver.idl.latency.UnknownConnection;
import org.latencyserver.orb.PlainOrbs;
import org.latencyserver.server.config.TestbedConfigLines;
import org.latencyserver.server.launch.LatencyServerNode;
import org.latencyserver.server.launch.ServerContext;
import org.latencyserver.testkit.config.ServerYaml;
import org.latencyserver.testkit.config.ServerYaml.Connection;
import org.omg.CORBA.COMM_FAILURE;
import org.omg.CORBA.ORB;

/**
 * The transport limits at a server launched in the test's JVM, called by real JacORB clients over
 * loopback: the connection cap and the message limit's default, which a legitimate largest result
 * must pass.
 */
@Isolated // runs alone (junit-platform.properties): sets a JVM-wide system property (JacORB's loopback)
class ConnectionLimitsServingTest {

    @TempDir
    Path directory;
    private LatencyServerNode server;
    private final List<ORB> clients = new ArrayList<>();

    /** JacORB's in-process loopback would carry the calls past the server's sockets: the server's ORB reads this at start. */
    private static final String LOOPBACK = "jacorb.iiop.enable_loopback";

    @BeforeEach
    void callOverSockets() {
        System.setProperty(LOOPBACK, "off");
    }

    @AfterEach
    void closeEverything() {
        clients.forEach(orb -> orb.shutdown(true));
        if (server != null) {
            server.close();
        }
        System.clearProperty(LOOPBACK);
    }

    @Test
    void aConnectionBeyondTheCapIsClosedAndItsCallFailsUntilOneIsFreed() throws Exception {
        launch(ServerYaml.named("CappedServer").limits("max_connections", 2L));
        final List<Socket> held = new ArrayList<>();
        final IIOPAddress address = address();
        for (int i = 0; i < 2; i++) {
            held.add(new Socket(address.getIP(), address.getPort()));
        }
        final Latserv latserv = LatservHelper.unchecked_narrow(client().string_to_object(server.serverIor()));
        assertThrows(COMM_FAILURE.class, () -> latserv.RequestStatus((short) 1), "a third connection is closed");
        final long openWithTheHeld = IiopConnections.openCount();
        for (final Socket socket : held) {
            socket.close();
        }
        // The server notices the two closes on its reader threads.
        final long deadline = System.nanoTime() + 10_000_000_000L;
        while (IiopConnections.openCount() > openWithTheHeld - 2 && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        latserv.PutMibUpdates(new IdlMibUpdates((short) 1, (short) 10, (short) 80, (short) 50), (short) 1);
        assertEquals(1, latserv.RequestStatus((short) 1).server_acknowledges_client, "served once the held ones are closed");
    }

    @Test
    void aResultWithTheMostBinsPassesTheDefaultMessageLimitAndOneFarBeyondClosesTheConnection() throws Exception {
        // Profiles of at most 16 KiB (the test profile has 8), so that the largest result decides the limit: 24 × 20,000 + 65,536 = 545,536 bytes.
        launch(ServerYaml.named("LimitedServer").limits("max_profile_bytes", 16_384L));
        final LatencyService service = LatencyServiceHelper.narrow(client().string_to_object(server.serverIor()));
        final long refusedBefore = IiopConnections.oversizedCount();

        // Connection 9 does not exist: the server reads the call and answers with UnknownConnection.
        assertThrows(UnknownConnection.class, () -> service.submit_measurement(result(20_000, 20_000)));
        assertEquals(refusedBefore, IiopConnections.oversizedCount());

        assertThrows(COMM_FAILURE.class, () -> service.submit_measurement(result(40_000, 40_000)),
            "24 × 40,000 bytes is over the limit: the connection is closed unread");
        assertEquals(refusedBefore + 1, IiopConnections.oversizedCount());
        assertThrows(UnknownConnection.class, () -> service.submit_measurement(result(100, 100)),
            "the caller's next call opens a new connection and is read");
    }

    private static MeasuredResult result(final int bins, final int batchMeans) {
        final long[] edges = new long[bins];
        for (int i = 0; i < bins; i++) {
            edges[i] = 1_000L * (i + 1);
        }
        return new MeasuredResult((short) 9, 1L, new HistogramBins(edges, new long[bins], 0L), 0L, 1.0, 0.1, 2.0, 0, 0L,
            "agent-ws1", new double[batchMeans]);
    }

    private void launch(final ServerYaml named) throws Exception {
        final Path config = TestbedConfigLines.pushedWs1Ws2OnAtmPort(named.stateFile(Path.of("limits.state.json"))
                .profile(TestbedConfigLines.profiles().resolve("thesis-tac4-corba.json")), "ws1")
            .connection(Connection.of(1, "ws1", "ws2", 1).link("atm-port").profile("thesis-tac4-corba").calibration("thesis")
                .probeRatePerSecond(0))
            .writeTo(directory.resolve("limits.yaml"));
        server = LatencyServerNode.launch(new ServerContext().configFile(config).metricsPort(ServerContext.METRICS_OFF));
    }

    /** A client that makes no retries. */
    private ORB client() {
        final java.util.Properties properties = PlainOrbs.properties();
        properties.setProperty("jacorb.retries", "0");
        final ORB orb = ORB.init(new String[0], properties);
        clients.add(orb);
        return orb;
    }

    private IIOPAddress address() {
        final ParsedIOR ior = new ParsedIOR((org.jacorb.orb.ORB) client(), server.serverIor());
        return (IIOPAddress) ((IIOPProfile) ior.getEffectiveProfile()).getAddress();
    }
}
