package org.latencyserver.demo;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.latencyserver.core.input.InputFaultsException;
import org.latencyserver.emulator.ScenarioStatus;
import org.latencyserver.launch.ChildProcess;
import org.latencyserver.launch.Component;
import org.latencyserver.launch.Installation;
import org.latencyserver.launch.ProcessKit;
import org.latencyserver.launch.ReadinessException;
import org.latencyserver.launch.ReadyFile;
import org.latencyserver.testbed.CommandFailedException;
import org.latencyserver.testbed.CommandRunner;
import org.latencyserver.testbed.LoadTarget;
import org.latencyserver.testbed.PortLoad;
import org.latencyserver.testbed.Prerequisites;
import org.latencyserver.testbed.StateDirectory;
import org.latencyserver.testbed.Testbed;
import org.latencyserver.testbed.TestbedNames;
import org.latencyserver.testbed.TestbedStatus;
import org.latencyserver.testbed.Topology;
import org.latencyserver.testbed.TopologyReader;

/**
 * {@code ./latency demo --real-network} (root): the demo's console, mirror and four QoS levels over
 * the testbed instead of the emulator. Builds the one-switch testbed
 * ({@code examples/testbed/one-switch.yaml}: srv, ws1, ws2 on sw1, a 20 Mbit/s tbf toward ws2), or with
 * {@code --topology two-switches} the path testbed ({@code examples/testbed/two-switches-path.yaml}: two
 * 20 Mbit/s hops, sw1's trunk port and sw2's port toward ws2; {@link RealNetworkTopology});
 * starts the naming service, the server (polling every host's and the switch's real {@code snmpd},
 * {@link RealNetworkConfig}) and the console in srv's namespace, the client agent and the mirror in
 * ws1's, the peer agent in ws2's; carries the console's and the metrics' web ports to
 * {@code 127.0.0.1} of the operator's namespace ({@link NamespaceForward}); and walks
 * {@code examples/demo/real-network-scenario.yaml}: stress-ng load on the agents' cores and iperf3
 * load through each bottleneck port ({@link PortLoads}). A stop (Ctrl-C, {@code --duration}, a part that
 * failed) ends every child, the load and the testbed: no namespace, process or qdisc is left.
 *
 * <p>Thread-safety: the main thread starts, follows and stops; the shutdown hook (Ctrl-C) stops too.
 * The kit, the load drivers, the forwards and the testbed are touched only while holding
 * {@link #lifecycle}'s lock, and nothing is started once it is stopping.
 *
 * <p>Start, follow and stop stay in this one class: they share that lock and the children they started. Its ready file
 * is {@link RealNetworkReady}'s, the testbed's removal {@link TestbedRemoval}'s.
 */
final class RealNetworkDemo {

    /** Exit status when this machine cannot run it (not root, a program missing). */
    static final int EXIT_CANNOT_RUN = 2;
    /** The testbed's name unless {@code --testbed-name} says otherwise; its namespaces are {@code lt-demo-…}. */
    static final String DEFAULT_TESTBED_NAME = "demo";
    /** The naming service's port on srv's address (srv's namespace is new: nothing else listens there). */
    static final int NAMING_PORT = 2809;

    private static final Duration READY_TIMEOUT = Duration.ofSeconds(90);
    private static final Duration CERTS_TIMEOUT = Duration.ofSeconds(120);
    private static final long FOLLOW_PERIOD_MILLIS = 100;
    /** The hosts whose agents are pinned, each with the core its agent and its stress-ng load run on. */
    static final Map<String, Integer> CORE_BY_HOST = Map.of(RealNetworkConfig.CLIENT_HOST, 0, RealNetworkConfig.PEER_HOST, 1);

    /** What the command line gave. */
    record Options(Long durationSeconds, int consolePort, Path workDirectory, boolean noLoad, Path readyFile, String testbedName,
                   Path scenarioFile, double pathSharePercent, RealNetworkConfig.ServedProfile profile,
                   RealNetworkTopology topology) {

        Options(final Long durationSeconds, final int consolePort, final Path workDirectory, final boolean noLoad, final Path readyFile,
                final String testbedName, final Path scenarioFile, final double pathSharePercent,
                final RealNetworkConfig.ServedProfile profile) {
            this(durationSeconds, consolePort, workDirectory, noLoad, readyFile, testbedName, scenarioFile, pathSharePercent, profile,
                RealNetworkTopology.ONE_SWITCH);
        }

        Options(final Long durationSeconds, final int consolePort, final Path workDirectory, final boolean noLoad, final Path readyFile,
                final String testbedName, final Path scenarioFile, final double pathSharePercent) {
            this(durationSeconds, consolePort, workDirectory, noLoad, readyFile, testbedName, scenarioFile, pathSharePercent, null);
        }

        Options(final Long durationSeconds, final int consolePort, final Path workDirectory, final boolean noLoad, final Path readyFile,
                final String testbedName, final Path scenarioFile) {
            this(durationSeconds, consolePort, workDirectory, noLoad, readyFile, testbedName, scenarioFile,
                RealNetworkConfig.DEFAULT_PATH_SHARE_PERCENT);
        }
    }

