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

/**
 * The testbed tests' shared fixture: {@code examples/testbed/one-switch.yaml} (srv, ws1, ws2 on sw1, a
 * 20 Mbit/s tbf toward ws2) under a name of the test's own — a run beside another, or after a killed
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
        final OneSwitchTestbed testbed = new OneSwitchTestbed(uniqueName(prefix), directory);
        final Path topology = directory.resolve("one-switch.yaml");
        Files.writeString(topology, Files.readString(Path.of("../examples/testbed/one-switch.yaml"))
            .replace("name: one", "name: " + testbed.name));
        run(system, "testbed-up", "up", "--topology", topology.toString(), "--state-dir", testbed.state.toString());
        testbed.status = JSON.readTree(testbed.state.resolve("status.json").toFile());
        return testbed;
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

    /** @return sw1's port toward the named host */
    JsonNode port(final String toward) {
        for (final JsonNode port : switchOne().get("ports")) {
            if (port.get("name").asText().equals(toward)) {
                return port;
            }
        }
        throw new AssertionError("no port " + toward + " in " + switchOne().toPrettyString());
    }

    /** @return the v2c community every agent of the testbed answers */
    String community() {
        return status.get("snmp").get("community").asText();
    }

    /** @return {@code udp:ADDRESS/PORT} of the named host's snmpd, or of sw1's for {@code "sw1"} */
    String agent(final String node) {
        final String address = "sw1".equals(node) ? switchOne().get("management_address").asText()
            : host(node).get("snmpd").get("address").asText();
        return "udp:" + address + "/" + status.get("snmp").get("port").asInt();
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
