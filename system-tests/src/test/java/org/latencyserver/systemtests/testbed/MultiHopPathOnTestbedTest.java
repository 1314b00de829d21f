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
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencyserver.launch.ChildProcess;
import org.latencyserver.systemtests.kit.SystemUnderTest;
import org.latencyserver.systemtests.kit.Testbed;
import org.latencyserver.testkit.config.ServerYaml;
import org.latencyserver.testkit.config.ServerYaml.Connection;
import org.latencyserver.testkit.config.ServerYaml.Link;
import org.latencyserver.testkit.config.ServerYaml.Node;
import org.latencyserver.testkit.config.ServerYaml.Snmp;

/**
 * A path through two switches on a real network: the two-switch testbed ({@code examples/testbed/two-switches.yaml}:
 * ws1 on sw1, ws2 on sw2, a 20 Mbit/s trunk sw1 → sw2, 50 Mbit/s toward ws2) and a server in srv whose connection
 * ws1 → ws2 crosses {@code links: [sw1-trunk, sw2-ws2]}, each port polled from its own switch's snmpd.
 * <ol>
 *   <li>With the trunk loaded to 95 % ({@code testbed load trunk}), ConnectionInfo's hops show sw1-trunk LOADED (or
 *       SATURATED, when a busy machine makes its tbf drop) and
 *       sw2-ws2 NORMAL (the same load crosses it at about 38 % of 50 Mbit/s, as sw2's snmpd reads it), and its
 *       port_state is the worst hop's.</li>
 *   <li>sw2's snmpd stopped: within {@code unknown_after_missed_polls} polls (the deadline a generous multiple of
 *       them) the connection is stale, its stale_reason names sw2-ws2 alone, sw2-ws2 reads −1 and sw1-trunk stays
 *       known; the thesis's port_state is −1. sw2's snmpd started again: the connection is fresh.</li>
 *   <li>The thesis's clients of another ORB (omniORB, C++, built from {@code Latserv.idl} unchanged): the example's
 *       RequestStatus is served, and RequestTableStatus's port_state is the worst hop's code, loaded and during the
 *       outage.</li>
 * </ol>
 *
 * <p>Needs root, ip, tc, snmpd and iperf3, else prints {@code NOT CHECKED} and is skipped; without omniidl, g++ or
 * omniORB's headers it checks 1 and 2 and prints {@code NOT CHECKED} for 3.
 */
@Order(13) // a long class, started early (junit-platform.properties)
class MultiHopPathOnTestbedTest {

    private static final String FIRST_HOP = "sw1-trunk";
    private static final String SECOND_HOP = "sw2-ws2";
    /** Above the SNMP timeout, so that each poll of a stopped agent is one miss. */
    private static final long POLL_INTERVAL_MILLIS = 500;
    private static final long SNMP_TIMEOUT_MILLIS = 300;
    private static final int UNKNOWN_AFTER_MISSED_POLLS = 3;
    /** The deadline for stale, in multiples of (misses + 1) poll intervals: the machine is shared and busy. */
    private static final int GENEROUS = 5;
    private static final Pattern PATH = Pattern.compile(
        "t=(\\d+) conn=1 path port_state=(-?\\d+) hops=(\\S*) stale=(true|false) stale_reason=(.*)");

    @TempDir
    Path directory;

    /** One hop of a watcher's path line. */
    private record Hop(String link, int state, int percent) {
    }

    /** One path line of the watcher (see {@link EstimatesWatchMain}). */
    private record PathReading(long epochMillis, int portState, List<Hop> hops, boolean stale, String staleReason, String line) {

        static PathReading of(final Matcher m) {
            final List<Hop> hops = new ArrayList<>();
            for (final String hop : m.group(3).isEmpty() ? new String[0] : m.group(3).split(",")) {
                final String[] parts = hop.split(":");
                hops.add(new Hop(parts[0], Integer.parseInt(parts[1]), Integer.parseInt(parts[2])));
            }
            return new PathReading(Long.parseLong(m.group(1)), Integer.parseInt(m.group(2)), hops, Boolean.parseBoolean(m.group(4)),
                m.group(5), m.group());
        }

        Hop hop(final int i) {
            return hops.get(i);
        }

        /** @return the thesis's code of the worst hop: −1 when one is unknown, else the highest */
        int worstHopCode() {
            int worst = 0;
            for (final Hop hop : hops) {
                if (hop.state() < 0) {
                    return -1;
                }
                worst = Math.max(worst, hop.state());
            }
            return worst;
        }
    }