    private final Options options;
    private final PrintStream out;
    private final DemoLifecycle lifecycle = new DemoLifecycle();
    private final Map<String, ChildProcess> services = new LinkedHashMap<>();
    private final Map<String, String> namespaceByRole = new LinkedHashMap<>();
    private final List<NamespaceForward.Listener> forwards = new ArrayList<>();
    private ProcessKit kit;
    private LoadDrivers loadDrivers;
    private TestbedNames testbedNames;
    private StateDirectory testbedState;
    /** The iperf3 load through each bottleneck port; touched under the lifecycle's lock. */
    private PortLoads portLoads;
    /** The bottleneck ports of the testbed, which the scenario may load. */
    private List<String> bottleneckPorts = List.of();

    RealNetworkDemo(final Options options, final PrintStream out) {
        this.options = options;
        this.out = out;
    }

    /**
     * @return what this machine lacks to run it, one line each; empty when it can
     */
    static List<String> missing() {
        return Prerequisites.missing(EnumSet.allOf(Prerequisites.Tool.class));
    }

    /** Runs until the end; the exit status. */
    int call() throws Exception {
        final List<String> missing = missing();
        if (!missing.isEmpty()) {
            System.err.println("latency demo --real-network: cannot run here; missing: " + String.join("; ", missing));
            return EXIT_CANNOT_RUN;
        }
        final Installation installation = Installation.current();
        final Path root = installation.root();
        final Path work = (options.workDirectory() != null ? options.workDirectory()
            : installation.stateDirectory().resolve("demo-real-network")).toAbsolutePath();
        final Path scenarioFile = (options.scenarioFile() != null ? options.scenarioFile()
            : root.resolve(options.topology().defaultScenario())).toAbsolutePath();
        final Topology topology;
        try {
            topology = TopologyReader.load(root.resolve(options.topology().topologyFile())).named(options.testbedName());
        } catch (InputFaultsException | IllegalArgumentException e) {
            System.err.println("latency demo: the testbed's topology is refused: " + e.getMessage());
            return EXIT_CANNOT_RUN;
        }
        bottleneckPorts = RealNetworkTopology.bottleneckPorts(topology);
        final RealNetworkScenario scenario;
        try {
            scenario = RealNetworkScenario.load(scenarioFile, CORE_BY_HOST.keySet(), new java.util.LinkedHashSet<>(bottleneckPorts));
        } catch (InputFaultsException e) {
            System.err.println("latency demo: the scenario is refused:\n" + e.getMessage());
            return EXIT_CANNOT_RUN;
        }
        Files.createDirectories(work);
        ReadyFile.deleteQuietly(options.readyFile());
        synchronized (lifecycle.lock()) {
            kit = installation.processKit(work);
        }
        Runtime.getRuntime().addShutdownHook(new Thread(this::stopAll, "demo-stop"));
        try {
            run(root, work, topology, scenario, scenarioFile);
            return 0;
        } catch (DemoException | ReadinessException | CommandFailedException e) {
            System.err.println("latency demo: " + (lifecycle.isStopped() ? "stopped while starting; " : "") + e.getMessage());
            return 1;
        } catch (InterruptedException e) {
            System.err.println("latency demo: stopped while starting");
            return 1;
        } finally {
            stopAll();
        }
    }

