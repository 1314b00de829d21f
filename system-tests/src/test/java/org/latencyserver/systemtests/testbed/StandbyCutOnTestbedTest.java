package org.latencyserver.systemtests.testbed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencyserver.launch.ChildProcess;
import org.latencyserver.launch.Component;
import org.latencyserver.server.config.TestbedConfigLines;
import org.latencyserver.systemtests.kit.SystemUnderTest;
import org.latencyserver.testkit.config.ServerYaml;
import org.latencyserver.testkit.config.ServerYaml.Connection;

/**
 * The hot standby's pair cut on a real network: a testbed of three hosts on one switch — the naming
 * service on {@code nsh}, the pair's servers on {@code pa} and {@code pb}, each in its own network
 * namespace —, and beside each server, in its namespace, a client ({@link PairMemberWatchMain}) that
 * reads the server's role from its metrics and writes straight to its reference every 100 ms.
 *
 * <p>Two cuts, each healed after the pair settled: (a) only the traffic between the two servers
 * (each one's neighbour entry for the other pointing at a station that does not exist: frames
 * dropped silently, each way), (b) the primary's switch port down (cut off from the
 * standby and the naming service). For each the test prints, from the clients' own observations,
 * how long both servers reported the role primary at once and how long both acknowledged writes at
 * once (each sample standing until the client's next), and asserts that this never happened, that after healing exactly one
 * server is primary and the other stands by again without a restart, and that every write a server
 * acknowledged while protected is served by the final primary (writes acknowledged unprotected by a
 * primary that then stepped down are the documented loss; they are counted).
 */
@Order(6) // a long class, started early (junit-platform.properties): its cuts last 15 s and 20 s
class StandbyCutOnTestbedTest {

    private static final Pattern LINE = Pattern.compile(
        "t=(\\d+) seq=(\\d+) conn=(\\d+) val=(\\d+) result=(\\S+) end=(\\d+)");
    private static final Pattern ROLE = Pattern.compile("t=(\\d+) role=(\\S+)");
    private static final Pattern FINAL = Pattern.compile("final conn=(\\d+) val=(\\d+)");
    private static final int CONNECTIONS_EACH = 1000; // more than a client writes in the test: no connection written twice
    private static final Duration SETTLE = Duration.ofSeconds(90);
    /** The protected writes the clients must have made: more than this many. */
    private static final int PROTECTED_WRITES_AT_LEAST = 20;

    @TempDir
    Path directory;

