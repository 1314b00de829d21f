package org.latencyserver.systemtests.testbed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencyserver.launch.ChildProcess;
import org.latencyserver.launch.Component;
import org.latencyserver.launch.ProcessKit;
import org.latencyserver.mirror.EstimateMirror;
import org.latencyserver.mirror.MirrorRecord;
import org.latencyserver.mirror.ReadStatus;
import org.latencyserver.systemtests.distribution.UnitFile;
import org.latencyserver.systemtests.distribution.UnpackedDistribution;
import org.latencyserver.systemtests.kit.SystemUnderTest;
import org.latencyserver.testkit.config.ServerYaml;
import org.latencyserver.testkit.config.ServerYaml.Connection;
import org.latencyserver.testkit.config.ServerYaml.Link;
import org.latencyserver.testkit.config.ServerYaml.Node;
import org.latencyserver.testkit.config.ServerYaml.Snmp;

/**
 * The deployment guide followed on the one-switch testbed: the distribution's tarball unpacked with
 * {@code tar xf} into a fresh directory, and from it the naming service, server and console on srv, the
 * client agent and mirror on ws1 and the peer agent on ws2, each started by its shipped unit's own command
 * lines ({@code ExecStart}, then {@code ExecStartPost}'s {@code latency await-ready}) expanded from the
 * shipped {@code etc/latency.env} with the host's address and node, as systemd expands them (the command
 * lines only: the shared drop-in's user, working directory and sandbox are not applied, as this machine's
 * PID 1 is not systemd; {@code DistributionUnitsTest} verifies them), so with the guide's fixed ports ({@code docs/deployment.md}), and writes
 * over TLS: {@code latency certs} from the distribution issues the server's, the client agent's and an
 * operator's stores, which the server, the client agent and the console are given as the guide says. The
 * processes run in the test's directory with a {@code PATH} whose first {@code mvn} records any call
 * and a {@code HOME} of their own: nothing may build.
 *
 * <p>Checks: every component serves (ready files); the mirror on ws1 holds an estimate of every
 * connection, pushed across the testbed; the QoS 3 and 4 connections serve a measurement the client
 * agent on ws1 made against the peer agent on ws2; each process listens on exactly the TCP ports the
 * guide's port table gives it (read with {@code ss} in its namespace); no {@code mvn} ran. Prints the
 * time from {@code tar xf} to that serving deployment.
 *
 * <p>Needs root, ip, tc, snmpd and iperf3 (CI has them); elsewhere it prints {@code NOT CHECKED} and is skipped.
 */
@Order(3) // a long class, started early (junit-platform.properties)
class DistributionOnTestbedTest {

    private static final Path GUIDE = Path.of("../docs/deployment.md");
    private static final String SERVER_NAME = "LatencyServer";
    /** The watcher's line of a connection served from a measurement (see {@link EstimatesWatchMain}). */
    private static final Pattern MEASURED = Pattern.compile("conn=(\\d+) qos=\\d+ port_state=-?\\d+ served quality=\\d+ source=measurement ");
    private static final Duration SERVING_TIMEOUT = Duration.ofSeconds(120);

    @TempDir
    Path directory;

    @Test
    void theUnpackedDistributionServesTheTestbedWithTheGuidesPortsAndNoBuild() throws Exception {
        OneSwitchTestbed.requireTools("the distribution on the testbed", "ss");
        OneSwitchTestbed testbed = null;
        try (SystemUnderTest system = SystemUnderTest.in(directory.resolve("testbed-kit"))) {
            try {
                testbed = OneSwitchTestbed.up(system, directory, "dt");
                run(testbed, system);
            } finally {
                if (testbed != null) {
                    testbed.downAndCheckNothingLeft();
                }
            }
        }
    }