    private void run(final Path root, final Path work, final Topology topology, final RealNetworkScenario scenario,
                     final Path scenarioFile) throws Exception {
        out.println("latency demo: building testbed " + topology.name() + " (namespaces lt-" + topology.name()
            + "-*, 198.18.0.0/24, no default route); logs in " + work);
        final TestbedStatus status = buildTestbed(root, topology);
        final Path certs = work.resolve("certs");
        final String tlsPassword = makeCertificates(certs);
        final Path config = work.resolve("demo.yaml");
        Files.writeString(config, RealNetworkConfig.yaml(status, root.resolve("profiles"), certs, options.pathSharePercent(),
            options.profile()));
        DemoWorkDirectory.clearState(work);
        final boolean pinned = LoadDrivers.canPinCores();

        out.println("latency demo: starting the system on the testbed");
        final RealNetworkReady.Started started = startSystem(status, work, config, certs, tlsPassword, pinned);
        final RealNetworkReady.WebPorts web = forwardWebPorts(status, work, started.console(), started.metricsPort());
        final boolean load = !options.noLoad() && pinned && LoadDrivers.available();
        if (load) {
            synchronized (lifecycle.lock()) {
                loadDrivers = new LoadDrivers(kit, CORE_BY_HOST, LoadDrivers.STRESS_NG_DRIVER);
            }
        }
        final Path scenarioStatus = work.resolve("scenario.status.json");
        final ReadyFile demoReady = RealNetworkReady.of(status, work, scenarioFile, scenarioStatus, testbedState.statusFile(), started,
            web, load, pinned, services, namespaceByRole);
        final String loadOffReason = load ? null : !pinned ? "needs taskset and 2 cores"
            : options.noLoad() ? "--no-load" : "stress-ng is not installed";
        RealNetworkBanner.print(out, DemoReady.of(demoReady), status, scenario, loadOffReason, options.durationSeconds(),
            options.profile());
        if (options.readyFile() != null) {
            demoReady.writeTo(options.readyFile());
        }
        follow(scenario, scenarioStatus);
    }

    /** Builds the testbed and the port load through it; a {@link DemoException} when the demo is already stopping. */
    private TestbedStatus buildTestbed(final Path root, final Topology topology) throws Exception {
        synchronized (lifecycle.lock()) {
            lifecycle.requireNotStopping();
            testbedNames = new TestbedNames(topology.name());
            testbedState = StateDirectory.standard(Installation.current().stateDirectory(), topology.name());
        }
        // up() removes what a testbed of this name left, and everything it made when it fails or is stopped
        final TestbedStatus status = new Testbed(topology, root.resolve(options.topology().topologyFile()), testbedState,
            new CommandRunner()).up();
        synchronized (lifecycle.lock()) {
            // Each port's default sender and receiver: the one-switch port toward ws2 from srv; through two switches
            // the trunk from srv to ld2 and the port toward ws2 from ld2, so each load crosses its own port only.
            final Map<String, LoadTarget> targets = new LinkedHashMap<>();
            for (final String port : bottleneckPorts) {
                targets.put(port, LoadTarget.of(status, topology, port, null));
            }
            portLoads = new PortLoads(targets, PortLoads.iperf3(new PortLoad(testbedState, new CommandRunner()), testbedState));
        }
        return status;
    }

    /** Makes the demo's CA and certificates in {@code certs}; returns their keystores' password. */
    private String makeCertificates(final Path certs) throws IOException, InterruptedException {
        final ChildProcess certMaker = lifecycle.start(kit.launch(Component.CERTS).args("--dir", certs.toString(), "--agent",
            RealNetworkConfig.CLIENT_HOST, "--operator", "demo-operator", "--planner", "demo-planner")
            // Its own password file in the demo's directory, even when the user's shell has LATENCY_TLS_PASSWORD set.
            .withoutEnv("LATENCY_TLS_PASSWORD"));
        certMaker.awaitSuccess(CERTS_TIMEOUT);
        synchronized (lifecycle.lock()) {
            kit.stop(certMaker);
        }
        return Files.readString(certs.resolve("password")).strip();
    }