    @Test
    void aPathThroughTwoSwitchesShowsEachHopServesTheWorstAsThePortStateAndNamesTheHopWhoseSwitchStopsAnswering() throws Exception {
        OneSwitchTestbed.requireTools("a path through two switches on the testbed");
        final long startNanos = System.nanoTime();
        final List<String> cppMissing = ThesisCppClients.missing();
        final ExecutorService compiler = Executors.newSingleThreadExecutor();
        // built beside the testbed and the server: most of what the C++ clients cost
        final Future<ThesisCppClients> building = cppMissing.isEmpty()
            ? compiler.submit(() -> ThesisCppClients.build(directory.resolve("cpp"))) : null;
        final List<Long> ownPids = new ArrayList<>();
        OneSwitchTestbed testbed = null;
        try (SystemUnderTest system = SystemUnderTest.in(directory)) {
            try {
                testbed = OneSwitchTestbed.up(system, directory, "mh", "two-switches.yaml");
                final String srv = testbed.namespace("srv");
                testbed.status().get("hosts").forEach(h -> ownPids.add(h.get("snmpd").get("pid").asLong()));
                testbed.status().get("switches").forEach(s -> ownPids.add(s.get("snmpd").get("pid").asLong()));
                final ChildProcess server = system.serverLaunch("server", serverConfig(testbed))
                    .args("--metrics-port", "-1").env("TESTBED_COMMUNITY", testbed.community()).inNetworkNamespace(srv).start();
                server.awaitReady(SystemUnderTest.READY_TIMEOUT);
                final String ior = Files.readString(directory.resolve("server.ior")).strip();
                final ChildProcess watch = system.launchClass("watch", EstimatesWatchMain.class)
                    .args(directory.resolve("server.ior").toString()).inNetworkNamespace(srv).start();
                // every input known before the load: both hops, and the workstations' CPUs (two samples of their counters)
                final PathReading idle = awaitPath(watch, 0, r -> r.hops().size() == 2 && r.worstHopCode() >= 0 && !r.stale(),
                    Duration.ofSeconds(60));
                assertEquals(List.of(FIRST_HOP, SECOND_HOP), idle.hops().stream().map(Hop::link).toList(), idle.line());

                // 1. Each hop's state, the worst as the thesis's port_state.
                final long loadEpoch = System.currentTimeMillis();
                testbed.command(system, "testbed-load", "load", "trunk", "--percent", "95", "--from", "ws1", "--background");
                ownPids.addAll(loadPids(testbed.state()));
                // each switch's snmpd refreshes its counters on its own ~3 s clock: wait until both have seen the load
                final PathReading loaded = awaitPath(watch, loadEpoch, r -> r.hops().size() == 2 && r.hop(0).state() >= 91
                    && r.hop(1).percent() >= 25, Duration.ofSeconds(30));
                System.out.printf(Locale.ROOT, "two switches: %s at port_state %d %.1f s after the load began: %s%n", FIRST_HOP,
                    loaded.hop(0).state(), (loaded.epochMillis() - loadEpoch) / 1e3, loaded.line());
                assertTrue(loaded.hop(0).state() >= 91, () -> "the loaded trunk: " + loaded.line() + "\n" + watch.logEnd());
                assertEquals(0, loaded.hop(1).state(), () -> "the port toward ws2 carries the trunk's 19 Mbit/s of its 50: NORMAL; "
                    + loaded.line());
                // the trunk's load goes on to ws2: about 19 of sw2-ws2's 50 Mbit/s, read from sw2's own snmpd
                assertTrue(loaded.hop(1).percent() >= 25 && loaded.hop(1).percent() <= 50, () -> "sw2-ws2 under the trunk's load: "
                    + loaded.line());
                assertEquals(loaded.hop(0).state(), loaded.portState(), () -> "port_state is the worst hop's: " + loaded.line());
                assertFalse(loaded.stale(), loaded.line());

                // 3, loaded: the thesis's clients.
                final ThesisCppClients clients = builtClients(building, cppMissing);
                if (clients != null) {
                    final String status = clients.requestStatus(srv, ior, 1);
                    assertTrue(status.contains("index_ref=1 quality=1 "), status);
                    final int thesisLoaded = thesisPortStateAgreeing(watch, clients, srv, ior);
                    System.out.printf(Locale.ROOT, "two switches: thesis client (omniORB) RequestStatus %s; RequestTableStatus "
                        + "port_state %d while loaded%n", status.strip(), thesisLoaded);
                }

                // 2. The second hop's switch stops answering, then answers again.
                final long stopEpoch = System.currentTimeMillis();
                testbed.stopAgent("sw2");
                final long staleDeadlineMillis = GENEROUS * (UNKNOWN_AFTER_MISSED_POLLS + 1) * POLL_INTERVAL_MILLIS;
                final PathReading stale = awaitPath(watch, stopEpoch, PathReading::stale, Duration.ofMillis(staleDeadlineMillis + 2_000));
                final long staleAfterMillis = stale.epochMillis() - stopEpoch;
                System.out.printf(Locale.ROOT, "two switches: stale %d ms after sw2's snmpd stopped (%d misses x %d ms polls = %d ms;"
                    + " deadline %d ms): %s%n", staleAfterMillis, UNKNOWN_AFTER_MISSED_POLLS, POLL_INTERVAL_MILLIS,
                    UNKNOWN_AFTER_MISSED_POLLS * POLL_INTERVAL_MILLIS, staleDeadlineMillis, stale.line());
                assertTrue(stale.stale(), () -> "not stale after sw2's snmpd stopped: " + stale.line() + "\n" + server.logEnd());
                assertTrue(staleAfterMillis <= staleDeadlineMillis, "stale only after " + staleAfterMillis + " ms");
                assertTrue(stale.staleReason().contains("switch port utilisation unknown at hop " + SECOND_HOP), stale.line());
                assertFalse(stale.staleReason().contains(FIRST_HOP), stale.line());
                assertEquals(-1, stale.hop(1).state(), stale.line());
                assertTrue(stale.hop(0).state() >= 0 && stale.hop(0).percent() >= 0, () -> "the trunk stays known: " + stale.line());
                assertEquals(-1, stale.portState(), () -> "an unknown hop makes port_state unknown: " + stale.line());
                if (clients != null) {
                    final int thesisStale = thesisPortStateAgreeing(watch, clients, srv, ior);
                    System.out.printf(Locale.ROOT, "two switches: thesis client RequestTableStatus port_state %d while %s is unknown%n",
                        thesisStale, SECOND_HOP);
                }

                final long restartEpoch = System.currentTimeMillis();
                ownPids.add(testbed.startAgentAgain("sw2"));
                final PathReading fresh = awaitPath(watch, restartEpoch, r -> !r.stale() && r.hop(1).state() >= 0,
                    Duration.ofSeconds(30));
                System.out.printf(Locale.ROOT, "two switches: fresh %d ms after sw2's snmpd started again: %s%n",
                    fresh.epochMillis() - restartEpoch, fresh.line());
                assertFalse(fresh.stale(), () -> "still stale after sw2's snmpd started again: " + fresh.line() + "\n" + server.logEnd());
                assertEquals("", fresh.staleReason(), fresh.line());
                assertEquals(fresh.worstHopCode(), fresh.portState(), fresh.line());
            } finally {
                compiler.shutdownNow();
                system.close();
                if (testbed != null) {
                    testbed.downAndCheckNothingLeft();
                }
            }
        }
        for (final long pid : ownPids) {
            assertTrue(ProcessHandle.of(pid).filter(ProcessHandle::isAlive).isEmpty(), "process " + pid + " of the testbed is alive");
        }
        System.out.printf(Locale.ROOT, "two switches: up, load, hops, outage, recovery, down in %.1f s%n",
            (System.nanoTime() - startNanos) / 1e9);
    }

