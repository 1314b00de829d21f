package org.latencyserver.agent.client;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import org.latencyserver.agent.load.CorePinning;
import org.latencyserver.agent.probe.PathProber;
import org.latencyserver.agent.probe.ProbeSettings;
import org.latencyserver.launch.Component;
import org.latencyserver.launch.ComponentMain;
import org.latencyserver.launch.ComponentMain.Refusal;
import org.latencyserver.launch.ReadinessOptions;
import org.latencyserver.orb.CallbackReach;
import org.latencyserver.orb.ServerLocationOptions;
import org.latencyserver.orb.TlsClientOptions;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code ./latency client-agent}: measures QoS 3/4 connections for the Latency Server. See
 * {@link MeasurementAgent} for what it does and how it survives failures, and {@link PathProber}
 * for the light continuous probing of connections the server asks to probe (on unless
 * {@code --no-probe}).
 *
 * <p>Only parses the command line: {@link ClientAgent} runs the agent from a {@link ClientAgentContext}
 * ({@code --pin-core} pins this process first). Prints one line starting {@code client-agent ready}
 * for people once it runs, and writes {@code --ready-file} for programs ({@code docs/ready-files.md}).
 * Exit codes: stopped by SIGTERM, it closes, deletes its ready file and exits 143 (128 + 15), as a JVM does; Ctrl-C
 * likewise exits 130; 1 when it cannot start; 2 usage, and when its callback address ({@code --host}) is loopback while
 * the server is not ({@link CallbackReach}).
 */
@Command(name = "client-agent", mixinStandardHelpOptions = true, version = "latency client-agent 0.1.0",
    description = "Measure round trips for the Latency Server's QoS 3 and 4 connections.")
public final class ClientAgentMain implements Callable<Integer> {

    @Spec
    private CommandSpec spec;

    @Mixin
    private TlsClientOptions tls = new TlsClientOptions();

    /** The server; its naming service also finds the peers (peers/NODE) not given with --peer. */
    @Mixin
    private ServerLocationOptions location = new ServerLocationOptions();

    /** Not {@link org.latencyserver.orb.ClientNodeOption}: repeatable, and it also picks the connections measured. */
    @Option(names = "--node", paramLabel = "NODE", split = ",",
        description = "Measure only connections whose client is this node (repeatable); default: every connection.")
    private List<String> nodes = List.of();

    @Option(names = "--peer", paramLabel = "NODE=REF",
        description = "The peer agent of a peer node: its IOR file, IOR or corbaloc (repeatable); otherwise peers/NODE in the naming service.")
    private Map<String, String> peerReferences = new LinkedHashMap<>();

    @Option(names = "--poll-millis", description = "Also poll open requests this often, ms (default: ${DEFAULT-VALUE}, the thesis's 5 s).")
    private long pollIntervalMillis = 5_000;

    @Option(names = "--adaptive-half-width-ms", paramLabel = "MS",
        description = "Adaptive sampling: stop once the 95 % CI half-width of the mean is at most this (thesis Eq. 2).")
    private Double adaptiveHalfWidthMillis;

    @Option(names = "--interval-micros", description = {"Start one round trip every this many us at most (default: ${DEFAULT-VALUE},",
        "back to back, as the thesis's agents). Pace as the profile was measured (profile measure: 2000) to compare with it."})
    private long intervalMicros;

    @Option(names = "--pin-core", paramLabel = "CORE", description = {"Pin this agent to one core once started, as the profiler pins",
        "itself: emulates a workstation on one core of a shared machine (needs taskset)."})
    private Integer pinCore;

    @Option(names = "--jit-warmup-seconds", paramLabel = "S", description = {"Before a path's first measurements, run unrecorded round",
        "trips back to back this long in all (default: ${DEFAULT-VALUE}, as profile measure): a fresh pair of JVMs reads slow at first."})
    private int jitWarmupSeconds = 15;

    @Option(names = "--name", description = "This agent's name in the server's log (default: client-agent@HOST/PID).")
    private String agentName;

    @Option(names = "--host", paramLabel = "ADDRESS", description = "Address of the callback object the server pushes requests to:"
        + " this host as the server reaches it (default: ${DEFAULT-VALUE}, which only a server on loopback reaches; with a server"
        + " elsewhere the agent refuses to start, exit 2).")
    private String host = "127.0.0.1";

    @Option(names = "--port", paramLabel = "PORT", description = "Port of the callback object, for a firewall; 0 for any free port (default: ${DEFAULT-VALUE}).")
    private int port;

