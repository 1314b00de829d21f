package org.latencyserver.server.launch;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.UnaryOperator;
import org.latencyserver.server.security.LocalCertificateAuthority;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code ./latency certs}: a local certificate authority and the certificates of the server and
 * its writers, and the {@code security:} section that grants their roles; also the naming
 * service's certificate, the peer agents' ({@code --peer}) and the principals file of a naming
 * service that checks who binds ({@code naming-principals}, rewritten on each run). Running it
 * again adds the parties that are new and keeps the rest.
 *
 * <p>Exit codes: 0 done, 1 keytool failed, 2 usage.
 */
@Command(name = "certs", mixinStandardHelpOptions = true, version = "latency certs 0.1.0",
    description = "Make a local CA and TLS certificates for the server, client agents, operators, planners and the console's web page.")
public final class CertsMain implements Callable<Integer> {

    @Option(names = "--dir", required = true, paramLabel = "DIR", description = "Where the stores go (created).")
    private Path directory;

    @Option(names = "--server", paramLabel = "NAME", description = "The server's certificate (default: ${DEFAULT-VALUE}).")
    private String server = "server";

    @Option(names = "--agent", paramLabel = "NODE", split = ",", description = "A client agent's certificate for this node.")
    private List<String> agents = new ArrayList<>();

    @Option(names = "--operator", paramLabel = "NAME", split = ",", description = "An operator's certificate.")
    private List<String> operators = new ArrayList<>();

    @Option(names = "--planner", paramLabel = "NAME", split = ",", description = "A planner's certificate.")
    private List<String> planners = new ArrayList<>();

    @Option(names = "--console", paramLabel = "HOST", split = ",", description = {"A server certificate for the status"
        + " console's web page over HTTPS, for the host name or address browsers use (console-HOST.p12).",
        "Give it to ./latency console --https-keystore, with --https-truststore trust.p12."})
    private List<String> consoles = new ArrayList<>();

    @Option(names = "--peer", paramLabel = "NODE", split = ",",
        description = {"A peer agent's certificate for this node: binds peers/NODE in a naming service that checks who binds,",
            "and serves its IIOP/TLS echo (peer-agent --tls-port) to client agents with --pin-peers."})
    private List<String> peers = new ArrayList<>();

    /** The naming service's store's name (its certificate: {@code CN=naming-service,OU=naming-service}). */
    static final String NAMING_SERVICE = "naming-service";
    /** The principals file written for {@code ./latency naming-service --principals}. */
    static final String NAMING_PRINCIPALS = "naming-principals";

    @Option(names = "--revoke", paramLabel = "NAME", split = ",", description = "Revoke a certificate made here, by its"
        + " file name without .p12 (e.g. agent-ws1, peer-ws2): its serial is appended to DIR/revoked-serials, which the server"
        + " (security.tls.revoked_serials_file) and pinning client agents (--tls-revoked-serials) read; nothing is issued.")
    private List<String> revoked = new ArrayList<>();

    @Spec
    private CommandSpec spec;

    private final UnaryOperator<String> environment;

    /** Reads the password from the process's environment. */
    public CertsMain() {
        this(System::getenv);
    }

    /** @param environment the environment's value of a variable, or null when unset */
    CertsMain(final UnaryOperator<String> environment) {
        this.environment = environment;
    }

    /**
     * @param args command line
     */
    public static void main(final String[] args) {
        System.exit(new CommandLine(new CertsMain()).execute(args));
    }