    @Test
    void aCutBetweenTheServersAndACutOffPrimaryNeverLeaveTwoPrimariesAndLoseNoProtectedWrite() throws Exception {
        OneSwitchTestbed.requireTools("the standby pair's cuts on the testbed");
        final Path topology = directory.resolve("pair.yaml");
        final String name = OneSwitchTestbed.uniqueName("sc");
        Files.writeString(topology, "name: " + name + "\n"
            + "switches:\n  - { name: sw1, management_address: 198.18.0.254/24 }\n"
            + "hosts:\n"
            + "  - { name: nsh, switch: sw1, address: 198.18.0.1/24 }\n"
            + "  - { name: pa, switch: sw1, address: 198.18.0.2/24 }\n"
            + "  - { name: pb, switch: sw1, address: 198.18.0.3/24 }\n");
        OneSwitchTestbed testbed = null;
        try (SystemUnderTest system = SystemUnderTest.in(directory)) {
            try {
                testbed = OneSwitchTestbed.up(system, directory, topology);
                final String sw1 = testbed.switchNamed("sw1").get("namespace").asText();
                final String portA = testbed.port("sw1", "pa").get("interface").asText();
                final String portB = testbed.port("sw1", "pb").get("interface").asText();
                final String naming = system.launch(Component.NAMING_SERVICE).name("naming")
                    .args("--host", "198.18.0.1", "--port", "2809", "--db-dir", directory.resolve("nsdb").toString())
                    .inNetworkNamespace(testbed.namespace("nsh")).start().awaitReady(SystemUnderTest.READY_TIMEOUT).reference("naming");
                final ChildProcess a = server(system, testbed, "a", "pa", "198.18.0.2", "198.18.0.3", naming);
                final String metricsA = a.awaitReady(SystemUnderTest.READY_TIMEOUT).url("metrics");
                final ChildProcess b = server(system, testbed, "b", "pb", "198.18.0.3", "198.18.0.2", naming);
                final String metricsB = b.awaitReady(SystemUnderTest.READY_TIMEOUT).url("metrics");
                final Path stop = directory.resolve("stop");
                final ChildProcess watchA = watch(system, testbed, "a", "pa", metricsA, 1, stop, naming);
                final ChildProcess watchB = watch(system, testbed, "b", "pb", metricsB, 1 + CONNECTIONS_EACH, stop, naming);
                awaitRoles(watchA, watchB, "primary", "standing_by");
                awaitProtectedWrites(watchA, watchB); // protected writes before the first cut

                // (a) only the traffic between the two servers: each one's neighbour entry for the other names a station
                // that does not exist, so their frames to each other are dropped silently (as on a cut link); both still
                // reach the naming service.
                final long cutA = System.currentTimeMillis();
                exec(testbed.namespace("pa"), "ip", "neigh", "replace", "198.18.0.3", "lladdr", "02:00:00:00:0b:0b", "dev", "eth0",
                    "nud", "permanent");
                exec(testbed.namespace("pb"), "ip", "neigh", "replace", "198.18.0.2", "lladdr", "02:00:00:00:0a:0a", "dev", "eth0",
                    "nud", "permanent");
                Thread.sleep(15_000);
                final long healA = System.currentTimeMillis();
                exec(testbed.namespace("pa"), "ip", "neigh", "del", "198.18.0.3", "dev", "eth0");
                exec(testbed.namespace("pb"), "ip", "neigh", "del", "198.18.0.2", "dev", "eth0");
                final String[] afterA = awaitOnePrimaryOneStandingBy(watchA, watchB, healA);
                final long settledA = System.currentTimeMillis();
                report("(a) the link between the two servers cut", watchA, watchB, cutA, healA, settledA, afterA);

                // (b) the primary's switch port down: cut off from the standby and the naming service.
                final boolean aPrimary = "primary".equals(afterA[0]);
                final String primaryPort = aPrimary ? portA : portB;
                Thread.sleep(2000);
                final long cutB = System.currentTimeMillis();
                exec(sw1, "ip", "link", "set", primaryPort, "down");
                Thread.sleep(20_000);
                final long healB = System.currentTimeMillis();
                exec(sw1, "ip", "link", "set", primaryPort, "up");
                final String[] afterB = awaitOnePrimaryOneStandingBy(watchA, watchB, healB);
                final long settledB = System.currentTimeMillis();
                report("(b) the primary's switch port down", watchA, watchB, cutB, healB, settledB, afterB);
                assertEquals(aPrimary ? "standing_by" : "primary", afterB[0],
                    "the primary cut off stepped down and stands by again; the standby serves");

                Thread.sleep(2000);
                Files.writeString(stop, "stop");
                for (final ChildProcess watch : List.of(watchA, watchB)) {
                    assertEquals(0, watch.awaitExit(Duration.ofSeconds(90)), watch::logEnd);
                    assertTrue(watch.log().contains("done") && !watch.log().contains("final error"), watch::logEnd);
                }
                final Map<String, Long> lost = lostWrites(watchA.log() + watchB.log());
                System.out.printf(Locale.ROOT, "standby cut on testbed: writes acknowledged protected %d, lost of them %d;"
                    + " acknowledged unprotected %d, lost of them %d%n", lost.get("protected"), lost.get("protectedLost"),
                    lost.get("unprotected"), lost.get("unprotectedLost"));
                assertEquals(0L, lost.get("protectedLost"), "a write acknowledged while protected was lost");
                assertTrue(lost.get("protected") > PROTECTED_WRITES_AT_LEAST, "the clients wrote while the pair was protected");
            } finally {
                system.close();
                if (testbed != null) {
                    testbed.downAndCheckNothingLeft();
                }
            }
        }
    }

