package org.latencyserver.server.launch;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.latencyserver.launch.ComponentMain;
import org.latencyserver.launch.ReadinessOptions;
import org.latencyserver.orb.NameKeeper;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code ./latency server}: parses the command line into a {@link ServerContext}, launches a
 * {@link LatencyServerNode} (which loads the configuration, starts the update thread, serves
 * {@code Latserv} / {@code LatencyService} over JacORB, writes its IOR file and, when a naming
 * service is given, registers under the configured name (with {@code server.partition}, as that
 * partition of the deployment: see {@link org.latencyserver.orb.Partitions}); when any workstation or switch port has
 * {@code mib_source: snmp} it starts the SNMP poller, whose secrets come from the environment
 * variables the configuration names), and closes it on SIGTERM.
 *
 * <p>With {@code --ready-file PATH} it writes a ready file ({@code docs/ready-files.md}) once it
 * serves, and deletes it when it stops cleanly.
 *
 * <p>Exit codes: stopped by SIGTERM, it closes, deletes its ready file and exits 143 (128 + 15), as a JVM does; Ctrl-C likewise exits 130;
 * 1 a bad configuration (every fault printed) or a partition
 * that another partition in the naming service conflicts with (overlapping index_refs, a client
 * workstation of a running partition), 2 usage, or a
 * naming service given with {@code --naming} that cannot be reached or refuses the name (one line
 * on stderr; no IOR file is written then). Once registered, the name is kept bound ({@link NameKeeper}):
 * a naming service restarted without its bindings has it again within seconds.
 */
@Command(name = "server", mixinStandardHelpOptions = true, version = "latency server 0.1.0",
    description = "Run the Latency Server.")
public final class ServerMain implements Callable<Integer> {

    /** Exit status of a configuration (or TLS, or SNMP secret) that is refused. */
    static final int EXIT_CONFIGURATION = 1;
    /** Exit status of a usage error, or a naming service that cannot be reached or refuses the name. */
    static final int EXIT_USAGE = 2;

    @Option(names = "--config", required = true, paramLabel = "FILE", description = "The YAML configuration.")
    private Path config;

    @Option(names = "--ior-file", paramLabel = "PATH", description = "Write the server's IOR here (default: latency-server.ior).")
    private Path iorFile = Path.of("latency-server.ior");

    /** Ready once it serves (and is registered, with --naming). */
    @Mixin
    private ReadinessOptions readiness = new ReadinessOptions();

    @Option(names = "--naming", paramLabel = "REF",
        description = {"Register in this naming service, e.g. corbaloc::127.0.0.1:2809/NameService: as server.name, or with",
            "server.partition as server.name/PARTITION and server.name/by-client/NODE for each client workstation."})
    private String naming;

    @Option(names = "--host", description = "Address to listen on (default: ${DEFAULT-VALUE}).")
    private String host = ServerContext.DEFAULT_HOST;

    @Option(names = "--metrics-port",
        description = "Prometheus metrics at this port, overriding the configuration's server.metrics; 0 for any free port, -1 for none.")
    private Integer metricsPort;

    @Option(names = "--per-connection-metrics", negatable = true, defaultValue = "true", fallbackValue = "true",
        description = "Metrics per connection (estimates, load states, calibration; about 590 bytes of metrics page per"
            + " connection); --no-per-connection-metrics leaves the totals only, for many thousands of connections"
            + " (default: ${DEFAULT-VALUE}).")
    private boolean perConnectionMetrics = true;

    @Option(names = "--port", description = "Port to listen on; 0 for any free port (default: ${DEFAULT-VALUE}).")
    private int port;

    /**
     * @param args command line
     */
    public static void main(final String[] args) {
        System.exit(new CommandLine(new ServerMain()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        final ServerContext context = new ServerContext().configFile(config).iorFile(iorFile).readyFile(readiness.readyFile())
            .namingReference(naming).host(host).orbPort(port).metricsPort(metricsPort)
            .perConnectionMetrics(perConnectionMetrics);
        final LatencyServerNode server;
        try {
            server = LatencyServerNode.launch(context);
        } catch (LaunchFailure e) {
            System.err.println("latency server: " + e.getMessage());
            return switch (e.kind()) {
                case CONFIGURATION_REFUSED, PARTITION_CONFLICT, CANNOT_WRITE, CANNOT_LISTEN -> EXIT_CONFIGURATION;
                case INVALID_CONTEXT, NAMING_REFUSED -> EXIT_USAGE;
            };
        }
        ComponentMain.closeAtShutdown(server, "latency-shutdown");
        return 0;
    }
}