    @Override
    public Integer call() {
        try {
            final LocalCertificateAuthority ca = LocalCertificateAuthority.open(directory, environment.apply("LATENCY_TLS_PASSWORD"));
            if (!revoked.isEmpty()) {
                return revoke(ca);
            }
            // The server's also proves it to the naming service, as a client, when it binds its names.
            ca.issue(server, LocalCertificateAuthority.subject("server", server), LocalCertificateAuthority.Usage.SERVER_AND_CLIENT);
            ca.issue(NAMING_SERVICE, LocalCertificateAuthority.subject(NAMING_SERVICE, NAMING_SERVICE),
                LocalCertificateAuthority.Usage.SERVER);
            for (final String console : consoles) {
                ca.issue(consoleStore(console), LocalCertificateAuthority.subject("console", console),
                    LocalCertificateAuthority.Usage.SERVER, console);
            }
            final StringBuilder principals = new StringBuilder();
            issue(ca, "agent", agents, principals);
            issue(ca, "operator", operators, principals);
            issue(ca, "planner", planners, principals);
            final StringBuilder namingPrincipals = new StringBuilder("# who may bind in ./latency naming-service --principals:"
                + " 'server SUBJECT' or 'peer NODE SUBJECT' a line\n");
            namingPrincipals.append("server ").append(LocalCertificateAuthority.subject("server", server)).append('\n');
            for (final String peer : peers) {
                // A client's towards the naming service; a server's for its IIOP/TLS echo (--tls-port), which pinning agents check.
                ca.issue("peer-" + peer, LocalCertificateAuthority.subject("peer", peer),
                    LocalCertificateAuthority.Usage.SERVER_AND_CLIENT);
                namingPrincipals.append("peer ").append(peer).append(' ').append(LocalCertificateAuthority.subject("peer", peer))
                    .append('\n');
            }
            final Path namingPrincipalsFile = ca.directory().resolve(NAMING_PRINCIPALS);
            java.nio.file.Files.writeString(namingPrincipalsFile, namingPrincipals);
            final java.io.PrintWriter out = spec.commandLine().getOut();
            final Path dir = ca.directory();
            out.println("# certificates in " + dir + " (every path below is absolute: paste the section as it is)");
            out.println(ca.passwordFile().map(file -> "# the stores' password is in " + file
                    + " (export LATENCY_TLS_PASSWORD=$(cat " + file + "))")
                .orElse("# the stores' password is the one in LATENCY_TLS_PASSWORD (no password file written)"));
            for (final String console : consoles) {
                out.println("# the console's web page at https://" + (console.indexOf(':') >= 0 ? "[" + console + "]" : console)
                    + ":8470/: latency console --bind " + console + " --https-keystore " + dir.resolve(consoleStore(console) + ".p12")
                    + " --https-truststore " + ca.trustStore());
            }
            out.println("# naming service that checks who binds: ./latency naming-service --tls-port PORT --tls-keystore "
                + dir.resolve(NAMING_SERVICE + ".p12") + " --tls-truststore " + ca.trustStore() + " --principals "
                + namingPrincipalsFile + (peers.isEmpty() ? "" : "; peer agents bind with --tls-keystore "
                + dir.resolve("peer-NODE.p12")));
            out.println("security:");
            out.println("  plain_iiop: read-only");
            out.println("  tls:");
            out.println("    port: 0");
            out.println("    keystore: " + dir.resolve(server + ".p12"));
            out.println("    truststore: " + ca.trustStore());
            out.println("    password_env: LATENCY_TLS_PASSWORD");
            out.println("  principals:" + (principals.length() == 0 ? " []" : ""));
            out.print(principals);
            return 0;
        } catch (IOException | IllegalArgumentException e) {
            System.err.println("latency certs: " + e.getMessage());
            return 1;
        }
    }

    /** @return the file name (without {@code .p12}) of the console's HTTPS store for this host */
    private static String consoleStore(final String host) {
        return "console-" + host.replace(':', '-');
    }

    private int revoke(final LocalCertificateAuthority ca) throws IOException {
        final java.io.PrintWriter out = spec.commandLine().getOut();
        for (final String name : revoked) {
            out.println("# revoked " + name + ": serial " + ca.revoke(name));
        }
        out.println("# the list is " + ca.revokedSerials() + ": copy it to the server's host, to the path of"
            + " security.tls.revoked_serials_file (the server re-reads it within 10 s, no restart):");
        out.println("# (and, for a revoked peer-NODE, to each pinning client agent's host: client-agent --pin-peers"
            + " --tls-revoked-serials FILE)");
        out.println("security:");
        out.println("  tls:");
        out.println("    revoked_serials_file: " + ca.revokedSerials());
        return 0;
    }

    private static void issue(final LocalCertificateAuthority ca, final String role, final List<String> names,
                              final StringBuilder principals) throws IOException {
        for (final String name : names) {
            final String subject = LocalCertificateAuthority.subject(role, name);
            ca.issue(role + "-" + name, subject, LocalCertificateAuthority.Usage.CLIENT);
            principals.append("    - subject: \"").append(subject).append("\"\n");
            principals.append("      roles: [").append(role).append("]\n");
            if (role.equals("agent")) {
                principals.append("      node: ").append(name).append('\n');
            }
        }
    }
}
