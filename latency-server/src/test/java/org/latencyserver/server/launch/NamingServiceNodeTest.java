package org.latencyserver.server.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.latencyserver.launch.ReadyFile;
import org.latencyserver.orb.PlainOrbs;
import org.latencyserver.testkit.FreePorts;
import org.latencyserver.testkit.MetricsText;
import org.omg.CORBA.ORB;
import org.omg.CosNaming.NamingContextExt;
import org.omg.CosNaming.NamingContextExtHelper;
import org.omg.CosNaming.NamingContextPackage.NotFound;

/** A naming service launched in the test's JVM, used over JacORB sockets by a client ORB, closed and launched again. */
@ResourceLock(NamingServiceNodeTest.ONE_PER_JVM) // one naming service per JVM (NamingServiceNode)
class NamingServiceNodeTest {

    /**
     * The resource the test classes that start a naming service in their JVM lock: {@link NamingServiceNode}
     * refuses a second one while one runs (JacORB's naming contexts keep their ORB in a static field).
     */
    static final String ONE_PER_JVM = "org.latencyserver.server.launch.NamingServiceNode";

    @TempDir
    Path directory;
    private ORB client;
    private int port;

    @BeforeEach
    void startAClientOrbAndChooseAPort() throws IOException {
        client = PlainOrbs.withoutRetries();
        port = FreePorts.belowEphemeralRange(); // an ephemeral one could be a client connection's by the time it is bound
    }

    @AfterEach
    void stopTheClientOrb() {
        client.shutdown(true);
    }

    @Test
    void aLaunchedNamingServiceWritesItsReadyFileAndKeepsItsBindingsAcrossACloseAndRelaunchOnTheSamePort() throws Exception {
        final Path readyFile = directory.resolve("naming.ready.json");
        final String corbaloc;
        try (NamingServiceNode naming = NamingServiceNode.launch(context().readyFile(readyFile))) {
            corbaloc = naming.corbaloc();
            final ReadyFile ready = ReadyFile.read(readyFile);
            assertEquals("naming-service", ready.component());
            assertEquals("corbaloc::127.0.0.1:" + port + "/NameService", ready.reference("naming"));
            assertEquals(port, ready.port("naming"));
            final NamingContextExt root = NamingContextExtHelper.narrow(client.string_to_object(ready.reference("naming")));
            root.bind_new_context(root.to_name("peers"));
            root.bind_new_context(root.to_name("peers/ws2"));
            assertThrows(NotFound.class, () -> root.resolve_str("nobody"));
        }
        assertFalse(Files.exists(readyFile), "a clean stop deletes the ready file");

        // A client that comes after the restart, as one does after a naming service process restarts.
        // Not the first client ORB: JacORB closes the stopped ORB's accepted connections asynchronously,
        // and a request that client sent over its cached connection before that close was seen was
        // answered by the stopped ORB ("POA destroyed", a clean-clone CI run of 2026-11-24).
        final ORB later = PlainOrbs.withoutRetries();
        // The stopped ORB lets go of its listening socket on a thread of its own: wait for the port as a restarted
        // process would find it, free (at most 10 s).
        awaitFree(port);
        try (NamingServiceNode again = NamingServiceNode.launch(context())) {
            final NamingContextExt root = NamingContextExtHelper.narrow(later.string_to_object(corbaloc));
            final NamingContextExt ws2 = NamingContextExtHelper.narrow(root.resolve_str("peers/ws2"));
            assertEquals("ws2", ws2.to_string(root.to_name("ws2")), "the contexts bound before the restart, saved at close, answer");
        } finally {
            later.shutdown(true);
        }
    }