    /** Starts the naming service, the server and the console in srv's namespace, the agents and the mirror in theirs. */
    private RealNetworkReady.Started startSystem(final TestbedStatus status, final Path work, final Path config, final Path certs,
                                final String tlsPassword, final boolean pinned) throws IOException, InterruptedException {
        final String srv = RealNetworkConfig.host(status, RealNetworkConfig.SERVER_HOST).namespace();
        final TestbedStatus.Host ws1 = RealNetworkConfig.host(status, RealNetworkConfig.CLIENT_HOST);
        final TestbedStatus.Host ws2 = RealNetworkConfig.host(status, RealNetworkConfig.PEER_HOST);
        final String srvAddress = RealNetworkConfig.host(status, RealNetworkConfig.SERVER_HOST).address();
        final Map<String, String> snmpEnvironment = Map.of(RealNetworkConfig.COMMUNITY_ENV, status.snmp().community());
        final ReadyFile namingService = startService(kit.launch(Component.NAMING_SERVICE).args("--host", srvAddress,
            "--port", Integer.toString(NAMING_PORT), "--db-dir", work.resolve("naming").toString()), srv);
        final String naming = namingService.reference("naming");
        final ReadyFile server = startService(kit.launch(Component.SERVER).args("--config", config.toString(),
            "--ior-file", work.resolve("server.ior").toString(), "--naming", naming, "--host", srvAddress, "--metrics-port", "0")
            .env(snmpEnvironment).env("LATENCY_TLS_PASSWORD", tlsPassword), srv);
        final String serverName = server.fact("name");
        final Optional<Integer> metricsPort = server.optionalUrl("metrics").map(url -> server.port("metrics"));
        final ProcessKit.Launch peerLaunch = kit.launch(Component.PEER_AGENT).args("--name", ws2.name(), "--naming", naming,
            "--host", ws2.address(), "--ior-file", work.resolve("peer-" + ws2.name() + ".ior").toString(),
            "--tcp-port", "0", "--udp-port", "0");
        if (pinned) {
            peerLaunch.pinnedTo(CORE_BY_HOST.get(ws2.name()));
        }
        final ReadyFile peerAgent = startService(peerLaunch, ws2.namespace());
        final ProcessKit.Launch agentLaunch = kit.launch(Component.CLIENT_AGENT).args("--server", serverName, "--naming", naming,
            "--node", ws1.name(), "--name", "demo-agent-" + ws1.name(), "--host", ws1.address(),
            "--tls-keystore", certs.resolve("agent-" + ws1.name() + ".p12").toString(),
            "--tls-truststore", certs.resolve("trust.p12").toString(),
            "--interval-micros", "2000").env("LATENCY_TLS_PASSWORD", tlsPassword);
        if (pinned) {
            agentLaunch.args("--pin-core", Integer.toString(CORE_BY_HOST.get(ws1.name())));
        }
        final ReadyFile clientAgent = startService(agentLaunch, ws1.namespace());
        // In srv's namespace with the server, which is at srv's address there: the server pushes to that address, not loopback.
        final ReadyFile console = startService(kit.launch(Component.CONSOLE).args("--server", serverName, "--naming", naming,
            "--host", srvAddress, "--http-port", "0", "--tls-keystore", certs.resolve("operator-demo-operator.p12").toString(),
            "--tls-truststore", certs.resolve("trust.p12").toString()).env("LATENCY_TLS_PASSWORD", tlsPassword), srv);
        // The client workstation's copy of every estimate: the server pushes to ws1's address.
        final Path mirrorFile = startService(kit.launch(Component.MIRROR).args("--server", serverName, "--naming", naming,
            "--file", work.resolve("estimates.mirror").toString(), "--host", ws1.address()), ws1.namespace()).file("mirror");
        return new RealNetworkReady.Started(namingService, naming, serverName, metricsPort, peerAgent, clientAgent, console, mirrorFile);
    }

    /** The web ports, from srv's loopback to the operator's, through socket files (no interface, no route added here). */
    private RealNetworkReady.WebPorts forwardWebPorts(final TestbedStatus status, final Path work, final ReadyFile console,
                                     final Optional<Integer> metricsPort) throws IOException, InterruptedException {
        final String srv = RealNetworkConfig.host(status, RealNetworkConfig.SERVER_HOST).namespace();
        final Path consoleSocket = work.resolve("console.sock");
        final Path metricsSocket = work.resolve("metrics.sock");
        final List<String> pairs = new ArrayList<>(List.of(consoleSocket + "=" + console.port("http")));
        metricsPort.ifPresent(port -> pairs.add(metricsSocket + "=" + port));
        final ChildProcess forwarder = lifecycle.start(kit.launchClass("web-forward", NamespaceForward.class.getName()).args(pairs)
            .inNetworkNamespace(srv));
        services.put(forwarder.name(), forwarder);
        namespaceByRole.put(forwarder.name(), srv);
        awaitSockets(forwarder, metricsPort.isPresent() ? List.of(consoleSocket, metricsSocket) : List.of(consoleSocket));
        final int consolePort = forward(options.consolePort(), consoleSocket);
        final Optional<String> metricsUrl = metricsPort.isPresent()
            ? Optional.of("http://127.0.0.1:" + forward(0, metricsSocket) + "/metrics") : Optional.empty();
        return new RealNetworkReady.WebPorts(consolePort, "http://127.0.0.1:" + consolePort + "/", metricsUrl);
    }

