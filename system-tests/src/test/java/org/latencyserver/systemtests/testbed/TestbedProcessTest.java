package org.latencyserver.systemtests.testbed;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Isolated;
import org.latencyserver.launch.ChildProcess;
import org.latencyserver.systemtests.kit.SystemUnderTest;
import org.latencyserver.systemtests.kit.Testbed;
import org.latencyserver.testkit.config.ServerYaml;
import org.latencyserver.testkit.config.ServerYaml.Connection;
import org.latencyserver.testkit.config.ServerYaml.Link;
import org.latencyserver.testkit.config.ServerYaml.Node;
import org.latencyserver.testkit.config.ServerYaml.Snmp;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The testbed as a user runs it, and the product on it: {@code testbed up} builds the one-switch
 * testbed (srv, ws1, ws2 on sw1, 20 Mbit/s toward ws2); the switch's snmpd answers ifHCOutOctets of
 * the bottleneck port to {@code snmpget} from the server's namespace; {@code testbed load} drives the
 * port to 95 % and the counters move at about that rate; a Latency Server in srv's namespace, polling
 * the switch's snmpd with the status file's if_index, speed_mbps and discards_oid and the hosts'
 * snmpd, with loaded bands, shows the connection through the port in a loaded band (port_state 95,
 * 98 or 100) while the load runs, SATURATED (101) under a 115 % load whose tbf drops the switch's
 * snmpd serves as the port's ifOutDiscards, and NORMAL (0) once it stops; {@code testbed down}
 * leaves no namespace or process of the testbed.
 *
 * <p>Needs root, ip, tc, snmpd, snmpget and iperf3 (CI has them); elsewhere it prints
 * {@code NOT CHECKED} with what is missing and is skipped.
 */
@Isolated // runs alone (junit-platform.properties): measures the rate iperf3 drives through tbf
class TestbedProcessTest {

    private static final String IF_HC_OUT_OCTETS = ".1.3.6.1.2.1.31.1.1.1.10.";
    private static final double LOAD_PERCENT = 95;
    /** The watcher's line for the connection's port state (see {@link EstimatesWatchMain}). */
    private static final Pattern ROW = Pattern.compile("conn=1 qos=1 port_state=(-?\\d+) ");

    @TempDir
    Path directory;