    private void run(final OneSwitchTestbed testbed, final SystemUnderTest system) throws Exception {
        final long unpackNanos = System.nanoTime();
        final UnpackedDistribution distribution = UnpackedDistribution.unpack(directory.resolve("opt"));
        final Path home = distribution.home();
        final Path work = Files.createDirectories(directory.resolve("work"));
        final Path runtimeRoot = Files.createDirectories(directory.resolve("run"));
        final Path stateRoot = Files.createDirectories(directory.resolve("var-lib"));
        final Path mvnCalls = directory.resolve("mvn-called");
        final Path fakeBin = Files.createDirectories(directory.resolve("fake-bin"));
        Files.writeString(fakeBin.resolve("mvn"), "#!/bin/sh\necho \"$@\" >> " + mvnCalls + "\nexit 1\n");
        assertTrue(fakeBin.resolve("mvn").toFile().setExecutable(true));
        final Path userHome = Files.createDirectories(directory.resolve("home"));
        final Path ca = work.resolve("ca");
        final Map<String, String> shipped = UnitFile.environmentFile(home.resolve("etc/latency.env"));

        final Map<String, ChildProcess> byComponentAndHost = new LinkedHashMap<>();
        try (ProcessKit kit = ProcessKit.fromDistribution(home, work)) {
            final Map<String, String> base = new LinkedHashMap<>(Map.of("PATH", fakeBin + ":" + System.getenv("PATH"),
                "HOME", userHome.toString(), "TESTBED_COMMUNITY", testbed.community()));
            kit.launch(Component.CERTS).env(base).args("--dir", ca.toString(), "--agent", "ws1", "--operator", "ops1")
                .start().awaitSuccess(Duration.ofSeconds(120));
            // secrets.env, as the guide has it: the stores' password
            base.put("LATENCY_TLS_PASSWORD", Files.readString(ca.resolve("password")).strip());
            final Path config = serverConfig(testbed, home, ca);
            final String trust = " --tls-truststore " + ca.resolve("trust.p12");
            // latency.env per host: the shipped file (its ports, naming service and server name), with the host's
            // own address and node, and the options the guide adds for TLS
            final Map<String, String> srv = host(shipped, "198.18.0.1", "srv", Map.of(
                "LATENCY_CONSOLE_OPTS", "--tls-keystore " + ca.resolve("operator-ops1.p12") + trust));
            final Map<String, String> ws1 = host(shipped, "198.18.0.2", "ws1", Map.of(
                "LATENCY_CLIENT_AGENT_OPTS", "--tls-keystore " + ca.resolve("agent-ws1.p12") + trust));
            final Map<String, String> ws2 = host(shipped, "198.18.0.3", "ws2", Map.of());
            final UnitRunner units = new UnitRunner(kit, home, runtimeRoot, stateRoot, base, config);
            byComponentAndHost.put("naming-service@srv", units.start("latency-naming-service", testbed.namespace("srv"), srv));
            byComponentAndHost.put("server@srv", units.start("latency-server", testbed.namespace("srv"), srv));
            byComponentAndHost.put("console@srv", units.start("latency-console", testbed.namespace("srv"), srv));
            byComponentAndHost.put("peer-agent@ws2", units.start("latency-peer-agent", testbed.namespace("ws2"), ws2));
            byComponentAndHost.put("client-agent@ws1", units.start("latency-client-agent", testbed.namespace("ws1"), ws1));
            byComponentAndHost.put("mirror@ws1", units.start("latency-mirror", testbed.namespace("ws1"), ws1));
            System.out.printf(Locale.ROOT, "distribution: tar xf to every component ready in %.1f s%n",
                (System.nanoTime() - unpackNanos) / 1e9);

            // An application on ws1: reads every connection's estimate from the server by name.
            final ChildProcess watch = system.launchClass("watch", EstimatesWatchMain.class)
                .args(shipped.get("LATENCY_SERVER_NAME"), shipped.get("LATENCY_NAMING")).inNetworkNamespace(testbed.namespace("ws1"))
                .start();
            final Set<Integer> measured = awaitMeasured(watch, Set.of(3, 4), byComponentAndHost);
            awaitMirrorHoldsEveryConnection(runtimeRoot.resolve("latency-mirror/estimates.mirror"), 4);
            final double servingSeconds = (System.nanoTime() - unpackNanos) / 1e9;
            System.out.printf(Locale.ROOT, "distribution: tar xf to a serving testbed (every component ready, the mirror"
                + " full, QoS 3 and 4 measured across hosts) in %.1f s%n", servingSeconds);
            assertEquals(Set.of(3, 4), measured);

            compareWithThePortTable(byComponentAndHost, Map.of("srv", testbed.namespace("srv"), "ws1", testbed.namespace("ws1"),
                "ws2", testbed.namespace("ws2")));
            watch.stop(Duration.ofSeconds(10));
        }
        assertFalse(Files.exists(mvnCalls), () -> "mvn was run: " + read(mvnCalls));
        for (final ChildProcess child : byComponentAndHost.values()) {
            assertFalse(child.isAlive(), child.name() + " still running");
        }
    }

