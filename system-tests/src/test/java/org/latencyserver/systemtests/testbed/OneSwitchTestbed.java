package org.latencyserver.systemtests.testbed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.latencyserver.launch.Component;
import org.latencyserver.systemtests.kit.SystemUnderTest;
import org.latencyserver.testbed.Prerequisites;
import org.latencyserver.testbed.Processes;

/**
 * The testbed tests' shared fixture: {@code examples/testbed/one-switch.yaml} (srv, ws1, ws2 on sw1, a
 * 20 Mbit/s tbf toward ws2), or another topology of {@code examples/testbed} (e.g. {@code two-switches.yaml}),
 * under a name of the test's own — a run beside another, or after a killed
 * one, never shares namespaces —, brought up and taken down through {@code ./latency testbed} as a user
 * runs it, with its status file read for hosts, agents and the bottleneck port.
 *
 * <p>Not thread-safe: one test's.
 */
final class OneSwitchTestbed {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final String name;
    private final Path directory;
    private final Path state;
    private JsonNode status;

    private OneSwitchTestbed(final String name, final Path directory) {
        this.name = name;
        this.directory = directory;
        this.state = directory.resolve("state");
    }

    /**
     * Prints {@code NOT CHECKED} with what this machine lacks for a testbed and aborts the test (a skip, never a
     * failure); returns when everything is there.
     *
     * @param what  what the test would have checked
     * @param extra further programs the test needs, e.g. {@code snmpget}
     */
    static void requireTools(final String what, final String... extra) {
        final List<String> missing = new ArrayList<>(Prerequisites.missing(EnumSet.allOf(Prerequisites.Tool.class)));
        for (final String program : extra) {
            if (Prerequisites.find(program).isEmpty()) {
                missing.add("the program " + program);
            }
        }
        if (!missing.isEmpty()) {
            System.out.println("NOT CHECKED: " + what + "; missing: " + String.join("; ", missing));
            Assumptions.abort("missing: " + String.join("; ", missing));
        }
    }

    /**
     * Brings the testbed up and reads its status.
     *
     * @param system    the kit that runs {@code testbed up}
     * @param directory the test's directory: the topology and the state directory go there
     * @param prefix    two letters naming the test; the process id makes the name unique
     * @return the testbed, up
     */
    static OneSwitchTestbed up(final SystemUnderTest system, final Path directory, final String prefix) throws Exception {
        return up(system, directory, prefix, "one-switch.yaml");
    }

    /**
     * Brings up a topology of {@code examples/testbed} under the test's own name and reads its status.
     *
     * @param system       the kit that runs {@code testbed up}
     * @param directory    the test's directory: the topology and the state directory go there
     * @param prefix       two letters naming the test; the process id makes the name unique
     * @param topologyFile a file of {@code examples/testbed}, e.g. {@code two-switches.yaml}
     * @return the testbed, up
     */
    static OneSwitchTestbed up(final SystemUnderTest system, final Path directory, final String prefix, final String topologyFile)
        throws Exception {
        final OneSwitchTestbed testbed = new OneSwitchTestbed(uniqueName(prefix), directory);
        final Path topology = directory.resolve(topologyFile);
        Files.writeString(topology, Files.readString(Path.of("../examples/testbed").resolve(topologyFile))
            .replaceFirst("(?m)^name: \\S+$", "name: " + testbed.name));
        testbed.bringUp(system, topology);
        return testbed;
    }

    /**
     * Brings up a topology the test wrote (its {@code name:} already unique, e.g. from {@link #uniqueName}).
     *
     * @param system    the kit that runs {@code testbed up}
     * @param directory the test's directory: the state directory goes there
     * @param topology  the topology file
     * @return the testbed, up
     */
    static OneSwitchTestbed up(final SystemUnderTest system, final Path directory, final Path topology) throws Exception {
        final java.util.regex.Matcher name = java.util.regex.Pattern.compile("(?m)^name: (\\S+)$").matcher(Files.readString(topology));
        if (!name.find()) {
            throw new IllegalArgumentException("no name: line in " + topology);
        }
        final OneSwitchTestbed testbed = new OneSwitchTestbed(name.group(1), directory);
        testbed.bringUp(system, topology);
        return testbed;
    }

