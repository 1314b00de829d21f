package org.latencyserver.emulator;

import java.io.PrintWriter;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.Map;
import java.util.StringJoiner;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code latency snmp-emulator}: emulates the SNMP agents of workstations and switch ports
 * whose CPU and port utilisation follow a scenario file, and optionally pushes the same values
 * to a Latency Server with {@code PutMibUpdates} at 10 Hz (the thesis's emulator).
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
        if (pushOnly && pushTo == null) {
            throw new IllegalArgumentException("--push-only needs --push-to REF");
        }
        Scenario scenario = ScenarioLoader.load(scenarioFile);
        AccessConfig access = pushOnly ? null : AccessConfig.fromEnvironment(environment, communityEnv, v3Only);
        long startNanos = System.nanoTime();
        LongSupplier elapsedMicros = () -> (System.nanoTime() - startNanos) / 1_000;

        CountDownLatch stop = new CountDownLatch(1);
        Thread hook = new Thread(stop::countDown, "snmp-emulator-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        ScheduledExecutorService stepLog = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "scenario-steps");
            t.setDaemon(true);
            return t;
        });
        try (Emulator emulator = new Emulator(scenario, pushOnly ? new AccessConfig(java.util.Optional.empty(),
                java.util.Optional.empty()) : access, InetAddress.getByName(bindAddress), elapsedMicros);
                CorbaMibUpdateTarget target = pushTo == null ? null : new CorbaMibUpdateTarget(pushTo, pushTls.stores());
                PushSender pusher = target == null ? null : new PushSender(scenario, target, elapsedMicros)) {
            if (!pushOnly) {
                emulator.start();
                for (SnmpEndpoint e : emulator.endpoints()) {
                    out.printf("agent %s udp:%s:%d%n", e.name(), bindAddress, e.boundUdpPort());
                }
            }
            if (pusher != null) {
                pusher.start();
                out.printf("pushing PutMibUpdates for %d connection(s) to %s at 10 Hz%n",
                        scenario.connections().size(), pushTo.length() > 60 ? pushTo.substring(0, 60) + "…" : pushTo);
            }
            out.printf("scenario %s: %d steps, %.1f s per pass, %s%n", scenario.source(), scenario.stepCount(),
                    scenario.cycleMicros() / 1e6, scenario.loop() ? "looping" : "holding the last step");
            out.flush();
            int[] lastStep = {-1};
            stepLog.scheduleAtFixedRate(() -> {
                long now = elapsedMicros.getAsLong();
                long pass = scenario.loop() ? now / scenario.cycleMicros() : 0;
                int step = scenario.stepAt(now);
                if (step != lastStep[0]) {
                    lastStep[0] = step;
                    out.println("step " + (step + 1) + "/" + scenario.stepCount() + " (pass " + (pass + 1) + "): "
                            + describe(scenario, now));
                    out.flush();
                }
            }, 0, 100, TimeUnit.MILLISECONDS);
            if (durationSeconds != null) {
                stop.await(Math.round(durationSeconds * 1000), TimeUnit.MILLISECONDS);
            } else {
                stop.await();
            }
        } finally {
            stepLog.shutdownNow();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the JVM is already exiting through the hook
            }
        }
        return 0;
    }

    static String describe(Scenario scenario, long nowMicros) {
        StringJoiner cpu = new StringJoiner(" ", "cpu ", "");
        scenario.nodes().forEach(n -> cpu.add(n.name() + "=" + scenario.percentAt(n.name(), nowMicros) + "%"));
        StringJoiner port = new StringJoiner(" ", "port ", "");
        scenario.links().forEach(l -> port.add(l.name() + "=" + scenario.percentAt(l.name(), nowMicros) + "%"));
        return (scenario.nodes().isEmpty() ? "" : cpu + "  ") + (scenario.links().isEmpty() ? "" : port.toString());
    }
}