    /** Until the end: the scenario's steps (CPU and port load), and a watch that every part is still running. */
    private void follow(final RealNetworkScenario scenario, final Path statusFile) throws Exception {
        final Long duration = options.durationSeconds();
        final long startNanos = System.nanoTime();
        final long endNanos = startNanos + (duration == null ? 0 : duration * 1_000_000_000L);
        int current = -1;
        long sequence = 0;
        while ((duration == null || System.nanoTime() - endNanos < 0) && !lifecycle.isStopped()) {
            lifecycle.requireRunning(services.values());
            final long elapsedMillis = (System.nanoTime() - startNanos) / 1_000_000;
            final int step = scenario.stepAt(elapsedMillis);
            if (step < 0) {
                break;
            }
            if (step != current) {
                current = step;
                sequence++;
                apply(scenario, step, sequence, elapsedMillis, statusFile);
            }
            Thread.sleep(FOLLOW_PERIOD_MILLIS);
        }
        out.println("latency demo: " + (lifecycle.isStopped() || duration == null ? "stopping" : "--duration " + duration + " s reached; stopping"));
    }

    private void apply(final RealNetworkScenario scenario, final int step, final long sequence, final long elapsedMillis,
                       final Path statusFile) throws IOException, InterruptedException, CommandFailedException {
        final RealNetworkScenario.Step values = scenario.steps().get(step);
        final int pass = (int) (elapsedMillis / (scenario.stepMillis() * scenario.steps().size())) + 1;
        synchronized (lifecycle.lock()) {
            if (lifecycle.isStopped()) {
                return;
            }
            if (loadDrivers != null) {
                for (final Map.Entry<String, Integer> cpu : values.cpuPercent().entrySet()) {
                    loadDrivers.drive(cpu.getKey(), cpu.getValue());
                }
            }
            portLoads.apply(values.portPercent());
        }
        new ScenarioStatus(ScenarioStatus.FORMAT, step + 1, scenario.steps().size(), pass, sequence, values.cpuPercent(),
            values.portPercent()).writeTo(statusFile);
        out.println(String.format(Locale.ROOT, "latency demo: step %d/%d: CPU %s; ports %s", step + 1,
            scenario.steps().size(), values.cpuPercent().entrySet().stream().map(e -> e.getKey() + " " + e.getValue() + " %")
                .collect(Collectors.joining(", ")), portLoads.describe()));
        out.flush();
    }

    /** Waits until the forwarder in srv's namespace listens on every socket file. */
    private static void awaitSockets(final ChildProcess forwarder, final List<Path> sockets) throws InterruptedException {
        final long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        while (!sockets.stream().allMatch(Files::exists)) {
            if (!forwarder.isAlive()) {
                throw new DemoException("the web forward in srv's namespace exited; " + forwarder.logEnd());
            }
            if (System.nanoTime() - deadline > 0) {
                throw new DemoException("the web forward made no socket " + sockets + " within " + READY_TIMEOUT.toSeconds()
                    + " s; " + forwarder.logEnd());
            }
            Thread.sleep(50);
        }
    }

    private int forward(final int port, final Path socket) throws IOException {
        synchronized (lifecycle.lock()) {
            lifecycle.requireNotStopping();
            final NamespaceForward.Listener listener = NamespaceForward.Listener.open(port, socket);
            forwards.add(listener);
            return listener.port();
        }
    }

    /** Starts a long-running component in a host's namespace, watched until the end, and waits for its ready file. */
    private ReadyFile startService(final ProcessKit.Launch launch, final String namespace) throws IOException, InterruptedException {
        final ChildProcess child = lifecycle.start(launch.inNetworkNamespace(namespace));
        services.put(child.name(), child);
        namespaceByRole.put(child.name(), namespace);
        return child.awaitReady(READY_TIMEOUT);
    }

    /**
     * Stops everything: the ready file first, the forwards, every child (newest first), the port load,
     * then the testbed (its namespaces take their interfaces, bridges and qdiscs with them); then checks
     * that no namespace of the testbed is left. Safe to call twice.
     */
    private void stopAll() {
        synchronized (lifecycle.lock()) {
            if (!lifecycle.beginStop()) {
                return;
            }
            ReadyFile.deleteQuietly(options.readyFile());
            forwards.forEach(NamespaceForward.Listener::close);
            if (kit == null) {
                return;
            }
            final List<ChildProcess> children = kit.running();
            boolean allEnded = kit.stopAll();
            final List<String> problems = new ArrayList<>();
            if (!allEnded) {
                problems.add("still running: " + children.stream().filter(ChildProcess::isAlive).map(ChildProcess::toString)
                    .collect(Collectors.joining(", ")));
            }
            final String removed = testbedNames == null ? ""
                : TestbedRemoval.remove(testbedNames, testbedState, bottleneckPorts, problems);
            if (problems.isEmpty()) {
                out.println("latency demo: stopped " + children.size() + " processes" + removed + "; nothing left running");
            } else {
                out.println("latency demo: stopped " + children.size() + " processes" + removed + ", but not everything ended: "
                    + String.join("; ", problems));
            }
            out.flush();
        }
    }
}
