package org.latencyserver.server.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.latencyserver.launch.StderrCapture;
import org.latencyserver.launch.StderrCapture.Run;
import picocli.CommandLine;

/**
 * The mains map each kind of launch failure to the exit status and one line the operator guide
 * documents. Only failures: a main that launches waits for SIGTERM.
 */
@ResourceLock(NamingServiceNodeTest.ONE_PER_JVM) // one naming service per JVM (NamingServiceNode)
@Isolated // runs alone (junit-platform.properties): replaces the JVM's standard error to read what a main prints there
class LauncherExitStatusTest {

    @TempDir
    Path directory;

    @Test
    void aRefusedConfigurationExitsWithOneAndItsFaults() throws Exception {
        final Path config = Files.writeString(directory.resolve("broken.yaml"), "server:\n  name: X\n  no_such_key: 1\n");
        final Run run = run(new ServerMain(), "--config", config.toString(), "--ior-file", directory.resolve("s.ior").toString());
        assertEquals(1, run.status(), run.stderr());
        assertTrue(run.stderr().startsWith("latency server: the configuration is refused:"), run.stderr());
        assertTrue(run.stderr().contains("no_such_key"), run.stderr());
    }

    @Test
    void anOrbPortOutOfRangeIsAUsageErrorExitingWithTwo() throws Exception {
        final Path config = Files.writeString(directory.resolve("any.yaml"), "server:\n  name: X\n");
        final Run run = run(new ServerMain(), "--config", config.toString(), "--port", "70000",
            "--ior-file", directory.resolve("s.ior").toString());
        assertEquals(2, run.status(), run.stderr());
        assertTrue(run.stderr().startsWith("latency server: the port must be 0..65535"), run.stderr());
        assertFalse(Files.exists(directory.resolve("s.ior")));
    }

    @Test
    void aNamingServiceOnATakenPortExitsWithOneNamingTheAddress() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            final int port = taken.getLocalPort();
            final Run run = run(new NamingServiceMain(), "--port", Integer.toString(port),
                "--db-dir", directory.resolve("nsdb").toString());
            assertEquals(1, run.status(), run.stderr());
            // JacORB logs its own warning first; the launcher's line names the address.
            assertTrue(run.stderr().lines().anyMatch(line -> line.startsWith("latency naming-service: cannot listen at 127.0.0.1:"
                + port + ": ")), run.stderr());
        }
    }

    @Test
    void aNamingServiceOnPortZeroIsAUsageErrorExitingWithTwo() throws Exception {
        final Run run = run(new NamingServiceMain(), "--port", "0", "--db-dir", directory.resolve("nsdb").toString());
        assertEquals(2, run.status(), run.stderr());
        assertTrue(run.stderr().contains("fixed port"), run.stderr());
    }

    /** Runs a main's command in this JVM, its standard error captured. */
    private static Run run(final Callable<Integer> main, final String... args) throws Exception {
        return StderrCapture.run(() -> new CommandLine(main).execute(args));
    }
}
