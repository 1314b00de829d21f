package org.latencyserver.systemtests.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencyserver.idl.Latserv;
import org.latencyserver.idl.LatservHelper;
import org.latencyserver.idl.LatservPackage.IdlMibUpdates;
import org.latencyserver.launch.Component;
import org.latencyserver.systemtests.kit.ReadyProcess;
import org.latencyserver.systemtests.kit.SystemUnderTest;
import org.latencyserver.systemtests.kit.Testbed;
import org.omg.CosNaming.NamingContextExt;
import org.omg.CosNaming.NamingContextExtHelper;

/** The components find each other by name: naming service and server as separate processes. */
class NamingServiceTest {

    @TempDir
    Path directory;

    @Test
    void aThesisClientFindsTheServerByNameInTheNamingService() throws Exception {
        final int port = freePort();
        final Path config = Testbed.write(directory, "testbed.yaml", Testbed.text());
        final Path namingReady;
        final Path serverReady;
        try (SystemUnderTest system = SystemUnderTest.in(directory)) {
            final ReadyProcess naming = system.start(system.launch(Component.NAMING_SERVICE)
                .args("--port", Integer.toString(port), "--db-dir", directory.resolve("nsdb").toString()));
            namingReady = naming.child().readyFile();
            final String namingRef = naming.ready().reference("naming");
            assertEquals("corbaloc::127.0.0.1:" + port + "/NameService", namingRef);
            final ReadyProcess server = system.start(system.serverLaunch("server", config)
                .args("--metrics-port", "-1", "--naming", namingRef));
            serverReady = server.child().readyFile();
            assertEquals("LatencyServer", server.ready().fact("name"), "registered under server.name");
            final NamingContextExt context = NamingContextExtHelper.narrow(system.orb().string_to_object(namingRef));
            final Latserv latserv = LatservHelper.narrow(context.resolve_str("LatencyServer"));
            latserv.PutMibUpdates(new IdlMibUpdates((short) 1, (short) 5, (short) 5, (short) 5), (short) 1);
            assertEquals(1.365f, latserv.RequestStatus((short) 1).latency_estimate, "Appendix A TAC-4 256 B 0-33/0-33");
        }
        assertFalse(Files.exists(namingReady), "a naming service stopped by SIGTERM deletes its ready file");
        assertFalse(Files.exists(serverReady), "a server stopped by SIGTERM deletes its ready file");
    }

    /** A port below the kernel's ephemeral range: no outgoing connection of a test beside this one is given it. */
    private static int freePort() {
        return org.latencyserver.testkit.FreePorts.belowEphemeralRange();
    }

}