    /**
     * Runs {@code testbed up} and reads the status; when either fails (a refusal, a timeout that ended {@code up}
     * half-way, an unreadable status) takes down whatever of the testbed stands before throwing, since the caller
     * never gets a testbed to take down.
     */
    private void bringUp(final SystemUnderTest system, final Path topology) throws Exception {
        try {
            run(system, "testbed-up", "up", "--topology", topology.toString(), "--state-dir", state.toString());
            status = JSON.readTree(state.resolve("status.json").toFile());
        } catch (Exception | AssertionError e) {
            try {
                downAndCheckNothingLeft();
            } catch (Exception | AssertionError down) {
                e.addSuppressed(down);
            }
            throw e;
        }
    }

    /**
     * @param prefix two letters naming the test
     * @return a testbed name no other run shares: the prefix and this JVM's process id
     */
    static String uniqueName(final String prefix) {
        return prefix + ProcessHandle.current().pid() % 100_000;
    }

    /** Runs {@code testbed ARGS} as ./latency would, to its end, successfully. */
    static void run(final SystemUnderTest system, final String logName, final String... args) throws Exception {
        system.launchOneShot(logName, Component.TESTBED).args(args).start().awaitSuccess(Duration.ofSeconds(60));
    }

    /**
     * Runs {@code testbed ARGS} on this testbed ({@code --name} and {@code --state-dir} added).
     */
    void command(final SystemUnderTest system, final String logName, final String... args) throws Exception {
        final List<String> argv = new ArrayList<>(List.of(args));
        argv.addAll(List.of("--name", name, "--state-dir", state.toString()));
        run(system, logName, argv.toArray(String[]::new));
    }

    /** Takes the testbed down (with a kit of its own: the test's may be closed) and checks no namespace of it is left. */
    void downAndCheckNothingLeft() throws Exception {
        try (SystemUnderTest downKit = SystemUnderTest.in(directory.resolve("down"))) {
            command(downKit, "testbed-down", "down");
        }
        assertNoNamespaceLeft(name);
        assertTrue(Files.notExists(state), "state directory left: " + state);
    }

    /** Checks that no network namespace of the named testbed is left. */
    static void assertNoNamespaceLeft(final String testbedName) throws Exception {
        final String namespaces = exec(List.of("ip", "netns", "list"));
        assertTrue(namespaces.lines().noneMatch(l -> l.startsWith("lt-" + testbedName + "-")), "namespaces left:\n" + namespaces);
    }

    /** @return the testbed's name */
    String name() {
        return name;
    }

    /** @return its state directory */
    Path state() {
        return state;
    }

    /** @return its status file, as read after up */
    JsonNode status() {
        return status;
    }

    /** @return the named host's entry of the status file */
    JsonNode host(final String hostName) {
        for (final JsonNode host : status.get("hosts")) {
            if (host.get("name").asText().equals(hostName)) {
                return host;
            }
        }
        throw new AssertionError("no host " + hostName + " in " + status.toPrettyString());
    }

    /** @return the named host's network namespace */
    String namespace(final String hostName) {
        return host(hostName).get("namespace").asText();
    }

    /** @return the switch sw1's entry */
    JsonNode switchOne() {
        return status.get("switches").get(0);
    }

    /** @return the named switch's entry */
    JsonNode switchNamed(final String switchName) {
        for (final JsonNode node : status.get("switches")) {
            if (node.get("name").asText().equals(switchName)) {
                return node;
            }
        }
        throw new AssertionError("no switch " + switchName + " in " + status.toPrettyString());
    }