    @Test
    void aServerOnTheTestbedSeesTheBottleneckLoadedThenSaturatedWhileIperfDrivesItAndNormalAfter() throws Exception {
        OneSwitchTestbed.requireTools("the testbed on this machine", "snmpget");
        final long startNanos = System.nanoTime();
        final List<Long> ownPids = new ArrayList<>();
        OneSwitchTestbed testbed = null;
        try (SystemUnderTest system = SystemUnderTest.measuringIn(directory)) {
            try {
                testbed = OneSwitchTestbed.up(system, directory, "st");
                final String srv = testbed.namespace("srv");
                final JsonNode sw1 = testbed.switchOne();
                final JsonNode port = testbed.port("ws2");
                final String community = testbed.community();
                final String agent = sw1.get("management_address").asText();
                final String counter = IF_HC_OUT_OCTETS + port.get("if_index").asInt();
                assertEquals(20, port.get("bottleneck").get("speed_mbps").asInt(), testbed.status()::toPrettyString);
                testbed.status().get("hosts").forEach(h -> ownPids.add(h.get("snmpd").get("pid").asLong()));
                ownPids.add(sw1.get("snmpd").get("pid").asLong());

                // The switch's snmpd answers the bottleneck port's ifHCOutOctets, numerically, to the server's host.
                final long idleOctets = ifHcOutOctets(srv, community, agent, counter);

                final ChildProcess server = system.serverLaunch("server", serverConfig(testbed))
                    .args("--metrics-port", "-1").env("TESTBED_COMMUNITY", community).inNetworkNamespace(srv).start();
                server.awaitReady(SystemUnderTest.READY_TIMEOUT);
                final ChildProcess watch = system.launchClass("watch", EstimatesWatchMain.class)
                    .args(directory.resolve("server.ior").toString()).inNetworkNamespace(srv).start();

                testbed.command(system, "testbed-load", "load", "ws2", "--percent", Double.toString(LOAD_PERCENT), "--from", "ws1",
                    "--background");
                ownPids.addAll(loadPids(testbed.state()));

                final double measuredPercent = counterPercent(srv, community, agent, counter, 20);
                assertTrue(measuredPercent > LOAD_PERCENT - 15 && measuredPercent < LOAD_PERCENT + 10, String.format(Locale.ROOT,
                    "ifHCOutOctets of the port moved at %.1f %% of 20 Mbit/s under a %.0f %% load (idle counter was %d)",
                    measuredPercent, LOAD_PERCENT, idleOctets));
                System.out.printf(Locale.ROOT, "testbed: %.0f %% load read as %.1f %% from ifHCOutOctets%n", LOAD_PERCENT,
                    measuredPercent);

                final long loadedFromNanos = System.nanoTime();
                final int loaded = awaitPortState(watch, s -> s >= 91, Duration.ofSeconds(30));
                System.out.printf(Locale.ROOT, "testbed: port_state %d %.1f s after the counters were read%n", loaded,
                    (System.nanoTime() - loadedFromNanos) / 1e9);
                assertTrue(loaded >= 91, () -> "port_state under load: " + loaded + "\n" + watch.logEnd() + "\n" + server.logEnd());
                assertTrue(loaded == 95 || loaded == 98 || loaded == 100, "a loaded band's upper edge, was " + loaded);
                testbed.command(system, "testbed-load-stop", "load", "ws2", "--stop");

                // Offered beyond the rate: the port still reads 100 %, but its tbf drops, which the switch's
                // snmpd serves at the port's ifOutDiscards: SATURATED (port_state 101).
                testbed.command(system, "testbed-overload", "load", "ws2", "--percent", "115", "--from", "ws1", "--background");
                ownPids.addAll(loadPids(testbed.state()));
                final long overloadedNanos = System.nanoTime();
                final int saturated = awaitPortState(watch, s -> s == 101, Duration.ofSeconds(30));
                System.out.printf(Locale.ROOT, "testbed: port_state %d %.1f s after a 115 %% load began%n", saturated,
                    (System.nanoTime() - overloadedNanos) / 1e9);
                assertEquals(101, saturated, () -> "port_state under overload: " + saturated + "\n" + watch.logEnd());
                testbed.command(system, "testbed-overload-stop", "load", "ws2", "--stop");
                final long stoppedNanos = System.nanoTime();
                final int normal = awaitPortState(watch, s -> s == 0, Duration.ofSeconds(30));
                System.out.printf(Locale.ROOT, "testbed: port_state %d %.1f s after the load stopped%n", normal,
                    (System.nanoTime() - stoppedNanos) / 1e9);
                assertEquals(0, normal, () -> "port_state after the load: " + normal + "\n" + watch.logEnd());
            } finally {
                system.close();
                if (testbed != null) {
                    testbed.downAndCheckNothingLeft();
                }
            }
        }
        for (final long pid : ownPids) {
            assertTrue(ProcessHandle.of(pid).filter(ProcessHandle::isAlive).isEmpty(), "process " + pid + " of the testbed is alive");
        }
        System.out.printf(Locale.ROOT, "testbed: up, load, LOADED, SATURATED, NORMAL, down in %.1f s%n",
            (System.nanoTime() - startNanos) / 1e9);
    }

