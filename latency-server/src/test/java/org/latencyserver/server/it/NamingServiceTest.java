package org.latencyserver.server.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencyserver.idl.Latserv;
import org.latencyserver.idl.LatservHelper;
import org.latencyserver.idl.LatservPackage.IdlMibUpdates;
import org.latencyserver.launch.ReadyFile;
import org.omg.CORBA.ORB;
import org.omg.CosNaming.NamingContextExt;
import org.omg.CosNaming.NamingContextExtHelper;

/** The components find each other by name: naming service and server as separate processes. */
class NamingServiceTest {

    /** How long a process may take to start on a busy machine. */
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);

    @TempDir
    Path directory;

    @Test
    void aThesisClientFindsTheServerByNameInTheNamingService() throws Exception {
        final int port = freePort();
        final String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        final Path namingReady = directory.resolve("naming.ready.json");
        final Path serverReady = directory.resolve("server.ready.json");
        final Process naming = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
            "org.latencyserver.server.launch.NamingServiceMain", "--port", Integer.toString(port),
            "--db-dir", directory.resolve("nsdb").toString(), "--ready-file", namingReady.toString())
            .redirectErrorStream(true).redirectOutput(directory.resolve("naming.log").toFile()).start();
        final Path config = directory.resolve("testbed.yaml");
        Files.writeString(config, Files.readString(Path.of("../examples/thesis-testbed.yaml"))
            .replace("../profiles/", Path.of("../profiles").toAbsolutePath().normalize() + "/"));
        Process server = null;
        final Properties properties = new Properties();
        properties.setProperty("org.omg.CORBA.ORBClass", "org.jacorb.orb.ORB");
        properties.setProperty("org.omg.CORBA.ORBSingletonClass", "org.jacorb.orb.ORBSingleton");
        final ORB orb = ORB.init(new String[0], properties);
        try {
            final String namingRef = ReadyFile.await(namingReady, READY_TIMEOUT, naming::isAlive,
                () -> "naming service log:\n" + readQuietly(directory.resolve("naming.log"))).reference("naming");
            assertEquals("corbaloc::127.0.0.1:" + port + "/NameService", namingRef);
            server = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                "-Dlogback.configurationFile=logback.xml", "org.latencyserver.server.launch.ServerMain",
                "--config", config.toString(), "--ior-file", directory.resolve("server.ior").toString(),
                "--metrics-port", "-1", "--naming", namingRef, "--ready-file", serverReady.toString())
                .redirectErrorStream(true).redirectOutput(directory.resolve("server.log").toFile()).start();
            final ReadyFile ready = ReadyFile.await(serverReady, READY_TIMEOUT, server::isAlive,
                () -> "server log:\n" + readQuietly(directory.resolve("server.log")));
            assertEquals("LatencyServer", ready.fact("name"), "registered under server.name");
            final NamingContextExt context = NamingContextExtHelper.narrow(orb.string_to_object(namingRef));
            final Latserv latserv = LatservHelper.narrow(context.resolve_str("LatencyServer"));
            latserv.PutMibUpdates(new IdlMibUpdates((short) 1, (short) 5, (short) 5, (short) 5), (short) 1);
            assertEquals(1.365f, latserv.RequestStatus((short) 1).latency_estimate, "Appendix A TAC-4 256 B 0-33/0-33");
        } finally {
            orb.shutdown(false);
            for (final Process process : List.of(naming, server == null ? naming : server)) {
                process.destroy();
                process.waitFor(10, TimeUnit.SECONDS);
            }
        }
        assertFalse(Files.exists(namingReady), "a naming service stopped by SIGTERM deletes its ready file");
        assertFalse(Files.exists(serverReady), "a server stopped by SIGTERM deletes its ready file");
    }

    private static String readQuietly(final Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            return "(cannot read " + file + ": " + e.getMessage() + ")";
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

}
