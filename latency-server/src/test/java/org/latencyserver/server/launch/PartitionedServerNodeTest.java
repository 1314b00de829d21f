package org.latencyserver.server.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.latencyserver.orb.PlainOrbs;
import org.latencyserver.server.config.TestbedConfigLines;
import org.latencyserver.testkit.FreePorts;
import org.latencyserver.testkit.config.ServerYaml;
import org.latencyserver.testkit.config.ServerYaml.Connection;
import org.omg.CORBA.ORB;
import org.omg.CosNaming.NamingContextExt;
import org.omg.CosNaming.NamingContextExtHelper;
import org.omg.CosNaming.NamingContextPackage.NotFound;

/**
 * A partition's server and JacORB's naming service in the test's JVM, over real sockets: what it
 * binds, that it binds it all again after the naming service lost its bindings, and what it refuses.
 * (Three partitions as processes, in omniNames too, are system-tests' {@code PartitionsIn*Test}.)
 */
@ResourceLock(NamingServiceNodeTest.ONE_PER_JVM) // one naming service per JVM (NamingServiceNode)
class PartitionedServerNodeTest {

    @TempDir
    Path directory;
    private ORB client;
    private int namingPort;

    @BeforeEach
    void startAClientOrbAndChooseAPort() throws IOException {
        client = PlainOrbs.withoutRetries();
        namingPort = FreePorts.belowEphemeralRange(); // an ephemeral one could be a client connection's by the time it is bound
    }

    @AfterEach
    void stopTheClientOrb() {
        client.shutdown(true);
    }

    @Test
    void aPartitionBindsItsNameItsRangesAndItsClientNodesAndBindsThemAgainAfterTheNamingServiceLostThem() throws Exception {
        final String corbaloc = "corbaloc::127.0.0.1:" + namingPort + "/NameService";
        try (NamingServiceNode naming = NamingServiceNode.launch(namingContext("nsdb"));
             LatencyServerNode east = LatencyServerNode.launch(serverContext("east", 1, corbaloc))) {
            assertBoundTo(east, corbaloc, "LatencyServer/east", "LatencyServer/by-client/ws1", "LatencyServer/index-ranges/east/1-2");
            assertEquals(LaunchFailure.Kind.PARTITION_CONFLICT, assertThrows(LaunchFailure.class,
                () -> LatencyServerNode.launch(serverContext("west", 2, corbaloc))).kind(),
                "2-3 overlaps east's 1-2, and ws1 is east's while east runs");
            naming.close();
            // A naming service that lost every binding (a fresh database), as after a kill -9 without one.
            try (NamingServiceNode fresh = launchAgainOnItsPort(namingContext("fresh-nsdb"))) {
                final ORB later = PlainOrbs.withoutRetries(); // not the first ORB's cached connection to the stopped one
                try {
                    final long deadline = System.nanoTime() + 60_000_000_000L;
                    while (!resolves(later, corbaloc, "LatencyServer/by-client/ws1")) {
                        assertFalse(System.nanoTime() > deadline, "the client node is bound again within 60 s");
                        Thread.sleep(100);
                    }
                    assertBoundTo(east, corbaloc, "LatencyServer/east", "LatencyServer/by-client/ws1",
                        "LatencyServer/index-ranges/east/1-2");
                } finally {
                    later.shutdown(true);
                }
            }
        }
    }

    @Test
    void anOverlappingRangeIsRefusedNamingBothPartitionsAndTheOverlapEvenWhileTheOtherIsDown() throws Exception {
        final String corbaloc = "corbaloc::127.0.0.1:" + namingPort + "/NameService";
        try (NamingServiceNode naming = NamingServiceNode.launch(namingContext("nsdb"))) {
            LatencyServerNode.launch(serverContext("east", 1, corbaloc, "ws1")).close(); // its ranges stay published
            final LaunchFailure refused = assertThrows(LaunchFailure.class,
                () -> LatencyServerNode.launch(serverContext("west", 2, corbaloc, "ws3")));
            assertEquals(LaunchFailure.Kind.PARTITION_CONFLICT, refused.kind());
            assertTrue(refused.getMessage().contains("index_ref 2 of partition 'west' (its range 2-3) overlaps partition 'east' (its"
                + " range 1-2"), refused.getMessage());
            assertFalse(resolves(client, corbaloc, "LatencyServer/west"), "a refused partition binds nothing");
            // The same partition again (its earlier run is gone) takes its names back.
            try (LatencyServerNode again = LatencyServerNode.launch(serverContext("east", 1, corbaloc, "ws1"))) {
                assertBoundTo(again, corbaloc, "LatencyServer/east", "LatencyServer/by-client/ws1");
            }
        }
    }

    @Test
    void partitionsThatNumberTheirOwnIndexRefsMayEachUseTheSameNumbersButMayNotMixWithOnesThatShareTheNumbering() throws Exception {
        final String corbaloc = "corbaloc::127.0.0.1:" + namingPort + "/NameService";
        try (NamingServiceNode naming = NamingServiceNode.launch(namingContext("nsdb"));
             LatencyServerNode east = LatencyServerNode.launch(serverContext("east", 1, corbaloc, "ws1", "partition"));
             LatencyServerNode west = LatencyServerNode.launch(serverContext("west", 1, corbaloc, "ws3", "partition"))) {
            assertBoundTo(east, corbaloc, "LatencyServer/east", "LatencyServer/by-client/ws1", "LatencyServer/index-ranges/east/per-partition");
            assertBoundTo(west, corbaloc, "LatencyServer/west", "LatencyServer/by-client/ws3", "LatencyServer/index-ranges/west/per-partition");
            assertFalse(resolves(client, corbaloc, "LatencyServer/index-ranges/east/1-2"), "no range is published");

            final LaunchFailure mixed = assertThrows(LaunchFailure.class,
                () -> LatencyServerNode.launch(serverContext("north", 100, corbaloc, "ws5", "deployment")));
            assertEquals(LaunchFailure.Kind.PARTITION_CONFLICT, mixed.kind());
            assertTrue(mixed.getMessage().contains("partition 'east' numbers its index_refs within the partition"), mixed.getMessage());
            assertTrue(mixed.getMessage().contains("every partition of a deployment gives the same server.index_ref_scope"),
                mixed.getMessage());
            assertFalse(resolves(client, corbaloc, "LatencyServer/north"), "a refused partition binds nothing");
        }
    }

