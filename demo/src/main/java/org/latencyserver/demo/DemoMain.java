package org.latencyserver.demo;

import java.io.IOException;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ./latency demo}: the whole system on loopback in one command (BRIEF §9). Starts a naming
 * service, the snmp-emulator walking {@code examples/demo/demo-scenario.yaml}, the Latency Server
 * polling it over SNMP with a connection of each QoS level ({@code examples/demo/demo.yaml}), a peer
 * agent and a client agent pinned to cores 1 and 0 with real load following the scenario, and the
 * status console; prints where to look; and on Ctrl-C or after {@code --duration} stops everything
 * it started, descendants included.
 *
 * <p>Exit codes: 0 after a clean stop, 1 when a part failed (which, and its log, printed), 2 usage.
 */
@Command(name = "demo", mixinStandardHelpOptions = true, version = "latency demo 0.1.0",
    description = "Run the whole Latency Server system on loopback: naming service, SNMP emulator, server, agents, console.")
public final class DemoMain implements Callable<Integer> {

    private static final Duration READY_TIMEOUT = Duration.ofSeconds(90);
    /** Making the CA and three certificates runs keytool a dozen times the first time. */
    private static final Duration CERTS_TIMEOUT = Duration.ofSeconds(120);
    private static final Pattern STEP = Pattern.compile("(?m)^step (\\d+)/\\d+ ");

    @Option(names = "--duration", paramLabel = "SECONDS", description = "Stop after this many seconds (default: run until Ctrl-C).")
    private Long durationSeconds;

    @Option(names = "--console-port", description = "The console's web port on 127.0.0.1 (default: ${DEFAULT-VALUE}; 0 = any free port).")
    private int consolePort = 8470;

    @Option(names = "--work-dir", paramLabel = "DIR", description = "Logs, IORs and state of this run (default: .latency/demo).")
    private Path workDirectory;

    @Option(names = "--no-load", description = "Do not drive real CPU load on the pinned cores (the SNMP values still follow the scenario).")
    private boolean noLoad;

    @Option(names = "--ready-file", paramLabel = "PATH", description = {
        "Once everything is running, write this JSON file (atomically) for programs that use the demo: the naming service's"
            + " corbaloc, the server's name, the console and metrics URLs, the agents (node, name, core) and the pid of each"
            + " child process by role (naming-service, emulator, server, peer-agent, client-agent, console).",
        "It is deleted when the demo stops. Layout: org.latencyserver.demo.ReadyFile."})
    private Path readyFile;

    @Option(names = "--prometheus", description = "Also start Prometheus (/usr/bin/prometheus, Debian's package 'prometheus') on 127.0.0.1,"
        + " scraping the server with the shipped alert rules (ops/prometheus), its data under the work directory; stopped with the demo.")
    private boolean prometheus;

    /** Debian's package {@code prometheus} installs it here. */
    private static final Path PROMETHEUS = Path.of("/usr/bin/prometheus");

    private final List<ChildProcess> started = new ArrayList<>();
    private final AtomicBoolean stopped = new AtomicBoolean();
    private LoadDrivers loadDrivers;
    private final PrintStream out = System.out;

