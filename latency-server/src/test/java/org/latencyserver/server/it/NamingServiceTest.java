package org.latencyserver.server.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencyserver.idl.Latserv;
import org.latencyserver.idl.LatservHelper;
import org.latencyserver.idl.LatservPackage.IdlMibUpdates;
import org.omg.CORBA.ORB;
import org.omg.CosNaming.NamingContextExt;
import org.omg.CosNaming.NamingContextExtHelper;

/** The components find each other by name: naming service and server as separate processes. */
class NamingServiceTest {

    @TempDir
    Path directory;

    @Test
    void aThesisClientFindsTheServerByNameInTheNamingService() throws Exception {
        final int port = freePort();
        final String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        final Process naming = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
            "org.latencyserver.server.launch.NamingServiceMain", "--port", Integer.toString(port),
            "--db-dir", directory.resolve("nsdb").toString())
            .redirectErrorStream(true).redirectOutput(directory.resolve("naming.log").toFile()).start();
        final Path config = directory.resolve("testbed.yaml");
        Files.writeString(config, Files.readString(Path.of("../examples/thesis-testbed.yaml"))
            .replace("../profiles/", Path.of("../profiles").toAbsolutePath().normalize() + "/"));
        final String namingRef = "corbaloc::127.0.0.1:" + port + "/NameService";
        Process server = null;
        final Properties properties = new Properties();
        properties.setProperty("org.omg.CORBA.ORBClass", "org.jacorb.orb.ORB");
        properties.setProperty("org.omg.CORBA.ORBSingletonClass", "org.jacorb.orb.ORBSingleton");
        final ORB orb = ORB.init(new String[0], properties);
        try {
            awaitPort(port, naming);
            server = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                "-Dlogback.configurationFile=logback.xml", "org.latencyserver.server.launch.ServerMain",
                "--config", config.toString(), "--ior-file", directory.resolve("server.ior").toString(),
                "--metrics-port", "-1", "--naming", namingRef)
                .redirectErrorStream(true).redirectOutput(directory.resolve("server.log").toFile()).start();
            final long deadline = System.nanoTime() + 60_000_000_000L;
            while (!Files.readString(directory.resolve("server.log")).contains("registered as")
                && server.isAlive() && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            assertTrue(Files.readString(directory.resolve("server.log")).contains("registered as 'LatencyServer'"),
                Files.readString(directory.resolve("server.log")));
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
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static void awaitPort(final int port, final Process process) throws Exception {
        final long deadline = System.nanoTime() + 60_000_000_000L;
        while (System.nanoTime() < deadline && process.isAlive()) {
            try (java.net.Socket socket = new java.net.Socket("127.0.0.1", port)) {
                return;
            } catch (IOException notYet) {
                Thread.sleep(100);
            }
        }
        throw new IllegalStateException("the naming service did not listen on " + port);
    }
}
