package org.latencyserver.systemtests.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencyserver.idl.Latserv;
import org.latencyserver.idl.LatservHelper;
import org.latencyserver.idl.LatservPackage.IdlMibUpdates;
import org.latencyserver.idl.latency.EchoPeer;
import org.latencyserver.idl.latency.EchoPeerHelper;
import org.latencyserver.launch.ChildProcess;
import org.latencyserver.launch.Component;
import org.latencyserver.orb.PlainOrbs;
import org.latencyserver.systemtests.kit.LogWatch;
import org.latencyserver.systemtests.kit.SystemUnderTest;
import org.latencyserver.systemtests.kit.Testbed;
import org.omg.CORBA.ORB;
import org.omg.CosNaming.NamingContextExt;
import org.omg.CosNaming.NamingContextExtHelper;

/**
 * The server and the peer agent against a naming service that dies. Killed
 * with {@code kill -9} and restarted on its port, the naming service has lost their names, and
 * both bind them again by themselves; one that cannot be reached at start-up stops them with one
 * line, exit code 2, and no IOR file pointing at a process that is gone.
 */
class NamingServiceFailuresTest {

    /** The keepers check every 2 s; a restarted name server needs a few seconds to listen. */
    private static final Duration REBOUND_WITHIN = Duration.ofSeconds(20);

    @TempDir
    Path directory;
    private ORB orb;
    private SystemUnderTest system;

    @BeforeEach
    void startOrb() {
        system = SystemUnderTest.in(directory);
        orb = PlainOrbs.withoutRetries();
    }

    @AfterEach
    void stopOrb() {
        orb.shutdown(false);
        system.close();
    }

    @Test
    void theServerAndThePeerAgentAreBoundAgainAfterTheNamingServiceIsKilledAndRestarted() throws Exception {
        final int port = freePort();
        final String namingRef = "corbaloc::127.0.0.1:" + port + "/NameService";
        final Path peerIor = directory.resolve("peer-ws2.ior");
        final ChildProcess naming = startNamingService("naming-1", port);
        final ChildProcess server = system.start(system.serverLaunch("server", testbedConfig())
            .args("--metrics-port", "-1", "--naming", namingRef)).child();
        final ChildProcess peer = system.start(system.launch(Component.PEER_AGENT).name("peer")
            .args("--name", "ws2", "--ior-file", peerIor.toString(), "--naming", namingRef)).child();
        assertTrue(answersRequestStatus(namingRef), "bound at start\n" + server.log());

        naming.kill(); // kill -9: its bindings were never saved
        // Both notice while it is down (their next checks fail too, and are not logged)...
        LogWatch.await(server, "lost the binding of 'LatencyServer' .*cannot be reached", REBOUND_WITHIN);
        LogWatch.await(peer, "lost the binding of 'peers/ws2' .*cannot be reached", REBOUND_WITHIN);
        // ...and bind again once it is back on its port, without the names it had.
        startNamingService("naming-2", port);

        awaitTrue(() -> answersRequestStatus(namingRef), "'LatencyServer' resolves and answers again", server);
        awaitTrue(() -> echoesThroughName(namingRef), "'peers/ws2' resolves and echoes again", peer);
        assertEquals(1, occurrences(server.log(), "lost the binding of 'LatencyServer'"), "logged once, not per attempt\n"
            + server.log());
        assertEquals(1, occurrences(server.log(), "'LatencyServer' is bound again"), server.log());
        assertEquals(1, occurrences(peer.log(), "lost the binding of 'peers/ws2'"), "logged once, not per attempt\n" + peer.log());
        assertEquals(1, occurrences(peer.log(), "'peers/ws2' is bound again"), peer.log());

        // Someone binds the server's name to another object: it is taken back.
        context(namingRef).rebind(context(namingRef).to_name("LatencyServer"), orb.string_to_object(Files.readString(peerIor).trim()));
        awaitTrue(() -> answersRequestStatus(namingRef), "'LatencyServer' is taken back from another object", server);
    }

