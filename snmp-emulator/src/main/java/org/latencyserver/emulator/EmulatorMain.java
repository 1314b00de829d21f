package org.latencyserver.emulator;

import java.io.PrintWriter;
import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.StringJoiner;
import org.latencyserver.launch.Component;
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
            "Real SNMP agents (one UDP port per emulated workstation or switch port) whose UCD-SNMP-MIB CPU",
            "counters, hrProcessorLoad and IF-MIB octet counters follow a scripted scenario.",
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

    @Option(names = "--status-file", paramLabel = "PATH",
            description = "Rewrite this JSON file at start and at every step change: the step in force and every node's and"
                    + " link's percent (layout: docs/ready-files.md).")
    Path statusFile;

    @Option(names = "--ready-file", paramLabel = "PATH",
            description = "Once the agents serve, write this JSON file (agents, steps, status file; docs/ready-files.md);"
                    + " deleted at start and at a clean stop.")
    Path readyFile;

    private final Map<String, String> environment;
    private final PrintWriter out;

    EmulatorMain(Map<String, String> environment, PrintWriter out) {
        this.environment = environment;
        this.out = out;
    }

    /** Entry point. Exit code 0 on a normal end, 1 on a bad scenario, access setup or port, 2 on bad options. */
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
        // Begun first: a stale ready file goes even when this run fails to start.
        try (ServingLifecycle life = ServingLifecycle.begin(Component.SNMP_EMULATOR, readyFile);
                SnmpEmulator emulator = SnmpEmulator.launch(context())) {
            emulator.agentUdpPorts().forEach((name, port) -> out.printf("agent %s udp:%s:%d%n", name, bindAddress, port));
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
        return 0;
    }

    /** @return the context the options describe (the scenario loaded, the access read from the environment) */
    private EmulatorContext context() throws Exception {
        EmulatorContext context = new EmulatorContext()
                .scenario(ScenarioLoader.load(scenarioFile))
                .pushTo(pushTo)
                .pushOnly(pushOnly)
                .bindAddress(InetAddress.getByName(bindAddress))
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

    /** @return the line printed for people at a step change, e.g. {@code step 2/4 (pass 1): cpu ws1=60%} */
    static String describe(ScenarioStatus status) {
        StringJoiner cpu = new StringJoiner(" ", "cpu ", "");
        status.cpuPercent().forEach((name, percent) -> cpu.add(name + "=" + percent + "%"));
        StringJoiner port = new StringJoiner(" ", "port ", "");
        status.portPercent().forEach((name, percent) -> port.add(name + "=" + percent + "%"));
        return "step " + status.step() + "/" + status.steps() + " (pass " + status.pass() + "): "
                + (status.cpuPercent().isEmpty() ? "" : cpu + "  ") + (status.portPercent().isEmpty() ? "" : port.toString());
    }
}