    private ChildProcess server(final SystemUnderTest system, final OneSwitchTestbed testbed, final String name, final String host,
                                final String address, final String peer, final String naming) throws Exception {
        final ServerYaml yaml = ServerYaml.named("CutPair").stateFile(Path.of(name + ".state.json"))
            .server("standby", Map.of("listen", address + ":7800", "peer", peer + ":7800"))
            .profile(Path.of("../profiles/thesis-tac4-corba.json").toAbsolutePath().normalize());
        final ServerYaml config = TestbedConfigLines.pushedWs1Ws2OnAtmPort(yaml, "ws1");
        for (int c = 1; c <= 2 * CONNECTIONS_EACH; c++) {
            config.connection(Connection.of(c, "ws1", "ws2", 1).link("atm-port").profile("thesis-tac4-corba").calibration("thesis")
                .probeRatePerSecond(0));
        }
        return system.serverLaunch(name, config.writeTo(directory.resolve(name + ".yaml")))
            .args("--host", address, "--metrics-port", "9464", "--naming", naming)
            .inNetworkNamespace(testbed.namespace(host)).start();
    }

    private ChildProcess watch(final SystemUnderTest system, final OneSwitchTestbed testbed, final String name, final String host,
                               final String metrics, final int first, final Path stop, final String naming) throws Exception {
        return system.launchClass("watch-" + name, PairMemberWatchMain.class)
            .args(directory.resolve(name + ".ior").toString(), metrics, Integer.toString(first), Integer.toString(CONNECTIONS_EACH),
                stop.toString(), "CutPair", naming)
            .inNetworkNamespace(testbed.namespace(host)).start();
    }

    /** A client's role sample (stands until its next), or a write acknowledged between its send and its answer. */
    private record Sample(long millis, long untilMillis, String role, boolean acknowledged) {
    }

    /** @return the client's role samples, each standing until the next (the last for 50 ms) */
    private static List<Sample> samples(final ChildProcess watch) {
        final List<long[]> times = new ArrayList<>();
        final List<String> roles = new ArrayList<>();
        for (final String line : watch.log().lines().toList()) {
            final Matcher m = ROLE.matcher(line);
            if (m.matches()) {
                times.add(new long[] {Long.parseLong(m.group(1))});
                roles.add(m.group(2));
            }
        }
        final List<Sample> samples = new ArrayList<>();
        for (int i = 0; i < times.size(); i++) {
            final long at = times.get(i)[0];
            samples.add(new Sample(at, i + 1 < times.size() ? times.get(i + 1)[0] : at + 50, roles.get(i), false));
        }
        return samples;
    }

    /** @return the client's acknowledged writes, each over the time from its send to its answer */
    private static List<Sample> acknowledgements(final ChildProcess watch) {
        final List<Sample> acks = new ArrayList<>();
        for (final String line : watch.log().lines().toList()) {
            final Matcher m = LINE.matcher(line);
            if (m.matches() && !"refused".equals(m.group(5))) {
                acks.add(new Sample(Long.parseLong(m.group(1)), Long.parseLong(m.group(6)), "", true));
            }
        }
        return acks;
    }

    private static String newestRole(final ChildProcess watch) {
        final List<Sample> samples = samples(watch);
        return samples.isEmpty() ? "none" : samples.get(samples.size() - 1).role();
    }

    private static void awaitRoles(final ChildProcess watchA, final ChildProcess watchB, final String roleA, final String roleB)
        throws InterruptedException {
        final long deadline = System.nanoTime() + SETTLE.toNanos();
        while (!(roleA.equals(newestRole(watchA)) && roleB.equals(newestRole(watchB)))) {
            assertTrue(System.nanoTime() < deadline, "roles " + roleA + "/" + roleB + " within " + SETTLE + ":\n" + watchA.logEnd()
                + "\n" + watchB.logEnd());
            assertTrue(watchA.isAlive() && watchB.isAlive(), () -> watchA.logEnd() + "\n" + watchB.logEnd());
            Thread.sleep(100);
        }
    }