    @Option(names = "--no-probe", description = "Do not probe. By default each connection of a node this agent measures for is"
        + " probed at the rate the server lists for it (probe_rate_per_second; 0 = not probed): round trips of its message size"
        + " to its peer in trains of the connection's declared traffic shape (connections[].traffic), or of shapes drawn from the"
        + " default family (spacing 0.5-10 ms, bursts of 1-100, octets or arrays), paused while this agent measures, reported at"
        + " the end of a train every --probe-report-millis or at each change of shape.")
    private boolean noProbe;

    @Option(names = "--probe-report-millis", paramLabel = "MS", description = "Report each probed connection's round trips to the"
        + " server this often, ms (default: ${DEFAULT-VALUE}; at least 200). The connection list is re-read every 10 s.")
    private long probeReportMillis = ProbeSettings.DEFAULT_REPORT_INTERVAL_MILLIS;

    @Option(names = "--pin-peers", description = {"Measure a peer only over IIOP/TLS, and only when it presents its node's"
        + " peer certificate (CN=NODE,OU=peer, from ./latency certs --peer NODE) signed by the CA of --tls-truststore;",
        "otherwise the measurement is refused (logged, not submitted). Needs --tls-keystore/--tls-truststore, and peer agents"
        + " started with --tls-port. Probes go the same way."})
    private boolean pinPeers;

    @Option(names = "--tls-revoked-serials", paramLabel = "FILE", description = {"With --pin-peers: refuse a peer whose"
        + " certificate's serial this file lists (./latency certs --revoke writes it; one hexadecimal serial a line),",
        "at the handshake and on connections already open, as any other pin failure. Re-read within 10 s of a change;"
        + " a changed file that cannot be read keeps the last good list (logged)."})
    private Path revokedSerials;

    /** Ready once it runs. */
    @Mixin
    private ReadinessOptions readiness = new ReadinessOptions();

    @Option(names = "--call-timeout-millis", description = "A call (round trip, submit) unanswered this long fails (default: ${DEFAULT-VALUE}).")
    private long callTimeoutMillis = 10_000;

    /**
     * @param args command line
     */
    public static void main(final String[] args) {
        System.exit(new CommandLine(new ClientAgentMain()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        final ClientAgentContext context = new ClientAgentContext().server(location.server()).naming(location.naming())
            .clientNodes(Set.copyOf(nodes)).peerReferences(peerReferences).pollIntervalMillis(pollIntervalMillis)
            .adaptiveHalfWidthMillis(adaptiveHalfWidthMillis).intervalMicros(intervalMicros).jitWarmupSeconds(jitWarmupSeconds)
            .agentName(agentName).host(host).port(port).probing(!noProbe).probeReportMillis(probeReportMillis)
            .callTimeoutMillis(callTimeoutMillis);
        return ComponentMain.serve(Component.CLIENT_AGENT, readiness.readyFile(), "client-agent", () -> {
            try {
                context.validate();
            } catch (IllegalArgumentException e) {
                // Unlike the TLS stores below, a bad option here is told with picocli's usage help.
                throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
            }
            ComponentMain.validate(() -> context.tls(tls.stores()).pinPeers(pinPeers).revokedSerials(revokedSerials).validate());
            if (pinCore != null) {
                try {
                    CorePinning.pinThisProcess(pinCore);
                } catch (IOException e) {
                    throw Refusal.failed("--pin-core " + pinCore + ": " + e.getMessage());
                }
            }
            try {
                return ClientAgent.launch(context);
            } catch (CallbackReach.Unreachable e) {
                throw Refusal.usage(e.getMessage());
            }
        }, agent -> {
            System.out.println("client-agent ready: " + agent.name() + " measures for "
                + (nodes.isEmpty() ? "every client node" : String.join(", ", nodes)) + " of server " + context.serverReference()
                + (pinCore == null ? "" : ", pinned to core " + pinCore)
                + (adaptiveHalfWidthMillis == null ? "" : ", adaptive to a CI half-width of " + adaptiveHalfWidthMillis + " ms")
                + (agent.probing() ? ", probing at the server's rates (reports every " + probeReportMillis + " ms)" : ", probing off")
                + (pinPeers ? ", peers pinned to their peer certificates over IIOP/TLS" : "")
                + (revokedSerials == null ? "" : ", refusing the serials revoked in " + revokedSerials.toAbsolutePath()));
            System.out.flush();
        });
    }
}
