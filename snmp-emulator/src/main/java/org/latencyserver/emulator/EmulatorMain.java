package org.latencyserver.emulator;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.latencyserver.launch.Component;
import org.latencyserver.launch.ReadinessOptions;
import org.latencyserver.launch.ServingLifecycle;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code latency snmp-emulator}: emulates the SNMP agents of workstations and switch ports
 * whose CPU and port utilisation follow a scenario file, and optionally pushes the same values
 * to a Latency Server with {@code PutMibUpdates} at 10 Hz (the thesis's emulator). Only parses the
 * command line: {@link SnmpEmulator} runs the emulator, {@link EmulatorContext} holds what it runs.
 *
 * <p>Prints the step in force at each change for people ({@code step N/M ...}); programs read
 * {@code --status-file} and {@code --ready-file} instead (layouts: {@code docs/ready-files.md}).
 *
 * <p>Not thread-safe; one instance per run.
 */
@Command(name = "snmp-emulator", mixinStandardHelpOptions = true, sortOptions = false,
        description = {
            "Real SNMP agents (one UDP socket per emulated workstation or switch port, all read by one thread)",
            "whose UCD-SNMP-MIB CPU counters, hrProcessorLoad and IF-MIB octet counters follow a scripted scenario;",
            "node_groups and link_groups in the scenario generate thousands of agents on 127.x.y.z addresses.",
            "SNMPv2c community from the environment (no default), SNMPv3 authPriv SHA/AES-128 from",
            "LATSERV_V3_USER, LATSERV_V3_AUTH, LATSERV_V3_PRIV when set."})
public final class EmulatorMain implements java.util.concurrent.Callable<Integer> {

    @Option(names = "--scenario", required = true, paramLabel = "FILE", description = "Scenario file (YAML).")
    Path scenarioFile;

    @Option(names = "--duration", paramLabel = "SECONDS",
            description = "Stop after this many seconds (default: run until interrupted).")
    Double durationSeconds;

    @Option(names = "--push-to", paramLabel = "REF",
            description = "IOR or corbaloc of a Latserv server: also send PutMibUpdates at 10 Hz for every scenario connection.")
    String pushTo;

    @picocli.CommandLine.Mixin
    org.latencyserver.orb.TlsClientOptions pushTls = new org.latencyserver.orb.TlsClientOptions();

    @Option(names = "--push-only", description = "Only push (needs --push-to); start no SNMP agents.")
    boolean pushOnly;

    @Option(names = "--bind", paramLabel = "ADDRESS", defaultValue = "127.0.0.1",
            description = "Local address of the agents (default: ${DEFAULT-VALUE}).")
    String bindAddress;

    @Option(names = "--community-env", paramLabel = "VAR", defaultValue = AccessConfig.COMMUNITY_ENV,
            description = "Environment variable holding the SNMPv2c community (default: ${DEFAULT-VALUE}).")
    String communityEnv;

    @Option(names = "--v3-only", description = "Serve SNMPv3 only; the community variable is then not needed.")
    boolean v3Only;

    @Option(names = "--io-threads", paramLabel = "N", defaultValue = "1",
            description = "Threads that read all the agents' sockets (default: ${DEFAULT-VALUE}).")
    int ioThreads;

    @Option(names = "--thread-per-agent",
            description = "A listener thread per agent instead, as the emulator ran before --io-threads (to compare;"
                    + " a few hundred agents at most).")
    boolean threadPerAgent;

    @Option(names = "--write-server-nodes", paramLabel = "FILE",
            description = "Write the Latency Server's nodes: and links: sections polling every agent (docs/operator-guide.md);"
                    + " add profiles: and connections: to make a configuration.")
    Path serverNodesFile;

    @Option(names = "--server-workstation-type", paramLabel = "TYPE", defaultValue = "TAC-4",
            description = "The workstation_type of the nodes in --write-server-nodes (default: ${DEFAULT-VALUE}).")
    String serverWorkstationType;

    @Option(names = "--dry-run",
            description = "Check the scenario, write --write-server-nodes, print what would run, and exit without starting agents.")
    boolean dryRun;

    @Option(names = "--status-file", paramLabel = "PATH",
            description = "Rewrite this JSON file at start and at every step change: the step in force and every node's and"
                    + " link's percent (layout: docs/ready-files.md).")
    Path statusFile;

    /** Ready once the agents serve. */
    @picocli.CommandLine.Mixin
    ReadinessOptions readiness = new ReadinessOptions();

    private final Map<String, String> environment;
    private final PrintWriter out;

    EmulatorMain(Map<String, String> environment, PrintWriter out) {
        this.environment = environment;
        this.out = out;
    }

    /** Agents listed one by one at start up to this many; more are summed up per kind. */
    static final int AGENTS_LISTED = 20;

    /**
     * Entry point. Exit code 0 when {@code --duration} ends it (or after {@code --dry-run}); stopped by
     * SIGTERM, it closes, deletes its ready file and exits 143 (128 + 15), as a JVM does; Ctrl-C
     * likewise exits 130; 1 on a bad scenario, access setup or port, 2 on bad options.
     */
    public static void main(String[] args) {
        System.exit(execute(args, System.getenv(), new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
    }

    /** Runs the command with an explicit environment and output streams (for tests). */
    static int execute(String[] args, Map<String, String> env, PrintWriter out, PrintWriter err) {
        CommandLine cmd = new CommandLine(new EmulatorMain(env, out));
        cmd.setOut(out);
        cmd.setErr(err);
        cmd.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            commandLine.getErr().println("snmp-emulator: " + e.getMessage());
            return 1;
        });
        return cmd.execute(args);
    }

    @Override
    public Integer call() throws Exception {
        if (durationSeconds != null && !(durationSeconds > 0)) {
            throw new IllegalArgumentException("--duration must be a positive number of seconds, got " + durationSeconds);
        }
        if (dryRun) {
            EmulatorContext context = context().validate();
            Map<String, InetSocketAddress> addresses = ServerNodesFile.addressesOf(context.scenario(), context.bindAddress());
            if (serverNodesFile != null) {
                writeServerNodes(context, addresses);
            }
            printAgents(context.scenario(), addresses);
            out.println("dry run: no agent started");
            out.flush();
            return 0;
        }
        // Begun first: a stale ready file goes even when this run fails to start.
        try (ServingLifecycle life = ServingLifecycle.begin(Component.SNMP_EMULATOR, readiness.readyFile())) {
            run(life, context());
        }
        return 0;
    }

    private void run(ServingLifecycle life, EmulatorContext context) throws Exception {
        try (SnmpEmulator emulator = SnmpEmulator.launch(context)) {
            printAgents(emulator.scenario(), emulator.agentAddresses());
            if (serverNodesFile != null && !pushOnly) {
                writeServerNodes(context, emulator.agentAddresses());
            }
            if (pushTo != null) {
                out.printf("pushing PutMibUpdates for %d connection(s) to %s at 10 Hz%n",
                        emulator.scenario().connections().size(), pushTo.length() > 60 ? pushTo.substring(0, 60) + "…" : pushTo);
            }
            Scenario scenario = emulator.scenario();
            out.printf("scenario %s: %d steps, %.1f s per pass, %s%n", scenario.source(), scenario.stepCount(),
                    scenario.cycleMicros() / 1e6, scenario.loop() ? "looping" : "holding the last step");
            out.flush();
            life.ready(emulator.readyFile());
            if (durationSeconds != null) {
                life.awaitStop(Duration.ofMillis(Math.round(durationSeconds * 1000)));
            } else {
                life.awaitStop();
            }
        }
    }

    private void writeServerNodes(EmulatorContext context, Map<String, InetSocketAddress> addresses) throws IOException {
        ServerNodesFile.write(serverNodesFile, ServerNodesFile.render(context.scenario(), addresses, context.access(),
                communityEnv, serverWorkstationType));
        out.printf("server nodes and links written to %s%n", serverNodesFile);
    }

    /** Lists every agent's address, or, for more than {@value #AGENTS_LISTED}, the first and last of each kind. */
    private void printAgents(Scenario scenario, Map<String, InetSocketAddress> addresses) {
        if (addresses.size() <= AGENTS_LISTED) {
            addresses.forEach((name, a) -> out.printf("agent %s udp:%s:%d%n", name, a.getAddress().getHostAddress(), a.getPort()));
            return;
        }
        printKind("workstations", scenario.nodes().stream().map(NodeSpec::name).toList(), addresses);
        printKind("switch ports", scenario.links().stream().map(LinkSpec::name).toList(), addresses);
    }

    private void printKind(String kind, List<String> names, Map<String, InetSocketAddress> addresses) {
        if (names.isEmpty()) {
            return;
        }
        InetSocketAddress first = addresses.get(names.get(0));
        InetSocketAddress last = addresses.get(names.get(names.size() - 1));
        out.printf("%d %s: %s udp:%s:%d ... %s udp:%s:%d%n", names.size(), kind, names.get(0), first.getAddress().getHostAddress(),
                first.getPort(), names.get(names.size() - 1), last.getAddress().getHostAddress(), last.getPort());
    }

    /** @return the context the options describe (the scenario loaded, the access read from the environment) */
    private EmulatorContext context() throws Exception {
        EmulatorContext context = new EmulatorContext()
                .scenario(ScenarioLoader.load(scenarioFile))
                .pushTo(pushTo)
                .pushOnly(pushOnly)
                .bindAddress(InetAddress.getByName(bindAddress))
                .ioThreads(threadPerAgent ? 0 : ioThreads)
                .statusFile(statusFile)
                .onStep(status -> {
                    // For people only: programs read the status file.
                    out.println(describe(status));
                    out.flush();
                });
        if (!pushOnly) {
            context.access(AccessConfig.fromEnvironment(environment, communityEnv, v3Only));
        }
        if (pushTo != null) {
            context.pushTls(pushTls.stores());
        }
        return context;
    }

    /**
     * @return the line printed for people at a step change, e.g. {@code step 2/4 (pass 1): cpu ws1=60%}; with more
     *         than {@value #AGENTS_LISTED} agents of a kind, how many are at each percent: {@code cpu 7000×20% 3000×85%}
     */
    static String describe(ScenarioStatus status) {
        return "step " + status.step() + "/" + status.steps() + " (pass " + status.pass() + "): "
                + (status.cpuPercent().isEmpty() ? "" : percents("cpu ", status.cpuPercent()) + "  ")
                + (status.portPercent().isEmpty() ? "" : percents("port ", status.portPercent()));
    }

    private static String percents(String prefix, Map<String, Integer> percentByName) {
        StringJoiner line = new StringJoiner(" ", prefix, "");
        if (percentByName.size() <= AGENTS_LISTED) {
            percentByName.forEach((name, percent) -> line.add(name + "=" + percent + "%"));
        } else {
            new TreeMap<>(percentByName.values().stream().collect(Collectors.groupingBy(p -> p, Collectors.counting())))
                    .forEach((percent, count) -> line.add(count + "×" + percent + "%"));
        }
        return line.toString();
    }
}