    @Test
    void anUnreachableNamingServiceStopsTheServerWithOneLineAndExitCodeTwoAndNoIorFile() throws Exception {
        final String namingRef = "corbaloc::127.0.0.1:" + freePort() + "/NameService";
        final Path serverIor = directory.resolve("server.ior");
        Files.writeString(serverIor, "IOR:0000 of an earlier run"); // must not outlive a failed start either
        final ChildProcess server = system.serverLaunch("server", testbedConfig())
            .args("--metrics-port", "-1", "--naming", namingRef).start();
        assertEquals(2, server.awaitExit(Duration.ofSeconds(60)), server.log());
        assertFalse(Files.exists(serverIor), "no IOR file of a server that is gone");
        assertOneLineAboutTheNamingService(server.log(), namingRef);
    }

    @Test
    void anUnreachableNamingServiceStopsThePeerAgentWithOneLineAndExitCodeTwoAndNoIorFile() throws Exception {
        final String namingRef = "corbaloc::127.0.0.1:" + freePort() + "/NameService";
        final Path peerIor = directory.resolve("peer-ws2.ior");
        Files.writeString(peerIor, "IOR:0000 of an earlier run");
        final ChildProcess peer = system.launch(Component.PEER_AGENT).name("peer")
            .args("--name", "ws2", "--ior-file", peerIor.toString(), "--naming", namingRef).start();
        assertEquals(2, peer.awaitExit(Duration.ofSeconds(60)), peer.log());
        assertFalse(Files.exists(peerIor), "no IOR file of a peer agent that is gone");
        assertOneLineAboutTheNamingService(peer.log(), namingRef);
    }

    /** The reason is one line naming what could not be reached and what to do; no stack trace. */
    private static void assertOneLineAboutTheNamingService(final String log, final String namingRef) {
        final List<String> lines = log.lines().filter(line -> line.contains(namingRef)).toList();
        assertEquals(1, lines.size(), log);
        assertTrue(lines.get(0).contains("cannot be reached") && lines.get(0).contains("--naming"), lines.get(0));
        assertTrue(log.lines().noneMatch(line -> line.startsWith("\tat ") || line.contains("Exception")), log);
    }

    private boolean answersRequestStatus(final String namingRef) {
        try {
            final Latserv latserv = LatservHelper.narrow(context(namingRef).resolve_str("LatencyServer"));
            latserv.PutMibUpdates(new IdlMibUpdates((short) 1, (short) 5, (short) 5, (short) 5), (short) 1);
            return latserv.RequestStatus((short) 1).server_acknowledges_client == 1;
        } catch (org.omg.CORBA.UserException | org.omg.CORBA.SystemException notYet) {
            return false;
        }
    }

    private boolean echoesThroughName(final String namingRef) {
        try {
            final EchoPeer peer = EchoPeerHelper.narrow(context(namingRef).resolve_str("peers/ws2"));
            return peer.echo(new byte[] {1, 2, 3}).length == 3;
        } catch (org.omg.CORBA.UserException | org.omg.CORBA.SystemException notYet) {
            return false;
        }
    }

    /** A fresh reference each time: the previous one's connection may belong to the killed name server. */
    private NamingContextExt context(final String namingRef) {
        return NamingContextExtHelper.narrow(orb.string_to_object(namingRef));
    }

    /** Starts a naming service on the port and waits for its ready file. */
    private ChildProcess startNamingService(final String logName, final int port) throws Exception {
        return system.start(system.launch(Component.NAMING_SERVICE).name(logName)
            .args("--port", Integer.toString(port), "--db-dir", directory.resolve("naming-db").toString())).child();
    }

    /** The thesis testbed, its profiles found from the temporary directory, its state file there. */
    private Path testbedConfig() throws IOException {
        return Testbed.write(directory, "testbed.yaml", Testbed.text());
    }

    private static void awaitTrue(final Supplier<Boolean> condition, final String what, final ChildProcess process)
        throws Exception {
        final long deadline = System.nanoTime() + REBOUND_WITHIN.toNanos();
        while (System.nanoTime() < deadline) {
            if (condition.get()) {
                return;
            }
            Thread.sleep(200);
        }
        throw new AssertionError(what + " within " + REBOUND_WITHIN + " failed:\n" + process.log());
    }

    private static int occurrences(final String text, final String part) {
        int count = 0;
        for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + 1)) {
            count++;
        }
        return count;
    }

    /** A port below the kernel's ephemeral range: no outgoing connection of a test beside this one is given it. */
    private static int freePort() {
        return org.latencyserver.testkit.FreePorts.belowEphemeralRange();
    }
}
