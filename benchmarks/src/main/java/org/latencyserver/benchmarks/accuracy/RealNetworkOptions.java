package org.latencyserver.benchmarks.accuracy;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import org.latencyserver.demo.DemoReady;
import picocli.CommandLine.Option;

/**
 * The accuracy harness on the real network ({@code --real-network}): {@code ./latency demo --real-network}
 * on a testbed of the harness's own name, the application in ws1's namespace, a scenario of port phases, and
 * the profile the connections serve from — one with port cells measured on the same testbed at the start of
 * the run ({@link TestbedPortProfile}), unless {@code --profile} names one or {@code --shipped-profile} asks
 * for the shipped one (no port cells: QoS 2 is then refused on a loaded port). Before anything is measured it
 * waits for a quiet machine ({@link QuietMachine}).
 *
 * <p>Not thread-safe: filled by picocli once, then used by the harness's main thread.
 */
public final class RealNetworkOptions {

    /** The scenario unless {@code --scenario} says otherwise. */
    public static final String DEFAULT_SCENARIO = "examples/demo/real-network-accuracy-scenario.yaml";
    /** The scenario of {@code --topology two-switches} unless {@code --scenario} says otherwise. */
    public static final String PATHS_SCENARIO = "examples/demo/real-network-paths-scenario.yaml";
    /** The measured profile's file name; its name is {@code testbed-ports}. */
    public static final String PROFILE_FILE = "testbed-ports.json";
    private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9]{0,10}");

    @Option(names = "--real-network", description = "Run ./latency demo --real-network (root) and the application in ws1's namespace.")
    boolean enabled;

    @Option(names = "--testbed-name", description = "With --real-network: the demo's testbed (namespaces lt-NAME-*); the port profile"
        + " is measured on NAMEp (default: ${DEFAULT-VALUE}).")
    String testbedName = "acc";

    @Option(names = "--scenario", paramLabel = "FILE", description = "With --real-network: the demo's load walk (default: "
        + DEFAULT_SCENARIO + ").")
    Path scenario;

    @Option(names = "--topology", paramLabel = "NAME", description = "With --real-network: the demo's testbed, one-switch or"
        + " two-switches (the connections cross two 20 Mbit/s ports; default scenario " + PATHS_SCENARIO + "). The port profile is"
        + " measured on a one-switch testbed of the same rate either way (default: ${DEFAULT-VALUE}).")
    String topology = "one-switch";

    @Option(names = "--profile", paramLabel = "FILE", description = "With --real-network: serve from this profile instead of measuring one"
        + " with port cells at the start.")
    Path profile;

    @Option(names = "--shipped-profile", description = "With --real-network: serve from the shipped measured-loopback-jacorb (no port"
        + " cells), measuring none.")
    boolean shippedProfile;

    @Option(names = "--port-loads", description = "With --real-network: the measured profile's port loads (default: ${DEFAULT-VALUE}).")
    String portLoads = "0,95,98,100";

    @Option(names = "--port-traffic", description = "With --real-network: the cross-traffic's shape the measured profile's port cells"
        + " are measured under, smooth or bursty[:PACKETS] (the profiler's --port-traffic; default: ${DEFAULT-VALUE}). Measure"
        + " with the shape the scenario loads the ports with.")
    String portTraffic = "bursty:32";

    @Option(names = "--profile-sizes", description = "With --real-network: the measured profile's message sizes (default: ${DEFAULT-VALUE},"
        + " the demo's connections').")
    String profileSizes = "256,1024";

    @Option(names = "--profile-round-trips", description = "With --real-network: round trips per port load and size (default:"
        + " ${DEFAULT-VALUE}).")
    int profileRoundTrips = 1000;

    @Option(names = "--quiet-wait-minutes", description = "With --real-network: wait at most this long for a quiet machine, polling every"
        + " 30 s; then run anyway, saying so (default: ${DEFAULT-VALUE}).")
    long quietWaitMinutes = 30;

    @Option(names = "--quiet-load", description = "With --real-network: quiet means no other lt-* namespace and a 1-minute load average"
        + " below this (default: ${DEFAULT-VALUE}).")
    double quietLoad = 1.0;

    /** @return whether the harness runs on the real network */
    public boolean enabled() {
        return enabled;
    }

    /** @return the quiet-machine check of this run (its own testbeds' namespaces do not count) */
    public QuietMachine quietMachine() {
        return new QuietMachine(quietLoad, List.of("lt-" + testbedName + "-", "lt-" + testbedName + "p-"));
    }

    /**
     * Waits for a quiet machine, measures the profile unless one is given, and says what the demo is to be
     * started with. Writes {@code quiet.txt} (what the wait came to) to {@code out}.
     *
     * @param root the repository root
     * @param out  the run's output directory
     * @param log  progress
     * @return the demo's options beyond duration, console port, work directory and ready file
     * @throws IOException when the testbed name is refused, or a file cannot be written
     */
    public List<String> prepare(final Path root, final Path out, final PrintStream log) throws IOException, InterruptedException {
        if (!NAME.matcher(testbedName).matches()) {
            throw new IOException("--testbed-name must be a-z then a-z0-9, at most 11 characters (NAMEp is the profile's testbed), was '"
                + testbedName + "'");
        }
        final QuietMachine.Outcome quiet = quietMachine().await(Duration.ofMinutes(quietWaitMinutes), Duration.ofSeconds(30), log);
        Files.writeString(out.resolve("quiet.txt"), String.format(Locale.ROOT, "%s after %d s of waiting (at most %d min): %s%n",
            quiet.quiet() ? "quiet" : "NOT quiet, run anyway", quiet.waited().toSeconds(), quietWaitMinutes, quiet.last().describe()));
        Path served = profile == null ? null : profile.toAbsolutePath();
        if (served == null && !shippedProfile) {
            final Path measured = out.resolve("port-profile").resolve(PROFILE_FILE);
            try {
                final String table = new TestbedPortProfile(root, out.resolve("port-profile"), testbedName + "p", log)
                    .measure(measured, portLoads, profileSizes, profileRoundTrips, portTraffic, Duration.ofMinutes(20));
                Files.writeString(out.resolve("port-profile").resolve("measure-table.txt"), table + "\n");
                log.println(table);
                served = measured;
            } catch (IOException e) {
                log.println("estimate accuracy: NO port profile; the connections serve from the shipped profile, so QoS 2 is refused on a"
                    + " loaded port. The profiler said:\n" + e.getMessage());
                Files.writeString(out.resolve("port-profile").resolve("FAILED.txt"), e.getMessage() + "\n");
            }
        }
        final String defaultScenario = "two-switches".equals(topology) ? PATHS_SCENARIO : DEFAULT_SCENARIO;
        final List<String> arguments = new ArrayList<>(demoArguments(testbedName,
            scenario != null ? scenario.toAbsolutePath() : root.resolve(defaultScenario), served));
        arguments.addAll(List.of("--topology", topology));
        return List.copyOf(arguments);
    }

    /**
     * @param testbedName the demo's testbed
     * @param scenario    the load walk
     * @param profile     the profile every connection serves from, or null for the shipped one
     * @return {@code ./latency demo}'s options for them
     */
    static List<String> demoArguments(final String testbedName, final Path scenario, final Path profile) {
        final List<String> arguments = new ArrayList<>(List.of("--real-network", "--testbed-name", testbedName, "--scenario",
            scenario.toString()));
        if (profile != null) {
            arguments.addAll(List.of("--profile", profile.toString()));
        }
        return List.copyOf(arguments);
    }

    /**
     * @param ready the running demo
     * @return the client workstation's (ws1's) namespace: where its client agent runs
     * @throws IllegalStateException when the ready file names none (not a real-network demo)
     */
    public static String clientNamespace(final DemoReady ready) {
        return ready.namespaceOf("client-agent")
            .or(() -> ready.testbedPrefix().map(prefix -> prefix + "ws1"))
            .orElseThrow(() -> new IllegalStateException("the demo's ready file names no namespace: not ./latency demo --real-network?"));
    }
}
