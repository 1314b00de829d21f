package org.latencyserver.demo;

import java.io.IOException;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import org.latencyserver.demo.DemoReady.Agent;
import org.latencyserver.demo.DemoReady.AgentKind;
import org.latencyserver.core.profile.Profile;
import org.latencyserver.core.profile.ProfileJson;
import org.latencyserver.core.profile.ProfileValidationException;
import org.latencyserver.launch.ChildProcess;
import org.latencyserver.launch.Component;
import org.latencyserver.launch.Installation;
import org.latencyserver.launch.ProcessKit;
import org.latencyserver.launch.ReadinessException;
import org.latencyserver.launch.ReadinessOptions;
import org.latencyserver.launch.ReadyFile;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code ./latency demo}: the whole system on loopback in one command. Starts a naming
 * service, the snmp-emulator walking {@code examples/demo/demo-scenario.yaml}, the Latency Server
 * polling it over SNMP with a connection of each QoS level ({@code examples/demo/demo.yaml}), a peer
 * agent and a client agent pinned to cores 1 and 0 with real load following the scenario, the
 * status console and this host's estimate mirror; prints where to look; and on Ctrl-C or after
 * {@code --duration} stops everything it started, descendants included.
 *
 * <p>Every child is a {@link Component} started by the {@link ProcessKit}; the demo waits for each
 * one's ready file (docs/ready-files.md) and takes the naming service's corbaloc, the server's
 * name, the metrics and console URLs and the mirror file from them, never from their output. It
 * follows the scenario's steps through the emulator's status file ({@link ScenarioFollower}).
 *
 * <p>Thread-safety: the main thread starts, follows and stops; the shutdown hook (Ctrl-C) stops
 * too. The kit and the load drivers are touched only while holding {@link #lifecycle}'s lock, and nothing
 * is started once it is stopping, so nothing started can escape the stop.
 *
 * <p>Exit codes: 0 when {@code --duration} ends it; stopped by SIGTERM, it stops what it started,
 * deletes its ready file and exits 143 (128 + 15), as a JVM does; Ctrl-C likewise exits 130; 1 when
 * a part failed (which, and its log, printed), 2 usage.
 */
@Command(name = "demo", mixinStandardHelpOptions = true, version = "latency demo 0.1.0",
    description = "Run the whole Latency Server system on loopback: naming service, SNMP emulator, server, agents, console.")
public final class DemoMain implements Callable<Integer> {

    private static final Duration READY_TIMEOUT = Duration.ofSeconds(90);
    /** Making the CA and five certificates runs keytool (a JVM each) six times the first time. */
    private static final Duration CERTS_TIMEOUT = Duration.ofSeconds(120);
    /** How often the emulator's status file is read; a step lasts seconds, so a change is acted on within 0.1 s. */
    private static final long STATUS_POLL_MILLIS = 100;
    /** The emulated workstations whose agents run here, and the core each is pinned to (with its load). */
    private static final Map<String, Integer> CORE_BY_NODE = Map.of("lab1", 0, "lab2", 1);

    @Option(names = "--duration", paramLabel = "SECONDS", description = "Stop after this many seconds (default: run until Ctrl-C).")
    private Long durationSeconds;

    @Option(names = "--console-port", description = "The console's web port on 127.0.0.1 (default: ${DEFAULT-VALUE}; 0 = any free port).")
    private int consolePort = 8470;

    @Option(names = "--work-dir", paramLabel = "DIR", description = "Logs, IORs and state of this run (default: .latency/demo; with --real-network .latency/demo-real-network).")
    private Path workDirectory;

    @Option(names = "--no-load", description = "Do not drive real CPU load on the pinned cores (the SNMP values still follow the scenario).")
    private boolean noLoad;

    /** Ready once everything is running: the file of docs/ready-files.md's section "The demo" ({@link DemoReady}). */
    @Mixin
    private ReadinessOptions readiness = new ReadinessOptions();

    @Option(names = "--real-network", description = {"Run it over the testbed instead of loopback (root): srv, ws1 and ws2 on one switch"
        + " with a 20 Mbit/s bottleneck toward ws2, real snmpd, stress-ng CPU load and iperf3 port load"
        + " (examples/demo/real-network-scenario.yaml); everything is removed when it stops. See docs/testbed.md."})
    private boolean realNetwork;

    @Option(names = "--testbed-name", paramLabel = "NAME", description = "With --real-network: the testbed's name; its namespaces are"
        + " lt-NAME-* (default: " + RealNetworkDemo.DEFAULT_TESTBED_NAME + ").")
    private String testbedName = RealNetworkDemo.DEFAULT_TESTBED_NAME;

    @Option(names = "--scenario", paramLabel = "FILE", description = "With --real-network: the load walk (default:"
        + " examples/demo/real-network-scenario.yaml; with --topology two-switches examples/demo/real-network-paths-scenario.yaml).")
    private Path scenarioFile;

    @Option(names = "--path-share-percent", paramLabel = "P", description = "With --real-network: measurement.path_share_percent of the"
        + " generated configuration, the share of the bottleneck one measurement may take (default: 5).")
    private Double pathSharePercent;

    @Option(names = "--profile", paramLabel = "FILE", description = "With --real-network: the profile every connection serves from"
        + " instead of the shipped measured-loopback-jacorb, e.g. one with port cells measured on the testbed (profile measure --peer"
        + " … --port-loads …), so that QoS 2 is served on a loaded port; ws1 and ws2 take its workstation type.")
    private Path profileFile;

    @Option(names = "--topology", paramLabel = "NAME", description = "With --real-network: one-switch (default: srv, ws1, ws2 on one"
        + " switch, one 20 Mbit/s port) or two-switches (examples/testbed/two-switches-path.yaml: ws1 on sw1, ws2 on sw2, the"
        + " connections cross two 20 Mbit/s ports, the trunk and the port toward ws2, each polled; default scenario"
        + " examples/demo/real-network-paths-scenario.yaml).")
    private String topologyName = RealNetworkTopology.ONE_SWITCH.optionValue();

    @Option(names = "--prometheus", description = "Also start Prometheus (/usr/bin/prometheus, Debian's package 'prometheus') on 127.0.0.1,"
        + " scraping the server with the shipped alert rules (ops/prometheus), its data under the work directory; stopped with the demo.")
    private boolean prometheus;

    /** Its lock guards {@link #kit} and {@link #loadDrivers} between the main thread and the shutdown hook. */
    private final DemoLifecycle lifecycle = new DemoLifecycle();
    private ProcessKit kit;
    private LoadDrivers loadDrivers;
    /** The long-running children the demo watches, by role (their kit name); main thread only. */
    private final Map<String, ChildProcess> services = new LinkedHashMap<>();
    private final PrintStream out = System.out;

    /**
     * @param args command line
     */
    public static void main(final String[] args) {
        System.exit(new CommandLine(new DemoMain()).execute(args));
    }

    @Override
    public Integer call() throws Exception {
        if (realNetwork) {
            if (prometheus) {
                System.err.println("latency demo: --prometheus is for the demo on loopback; with --real-network the banner gives"
                    + " the metrics URL to scrape");
                return RealNetworkDemo.EXIT_CANNOT_RUN;
            }
            if (pathSharePercent != null && !(pathSharePercent > 0 && pathSharePercent <= 100)) {
                System.err.println("latency demo: --path-share-percent must be in (0, 100], not " + pathSharePercent);
                return RealNetworkDemo.EXIT_CANNOT_RUN;
            }
            final RealNetworkTopology topology;
            try {
                topology = RealNetworkTopology.of(topologyName);
            } catch (IllegalArgumentException e) {
                System.err.println("latency demo: " + e.getMessage());
                return RealNetworkDemo.EXIT_CANNOT_RUN;
            }
            RealNetworkConfig.ServedProfile profile = null;
            if (profileFile != null) {
                try {
                    final Profile read = ProfileJson.read(profileFile);
                    profile = new RealNetworkConfig.ServedProfile(profileFile.toAbsolutePath(), read.name(), read.workstationType());
                } catch (ProfileValidationException e) {
                    System.err.println("latency demo: --profile " + profileFile + " is refused:\n" + e.getMessage());
                    return RealNetworkDemo.EXIT_CANNOT_RUN;
                }
            }
            return new RealNetworkDemo(new RealNetworkDemo.Options(durationSeconds, consolePort, workDirectory, noLoad,
                readiness.readyFile(), testbedName, scenarioFile,
                pathSharePercent == null ? RealNetworkConfig.DEFAULT_PATH_SHARE_PERCENT : pathSharePercent, profile, topology), out).call();
        }
        final Installation installation = Installation.current();
        final Path root = installation.root();
        final Path work = (workDirectory != null ? workDirectory : installation.stateDirectory().resolve("demo")).toAbsolutePath();
        Files.createDirectories(work);
        ReadyFile.deleteQuietly(readiness.readyFile()); // an earlier run's file would say "ready" before this run is
        synchronized (lifecycle.lock()) {
            kit = installation.processKit(work);
        }
        Runtime.getRuntime().addShutdownHook(new Thread(this::stopAll, "demo-stop"));
        try {
            run(root, work);
            return 0;
        } catch (DemoException | ReadinessException e) {
            System.err.println("latency demo: " + (lifecycle.isStopped() ? "stopped while starting; " : "") + e.getMessage());
            return 1;
        } finally {
            stopAll();
        }
    }

    /** The long-running parts started on loopback, with what their ready files say. */
    private record Started(ReadyFile namingService, String naming, Path statusFile, String serverName,
                           Optional<String> metricsUrl, ReadyFile peerAgent, ReadyFile clientAgent, ReadyFile console,
                           Path mirrorFile) {
    }

    private void run(final Path root, final Path work) throws Exception {
        final String community = HexFormat.of().formatHex(SecureRandom.getInstanceStrong().generateSeed(8));
        final Map<String, String> snmpEnvironment = Map.of("LATSERV_COMMUNITY", community);
        final Path scenario = root.resolve("examples/demo/demo-scenario.yaml");
        final Path config = work.resolve("demo.yaml");
        final Path certs = work.resolve("certs");
        final String tlsPassword = makeCertificates(certs);
        Files.writeString(config, Files.readString(root.resolve("examples/demo/demo.yaml"))
            .replace("../../profiles/", root.resolve("profiles") + "/") + securitySection(certs, "lab1"));
        DemoWorkDirectory.clearState(work);
        final boolean pinned = LoadDrivers.canPinCores();

        out.println("latency demo: starting on loopback; logs in " + work);
        final Started started = startSystem(work, scenario, config, certs, tlsPassword, snmpEnvironment, pinned);
        final boolean load = !noLoad && pinned && LoadDrivers.available();
        if (load) {
            synchronized (lifecycle.lock()) {
                loadDrivers = new LoadDrivers(kit, CORE_BY_NODE, LoadDrivers.STRESS_NG_DRIVER);
            }
        }
        final List<String> prometheusLines = started.metricsUrl().isPresent()
            ? prometheus(root, work, started.metricsUrl().get()) : List.of();
        final String loadOffReason = load ? null : !pinned ? "needs taskset and 2 cores" : noLoad ? "--no-load" : "stress-ng is not installed";
        // The banner first: once the ready file is there, so is what the demo says to people.
        final ReadyFile demoReady = readyFile(work, scenario, started, load, pinned);
        DemoBanner.print(out, DemoReady.of(demoReady), prometheusLines, loadOffReason, durationSeconds);
        if (readiness.readyFile() != null) {
            demoReady.writeTo(readiness.readyFile());
        }
        follow(new ScenarioFollower(started.statusFile(), List.copyOf(CORE_BY_NODE.keySet()), this::driveLoad));
    }

    /**
     * Writers over TLS (the server takes a write only from a certificate with the role it needs,
     * an agent's only for its own node; reads stay open): a local CA in the work directory, kept across runs; its
     * certificates give the client agent the agent role for lab1, and an operator and a
     * planner certificate are there for the user's own writes (see the banner).
     *
     * @return the keystores' password
     */
    private String makeCertificates(final Path certs) throws IOException, InterruptedException {
        final ChildProcess certMaker = lifecycle.start(kit.launch(Component.CERTS).args("--dir", certs.toString(), "--agent", "lab1",
            "--operator", "demo-operator", "--planner", "demo-planner")
            // Its own password file in the demo's directory, even when the user's shell has LATENCY_TLS_PASSWORD set.
            .withoutEnv("LATENCY_TLS_PASSWORD"));
        certMaker.awaitSuccess(CERTS_TIMEOUT);
        synchronized (lifecycle.lock()) {
            kit.stop(certMaker); // done (it has exited): not a service the demo watches
        }
        return Files.readString(certs.resolve("password")).strip();
    }

    /** Starts the naming service, the SNMP emulator, the server, the agents, the console and the mirror on loopback. */
    private Started startSystem(final Path work, final Path scenario, final Path config, final Path certs, final String tlsPassword,
                                final Map<String, String> snmpEnvironment, final boolean pinned)
        throws IOException, InterruptedException {
        final ReadyFile namingService = startService(kit.launch(Component.NAMING_SERVICE).args("--port", Integer.toString(freePort()),
            "--db-dir", work.resolve("naming").toString()));
        final String naming = namingService.reference("naming");
        final Path statusFile = startService(kit.launch(Component.SNMP_EMULATOR).args("--scenario", scenario.toString(),
            "--status-file", work.resolve("emulator.status.json").toString()).env(snmpEnvironment)).file("status");
        final ReadyFile server = startService(kit.launch(Component.SERVER).args("--config", config.toString(),
            "--ior-file", work.resolve("server.ior").toString(), "--naming", naming, "--metrics-port", "0")
            .env(snmpEnvironment).env("LATENCY_TLS_PASSWORD", tlsPassword));
        final String serverName = server.fact("name");
        final ProcessKit.Launch peerLaunch = kit.launch(Component.PEER_AGENT).args("--name", "lab2", "--naming", naming,
            "--ior-file", work.resolve("peer-lab2.ior").toString(), "--tcp-port", "0", "--udp-port", "0");
        if (pinned) {
            peerLaunch.pinnedTo(CORE_BY_NODE.get("lab2"));
        }
        final ReadyFile peerAgent = startService(peerLaunch);
        final ProcessKit.Launch agentLaunch = kit.launch(Component.CLIENT_AGENT).args("--server", serverName, "--naming", naming,
            "--node", "lab1", "--name", "demo-agent-lab1",
            "--tls-keystore", certs.resolve("agent-lab1.p12").toString(), "--tls-truststore", certs.resolve("trust.p12").toString(),
            // paced as the shipped profile was measured, so QoS 3/4 compare with QoS 1/2 on it
            "--interval-micros", "2000").env("LATENCY_TLS_PASSWORD", tlsPassword);
        if (pinned) {
            // pinned once started, as the profiler pins itself: a JVM started pinned sizes itself as a uniprocessor
            agentLaunch.args("--pin-core", Integer.toString(CORE_BY_NODE.get("lab1")));
        }
        final ReadyFile clientAgent = startService(agentLaunch);
        final ReadyFile console = startService(kit.launch(Component.CONSOLE).args("--server", serverName, "--naming", naming,
            "--http-port", Integer.toString(consolePort), "--tls-keystore", certs.resolve("operator-demo-operator.p12").toString(),
            "--tls-truststore", certs.resolve("trust.p12").toString()).env("LATENCY_TLS_PASSWORD", tlsPassword));
        // This host's copy of every estimate, read without a call (docs/mirror-layout.md); reads are open, so no certificate.
        final Path mirrorFile = startService(kit.launch(Component.MIRROR).args("--server", serverName, "--naming", naming,
            "--file", work.resolve("estimates.mirror").toString())).file("mirror");
        return new Started(namingService, naming, statusFile, serverName, server.optionalUrl("metrics"), peerAgent, clientAgent,
            console, mirrorFile);
    }

    /** The demo's ready file: where everything is, and each part's pid. */
    private ReadyFile readyFile(final Path work, final Path scenario, final Started started, final boolean load,
                                final boolean pinned) {
        final ReadyFile.Builder ready = ReadyFile.of(Component.DEMO)
            .reference(DemoReady.NAMING, started.naming())
            .port(DemoReady.NAMING, started.namingService().port("naming"))
            .fact(DemoReady.SERVER_NAME, started.serverName())
            .url(DemoReady.CONSOLE, started.console().url("console"))
            .port(DemoReady.CONSOLE, started.console().port("http"))
            .file(DemoReady.MIRROR, started.mirrorFile())
            .file(DemoReady.WORK_DIR, work)
            .file(DemoReady.SCENARIO, scenario)
            .fact(DemoReady.LOAD_DRIVEN, load);
        started.metricsUrl().ifPresent(url -> ready.url(DemoReady.METRICS, url));
        final String clientNode = started.clientAgent().fact("node");
        final String peerNode = started.peerAgent().fact("node");
        DemoReady.withAgent(ready, AgentKind.CLIENT, new Agent(clientNode, started.clientAgent().fact("name"),
            pinned ? CORE_BY_NODE.get(clientNode) : null));
        DemoReady.withAgent(ready, AgentKind.PEER, new Agent(peerNode, started.peerAgent().fact("name"),
            pinned ? CORE_BY_NODE.get(peerNode) : null));
        services.forEach((role, child) -> DemoReady.withPid(ready, role, child.pid()));
        return ready.build();
    }

    /** Until the end: drive the load of each scenario step and watch that every part is still running. */
    private void follow(final ScenarioFollower follower) throws Exception {
        // Compared as a difference (nanoTime may be negative); without --duration only a stop ends it.
        final long endNanos = System.nanoTime() + (durationSeconds == null ? 0 : durationSeconds * 1_000_000_000L);
        while ((durationSeconds == null || System.nanoTime() - endNanos < 0) && !lifecycle.isStopped()) {
            lifecycle.requireRunning(services.values());
            follower.poll();
            Thread.sleep(STATUS_POLL_MILLIS);
        }
        // Stopped by a signal (the shutdown hook set stopped) or at the end of --duration: say which.
        out.println("latency demo: " + (lifecycle.isStopped() || durationSeconds == null ? "stopping"
            : "--duration " + durationSeconds + " s reached; stopping"));
    }

    /** A step's CPU level for a node: to its load driver, unless the load is off or the demo is stopping. */
    private void driveLoad(final String node, final int percent) throws IOException, InterruptedException {
        synchronized (lifecycle.lock()) {
            if (loadDrivers != null && !lifecycle.isStopped()) {
                loadDrivers.drive(node, percent);
            }
        }
    }

    /**
     * Writes Prometheus's configuration into the work directory (the server's metrics URL as target,
     * the shipped rules) and, with {@code --prometheus}, starts Prometheus on it and waits until its
     * {@code /-/ready} endpoint answers 200.
     *
     * @return the banner's lines about it: the URL of the one started, or a command line to start one
     */
    private List<String> prometheus(final Path root, final Path work, final String metricsUrl) throws IOException, InterruptedException {
        final PrometheusSetup setup = PrometheusSetup.write(root, work, metricsUrl);
        final String commandLine = String.join(" ", setup.commandLine(9090));
        if (!prometheus) {
            return List.of("  Prometheus:     " + commandLine,
                "                  (the server as target, ops/prometheus's alert rules; --prometheus starts one for you)");
        }
        if (!PrometheusSetup.installed()) {
            return List.of("  Prometheus:     not started: " + PrometheusSetup.PROMETHEUS + " is not installed"
                + " (Debian: sudo apt-get install prometheus); elsewhere run", "                  " + commandLine);
        }
        DemoWorkDirectory.deleteTree(setup.dataDirectory()); // a fresh run: an old run's series name a server that is gone
        final int port = freePort();
        final ChildProcess child = lifecycle.start(kit.launchProgram("prometheus", setup.commandLine(port)));
        services.put(child.name(), child);
        HttpReadiness.await(PrometheusSetup.readinessEndpoint(port), READY_TIMEOUT, child::isAlive, child::logEnd);
        return List.of("  Prometheus:     http://127.0.0.1:" + port + "/  (alerts: http://127.0.0.1:" + port + "/alerts;"
            + " its configuration " + setup.configFile() + ", log " + child.logFile() + ")");
    }

    /**
     * @param certs     the certificates {@code ./latency certs} made
     * @param agentNode the node whose agent certificate may write its measurements
     * @return the demo's {@code security:} section: writes over TLS only, by those certificates
     */
    static String securitySection(final Path certs, final String agentNode) {
        return "\nsecurity:                              # added by ./latency demo\n"
            + "  plain_iiop: read-only\n"
            + "  tls: { port: 0, keystore: " + certs.resolve("server.p12") + ", truststore: " + certs.resolve("trust.p12") + " }\n"
            + "  principals:\n"
            + "    - { subject: \"CN=" + agentNode + ",OU=agent,O=Latency Server\", roles: [agent], node: " + agentNode + " }\n"
            + "    - { subject: \"CN=demo-operator,OU=operator,O=Latency Server\", roles: [operator] }\n"
            + "    - { subject: \"CN=demo-planner,OU=planner,O=Latency Server\", roles: [planner] }\n";
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /**
     * Starts a long-running component, watched until the end, and waits for its ready file.
     *
     * @return its ready file
     */
    private ReadyFile startService(final ProcessKit.Launch launch) throws IOException, InterruptedException {
        final ChildProcess child = lifecycle.start(launch);
        services.put(child.name(), child);
        return child.awaitReady(READY_TIMEOUT);
    }

    /**
     * Stops everything started, newest first, descendants included; safe to call twice (end of run
     * and shutdown hook). Says "nothing left running" only when the kit has checked that each child
     * and its descendants have ended.
     */
    private void stopAll() {
        synchronized (lifecycle.lock()) {
            if (!lifecycle.beginStop()) {
                return;
            }
            ReadyFile.deleteQuietly(readiness.readyFile()); // first: from now on the demo is no longer ready
            if (kit == null) {
                return;
            }
            final List<ChildProcess> children = kit.running();
            final boolean allEnded = kit.stopAll();
            if (allEnded) {
                out.println("latency demo: stopped " + children.size() + " processes; nothing left running");
            } else {
                final String alive = children.stream().filter(ChildProcess::isAlive).map(ChildProcess::toString)
                    .collect(Collectors.joining(", "));
                out.println("latency demo: stopped " + children.size() + " processes, but not everything ended; still running: "
                    + (alive.isEmpty() ? "processes they started" : alive));
            }
            out.flush();
        }
    }
}
