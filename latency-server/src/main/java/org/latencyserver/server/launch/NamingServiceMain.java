package org.latencyserver.server.launch;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.latencyserver.launch.ComponentMain;
import org.latencyserver.launch.ReadinessOptions;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code ./latency naming-service}: parses the command line into a {@link NamingServiceContext} and
 * launches a {@link NamingServiceNode} — JacORB's CORBA Naming Service on a fixed port, so that every
 * component finds the others at {@code corbaloc::HOST:PORT/NameService} — and closes it on SIGTERM
 * (saving its bindings in {@code --db-dir}).
 *
 * <p>With {@code --ready-file PATH} it writes a ready file ({@code docs/ready-files.md}) once it
 * serves, and deletes it when it stops cleanly.
 *
 * <p>Exit codes: stopped by SIGTERM, it closes, deletes its ready file and exits 143 (128 + 15), as a JVM does; Ctrl-C likewise exits 130;
 * 1 when the port cannot be listened on or a file or directory cannot be written (one line on
 * stderr), 2 usage.
 */
@Command(name = "naming-service", mixinStandardHelpOptions = true, version = "latency naming-service 0.1.0",
    description = "Run a CORBA Naming Service (JacORB's) for the Latency Server's components.")
public final class NamingServiceMain implements Callable<Integer> {

    /** Exit status of a port that cannot be listened on or a file that cannot be written. */
    static final int EXIT_FAILED = 1;
    /** Exit status of a usage error. */
    static final int EXIT_USAGE = 2;

    @Option(names = "--host", description = "Address to listen on (default: ${DEFAULT-VALUE}).")
    private String host = NamingServiceContext.DEFAULT_HOST;

    @Option(names = "--port", description = "Port to listen on (default: ${DEFAULT-VALUE}).")
    private int port = NamingServiceContext.DEFAULT_PORT;

    @Option(names = "--ior-file", paramLabel = "PATH", description = "Also write the naming service's IOR here.")
    private Path iorFile;

    /** Ready once it serves. */
    @Mixin
    private ReadinessOptions readiness = new ReadinessOptions();

    @Option(names = "--db-dir", paramLabel = "DIR",
        description = "Where the name server keeps its bindings across restarts (default: ${DEFAULT-VALUE}).")
    private Path dbDirectory = Path.of(System.getProperty("java.io.tmpdir"), "latency-naming");

    /**
     * @param args command line
     */
    public static void main(final String[] args) {
        System.exit(new CommandLine(new NamingServiceMain()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        final NamingServiceContext context = new NamingServiceContext().host(host).port(port).databaseDirectory(dbDirectory)
            .iorFile(iorFile).readyFile(readiness.readyFile());
        final NamingServiceNode namingService;
        try {
            namingService = NamingServiceNode.launch(context);
        } catch (LaunchFailure e) {
            System.err.println("latency naming-service: " + e.getMessage());
            return e.kind() == LaunchFailure.Kind.INVALID_CONTEXT ? EXIT_USAGE : EXIT_FAILED;
        }
        System.err.println("naming service at " + namingService.corbaloc());
        ComponentMain.closeAtShutdown(namingService, "naming-service-shutdown");
        return 0;
    }
}