    private Path serverConfig(final OneSwitchTestbed testbed) throws IOException {
        return ServerYaml.named("PathServer").pollIntervalMillis(POLL_INTERVAL_MILLIS).metricsOff()
            .server("unknown_after_missed_polls", UNKNOWN_AFTER_MISSED_POLLS)
            .profile(Testbed.PROFILES.resolve("thesis-tac4-corba.json"))
            .node(Node.of("ws1", 1, "TAC-4").snmp(Snmp.v2c(testbed.agent("ws1"), "TESTBED_COMMUNITY")))
            .node(Node.of("ws2", 2, "TAC-4").snmp(Snmp.v2c(testbed.agent("ws2"), "TESTBED_COMMUNITY")))
            .link(polledPort(testbed, FIRST_HOP, "sw1", "trunk"))
            .link(polledPort(testbed, SECOND_HOP, "sw2", "ws2"))
            .thresholds("port_states", "bands")
            .connection(Connection.of(1, "ws1", "ws2", 1).with("links", List.of(FIRST_HOP, SECOND_HOP)).profile("thesis-tac4-corba"))
            .writeTo(directory.resolve("server.yaml"));
    }

    /** A link polled from its switch's snmpd with the status file's if_index, speed and discards OID. */
    private static Link polledPort(final OneSwitchTestbed testbed, final String linkName, final String switchName, final String port) {
        final JsonNode entry = testbed.port(switchName, port);
        return Link.named(linkName).snmp(Snmp.v2c(testbed.agent(switchName), "TESTBED_COMMUNITY")
            .ifIndex(entry.get("if_index").asInt()).speedMbps(entry.get("bottleneck").get("speed_mbps").asInt())
            .with("discards_oid", entry.get("discards_oid").asText()).with("timeout_millis", SNMP_TIMEOUT_MILLIS));
    }

