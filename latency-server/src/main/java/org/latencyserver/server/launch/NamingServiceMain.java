package org.latencyserver.server.launch;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import org.latencyserver.launch.ComponentMain;
import org.latencyserver.launch.ReadinessOptions;
import org.latencyserver.orb.TlsStores;
import org.latencyserver.server.naming.NamingPrincipalsFile;
import org.latencyserver.server.naming.NamingWritePolicy;
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
 * <p>With {@code --tls-port}, {@code --tls-keystore}, {@code --tls-truststore} and
 * {@code --principals} it also listens for IIOP/TLS, and only the writers listed in the principals
 * file may change their own names, over TLS ({@code NamingWritePolicy}); reads stay open over plain
 * IIOP. Without them binds are open to any caller (said at start).
 *
 * <p>With {@code --metrics-port PORT} it serves Prometheus metrics at {@code http://127.0.0.1:PORT/metrics}
 * ({@code --metrics-address} for another address): the changes it refused, by reason, and made, by operation.
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

    @Option(names = "--tls-port", paramLabel = "PORT",
        description = "Also listen for IIOP/TLS on this fixed port; binds then need a writer's certificate over TLS.")
    private Integer tlsPort;

    @Option(names = "--tls-keystore", paramLabel = "FILE",
        description = "The naming service's certificate (PKCS#12, e.g. naming-service.p12 from ./latency certs).")
    private Path tlsKeystore;

    @Option(names = "--tls-truststore", paramLabel = "FILE",
        description = "The certificate authorities whose writers' certificates are trusted (PKCS#12).")
    private Path tlsTruststore;

    @Option(names = "--tls-password-env", paramLabel = "NAME",
        description = "Environment variable holding the stores' password (default: ${DEFAULT-VALUE}).")
    private String tlsPasswordEnv = TlsStores.DEFAULT_PASSWORD_ENV;

    @Option(names = "--principals", paramLabel = "FILE",
        description = "Who may bind: lines 'server SUBJECT' and 'peer NODE SUBJECT' (./latency certs writes naming-principals).")
    private Path principals;

    @Option(names = "--metrics-port", paramLabel = "PORT",
        description = "Serve Prometheus metrics (refused and made changes of names) on this port; 0 = any free port. Default: none.")
    private Integer metricsPort;

    @Option(names = "--metrics-address", paramLabel = "ADDRESS",
        description = "Address of the metrics endpoint (default: ${DEFAULT-VALUE}).")
    private String metricsAddress = NamingServiceContext.DEFAULT_HOST;

    @Option(names = "--server-name", paramLabel = "NAME", split = ",",
        description = "The server's names in the naming service, each with everything under it, bound by 'server'"
            + " principals only (default: ${DEFAULT-VALUE}).")
    private List<String> serverNames = new ArrayList<>(List.of("LatencyServer"));

    /**
     * @param args command line
     */
    public static void main(final String[] args) {
        System.exit(new CommandLine(new NamingServiceMain()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        final NamingServiceContext context = new NamingServiceContext().host(host).port(port).databaseDirectory(dbDirectory)
            .iorFile(iorFile).readyFile(readiness.readyFile()).metrics(metricsAddress, metricsPort);
        try {
            withAccessControl(context);
        } catch (IllegalArgumentException | IOException e) {
            System.err.println("latency naming-service: " + e.getMessage());
            return EXIT_USAGE;
        }
        final NamingServiceNode namingService;
        try {
            namingService = NamingServiceNode.launch(context);
        } catch (LaunchFailure e) {
            System.err.println("latency naming-service: " + e.getMessage());
            return e.kind() == LaunchFailure.Kind.INVALID_CONTEXT ? EXIT_USAGE : EXIT_FAILED;
        }
        System.err.println("naming service at " + namingService.corbaloc() + (namingService.tlsCorbaloc() == null
            ? " (binds are open to any caller)" : "; binds over IIOP/TLS at " + namingService.tlsCorbaloc())
            + namingService.metricsUrl().map(url -> "; metrics at " + url).orElse(""));
        ComponentMain.closeAtShutdown(namingService, "naming-service-shutdown");
        return 0;
    }

    /** Adds TLS and the write policy when any of their options is given; checks that all needed ones are. */
    private void withAccessControl(final NamingServiceContext context) throws IOException {
        final boolean any = tlsPort != null || tlsKeystore != null || tlsTruststore != null || principals != null;
        if (!any) {
            return;
        }
        final List<String> missing = new ArrayList<>();
        if (tlsPort == null) {
            missing.add("--tls-port");
        }
        if (tlsKeystore == null) {
            missing.add("--tls-keystore");
        }
        if (tlsTruststore == null) {
            missing.add("--tls-truststore");
        }
        if (principals == null) {
            missing.add("--principals");
        }
        if (!missing.isEmpty()) {
            throw new IllegalArgumentException("checking who binds needs --tls-port, --tls-keystore, --tls-truststore and"
                + " --principals together; missing " + String.join(", ", missing));
        }
        if (!java.nio.file.Files.isRegularFile(principals)) {
            throw new IllegalArgumentException("--principals " + principals + " is not a readable file");
        }
        final List<List<String>> names = new ArrayList<>();
        for (final String name : serverNames) {
            final List<String> components = Arrays.asList(name.strip().split("/", -1));
            if (name.isBlank() || components.stream().anyMatch(String::isEmpty)) {
                throw new IllegalArgumentException("--server-name '" + name + "' is not a name (components separated by '/',"
                    + " none empty)");
            }
            names.add(components);
        }
        context.tls(TlsStores.fromEnvironment(tlsKeystore, tlsTruststore, tlsPasswordEnv), tlsPort)
            .writePolicy(new NamingWritePolicy(names, NamingPrincipalsFile.read(principals)));
    }
}
