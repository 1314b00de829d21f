package org.latencyserver.testbed;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Builds a testbed from its topology ({@code up}): first removes what a testbed of the same name
 * left ({@link Teardown}), then runs the {@link NetworkPlan}, reads each switch port's ifindex,
 * starts an {@code snmpd} per host and per switch, and writes the status file. Any failure on the
 * way — or a stop (SIGINT/SIGTERM) while it builds — removes everything made so far before the
 * failure is reported.
 *
 * <p>Not thread-safe: one {@link #up} per instance.
 */
public final class Testbed {

    private static final long PID_FILE_WAIT_MILLIS = 5_000;

    private final Topology topology;
    private final Path topologyFile;
    private final TestbedNames names;
    private final StateDirectory state;
    private final CommandRunner runner;
    /** Held while building, and by the stop hook while it tears down. */
    private final Object lock = new Object();
    /** Set by a stop (SIGINT, SIGTERM): the next step refuses. */
    private volatile boolean stopping;

    /**
     * @param topology     what to build (its name is the testbed's)
     * @param topologyFile where it was read from (recorded in the status)
     * @param state        the state directory
     * @param runner       runs the commands
     */
    public Testbed(final Topology topology, final Path topologyFile, final StateDirectory state, final CommandRunner runner) {
        this.topology = topology;
        this.topologyFile = topologyFile;
        this.names = new TestbedNames(topology.name());
        this.state = state;
        this.runner = runner;
    }

    /**
     * @return the running testbed's status (also written to the state directory)
     * @throws CommandFailedException naming the command that failed and its standard error (all is removed)
     * @throws IOException            when a file cannot be written (all is removed)
     * @throws InterruptedException   when interrupted (all is removed)
     */
    public TestbedStatus up() throws CommandFailedException, IOException, InterruptedException {
        final Teardown teardown = new Teardown(names, state, runner);
        teardown.run();
        // A stop while building: the next step refuses, the build ends, and the hook (waiting for
        // the lock the build holds) removes everything; no two teardowns ever run at once.
        final Thread onStop = new Thread(() -> {
            stopping = true;
            synchronized (lock) {
                try {
                    teardown.run();
                } catch (CommandFailedException | IOException | InterruptedException | RuntimeException e) {
                    System.err.println("latency testbed: cleaning up after a stop failed: " + e.getMessage());
                }
            }
        }, "testbed-up-stopped");
        Runtime.getRuntime().addShutdownHook(onStop);
        synchronized (lock) {
            final TestbedStatus status;
            try {
                status = build();
            } catch (CommandFailedException | IOException | InterruptedException | RuntimeException e) {
                if (!stopping) {
                    cleanUpAfterFailure(teardown);
                }
                throw e;
            } finally {
                try {
                    Runtime.getRuntime().removeShutdownHook(onStop);
                } catch (IllegalStateException shuttingDown) {
                    // a stop came: the hook removes everything once this returns
                }
            }
            return status;
        }
    }

    private TestbedStatus build() throws CommandFailedException, IOException, InterruptedException {
        state.create();
        Files.copy(topologyFile, state.root().resolve("topology.yaml"));
        final boolean ipv6 = Files.exists(Path.of("/proc/sys/net/ipv6"));
        for (final Command command : NetworkPlan.commands(topology, names, ipv6)) {
            step(command);
        }
        final SnmpCredentials credentials = SnmpCredentials.generate(new SecureRandom());
        final List<TestbedStatus.Switch> switches = new ArrayList<>();
        for (final SwitchSpec sw : topology.switches()) {
            final String ns = names.namespace(sw.name());
            final Map<String, Integer> ifIndexes = ifIndexes(ns);
            final List<TestbedStatus.Port> ports = new ArrayList<>();
            for (final HostSpec host : topology.hosts()) {
                if (host.switchName().equals(sw.name())) {
                    ports.add(new TestbedStatus.Port(host.name(), TestbedNames.hostPort(host.name()),
                        ifIndex(ifIndexes, ns, TestbedNames.hostPort(host.name())), host.name(),
                        host.bottleneck().map(TestbedStatus.Limit::of).orElse(null)));
                }
            }
            for (final LinkSpec link : topology.links()) {
                if (link.switches().contains(sw.name())) {
                    final boolean limited = link.limitedEnd().filter(sw.name()::equals).isPresent();
                    ports.add(new TestbedStatus.Port(link.name(), TestbedNames.linkPort(link.name()),
                        ifIndex(ifIndexes, ns, TestbedNames.linkPort(link.name())), link.otherEnd(sw.name()),
                        limited ? TestbedStatus.Limit.of(link.bottleneck().orElseThrow()) : null));
                }
            }
            final List<SnmpdConfig.DropPort> drops = ports.stream().filter(port -> port.bottleneck() != null)
                .map(port -> new SnmpdConfig.DropPort(port.ifIndex(), port.interfaceName())).toList();
            final TestbedStatus.Agent agent = startAgent(sw.name(), sw.managementAddress().addressText(), credentials, drops, null);
            switches.add(new TestbedStatus.Switch(sw.name(), ns, TestbedNames.BRIDGE, sw.managementAddress().addressText(),
                sw.managementAddress().prefixLength(), agent, ports));
        }
        final List<TestbedStatus.Host> hosts = new ArrayList<>();
        for (final HostSpec host : topology.hosts()) {
            final TestbedStatus.Agent agent = startAgent(host.name(), host.address().addressText(), credentials, List.of(),
                host.cpuCore().orElse(null));
            hosts.add(new TestbedStatus.Host(host.name(), names.namespace(host.name()), host.switchName(),
                host.address().addressText(), host.address().prefixLength(), TestbedNames.HOST_INTERFACE, agent,
                host.cpuCore().orElse(null)));
        }
        final List<TestbedStatus.Link> links = topology.links().stream().map(l -> new TestbedStatus.Link(l.name(), l.switches(),
            l.towardSwitch().orElse(null), l.bottleneck().map(TestbedStatus.Limit::of).orElse(null))).toList();
        final TestbedStatus status = new TestbedStatus(TestbedStatus.FORMAT, topology.name(), names.prefix(),
            topologyFile.toAbsolutePath().toString(), state.root().toString(), Instant.now().toString(),
            new TestbedStatus.Snmp(SnmpdConfig.PORT, credentials.community(), credentials.v3User(), "SHA",
                credentials.authPassword(), "AES", credentials.privPassword()),
            hosts, switches, links);
        status.write(state.statusFile());
        return status;
    }

    /** Starts one agent in a node's namespace; it daemonises once it listens, so a bind failure is its exit status. */
    private TestbedStatus.Agent startAgent(final String node, final String address, final SnmpCredentials credentials,
                                           final List<SnmpdConfig.DropPort> drops, final Integer cpuCore)
        throws CommandFailedException, IOException, InterruptedException {
        final Path dir = state.agent(node);
        final Path persistent = dir.resolve("persist");
        Files.createDirectories(persistent);
        final Path config = dir.resolve("snmpd.conf");
        final Path pidFile = dir.resolve("snmpd.pid");
        final Path log = dir.resolve("snmpd.log");
        final String ns = names.namespace(node);
        final Path dropsScript = dir.resolve("drops.sh");
        if (!drops.isEmpty()) {
            Files.writeString(dropsScript, SnmpdConfig.DROPS_SCRIPT);
        }
        if (cpuCore != null) {
            final Path cpuScript = dir.resolve("cpu.sh");
            Files.writeString(cpuScript, SnmpdConfig.CPU_SCRIPT);
            Files.writeString(config, SnmpdConfig.hostText(topology.name(), ns, address, credentials, persistent, cpuCore, cpuScript));
        } else {
            Files.writeString(config, SnmpdConfig.text(topology.name(), ns, address, credentials, persistent, drops, dropsScript));
        }
        final String snmpd = Prerequisites.find("snmpd").map(Path::toString).orElse("snmpd");
        // MIBS empty: Debian ships no MIB files, and snmpd would log a page of lookup failures.
        final Command start = Command.of("the snmpd of " + node + " (log " + log + ")", "ip", "netns", "exec", ns,
            "env", "MIBS=", snmpd, "-C", "-c", config.toString(), "-p", pidFile.toString(), "-Lf", log.toString());
        try {
            step(start);
        } catch (CommandFailedException e) {
            throw new CommandFailedException(start, e.exitCode(), Files.exists(log) ? Files.readString(log) : "");
        }
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(PID_FILE_WAIT_MILLIS);
        while (System.nanoTime() < deadline) {
            final var pid = Processes.readPid(pidFile);
            if (pid.isPresent()) {
                return new TestbedStatus.Agent(address, pid.get(), config.toString());
            }
            Thread.sleep(20);
        }
        throw new IOException("the snmpd of " + node + " wrote no pid file " + pidFile + " within " + PID_FILE_WAIT_MILLIS
            + " ms; its log " + log + ": " + (Files.exists(log) ? Files.readString(log).strip() : "(none)"));
    }

    /** @return interface name → ifindex in a namespace ({@code ip -j link show}) */
    private Map<String, Integer> ifIndexes(final String ns) throws CommandFailedException, InterruptedException, IOException {
        final String json = step(Command.of("the interfaces of " + ns, "ip", "-n", ns, "-j", "link", "show"));
        final Map<String, Integer> indexes = new HashMap<>();
        for (final JsonNode link : new ObjectMapper().readTree(json)) {
            indexes.put(link.path("ifname").asText(), link.path("ifindex").asInt());
        }
        return indexes;
    }

    private static int ifIndex(final Map<String, Integer> indexes, final String ns, final String port) throws IOException {
        final Integer index = indexes.get(port);
        if (index == null) {
            throw new IOException("interface " + port + " is not in namespace " + ns + " after it was made; there are "
                + indexes.keySet());
        }
        return index;
    }

    /** Runs one command, unless a stop came first. */
    private String step(final Command command) throws CommandFailedException, InterruptedException {
        if (stopping) {
            throw new InterruptedException("stopped while building testbed " + topology.name());
        }
        return runner.run(command);
    }

    private void cleanUpAfterFailure(final Teardown teardown) {
        try {
            teardown.run();
        } catch (CommandFailedException | IOException | RuntimeException e) {
            System.err.println("latency testbed: cleaning up after the failure failed too: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