    @Test
    void withBindsOpenTheMetricsPageCountsTheChangesMadeAndNoRefusalsAndTheReadyFileNamesIt() throws Exception {
        final Path readyFile = directory.resolve("naming.ready.json");
        try (NamingServiceNode naming = NamingServiceNode.launch(context().readyFile(readyFile).metrics("127.0.0.1", 0))) {
            final String url = naming.metricsUrl().orElseThrow();
            assertEquals(url, ReadyFile.read(readyFile).url("metrics"));
            final NamingContextExt root = NamingContextExtHelper.narrow(client.string_to_object(naming.corbaloc()));
            root.bind_new_context(root.to_name("peers"));
            // A compound name: the root passes the rest to "peers"; counted once.
            root.rebind(root.to_name("peers/ws2"), root);
            root.rebind(root.to_name("peers/ws2"), root);

            final MetricsText page = MetricsText.scrape(url);
            assertEquals(1, page.get("latency_naming_writes_total", "operation", "bind_new_context"));
            assertEquals(2, page.get("latency_naming_writes_total", "operation", "rebind"));
            assertEquals(0, page.get("latency_naming_writes_total", "operation", "unbind"));
            assertEquals(0, page.sum("latency_naming_write_refusals_total"), "binds are open: nothing refused");
        }
    }

    @Test
    void aMetricsPortThatIsTakenIsRefusedAndLeavesNothingRunning() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            final LaunchFailure failure = assertThrows(LaunchFailure.class,
                () -> NamingServiceNode.launch(context().metrics("127.0.0.1", taken.getLocalPort())));
            assertEquals(LaunchFailure.Kind.CANNOT_LISTEN, failure.kind());
            assertTrue(failure.getMessage().contains("metrics endpoint cannot listen on 127.0.0.1:" + taken.getLocalPort()),
                failure.getMessage());
        }
        NamingServiceNode.launch(context()).close(); // the refused launch left nothing running
    }

    @Test
    void aSecondNamingServiceInTheSameJvmIsRefusedWhileTheFirstRunsAndAllowedOnceItIsClosed() throws Exception {
        final NamingServiceNode first = NamingServiceNode.launch(context());
        final LaunchFailure failure = assertThrows(LaunchFailure.class,
            () -> NamingServiceNode.launch(context().databaseDirectory(directory.resolve("other"))));
        assertEquals(LaunchFailure.Kind.INVALID_CONTEXT, failure.kind());
        assertTrue(failure.getMessage().contains("one at a time"), failure.getMessage());
        first.close();
        first.close();
        assertTrue(first.isClosed());
        NamingServiceNode.launch(context()).close();
    }

    @Test
    void aPortOfZeroIsRefusedBecauseTheNamingServiceIsFoundAtAFixedPort() {
        final LaunchFailure failure = assertThrows(LaunchFailure.class, () -> NamingServiceNode.launch(context().port(0)));
        assertEquals(LaunchFailure.Kind.INVALID_CONTEXT, failure.kind());
        assertTrue(failure.getMessage().contains("fixed port"), failure.getMessage());
    }

    @Test
    void aTakenPortIsRefusedNamingTheAddress() throws Exception {
        try (ServerSocket taken = new ServerSocket(port, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
            final LaunchFailure failure = assertThrows(LaunchFailure.class, () -> NamingServiceNode.launch(context()));
            assertEquals(LaunchFailure.Kind.CANNOT_LISTEN, failure.kind());
            assertTrue(failure.getMessage().contains("127.0.0.1:" + port), failure.getMessage());
        }
        NamingServiceNode.launch(context()).close(); // the refused launch left nothing running
    }

    private NamingServiceContext context() {
        return new NamingServiceContext().port(port).databaseDirectory(directory.resolve("nsdb"));
    }

    private static void awaitFree(final int port) throws InterruptedException {
        final long deadline = System.nanoTime() + 10_000_000_000L;
        while (true) {
            try (ServerSocket probe = new ServerSocket(port, 1, java.net.InetAddress.getLoopbackAddress())) {
                return;
            } catch (IOException held) {
                if (System.nanoTime() > deadline) {
                    return; // the relaunch below then fails and says why
                }
                Thread.sleep(50);
            }
        }
    }
}