    /** @return the two roles once one is primary and the other stands by, for a second */
    private static String[] awaitOnePrimaryOneStandingBy(final ChildProcess watchA, final ChildProcess watchB, final long since)
        throws InterruptedException {
        final long deadline = System.nanoTime() + SETTLE.toNanos();
        long steadySince = -1;
        while (true) {
            final String a = newestRole(watchA);
            final String b = newestRole(watchB);
            final boolean settled = "primary".equals(a) && "standing_by".equals(b) || "standing_by".equals(a) && "primary".equals(b);
            if (settled && steadySince < 0) {
                steadySince = System.nanoTime();
            } else if (!settled) {
                steadySince = -1;
            }
            if (settled && System.nanoTime() - steadySince > 1_000_000_000L) {
                return new String[] {a, b};
            }
            assertTrue(System.nanoTime() < deadline, "one primary and one standby within " + SETTLE + " of the heal:\n"
                + watchA.logEnd() + "\n" + watchB.logEnd());
            Thread.sleep(100);
        }
    }

    /** Prints what each side did from the cut to settled, and asserts there were never two primaries by the clients' samples. */
    private static void report(final String what, final ChildProcess watchA, final ChildProcess watchB, final long cut, final long heal,
                               final long settled, final String[] after) {
        final List<Sample> a = window(samples(watchA), cut, settled);
        final List<Sample> b = window(samples(watchB), cut, settled);
        final long bothPrimaryMillis = overlapMillis(a, b, s -> "primary".equals(s.role()));
        final long bothAckMillis = overlapMillis(window(acknowledgements(watchA), cut, settled),
            window(acknowledgements(watchB), cut, settled), s -> true);
        System.out.printf(Locale.ROOT, "standby cut on testbed %s: a %s; b %s; heal to settled %d ms; both primary %d ms, both"
                + " acknowledging %d ms; after: a %s, b %s%n", what, story(a, acknowledgements(watchA), heal),
            story(b, acknowledgements(watchB), heal), settled - heal, bothPrimaryMillis, bothAckMillis, after[0], after[1]);
        assertEquals(0, bothPrimaryMillis, what + ": both reported primary at once");
        assertEquals(0, bothAckMillis, what + ": both acknowledged writes at once");
    }

    private static List<Sample> window(final List<Sample> samples, final long from, final long to) {
        return samples.stream().filter(s -> s.untilMillis() >= from && s.millis() <= to).toList();
    }

    /**
     * @return the roles in order with the time each began, ms after the cut ({@code +acks} while a write sent in the last
     *         second was acknowledged), and a mark at the heal
     */
    private static String story(final List<Sample> samples, final List<Sample> acks, final long heal) {
        final StringBuilder text = new StringBuilder();
        String role = null;
        boolean healed = false;
        final long start = samples.isEmpty() ? 0 : samples.get(0).millis();
        for (final Sample s : samples) {
            if (!healed && s.millis() >= heal) {
                text.append(" |heal@").append(heal - start);
                healed = true;
            }
            final boolean acking = acks.stream().anyMatch(k -> k.untilMillis() <= s.millis() && k.untilMillis() > s.millis() - 1000);
            final String now = s.role() + (acking ? "+acks" : "");
            if (!now.equals(role)) {
                text.append(' ').append(now).append('@').append(s.millis() - start);
                role = now;
            }
        }
        return text.toString().trim();
    }

