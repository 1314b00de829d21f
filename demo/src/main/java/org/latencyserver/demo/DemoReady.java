package org.latencyserver.demo;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.latencyserver.launch.Component;
import org.latencyserver.launch.ReadyFile;

/**
 * The demo's ready file ({@code ./latency demo --ready-file PATH}) as its users read it: the common
 * {@link ReadyFile} layout (docs/ready-files.md), with the demo's keys named here once, for the demo
 * that writes them and for the programs that read them (the benchmark harnesses, the tests).
 *
 * <p>Keys: {@code references.naming} (the naming service's corbaloc) and {@code ports.naming},
 * {@code facts.server_name} (the server's name in it), {@code urls.console} and {@code ports.console},
 * {@code urls.metrics} (when the server has an endpoint),
 * {@code files.mirror}, {@code files.work_dir}, {@code files.scenario}, {@code facts.load_driven}
 * ({@code true}/{@code false}), per agent {@code facts."client_agent.NODE.name"} and
 * {@code facts."peer_agent.NODE.name"} (the peer agent's name in the naming service) with
 * {@code ….core} when it is pinned, and {@code facts."pid.ROLE"} for each child process. With
 * {@code --real-network} also {@code facts.testbed}, {@code facts.testbed_prefix},
 * {@code files.testbed_status}, {@code files.scenario_status} and {@code facts."namespace.ROLE"}.
 *
 * <p>Immutable; thread-safe.
 */
public final class DemoReady {

    /** The role of the naming service's corbaloc in {@code references} and of its port in {@code ports}. */
    public static final String NAMING = "naming";
    /** The fact naming the server in the naming service. */
    public static final String SERVER_NAME = "server_name";
    /** The role of the status console's web page in {@code urls} and of its port in {@code ports}. */
    public static final String CONSOLE = "console";
    /** The role of the server's Prometheus endpoint in {@code urls}. */
    public static final String METRICS = "metrics";
    /** The role of this host's estimate mirror in {@code files} (docs/mirror-layout.md). */
    public static final String MIRROR = "mirror";
    /** The role of the run's work directory (logs, IORs, state) in {@code files}. */
    public static final String WORK_DIR = "work_dir";
    /** The role of the scenario the emulator walks in {@code files}. */
    public static final String SCENARIO = "scenario";
    /** The fact saying whether real CPU load follows the scenario on the agents' cores. */
    public static final String LOAD_DRIVEN = "load_driven";
    /** With --real-network: the role in {@code files} of the step in force (the emulator's status layout). */
    public static final String SCENARIO_STATUS = "scenario_status";
    /** With --real-network: the role in {@code files} of the testbed's status file (docs/testbed.md). */
    public static final String TESTBED_STATUS = "testbed_status";
    /** With --real-network: the fact naming the testbed. */
    public static final String TESTBED = "testbed";
    /** With --real-network: the fact giving the prefix of the testbed's namespaces, e.g. {@code lt-demo-}. */
    public static final String TESTBED_PREFIX = "testbed_prefix";

    private static final String PID = "pid.";
    private static final String NAMESPACE = "namespace.";

    private final ReadyFile file;

    private DemoReady(final ReadyFile file) {
        this.file = file;
    }

    /** The two kinds of agent, by the prefix of their facts. */
    public enum AgentKind {
        /** A client agent: measures round trips from its node. */
        CLIENT("client_agent"),
        /** A peer agent: the echo end of round trips on its node. */
        PEER("peer_agent");

        private final String factPrefix;

        AgentKind(final String factPrefix) {
            this.factPrefix = factPrefix;
        }
    }

    /**
     * One agent of the demo.
     *
     * @param node the node it stands for (a node of the server's configuration)
     * @param name its name: the client agent's own, or the peer agent's in the naming service
     * @param core the core it is pinned to, or null when it is not pinned
     */
    public record Agent(String node, String name, Integer core) {
    }

    /**
     * @param file a ready file
     * @return the demo's view of it
     * @throws IllegalArgumentException when another component wrote it
     */
    public static DemoReady of(final ReadyFile file) {
        if (!Component.DEMO.command().equals(file.component())) {
            throw new IllegalArgumentException("a ready file of '" + file.component() + "', not of the demo");
        }
        return new DemoReady(file);
    }

    /**
     * @param path the demo's ready file
     * @return its content
     * @throws IOException when it cannot be read, is not a ready file, or another component wrote it
     */
    public static DemoReady read(final Path path) throws IOException {
        final ReadyFile file = ReadyFile.read(path);
        if (!Component.DEMO.command().equals(file.component())) {
            throw new IOException(path + ": a ready file of '" + file.component() + "', not of the demo");
        }
        return new DemoReady(file);
    }