    /** A host's latency.env: the shipped one with this host's address and node, and further options. */
    private static Map<String, String> host(final Map<String, String> shipped, final String address, final String node,
                                            final Map<String, String> options) {
        final Map<String, String> environment = new LinkedHashMap<>(shipped);
        environment.put("LATENCY_HOST", address);
        environment.put("LATENCY_NODE", node);
        environment.putAll(options);
        return environment;
    }

    /**
     * Runs a shipped unit as systemd would: its runtime and state directories made, its {@code ExecStart} (expanded
     * from the host's environment file, {@code /opt/latency} where the tarball was unpacked, the test's server
     * configuration for {@code /etc/latency/server.yaml}) in the host's namespace with the environment file's
     * variables and the secrets in its environment, then its {@code ExecStartPost} ({@code latency await-ready}) to
     * its successful end.
     */
    private record UnitRunner(ProcessKit kit, Path home, Path runtimeRoot, Path stateRoot, Map<String, String> secrets,
                              Path serverConfig) {

        ChildProcess start(final String unitName, final String namespace, final Map<String, String> environment)
            throws Exception {
            final UnitFile unit = UnitFile.read(home.resolve("systemd").resolve(unitName + ".service"));
            Files.createDirectories(runtimeRoot.resolve(unitName));
            Files.createDirectories(stateRoot.resolve(unitName));
            final Map<String, String> processEnvironment = new LinkedHashMap<>(environment);
            processEnvironment.putAll(secrets);
            final ChildProcess child = kit.launchProgram(unitName, installed(unit.command("ExecStart", runtimeRoot, stateRoot,
                environment))).env(processEnvironment).inNetworkNamespace(namespace).start();
            kit.launchProgram(unitName + "-ready", installed(unit.command("ExecStartPost", runtimeRoot, stateRoot, environment)))
                .start().awaitSuccess(Duration.ofSeconds(90));
            assertTrue(child.isAlive(), () -> unitName + " ended: " + child.logEnd());
            return child;
        }

        private List<String> installed(final List<String> command) {
            return command.stream().map(word -> word.replace("/opt/latency/", home + "/")
                .replace("/etc/latency/server.yaml", serverConfig.toString())).toList();
        }
    }

    private static Set<Integer> awaitMeasured(final ChildProcess watch, final Set<Integer> wanted,
                                              final Map<String, ChildProcess> components) throws InterruptedException {
        final long deadline = System.nanoTime() + SERVING_TIMEOUT.toNanos();
        final Set<Integer> seen = new TreeSet<>();
        while (System.nanoTime() < deadline && !seen.containsAll(wanted)) {
            final Matcher m = MEASURED.matcher(watch.log());
            while (m.find()) {
                seen.add(Integer.parseInt(m.group(1)));
            }
            Thread.sleep(250);
        }
        if (!seen.containsAll(wanted)) {
            final StringBuilder logs = new StringBuilder();
            components.forEach((name, child) -> logs.append("\n--- ").append(name).append('\n').append(child.logEnd()));
            throw new AssertionError("measured connections " + seen + " of " + wanted + " within " + SERVING_TIMEOUT
                + "; the watcher:\n" + watch.logEnd() + logs);
        }
        return seen;
    }

    private static void awaitMirrorHoldsEveryConnection(final Path mirrorFile, final int connections) throws Exception {
        final long deadline = System.nanoTime() + SERVING_TIMEOUT.toNanos();
        final MirrorRecord record = new MirrorRecord();
        try (EstimateMirror mirror = EstimateMirror.open(mirrorFile)) {
            final List<String> missing = new ArrayList<>();
            do {
                missing.clear();
                for (int indexRef = 1; indexRef <= connections; indexRef++) {
                    final ReadStatus status = mirror.read(indexRef, record);
                    if (status != ReadStatus.OK || !record.hasEstimate()) {
                        missing.add(indexRef + ": " + status + (status == ReadStatus.OK ? " without an estimate" : ""));
                    }
                }
                if (missing.isEmpty()) {
                    return;
                }
                Thread.sleep(250);
            } while (System.nanoTime() < deadline);
            throw new AssertionError("the mirror on ws1 lacks " + missing);
        }
    }