    /** @return how long samples of both clients meeting the condition cover the same time */
    private static long overlapMillis(final List<Sample> a, final List<Sample> b, final java.util.function.Predicate<Sample> condition) {
        long total = 0;
        for (int i = 0; i < a.size(); i++) {
            if (!condition.test(a.get(i))) {
                continue;
            }
            final long aFrom = a.get(i).millis();
            final long aTo = a.get(i).untilMillis();
            for (int j = 0; j < b.size(); j++) {
                if (condition.test(b.get(j))) {
                    final long bFrom = b.get(j).millis();
                    final long bTo = b.get(j).untilMillis();
                    total += Math.max(0, Math.min(aTo, bTo) - Math.max(aFrom, bFrom));
                }
            }
        }
        return total;
    }

    /**
     * For every connection, the newest write acknowledged to it (by either client): when it was acknowledged while
     * protected, the final table must hold its value or a later acknowledged write's.
     */
    /**
     * Waits at least 2 s and until the clients hold more than {@link #PROTECTED_WRITES_AT_LEAST} writes acknowledged while
     * protected: each writes every 100 ms when the machine lets it, and a busy machine may let it write far fewer.
     */
    private static void awaitProtectedWrites(final ChildProcess watchA, final ChildProcess watchB) throws Exception {
        final long deadlineNanos = System.nanoTime() + SETTLE.toNanos();
        Thread.sleep(2000);
        while (protectedWrites(watchA.log() + watchB.log()) <= PROTECTED_WRITES_AT_LEAST) {
            if (System.nanoTime() > deadlineNanos) {
                throw new AssertionError("no more than " + PROTECTED_WRITES_AT_LEAST + " protected writes within " + SETTLE.toSeconds()
                    + " s of the pair's roles\n" + watchA.logEnd() + "\n" + watchB.logEnd());
            }
            Thread.sleep(100);
        }
    }

    /** @return the writes the clients' logs say were acknowledged while protected */
    private static long protectedWrites(final String logs) {
        return logs.lines().map(LINE::matcher).filter(m -> m.matches() && "ack".equals(m.group(5))).count();
    }

    private static Map<String, Long> lostWrites(final String logs) {
        final Map<Integer, List<String[]>> acked = new HashMap<>(); // conn -> [val, result] in order
        final Map<Integer, Integer> finalValues = new HashMap<>();
        for (final String line : logs.lines().toList()) {
            final Matcher m = LINE.matcher(line);
            if (m.matches() && !"refused".equals(m.group(5))) {
                acked.computeIfAbsent(Integer.parseInt(m.group(3)), k -> new ArrayList<>()).add(new String[] {m.group(4), m.group(5)});
            }
            final Matcher f = FINAL.matcher(line);
            if (f.matches()) {
                finalValues.put(Integer.parseInt(f.group(1)), Integer.parseInt(f.group(2)));
            }
        }
        long protectedWrites = 0;
        long protectedLost = 0;
        long unprotected = 0;
        long unprotectedLost = 0;
        for (final Map.Entry<Integer, List<String[]>> entry : acked.entrySet()) {
            final List<String[]> writes = entry.getValue();
            final Integer finalValue = finalValues.get(entry.getKey());
            for (int i = 0; i < writes.size(); i++) {
                // held: its value is the final one, or a later acknowledged write to the connection is
                boolean held = false;
                for (int j = i; j < writes.size() && !held; j++) {
                    held = finalValue != null && Integer.parseInt(writes.get(j)[0]) == finalValue;
                }
                if ("ack".equals(writes.get(i)[1])) {
                    protectedWrites++;
                    protectedLost += held ? 0 : 1;
                } else {
                    unprotected++;
                    unprotectedLost += held ? 0 : 1;
                }
            }
        }
        return Map.of("protected", protectedWrites, "protectedLost", protectedLost, "unprotected", unprotected,
            "unprotectedLost", unprotectedLost);
    }

    private static void exec(final String namespace, final String... command) throws Exception {
        final List<String> argv = new ArrayList<>(List.of("ip", "netns", "exec", namespace));
        argv.addAll(List.of(command));
        OneSwitchTestbed.exec(argv);
    }
}