    /**
     * Adds an agent's facts to a demo ready file being built.
     *
     * @param builder the demo's ready file
     * @param kind    client or peer agent
     * @param agent   the agent
     * @return the builder
     */
    public static ReadyFile.Builder withAgent(final ReadyFile.Builder builder, final AgentKind kind, final Agent agent) {
        final String prefix = agentPrefix(kind, agent.node());
        builder.fact(prefix + "name", agent.name());
        if (agent.core() != null) {
            builder.fact(prefix + "core", agent.core());
        }
        return builder;
    }

    /**
     * Adds a child process's pid to a demo ready file being built.
     *
     * @param builder the demo's ready file
     * @param role    the child's role, e.g. {@code server}
     * @param pid     its process id
     * @return the builder
     */
    public static ReadyFile.Builder withPid(final ReadyFile.Builder builder, final String role, final long pid) {
        return builder.fact(PID + role, pid);
    }

    /**
     * Adds the network namespace a child runs in (with --real-network) to a demo ready file being built.
     *
     * @param builder   the demo's ready file
     * @param role      the child's role, e.g. {@code server}
     * @param namespace its namespace ({@code ip netns list})
     * @return the builder
     */
    public static ReadyFile.Builder withNamespace(final ReadyFile.Builder builder, final String role, final String namespace) {
        return builder.fact(NAMESPACE + role, namespace);
    }

    /** @return the network namespace a role's process runs in (with --real-network), if it runs in one */
    public Optional<String> namespaceOf(final String role) {
        return Optional.ofNullable(file.facts().get(NAMESPACE + role));
    }

    /** @return with --real-network, the prefix of the testbed's namespaces; empty for the demo on loopback */
    public Optional<String> testbedPrefix() {
        return Optional.ofNullable(file.facts().get(TESTBED_PREFIX));
    }

    /** @return with --real-network, the file saying which scenario step is in force */
    public Optional<Path> scenarioStatus() {
        return Optional.ofNullable(file.files().get(SCENARIO_STATUS)).map(Path::of);
    }

    /** @return the common ready file underneath */
    public ReadyFile file() {
        return file;
    }

    /** @return the naming service's corbaloc */
    public String naming() {
        return file.reference(NAMING);
    }

    /** @return the server's name in the naming service */
    public String serverName() {
        return file.fact(SERVER_NAME);
    }

    /** @return the naming service's port on 127.0.0.1 */
    public int namingPort() {
        return file.port(NAMING);
    }

    /** @return the status console's web port on 127.0.0.1 */
    public int consolePort() {
        return file.port(CONSOLE);
    }

    /** @return the status console's web page */
    public String consoleUrl() {
        return file.url(CONSOLE);
    }

    /** @return the server's Prometheus endpoint, if it has one */
    public Optional<String> metricsUrl() {
        return file.optionalUrl(METRICS);
    }

    /** @return this host's estimate mirror file */
    public Path mirrorFile() {
        return file.file(MIRROR);
    }

    /** @return the run's work directory */
    public Path workDir() {
        return file.file(WORK_DIR);
    }

    /** @return the scenario the emulator walks */
    public Path scenario() {
        return file.file(SCENARIO);
    }

    /** @return whether real CPU load follows the scenario on the agents' cores */
    public boolean loadDriven() {
        return Boolean.parseBoolean(file.fact(LOAD_DRIVEN));
    }

    /** @return the client agent of a node, if the demo runs one */
    public Optional<Agent> clientAgentOf(final String node) {
        return agentOf(AgentKind.CLIENT, node);
    }

    /** @return the peer agent of a node, if the demo runs one */
    public Optional<Agent> peerAgentOf(final String node) {
        return agentOf(AgentKind.PEER, node);
    }

    /** @return the pid of a role's process, if the demo started one */
    public Optional<Long> pidOf(final String role) {
        return Optional.ofNullable(file.facts().get(PID + role)).map(Long::parseLong);
    }

    /** @return every child process's pid, by role */
    public Map<String, Long> pids() {
        final Map<String, Long> pids = new LinkedHashMap<>();
        file.facts().forEach((name, value) -> {
            if (name.startsWith(PID)) {
                pids.put(name.substring(PID.length()), Long.parseLong(value));
            }
        });
        return pids;
    }

    private Optional<Agent> agentOf(final AgentKind kind, final String node) {
        final String prefix = agentPrefix(kind, node);
        final String name = file.facts().get(prefix + "name");
        if (name == null) {
            return Optional.empty();
        }
        final String core = file.facts().get(prefix + "core");
        return Optional.of(new Agent(node, name, core == null ? null : Integer.valueOf(core)));
    }

    private static String agentPrefix(final AgentKind kind, final String node) {
        return kind.factPrefix + "." + node + ".";
    }

    @Override
    public String toString() {
        return "the demo's ready file (pid " + file.pid() + ")";
    }
}