    /**
     * @param args command line
     */
    public static void main(final String[] args) {
        System.exit(new CommandLine(new DemoMain()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        final Path root = Path.of(System.getProperty("latency.root", ".")).toAbsolutePath().normalize();
        final Path work = (workDirectory != null ? workDirectory : root.resolve(".latency/demo")).toAbsolutePath();
        Files.createDirectories(work);
        if (readyFile != null) {
            Files.deleteIfExists(readyFile); // an earlier run's file would say "ready" before this run is
        }
        Runtime.getRuntime().addShutdownHook(new Thread(this::stopAll, "demo-stop"));
        try {
            run(root, work);
            return 0;
        } catch (DemoException e) {
            System.err.println("latency demo: " + e.getMessage());
            return 1;
        } finally {
            stopAll();
        }
    }

    private void run(final Path root, final Path work) throws Exception {
        final String community = HexFormat.of().formatHex(SecureRandom.getInstanceStrong().generateSeed(8));
        final Map<String, String> snmpEnvironment = Map.of("LATSERV_COMMUNITY", community);
        final Path scenario = root.resolve("examples/demo/demo-scenario.yaml");
        final Path config = work.resolve("demo.yaml");
        // Writers over TLS (BRIEF §10): a local CA in the work directory, kept across runs; its
        // certificates give the client agent the agent role for lab1, and an operator and a
        // planner certificate are there for the user's own writes (see the banner).
        final Path certs = work.resolve("certs");
        final ChildProcess certMaker = start("certs", java(root, "latency-server", "org.latencyserver.server.launch.CertsMain",
            "--dir", certs.toString(), "--agent", "lab1", "--operator", "demo-operator", "--planner", "demo-planner"), Map.of(), work);
        certMaker.awaitSuccess(CERTS_TIMEOUT);
        started.remove(certMaker); // done, not a service the demo watches
        final String tlsPassword = Files.readString(certs.resolve("password")).strip();
        Files.writeString(config, Files.readString(root.resolve("examples/demo/demo.yaml"))
            .replace("../../profiles/", root.resolve("profiles") + "/") + securitySection(certs));
        Files.deleteIfExists(work.resolve("demo.state.json"));
        Files.deleteIfExists(work.resolve("demo.state.json.journal"));
        deleteTree(work.resolve("naming")); // a fresh naming service: an old run's bindings point at dead objects
        deleteTree(work.resolve("demo.state.json.profiles"));
        final boolean pinned = Files.isExecutable(Path.of("/usr/bin/taskset")) && Runtime.getRuntime().availableProcessors() >= 2;

        out.println("latency demo: starting on loopback; logs in " + work);
        final int namingPort = freePort();
        final String naming = "corbaloc::127.0.0.1:" + namingPort + "/NameService";
        final ChildProcess namingService = start("naming-service", java(root, "latency-server", "org.latencyserver.server.launch.NamingServiceMain",
            "--port", Integer.toString(namingPort), "--db-dir", work.resolve("naming").toString()), Map.of(), work);
        namingService.awaitOutput("naming service at", READY_TIMEOUT);
        final ChildProcess emulator = start("snmp-emulator", java(root, "snmp-emulator", "org.latencyserver.emulator.EmulatorMain",
            "--scenario", scenario.toString()), snmpEnvironment, work);
        emulator.awaitOutput("scenario .* steps", READY_TIMEOUT);
        final ChildProcess server = start("server", java(root, "latency-server", "org.latencyserver.server.launch.ServerMain",
            "--config", config.toString(), "--ior-file", work.resolve("server.ior").toString(), "--naming", naming,
            "--metrics-port", "0"), withTlsPassword(snmpEnvironment, tlsPassword), work);
        server.awaitOutput("serving \\d+ connections", READY_TIMEOUT);
        final Matcher metrics = Pattern.compile("metrics at (http://\\S+)").matcher(server.log());
        final ChildProcess peerAgent = start("peer-agent", pin(pinned, 1, java(root, "peer-agent", "org.latencyserver.peer.PeerAgentMain", "--name", "lab2",
            "--naming", naming, "--ior-file", work.resolve("peer-lab2.ior").toString(), "--tcp-port", "0", "--udp-port", "0")),
            Map.of(), work);
        peerAgent.awaitOutput("peer-agent lab2 ready", READY_TIMEOUT);
        final List<String> agent = java(root, "client-agent", "org.latencyserver.agent.client.ClientAgentMain",
            "--server", "LatencyServer", "--naming", naming, "--node", "lab1", "--name", "demo-agent-lab1",
            "--tls-keystore", certs.resolve("agent-lab1.p12").toString(), "--tls-truststore", certs.resolve("trust.p12").toString(),
            // paced as the shipped profile was measured, so QoS 3/4 compare with QoS 1/2 on it
            "--interval-micros", "2000");
        if (pinned) {
            // pinned once started, as the profiler pins itself: a JVM started pinned sizes itself as a uniprocessor
            agent.addAll(List.of("--pin-core", "0"));
        }
        final ChildProcess clientAgent = start("client-agent", agent, withTlsPassword(Map.of(), tlsPassword), work);
        clientAgent.awaitOutput("client-agent ready", READY_TIMEOUT);
        final ChildProcess console = start("console", java(root, "status-console", "org.latencyserver.console.ConsoleMain",
            "--server", "LatencyServer", "--naming", naming, "--http-port", Integer.toString(consolePort),
            "--tls-keystore", certs.resolve("operator-demo-operator.p12").toString(), "--tls-truststore", certs.resolve("trust.p12").toString()),
            withTlsPassword(Map.of(), tlsPassword), work);
        final String consoleUrl = console.awaitOutput("console at (http://\\S+)", READY_TIMEOUT).group(1);
        // This host's copy of every estimate, read without a call (docs/mirror-layout.md); reads are open, so no certificate.
        final Path mirrorFile = work.resolve("estimates.mirror");
        final ChildProcess mirror = start("mirror", java(root, "latency-client", "org.latencyserver.client.mirror.MirrorMain",
            "--server", "LatencyServer", "--naming", naming, "--file", mirrorFile.toString()), Map.of(), work);
        mirror.awaitOutput("mirror: \\d+ connection", READY_TIMEOUT);

        final boolean load = !noLoad && pinned && LoadDrivers.available();
        if (load) {
            loadDrivers = new LoadDrivers(Map.of("lab1", 0, "lab2", 1), work);
        }
        final String metricsUrl = metrics.find() ? metrics.group(1) : null;
        final List<String> prometheusLines = metricsUrl == null ? List.of() : prometheus(root, work, metricsUrl);
        banner(consoleUrl, naming, metricsUrl, prometheusLines, work, mirrorFile, load, pinned);
        if (readyFile != null) {
            final Map<String, Long> pids = new LinkedHashMap<>();
            pids.put("naming-service", namingService.pid());
            pids.put("emulator", emulator.pid());
            pids.put("server", server.pid());
            pids.put("peer-agent", peerAgent.pid());
            pids.put("client-agent", clientAgent.pid());
            pids.put("console", console.pid());
            pids.put("mirror", mirror.pid());
            new ReadyFile(ReadyFile.FORMAT, naming, "LatencyServer", consoleUrl, metricsUrl,
                List.of(new ReadyFile.Agent("lab1", "demo-agent-lab1", pinned ? 0 : null)),
                List.of(new ReadyFile.Agent("lab2", "peers/lab2", pinned ? 1 : null)),
                pids, load, scenario.toString(), work.toString(), mirrorFile.toString()).writeTo(readyFile);
        }
        follow(emulator, ScenarioLoad.cpuPercentPerStep(scenario, List.of("lab1", "lab2")));
    }

    /** Until the end: drive the load of each scenario step and watch that every part is still running. */
    private void follow(final ChildProcess emulator, final List<Map<String, Integer>> loadPerStep) throws Exception {
        final long endNanos = durationSeconds == null ? Long.MAX_VALUE : System.nanoTime() + durationSeconds * 1_000_000_000L;
        int lastStep = -1;
        while (System.nanoTime() - endNanos < 0 && !stopped.get()) {
            for (final ChildProcess child : started) {
                if (!child.isAlive() && !stopped.get()) {
                    throw new DemoException(child.name() + " stopped unexpectedly; its log " + child.logFile() + " ends:\n"
                        + ChildProcess.tail(child.log(), 15));
                }
            }
            final Matcher step = STEP.matcher(emulator.log());
            int current = lastStep;
            while (step.find()) {
                current = Integer.parseInt(step.group(1)) - 1;
            }
            if (current != lastStep && current >= 0 && current < loadPerStep.size()) {
                lastStep = current;
                if (loadDrivers != null) {
                    for (final Map.Entry<String, Integer> level : loadPerStep.get(current).entrySet()) {
                        loadDrivers.drive(level.getKey(), level.getValue());
                    }
                }
            }
            Thread.sleep(200);
        }
        // Stopped by a signal (the shutdown hook set stopped) or at the end of --duration: say which.
        out.println("latency demo: " + (stopped.get() || durationSeconds == null ? "stopping"
            : "--duration " + durationSeconds + " s reached; stopping"));
    }

    /**
     * Writes {@code prometheus/prometheus.yml} into the work directory (the server's metrics URL as
     * target, the shipped rules) and, with {@code --prometheus}, starts Prometheus on it.
     *
     * @return the banner's lines about it: the URL of the one started, or a command line to start one
     */
    private List<String> prometheus(final Path root, final Path work, final String metricsUrl) throws IOException, InterruptedException {
        final java.net.URI target = java.net.URI.create(metricsUrl);
        final Path directory = Files.createDirectories(work.resolve("prometheus"));
        final Path config = directory.resolve("prometheus.yml");
        final Path data = directory.resolve("data");
        Files.writeString(config, String.join("\n",
            "# Written by ./latency demo: Prometheus scraping the demo's server with the shipped alert rules.",
            "global:",
            "  scrape_interval: 5s",
            "  evaluation_interval: 5s",
            "rule_files:",
            "  - " + root.resolve("ops/prometheus/latency-server-alerts.yml"),
            "scrape_configs:",
            "  - job_name: latency-server",
            "    metrics_path: " + target.getPath(),
            "    static_configs:",
            "      - targets: ['" + target.getHost() + ":" + target.getPort() + "']",
            ""));
        final boolean installed = Files.isExecutable(PROMETHEUS);
        final java.util.function.IntFunction<List<String>> command = port -> List.of(installed ? PROMETHEUS.toString() : "prometheus",
            "--config.file=" + config, "--storage.tsdb.path=" + data, "--web.listen-address=127.0.0.1:" + port,
            "--enable-feature=native-histograms");
        final String ready = String.join(" ", command.apply(9090));
        if (!prometheus) {
            return List.of("  Prometheus:     " + ready,
                "                  (the server as target, ops/prometheus's alert rules; --prometheus starts one for you)");
        }
        if (!installed) {
            return List.of("  Prometheus:     not started: " + PROMETHEUS + " is not installed (Debian: sudo apt-get install prometheus);"
                + " elsewhere run", "                  " + ready);
        }
        deleteTree(data); // a fresh run: an old run's series name a server that is gone
        final int port = freePort();
        final ChildProcess child = start("prometheus", command.apply(port), Map.of(), work);
        child.awaitOutput("Server is ready to receive web requests", READY_TIMEOUT);
        return List.of("  Prometheus:     http://127.0.0.1:" + port + "/  (alerts: http://127.0.0.1:" + port + "/alerts;"
            + " its configuration " + config + ", log " + child.logFile() + ")");
    }

    private void banner(final String consoleUrl, final String naming, final String metricsUrl, final List<String> prometheusLines,
                        final Path work, final Path mirrorFile,
                        final boolean load, final boolean pinned) {
        out.println();
        out.println("  Latency Server demo is running.");
        out.println();
        out.println("  Console:        " + consoleUrl);
        out.println("  Naming service: " + naming + "  (the server is 'LatencyServer', the peer agent 'peers/lab2')");
        if (metricsUrl != null) {
            out.println("  Metrics:        " + metricsUrl);
        }
        prometheusLines.forEach(out::println);
        out.println("  Terminal view:  ./latency console --naming " + naming + " --server LatencyServer --watch");
        out.println("  Mirror file:    " + mirrorFile + "  (every estimate, read without a call)");
        out.println("                  ./latency mirror-read --file " + mirrorFile + " --watch");
        out.println("                  Java: EstimateMirror.open(path).read(indexRef, record); C: latency-mirror/src/main/c/latency_mirror.h");
        final Path certs = work.resolve("certs");
        out.println("  Writes need TLS and a role (plain IIOP reads only). As the planner, for example:");
        out.println("    LATENCY_TLS_PASSWORD=$(cat " + certs.resolve("password") + ") ./latency profile load F --naming " + naming
            + " --server LatencyServer --tls-keystore " + certs.resolve("planner-demo-planner.p12") + " --tls-truststore "
            + certs.resolve("trust.p12"));
        out.println();
        out.println("  What to look at: every 12 s the emulated workstations change load (examples/demo/demo-scenario.yaml).");
        out.println("  - connection 1 (QoS 1) takes its average from the thesis's Appendix A for each CPU state pair;");
        out.println("  - connection 2 (QoS 2) its 96 % bound from the histograms measured on this kind of machine;");
        out.println("  - connections 3 and 4 (QoS 3, 4): at each change they serve what they know of the new state at once");
        out.println("    (its last measurement, labelled 'remembered', or the profile, 'profile fallback') and, once the state");
        out.println("    has held a moment, the client agent measures 1000 round trips to the peer agent;");
        out.println("  - connections 2-4 are probed a few times a second; what they serve is corrected so that it holds for the");
        out.println("    round trips that follow (the thesis's value beside it), and calibration shows per state how well it held;");
        out.println("  - at step 7 the switch port goes above 90 %: the port state turns LOADED and QoS 1 adds the queue model;");
        out.println("  - click a row for its latency histogram, estimate timeline and calibration per load state.");
        if (load) {
            out.println("  Real load follows the scenario: lab1 (client agent) on core 0, lab2 (peer agent) on core 1.");
        } else {
            out.println("  Real CPU load is off (" + (!pinned ? "needs taskset and 2 cores" : noLoad ? "--no-load" : "stress-ng is not installed")
                + "); the SNMP values still follow the scenario.");
        }
        out.println();
        out.println("  Stop with Ctrl-C" + (durationSeconds == null ? "." : " (or wait " + durationSeconds + " s)."));
        out.println();
        out.flush();
    }

    private ChildProcess start(final String name, final List<String> command, final Map<String, String> environment,
                               final Path work) throws IOException {
        final ChildProcess child = ChildProcess.start(name, command, environment, work);
        started.add(child);
        return child;
    }

    private static List<String> java(final Path root, final String module, final String mainClass, final String... args) {
        final List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-cp", root.resolve(module).resolve("target/classes") + ":" + root.resolve(module).resolve("target/lib") + "/*",
            mainClass));
        command.addAll(List.of(args));
        return command;
    }

    private static List<String> pin(final boolean pinned, final int core, final List<String> command) {
        if (!pinned) {
            return command;
        }
        final List<String> wrapped = new ArrayList<>(List.of("/usr/bin/taskset", "-c", Integer.toString(core)));
        wrapped.addAll(command);
        return wrapped;
    }

    private static void deleteTree(final Path directory) throws IOException {
        if (!Files.exists(directory)) {
            return;
        }
        try (java.util.stream.Stream<Path> paths = Files.walk(directory)) {
            for (final Path path : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }

    /** @return the demo's {@code security:} section: writes over TLS only, by the certificates {@code ./latency certs} made */
    private static String securitySection(final Path certs) {
        return "\nsecurity:                              # added by ./latency demo\n"
            + "  plain_iiop: read-only\n"
            + "  tls: { port: 0, keystore: " + certs.resolve("server.p12") + ", truststore: " + certs.resolve("trust.p12") + " }\n"
            + "  principals:\n"
            + "    - { subject: \"CN=lab1,OU=agent,O=Latency Server\", roles: [agent], node: lab1 }\n"
            + "    - { subject: \"CN=demo-operator,OU=operator,O=Latency Server\", roles: [operator] }\n"
            + "    - { subject: \"CN=demo-planner,OU=planner,O=Latency Server\", roles: [planner] }\n";
    }

    /** @return the environment with the stores' password added, under the name the configuration and agents expect */
    private static Map<String, String> withTlsPassword(final Map<String, String> environment, final String password) {
        final Map<String, String> with = new java.util.HashMap<>(environment);
        with.put("LATENCY_TLS_PASSWORD", password);
        return with;
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /** Stops everything started, newest first; safe to call twice (end of run and shutdown hook). */
    private void stopAll() {
        if (!stopped.compareAndSet(false, true)) {
            return;
        }
        deleteReadyFile(); // first: from now on the demo is no longer ready
        try {
            if (loadDrivers != null) {
                loadDrivers.stopAll();
            }
            final List<String> left = new ArrayList<>();
            for (int i = started.size() - 1; i >= 0; i--) {
                if (!started.get(i).stop(Duration.ofSeconds(10))) {
                    left.add(started.get(i).name() + " (pid " + started.get(i).pid() + ")");
                }
            }
            // Said only when checked: each child and its descendants have ended.
            out.println(left.isEmpty() ? "latency demo: stopped " + started.size() + " processes; nothing left running"
                : "latency demo: stopped " + (started.size() - left.size()) + " of " + started.size()
                    + " processes; still running: " + String.join(", ", left));
            out.flush();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void deleteReadyFile() {
        if (readyFile == null) {
            return;
        }
        try {
            Files.deleteIfExists(readyFile);
        } catch (IOException e) {
            System.err.println("latency demo: cannot delete the ready file " + readyFile + ": " + e.getMessage());
        }
    }
}