    /** @return sw1's port toward the named host */
    JsonNode port(final String toward) {
        return port("sw1", toward);
    }

    /** @return the named switch's port of that name: a host's name, or a link's for the switch's end of it */
    JsonNode port(final String switchName, final String portName) {
        final JsonNode node = switchNamed(switchName);
        for (final JsonNode port : node.get("ports")) {
            if (port.get("name").asText().equals(portName)) {
                return port;
            }
        }
        throw new AssertionError("no port " + portName + " in " + node.toPrettyString());
    }

    /** @return the v2c community every agent of the testbed answers */
    String community() {
        return status.get("snmp").get("community").asText();
    }

    /** @return {@code udp:ADDRESS/PORT} of the named host's or switch's snmpd */
    String agent(final String node) {
        final String address = isSwitch(node) ? switchNamed(node).get("management_address").asText()
            : host(node).get("snmpd").get("address").asText();
        return "udp:" + address + "/" + status.get("snmp").get("port").asInt();
    }

    /**
     * Ends the named host's or switch's snmpd (SIGTERM, as an agent stopped by its operator) and waits until it has
     * exited: its agent no longer answers until {@link #startAgentAgain}.
     *
     * @return the PID it had
     */
    long stopAgent(final String node) throws Exception {
        final long pid = Processes.readPid(agentDirectory(node).resolve("snmpd.pid"))
            .orElseThrow(() -> new AssertionError("no snmpd.pid of " + node + " in " + state));
        final ProcessHandle snmpd = ProcessHandle.of(pid).orElseThrow(() -> new AssertionError("the snmpd of " + node + " is gone"));
        snmpd.destroy();
        snmpd.onExit().get(10, TimeUnit.SECONDS);
        return pid;
    }

    /**
     * Starts the named node's snmpd again, as {@code testbed up} started it (its configuration, pid file and log), in
     * its namespace; it answers once it has written its pid file, and {@code down} ends it as any agent.
     *
     * @return its new PID
     */
    long startAgentAgain(final String node) throws Exception {
        final Path dir = agentDirectory(node);
        final Path pidFile = dir.resolve("snmpd.pid");
        Files.deleteIfExists(pidFile);
        final String snmpd = Prerequisites.find("snmpd").map(Path::toString).orElse("snmpd");
        exec(List.of("ip", "netns", "exec", namespaceOf(node), "env", "MIBS=", snmpd, "-C", "-c", dir.resolve("snmpd.conf").toString(),
            "-p", pidFile.toString(), "-Lf", dir.resolve("snmpd.log").toString()));
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline) {
            final var pid = Processes.readPid(pidFile);
            if (pid.isPresent()) {
                return pid.get();
            }
            Thread.sleep(20);
        }
        throw new AssertionError("the snmpd of " + node + " started again wrote no pid file " + pidFile);
    }

    /** @return the state directory of the named node's snmpd: its configuration, pid file and log */
    private Path agentDirectory(final String node) {
        return state.resolve("snmpd").resolve(node);
    }

    /** @return the network namespace of the named host or switch */
    private String namespaceOf(final String node) {
        return isSwitch(node) ? switchNamed(node).get("namespace").asText() : namespace(node);
    }

    /** @return whether the status file names a switch so */
    private boolean isSwitch(final String node) {
        for (final JsonNode each : status.get("switches")) {
            if (each.get("name").asText().equals(node)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Runs a program to its end and returns what it printed.
     *
     * @throws AssertionError when it does not end within 30 s or exits other than 0
     */
    static String exec(final List<String> argv) throws IOException, InterruptedException {
        final Process process = new ProcessBuilder(argv).redirectErrorStream(true).start();
        final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(30, TimeUnit.SECONDS), String.join(" ", argv) + " did not end");
        assertEquals(0, process.exitValue(), () -> String.join(" ", argv) + ": " + output);
        return output;
    }
}