    /**
     * Each process's listening TCP ports, as {@code ss} sees them in its namespace, against the port table of the
     * deployment guide (its rows for this component; this deployment has {@code security.tls}, so its row counts).
     */
    private static void compareWithThePortTable(final Map<String, ChildProcess> components, final Map<String, String> namespaces)
        throws Exception {
        final Map<String, Set<Integer>> guide = PortTable.read(GUIDE, Set.of("security.tls"));
        final Map<String, Set<Integer>> opened = new TreeMap<>();
        final Map<String, Set<Integer>> expected = new TreeMap<>();
        for (final Map.Entry<String, ChildProcess> entry : components.entrySet()) {
            final String component = entry.getKey().substring(0, entry.getKey().indexOf('@'));
            final String host = entry.getKey().substring(entry.getKey().indexOf('@') + 1);
            opened.put(entry.getKey(), PortTable.listeningPorts(namespaces.get(host), entry.getValue().pid()));
            expected.put(entry.getKey(), guide.getOrDefault(component, Set.of()));
        }
        System.out.println("distribution: listening ports " + opened);
        assertEquals(expected, opened, "the processes' listening TCP ports against docs/deployment.md's port table");
    }

    private Path serverConfig(final OneSwitchTestbed testbed, final Path home, final Path ca) throws IOException {
        final JsonNode port = testbed.port("ws2");
        final Path profiles = home.resolve("share/latency/profiles");
        return ServerYaml.named(SERVER_NAME).pollIntervalMillis(100)
            .server("metrics", Map.of("enabled", true, "address", "198.18.0.1", "port", 9464))
            .server("unknown_after_missed_polls", 20)
            .profile(profiles.resolve("measured-loopback-jacorb.json"))
            .node(Node.of("ws1", 1, "LOCAL-2CORE").snmp(Snmp.v2c(testbed.agent("ws1"), "TESTBED_COMMUNITY")))
            .node(Node.of("ws2", 2, "LOCAL-2CORE").snmp(Snmp.v2c(testbed.agent("ws2"), "TESTBED_COMMUNITY")))
            .link(Link.named("sw1-ws2").snmp(Snmp.v2c(testbed.agent("sw1"), "TESTBED_COMMUNITY")
                .ifIndex(port.get("if_index").asInt()).speedMbps(port.get("bottleneck").get("speed_mbps").asInt())))
            .thresholds("port_states", "bands")
            .section("security", "plain_iiop", "read-only")
            .section("security", "tls", Map.of("port", 2815, "keystore", ca.resolve("server.p12").toString(),
                "truststore", ca.resolve("trust.p12").toString()))
            .section("security", "principals", List.of(
                Map.of("subject", "CN=ws1,OU=agent,O=Latency Server", "roles", List.of("agent"), "node", "ws1"),
                Map.of("subject", "CN=ops1,OU=operator,O=Latency Server", "roles", List.of("operator"))))
            .measurement("round_trips", 200).measurement("warmup_round_trips", 20).measurement("min_interval_millis", 1000)
            .connection(Connection.of(1, "ws1", "ws2", 1).link("sw1-ws2").profile("measured-loopback-jacorb"))
            .connection(Connection.of(2, "ws1", "ws2", 2).boundPercent(96).link("sw1-ws2").profile("measured-loopback-jacorb"))
            .connection(Connection.of(3, "ws1", "ws2", 3).link("sw1-ws2").profile("measured-loopback-jacorb"))
            .connection(Connection.of(4, "ws1", "ws2", 4).boundPercent(96).link("sw1-ws2").profile("measured-loopback-jacorb"))
            .writeTo(directory.resolve("server.yaml"));
    }

    private static String read(final Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            return e.toString();
        }
    }
}
