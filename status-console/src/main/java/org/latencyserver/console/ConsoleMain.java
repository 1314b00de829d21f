package org.latencyserver.console;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.latencyserver.launch.Component;
import org.latencyserver.launch.ReadinessOptions;
import org.latencyserver.launch.ServingLifecycle;
import org.latencyserver.orb.CallbackReach;
import org.latencyserver.orb.ClientNodeOption;
import org.latencyserver.orb.ServerLocationOptions;
import org.latencyserver.orb.TlsClientOptions;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code ./latency console}: the operator's status console, a CORBA client of the server.
 * By default a web page on loopback, pushed live; {@code --watch} a live table in the terminal;
 * {@code --once} the table printed once, for scripts. {@code --all-partitions} shows every partition of a
 * partitioned deployment (a section each, and which are down); {@code --node} the server of one client
 * workstation's partition.
 *
 * <p>Only parses the command line: {@link StatusConsole} runs the console from a {@link ConsoleContext}.
 * In web mode prints exactly one line {@code console at http://HOST:PORT/} once it listens, for
 * people, and writes {@code --ready-file} for programs ({@code docs/ready-files.md}). Exit
 * codes: 0 after a good {@code --once}; stopped by SIGTERM, it closes, deletes its ready file and
 * exits 143 (128 + 15), as a JVM does; Ctrl-C likewise exits 130; 1 when the server cannot be reached for
 * {@code --once} or the port cannot be bound; 2 usage, and when its callback address ({@code --host}) is loopback
 * while the server is not ({@link CallbackReach}; not for {@code --once}, which takes no pushes), and when the web
 * page's {@code --bind} is off loopback without {@code --https-keystore} and {@code --https-truststore}
 * ({@link OperatorHttps}).
 */
@Command(name = "console", mixinStandardHelpOptions = true, version = "latency console 0.1.0",
    description = "The Latency Server's status console: a live web page, or a table in the terminal.")
public final class ConsoleMain implements Callable<Integer> {

    /** The server, or with --all-partitions the deployment's name whose partitions are shown. */
    @Mixin
    private ServerLocationOptions location = new ServerLocationOptions();

    /** Show the server of this client workstation's partition. */
    @Mixin
    private ClientNodeOption node = new ClientNodeOption();

    @Option(names = "--all-partitions", description = {"Show every partition registered under the server's name in --naming,",
        "each with its own table, and which partitions are down (--once then exits 1 when one is)."})
    private boolean allPartitions;

    /** An operator's certificate: the thesis's table ({@code RequestTableStatus}) is an operator call. */
    @Mixin
    private TlsClientOptions tls = new TlsClientOptions();

    /** The web page over HTTPS, for operators only; required off loopback. */
    @Mixin
    private ConsoleHttpsOptions https = new ConsoleHttpsOptions();

    @Option(names = "--bind", description = {"Address of the web page (default: ${DEFAULT-VALUE}, loopback only). An address"
        + " off loopback needs --https-keystore and --https-truststore: without them the console refuses to start, exit 2."})
    private String bind = "127.0.0.1";

    @Option(names = "--http-port", description = "Port of the web page; 0 for any free port (default: ${DEFAULT-VALUE}).")
    private int httpPort = 8470;

    @Option(names = "--host", paramLabel = "ADDRESS", description = "Address of the callback object the server pushes changes to:"
        + " this host as the server reaches it (default: ${DEFAULT-VALUE}, which only a server on loopback reaches; with a server"
        + " elsewhere the console refuses to start, exit 2). Not used with --once.")
    private String callbackHost = "127.0.0.1";

    @Option(names = "--port", paramLabel = "PORT", description = "Port of the callback object, for a firewall; 0 for any free port"
        + " (default: ${DEFAULT-VALUE}). Not used with --once.")
    private int callbackPort;

    @Option(names = "--max-streams", paramLabel = "N",
        description = "Most web pages kept live at once; more get HTTP 503 until one closes (default: ${DEFAULT-VALUE}).")
    private int maxStreams = 64;

    @Option(names = "--refresh-millis", description = "Re-read the table this often, ms; pushes refresh at once (default: ${DEFAULT-VALUE}).")
    private long refreshMillis = 1_000;

    @Option(names = "--watch", description = "Show the table in this terminal, redrawn live; Ctrl-C to leave.")
    private boolean watch;

    @Option(names = "--once", description = "Print the table once and exit (exit 1 if the server cannot be reached); not with"
        + " --ready-file. Takes no pushes, so it listens on no port (no callback object: --host and --port are not used).")
    private boolean once;

    /** Ready once the web page listens; not with --once. */
    @Mixin
    private ReadinessOptions readiness = new ReadinessOptions();

    /** Writes the ready file again after a renewed certificate; a failure is said on standard error. */
    private static void readyAgain(final ServingLifecycle life, final StatusConsole console) {
        try {
            life.readyAgain(console.readyFile());
        } catch (java.io.IOException | RuntimeException e) {
            System.err.println("console: " + e.getMessage());
        }
    }

    /**
     * @param args command line
     */
    public static void main(final String[] args) {
        System.exit(new CommandLine(new ConsoleMain()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        final Path readyFile = readiness.readyFile();
        if (once && readyFile != null) {
            System.err.println("latency console: --ready-file is for a console that keeps running; --once prints and exits");
            return 2;
        }
        final ConsoleContext context = new ConsoleContext().server(location.server()).naming(location.naming()).node(node.node())
            .allPartitions(allPartitions).bindAddress(bind)
            .callbackHost(callbackHost).callbackPort(callbackPort)
            .httpPort(httpPort).maxStreams(maxStreams).refreshMillis(refreshMillis).webPage(!watch && !once);
        // Begun before anything can fail: a stale ready file goes even when this run does not start.
        try (ServingLifecycle life = ServingLifecycle.begin(Component.CONSOLE, readyFile)) {
            try {
                context.tls(tls.stores()).https(https.stores()).validate();
            } catch (IllegalArgumentException e) {
                System.err.println("latency console: " + TerminalText.safe(e.getMessage()));
                return 2;
            }
            if (once) {
                return allPartitions ? printAllOnce(context) : printOnce(context);
            }
            if (watch && allPartitions) {
                context.onPartitions(snapshot -> {
                    System.out.print("\033[H\033[2J" + TerminalTable.renderPartitions(snapshot, System.currentTimeMillis()));
                    System.out.flush();
                });
            } else if (watch) {
                context.onSnapshot(snapshot -> {
                    System.out.print("\033[H\033[2J" + TerminalTable.render(snapshot, System.currentTimeMillis()));
                    System.out.flush();
                });
            }
            final StatusConsole console;
            try {
                console = StatusConsole.launch(context);
            } catch (java.io.IOException e) {
                System.err.println("latency console: " + TerminalText.safe(e.getMessage()));
                return 1;
            } catch (CallbackReach.Unreachable e) {
                System.err.println("latency console: " + TerminalText.safe(e.getMessage()));
                return 2;
            }
            try (console) {
                if (!watch) {
                    System.out.println("console at " + console.url());
                    System.out.flush();
                }
                life.ready(console.readyFile());
                console.onReadyFileChange(() -> readyAgain(life, console));
                life.awaitStop();
            }
        }
        return 0;
    }

    /** {@code --all-partitions --once}: every partition's table printed; exit 1 when one is down or none could be listed. */
    private int printAllOnce(final ConsoleContext context) {
        final PartitionsSnapshot snapshot = StatusConsole.readAllPartitionsOnce(context);
        System.out.print(TerminalTable.renderPartitions(snapshot, System.currentTimeMillis()));
        if (!snapshot.problem().isEmpty()) {
            System.err.println("latency console: " + TerminalText.safe(snapshot.problem()));
            return 1;
        }
        if (!snapshot.down().isEmpty()) {
            System.err.println("latency console: partition" + (snapshot.down().size() == 1 ? " " : "s ")
                + TerminalText.safe(String.join(", ", snapshot.down())) + " down");
            return 1;
        }
        return 0;
    }

    /** {@code --once}: the table printed, exit 0; or the problem, exit 1. */
    private int printOnce(final ConsoleContext context) {
        final ConsoleSnapshot snapshot = StatusConsole.readOnce(context);
        if (!snapshot.reachable()) {
            System.err.println("latency console: " + TerminalText.safe(snapshot.problem()) + " ("
                + TerminalText.safe(context.serverReference()) + ")");
            return 1;
        }
        System.out.print(TerminalTable.render(snapshot, System.currentTimeMillis()));
        return 0;
    }
}