    @Test
    void aRunningSingleServerOfTheSameNameIsRefusedAndTheNameItLeftBoundWhenItStoppedIsTakenOver() throws Exception {
        final String corbaloc = "corbaloc::127.0.0.1:" + namingPort + "/NameService";
        try (NamingServiceNode naming = NamingServiceNode.launch(namingContext("nsdb"))) {
            final Path single = directory.resolve("single.yaml");
            Files.writeString(single, Files.readString(serverContext("east", 1, corbaloc).conclude().configuration().file())
                .replace("  partition: east\n", ""));
            final LatencyServerNode running = LatencyServerNode.launch(new ServerContext().configFile(single)
                .namingReference(corbaloc).metricsPort(ServerContext.METRICS_OFF));
            final LaunchFailure refused;
            try {
                assertBoundTo(running, corbaloc, "LatencyServer");
                refused = assertThrows(LaunchFailure.class, () -> LatencyServerNode.launch(serverContext("east", 1, corbaloc)));
            } finally {
                running.close(); // its name stays bound, to a server that no longer answers
            }
            assertEquals(LaunchFailure.Kind.PARTITION_CONFLICT, refused.kind());
            assertTrue(refused.getMessage().contains("'LatencyServer' is registered in " + corbaloc + " as a single server that is"
                + " running"), refused.getMessage());
            try (LatencyServerNode east = LatencyServerNode.launch(serverContext("east", 1, corbaloc))) {
                assertBoundTo(east, corbaloc, "LatencyServer/east", "LatencyServer/by-client/ws1");
            }
        }
    }

    private void assertBoundTo(final LatencyServerNode server, final String corbaloc, final String... names) throws Exception {
        final NamingContextExt root = NamingContextExtHelper.narrow(client.string_to_object(corbaloc));
        for (final String name : names) {
            assertTrue(root.resolve_str(name)._is_equivalent(client.string_to_object(server.serverIor())), name);
        }
    }

    private static boolean resolves(final ORB orb, final String corbaloc, final String name) {
        try {
            NamingContextExtHelper.narrow(orb.string_to_object(corbaloc)).resolve_str(name);
            return true;
        } catch (NotFound e) {
            return false;
        } catch (org.omg.CORBA.SystemException | org.omg.CORBA.UserException e) {
            return false;
        }
    }

    private NamingServiceContext namingContext(final String database) {
        return new NamingServiceContext().port(namingPort).databaseDirectory(directory.resolve(database));
    }

    private ServerContext serverContext(final String partition, final int firstIndexRef, final String corbaloc) throws IOException {
        return serverContext(partition, firstIndexRef, corbaloc, "ws1");
    }

    /** A partition with connections firstIndexRef and the next from client node CLIENT to ws2. */
    private ServerContext serverContext(final String partition, final int firstIndexRef, final String corbaloc, final String clientNode)
        throws IOException {
        return serverContext(partition, firstIndexRef, corbaloc, clientNode, "deployment");
    }

    /** As above, with {@code server.index_ref_scope} SCOPE. */
    private ServerContext serverContext(final String partition, final int firstIndexRef, final String corbaloc, final String clientNode,
                                        final String scope) throws IOException {
        final Path profiles = Path.of("../profiles").toAbsolutePath().normalize();
        final ServerYaml yaml = ServerYaml.defaultName().server("partition", partition).server("index_ref_scope", scope)
            .stateFile(Path.of(partition + ".state.json")).profile(profiles.resolve("thesis-tac4-corba.json"));
        final Path config = TestbedConfigLines.pushedWs1Ws2OnAtmPort(yaml, clientNode)
            .connection(Connection.of(firstIndexRef, clientNode, "ws2", 1).profile("thesis-tac4-corba").calibration("thesis")
                .probeRatePerSecond(0))
            .connection(Connection.of(firstIndexRef + 1, clientNode, "ws2", 1).profile("thesis-tac4-corba").calibration("thesis")
                .probeRatePerSecond(0))
            .writeTo(directory.resolve(partition + ".yaml"));
        return new ServerContext().configFile(config).namingReference(corbaloc).metricsPort(ServerContext.METRICS_OFF)
            .nameCheckIntervalMillis(100);
    }

    /**
     * The stopped naming service's accepted connections may still hold its port for a moment after it closed (the
     * server's connection to it is closed from the other side): the new one is started again until the port is free,
     * for at most 20 s.
     */
    private static NamingServiceNode launchAgainOnItsPort(final NamingServiceContext context) throws Exception {
        final long deadline = System.nanoTime() + 20_000_000_000L;
        while (true) {
            try {
                return NamingServiceNode.launch(context);
            } catch (LaunchFailure e) {
                if (e.kind() != LaunchFailure.Kind.CANNOT_LISTEN || System.nanoTime() > deadline) {
                    throw e;
                }
                Thread.sleep(200);
            }
        }
    }
}
