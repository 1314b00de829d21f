package org.latencyserver.server.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.latencyserver.idl.latency.EchoPeerPOATie;
import org.latencyserver.orb.EchoingPeer;
import org.latencyserver.orb.NameKeeper;
import org.latencyserver.orb.OrbSupport;
import org.latencyserver.orb.PlainOrbs;
import org.latencyserver.testkit.FreePorts;
import org.omg.CORBA.ORB;
import org.omg.CosNaming.NamingContextExt;
import org.omg.CosNaming.NamingContextExtHelper;

/**
 * A {@link NameKeeper} against a naming service in this JVM whose binding an impostor changes over
 * plain IIOP: a context put in place of the name, or another object rebound to it, is repaired by
 * the keeper's next check and counted.
 */
@ResourceLock(NamingServiceNodeTest.ONE_PER_JVM) // one naming service per JVM (NamingServiceNode)
class NameKeeperRepairTest {

    private static final long CHECK_INTERVAL_MILLIS = 50;
    /** A bound on waiting for the keeper's repair; reaching it fails the test. */
    private static final long GIVE_UP_MILLIS = 30_000;

    @TempDir
    Path directory;
    private NamingServiceNode naming;
    private ORB serverOrb;
    private ORB impostorOrb;
    private org.omg.CORBA.Object server;
    private org.omg.CORBA.Object impostorObject;

    @BeforeEach
    void startANamingServiceAServerObjectAndAnImpostor() throws Exception {
        naming = NamingServiceNode.launch(new NamingServiceContext().port(FreePorts.belowEphemeralRange())
            .databaseDirectory(directory.resolve("nsdb")));
        serverOrb = PlainOrbs.withoutRetries();
        server = OrbSupport.serveOnRootPoa(serverOrb, new EchoPeerPOATie(echo()), "the test's server object");
        impostorOrb = PlainOrbs.withoutRetries();
        impostorObject = OrbSupport.serveOnRootPoa(impostorOrb, new EchoPeerPOATie(echo()), "the impostor's object");
    }

    @AfterEach
    void stopEverything() {
        serverOrb.shutdown(true);
        impostorOrb.shutdown(true);
        naming.close();
    }

    @Test
    void aNamingContextBoundInPlaceOfTheNameIsUnboundAndTheNameBoundAgainAndCounted() throws Exception {
        try (NameKeeper keeper = NameKeeper.bind(serverOrb, naming.corbaloc(), "LatencyServer", server, CHECK_INTERVAL_MILLIS)) {
            final NamingContextExt root = impostorRoot();
            root.unbind(root.to_name("LatencyServer"));
            root.bind_new_context(root.to_name("LatencyServer"));

            awaitRepairs(keeper, 1);

            assertTrue(root.resolve_str("LatencyServer")._is_equivalent(server), "the server's object is bound again");
            assertEquals(1, keeper.repairs());
        }
    }

    @Test
    void anotherObjectReboundToTheNameIsReplacedAndCounted() throws Exception {
        try (NameKeeper keeper = NameKeeper.bind(serverOrb, naming.corbaloc(), "LatencyServer", server, CHECK_INTERVAL_MILLIS)) {
            final NamingContextExt root = impostorRoot();
            root.rebind(root.to_name("LatencyServer"), impostorObject);

            awaitRepairs(keeper, 1);

            assertTrue(root.resolve_str("LatencyServer")._is_equivalent(server), "the server's object is bound again");
        }
    }

    @Test
    void aNameThatStaysBoundIsNeverCountedAsRepaired() throws Exception {
        try (NameKeeper keeper = NameKeeper.bind(serverOrb, naming.corbaloc(), "LatencyServer", server, CHECK_INTERVAL_MILLIS)) {
            final NamingContextExt root = impostorRoot();
            root.rebind(root.to_name("LatencyServer"), impostorObject);
            awaitRepairs(keeper, 1);
            root.unbind(root.to_name("LatencyServer")); // lost, not replaced: bound again but not a repair
            final long deadline = System.nanoTime() + 30_000_000_000L;
            while (!isBound(root)) {
                assertTrue(System.nanoTime() < deadline, "the unbound name bound again within 30 s");
                Thread.sleep(CHECK_INTERVAL_MILLIS);
            }
            assertEquals(1, keeper.repairs(), "an unbound name is bound again without counting a repair");
        }
    }

    @Test
    void aYieldingKeeperReportsEachCheckThatFindsItsObjectAndLeavesAnotherServersBindingAlone() throws Exception {
        final java.util.concurrent.atomic.AtomicLong confirmations = new java.util.concurrent.atomic.AtomicLong();
        try (NameKeeper keeper = NameKeeper.bind(serverOrb, naming.corbaloc(), java.util.List.of("LatencyServer"), server,
                CHECK_INTERVAL_MILLIS, new NameKeeper.Yielding(sentNanos -> confirmations.incrementAndGet()))) {
            final long deadline = System.nanoTime() + 30_000_000_000L;
            while (confirmations.get() < 3) {
                assertTrue(System.nanoTime() < deadline, "three confirmations within 30 s");
                Thread.sleep(CHECK_INTERVAL_MILLIS);
            }
            final NamingContextExt root = impostorRoot();
            root.rebind(root.to_name("LatencyServer"), impostorObject); // the pair's other server took the name
            Thread.sleep(CHECK_INTERVAL_MILLIS * 2);
            final long afterRebind = confirmations.get();
            Thread.sleep(CHECK_INTERVAL_MILLIS * 10);
            assertTrue(root.resolve_str("LatencyServer")._is_equivalent(impostorObject), "the other's binding is left alone");
            assertEquals(0, keeper.repairs());
            assertTrue(confirmations.get() <= afterRebind + 1, "no check confirms a name bound to another object");
        }
    }

    private static boolean isBound(final NamingContextExt root) {
        try {
            root.resolve_str("LatencyServer");
            return true;
        } catch (org.omg.CosNaming.NamingContextPackage.NotFound e) {
            return false;
        } catch (org.omg.CORBA.UserException e) {
            throw new AssertionError(e);
        }
    }

    private NamingContextExt impostorRoot() {
        return NamingContextExtHelper.narrow(impostorOrb.string_to_object(naming.corbaloc()));
    }

    private static void awaitRepairs(final NameKeeper keeper, final long count) throws InterruptedException {
        final long giveUp = System.nanoTime() + GIVE_UP_MILLIS * 1_000_000;
        while (keeper.repairs() < count) {
            if (System.nanoTime() > giveUp) {
                throw new AssertionError("the keeper made " + keeper.repairs() + " repairs, not " + count);
            }
            Thread.sleep(CHECK_INTERVAL_MILLIS);
        }
    }

    private static EchoingPeer echo() {
        return new EchoingPeer() {
            @Override
            protected void beforeAnswer() {
                // a plain echo
            }
        };
    }
}