    /** @return the clients once built, or null having printed NOT CHECKED when this machine cannot build them */
    private static ThesisCppClients builtClients(final Future<ThesisCppClients> building, final List<String> missing)
        throws Exception {
        if (building == null) {
            System.out.println("NOT CHECKED: the thesis's omniORB client on a path of two hops; missing: " + String.join("; ", missing));
            return null;
        }
        final long waitNanos = System.nanoTime();
        final ThesisCppClients clients = building.get(5, TimeUnit.MINUTES);
        System.out.printf(Locale.ROOT, "two switches: waited %.1f s for the C++ clients' build%n", (System.nanoTime() - waitNanos) / 1e9);
        return clients;
    }

    /**
     * The thesis client's RequestTableStatus port_state, checked equal to the worst hop's code the watcher showed just
     * before and just after it — a reading taken while the state changes is taken again.
     */
    private static int thesisPortStateAgreeing(final ChildProcess watch, final ThesisCppClients clients, final String srv,
                                               final String ior) throws Exception {
        String seen = "";
        for (int attempt = 0; attempt < 5; attempt++) {
            final PathReading before = awaitPath(watch, 0, r -> true, Duration.ofSeconds(5));
            final int thesis = clients.tablePortState(srv, ior, 1);
            final PathReading after = awaitPath(watch, System.currentTimeMillis(), r -> true, Duration.ofSeconds(5));
            if (before.worstHopCode() == after.worstHopCode() && before.portState() == after.portState()) {
                assertEquals(after.worstHopCode(), thesis, "RequestTableStatus's port_state against the hops " + after.line());
                return thesis;
            }
            seen += "\n" + before.line() + " / thesis " + thesis + " / " + after.line();
        }
        throw new AssertionError("the port state changed around every one of 5 readings:" + seen);
    }

    /**
     * Waits for the watcher's first path line at or after {@code sinceEpochMillis} that satisfies the condition
     * (with 0: the latest line, if it does).
     *
     * @return that line, or the latest one when none did within the timeout
     */
    private static PathReading awaitPath(final ChildProcess watch, final long sinceEpochMillis, final Predicate<PathReading> wanted,
                                         final Duration timeout) throws InterruptedException {
        final long deadline = System.nanoTime() + timeout.toNanos();
        PathReading latest = null;
        while (true) {
            assertTrue(watch.isAlive(), () -> "the watcher exited: " + watch.logEnd());
            final Matcher m = PATH.matcher(watch.log());
            while (m.find()) {
                final PathReading reading = PathReading.of(m);
                latest = reading;
                if (sinceEpochMillis > 0 && reading.epochMillis() >= sinceEpochMillis && wanted.test(reading)) {
                    return reading;
                }
            }
            if (latest != null && (sinceEpochMillis == 0 || latest.epochMillis() >= sinceEpochMillis) && wanted.test(latest)) {
                return latest;
            }
            if (System.nanoTime() > deadline) {
                final PathReading last = latest;
                assertTrue(last != null, () -> "no path line from the watcher: " + watch.logEnd());
                return last;
            }
            Thread.sleep(100);
        }
    }

    private static List<Long> loadPids(final Path state) throws IOException {
        final List<Long> pids = new ArrayList<>();
        for (final String file : List.of("client.pid", "server.pid")) {
            final Path pid = state.resolve("load").resolve("trunk").resolve(file);
            if (Files.exists(pid)) {
                pids.add(Long.parseLong(Files.readString(pid).strip()));
            }
        }
        return pids;
    }
}