    private Path serverConfig(final OneSwitchTestbed testbed) throws IOException {
        final JsonNode port = testbed.port("ws2");
        return ServerYaml.named("TestbedServer").pollIntervalMillis(100).metricsOff()
            .profile(Testbed.PROFILES.resolve("thesis-tac4-corba.json"))
            .node(Node.of("ws1", 1, "TAC-4").snmp(Snmp.v2c(testbed.agent("ws1"), "TESTBED_COMMUNITY")))
            .node(Node.of("ws2", 2, "TAC-4").snmp(Snmp.v2c(testbed.agent("ws2"), "TESTBED_COMMUNITY")))
            .link(Link.named("sw1-ws2").snmp(Snmp.v2c(testbed.agent("sw1"), "TESTBED_COMMUNITY")
                .ifIndex(port.get("if_index").asInt()).speedMbps(port.get("bottleneck").get("speed_mbps").asInt())
                .with("discards_oid", port.get("discards_oid").asText())))
            .thresholds("port_states", "bands")
            .connection(Connection.of(1, "ws1", "ws2", 1).link("sw1-ws2").profile("thesis-tac4-corba"))
            .writeTo(directory.resolve("server.yaml"));
    }

    /**
     * The port's utilisation from its counter: read every 200 ms for about {@code seconds}, the rate
     * taken between the first and the last change seen (net-snmp refreshes the counter every ~3 s, so
     * only the moments it changes are worth a clock reading).
     */
    private static double counterPercent(final String ns, final String community, final String agent, final String oid,
                                         final double rateMbit) throws Exception {
        final long endNanos = System.nanoTime() + TimeUnit.SECONDS.toNanos(8);
        long firstValue = -1;
        long firstNanos = 0;
        long lastValue = -1;
        long lastNanos = 0;
        long previous = ifHcOutOctets(ns, community, agent, oid);
        while (System.nanoTime() < endNanos) {
            Thread.sleep(200);
            final long now = System.nanoTime();
            final long value = ifHcOutOctets(ns, community, agent, oid);
            if (value != previous) {
                if (firstValue < 0) {
                    firstValue = value;
                    firstNanos = now;
                } else {
                    lastValue = value;
                    lastNanos = now;
                }
                previous = value;
            }
        }
        assertTrue(lastValue > firstValue && firstValue >= 0, "the counter changed fewer than two times in 8 s");
        return 100.0 * (lastValue - firstValue) * 8 / ((lastNanos - firstNanos) / 1e9) / (rateMbit * 1e6);
    }

    private static long ifHcOutOctets(final String ns, final String community, final String agent, final String oid)
        throws Exception {
        final String answer = OneSwitchTestbed.exec(List.of("ip", "netns", "exec", ns, "snmpget", "-v2c", "-c", community, "-On",
            "-t", "2", agent, oid));
        final Matcher m = Pattern.compile(Pattern.quote(oid) + " = Counter64: (\\d+)").matcher(answer);
        assertTrue(m.find(), "snmpget of " + oid + " from " + agent + ": " + answer);
        return Long.parseLong(m.group(1));
    }

    /** Waits until the watcher's latest row satisfies the condition; returns the latest port_state seen. */
    private static int awaitPortState(final ChildProcess watch, final java.util.function.IntPredicate wanted, final Duration timeout)
        throws InterruptedException {
        final long deadline = System.nanoTime() + timeout.toNanos();
        int latest = -1;
        while (System.nanoTime() < deadline) {
            assertTrue(watch.isAlive(), () -> "the watcher exited: " + watch.logEnd());
            final Matcher m = ROW.matcher(watch.log());
            while (m.find()) {
                latest = Integer.parseInt(m.group(1));
            }
            if (latest >= 0 && wanted.test(latest)) {
                return latest;
            }
            Thread.sleep(250);
        }
        return latest;
    }

    private static List<Long> loadPids(final Path state) throws IOException {
        final List<Long> pids = new ArrayList<>();
        for (final String file : List.of("client.pid", "server.pid")) {
            final Path pid = state.resolve("load").resolve("ws2").resolve(file);
            if (Files.exists(pid)) {
                pids.add(Long.parseLong(Files.readString(pid).strip()));
            }
        }
        return pids;
    }
}
