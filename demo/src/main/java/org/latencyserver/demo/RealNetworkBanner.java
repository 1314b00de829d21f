package org.latencyserver.demo;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import org.latencyserver.launch.Installation;
import org.latencyserver.testbed.TestbedStatus;

/**
 * What {@code ./latency demo --real-network} prints for people once it runs: where to look, what runs
 * where on the testbed, what the scenario does, and what the estimates will show — including what
 * this testbed cannot show (one machine's CPU) and what is refused by design (QoS 2 on a loaded port,
 * whose profile has no port cells). Printed from the ready file and the testbed's status; no program
 * reads it.
 *
 * <p>Stateless; thread-safe.
 */
final class RealNetworkBanner {

    /** How a person runs a component here: {@code ./latency} in a checkout, {@code bin/latency} of a distribution. */
    private static final String LAUNCHER = Installation.current().launcherCommand();

    private RealNetworkBanner() {
    }

    /**
     * @param out             where
     * @param ready           the running demo
     * @param status          the running testbed
     * @param scenario        the load walk
     * @param loadOffReason   why real CPU load is off, or null when it follows the scenario
     * @param durationSeconds {@code --duration}, or null
     */
    static void print(final PrintStream out, final DemoReady ready, final TestbedStatus status, final RealNetworkScenario scenario,
                      final String loadOffReason, final Long durationSeconds) {
        print(out, ready, status, scenario, loadOffReason, durationSeconds, null);
    }

    /**
     * As above, saying which profile the connections serve from.
     *
     * @param profile {@code --profile}, or null for the shipped one
     */
    static void print(final PrintStream out, final DemoReady ready, final TestbedStatus status, final RealNetworkScenario scenario,
                      final String loadOffReason, final Long durationSeconds, final RealNetworkConfig.ServedProfile profile) {
        final List<RealNetworkConfig.PathPort> path = RealNetworkConfig.path(status);
        printWhereThingsAre(out, ready, status, path);
        printScenario(out, ready, scenario);
        printConnections(out, profile);
        if (loadOffReason == null) {
            out.println("  Real CPU load follows the scenario: ws1 (client agent) on core 0, ws2 (peer agent) on core 1.");
        } else {
            out.println("  Real CPU load is off (" + loadOffReason + "); the port load still follows the scenario.");
        }
        out.println();
        out.println("  Stop with Ctrl-C" + (durationSeconds == null ? "" : " (or wait " + durationSeconds + " s)")
            + ": every process, the load and the testbed's namespaces (with their interfaces and qdiscs) are removed.");
        out.println();
        out.flush();
    }

    /** The URLs, commands and files to reach the demo by, and which host runs what. */
    private static void printWhereThingsAre(final PrintStream out, final DemoReady ready, final TestbedStatus status,
                                            final List<RealNetworkConfig.PathPort> path) {
        final TestbedStatus.Switch sw = path.get(path.size() - 1).sw();
        final TestbedStatus.Port port = path.get(path.size() - 1).port();
        final String naming = ready.naming();
        final String serverName = ready.serverName();
        final Path mirrorFile = ready.mirrorFile();
        final String srv = ready.namespaceOf("server").orElse("?");
        final TestbedStatus.Host ws1 = RealNetworkConfig.host(status, RealNetworkConfig.CLIENT_HOST);
        final TestbedStatus.Host ws2 = RealNetworkConfig.host(status, RealNetworkConfig.PEER_HOST);
        out.println();
        out.println("  Latency Server demo is running on a real network (testbed " + status.testbed() + ", namespaces "
            + status.prefix() + "*).");
        out.println();
        out.println("  Console:        " + ready.consoleUrl() + "  (the console runs in " + srv + "; carried here through "
            + ready.workDir().resolve("console.sock") + ")");
        ready.metricsUrl().ifPresent(url -> out.println("  Metrics:        " + url));
        out.println("  Naming service: " + naming + "  (inside the testbed: reach it from a host, e.g. sudo ip netns exec "
            + srv + " …)");
        out.println("  Terminal view:  sudo ip netns exec " + srv + " " + LAUNCHER + " console --naming " + naming + " --server "
            + serverName + " --watch");
        out.println("  Mirror file:    " + mirrorFile + "  (ws1's copy of every estimate; the file system is shared)");
        out.println("                  " + LAUNCHER + " mirror-read --file " + mirrorFile + " --watch");
        out.println("  Testbed:        sudo " + LAUNCHER + " testbed status --name " + status.testbed() + "     (ports, agents; "
            + "sudo tc -n " + sw.namespace() + " -s qdisc show dev " + port.interfaceName() + " for the drops)");
        out.println();
        out.println("  Where things run: naming service, server and console on srv (" + RealNetworkConfig.host(status,
            RealNetworkConfig.SERVER_HOST).address() + "); client agent and mirror on ws1 (" + ws1.address() + "); peer agent on ws2 ("
            + ws2.address() + ").");
        if (path.size() == 1) {
            out.println(String.format(Locale.ROOT, "  The connections ws1 -> ws2 cross the switch's port toward ws2: a %s Mbit/s tbf,"
                + " polled through %s's snmpd (ifIndex %d, speed_mbps %d).", RealNetworkConfig.plain(port.bottleneck().rateMbit()),
                sw.name(), port.ifIndex(), port.bottleneck().speedMbps()));
        } else {
            out.println("  The connections ws1 -> ws2 cross " + path.size() + " bottleneck ports (links: [" + path.stream()
                .map(RealNetworkConfig.PathPort::linkName).collect(Collectors.joining(", ")) + "]), each polled through its switch's snmpd:");
            for (int i = 0; i < path.size(); i++) {
                final RealNetworkConfig.PathPort hop = path.get(i);
                out.println(String.format(Locale.ROOT, "    hop %d: %s, %s's port toward %s, a %s Mbit/s tbf (ifIndex %d, speed_mbps %d)",
                    i + 1, hop.linkName(), hop.sw().name(), hop.port().toward(), RealNetworkConfig.plain(hop.port().bottleneck().rateMbit()),
                    hop.port().ifIndex(), hop.port().bottleneck().speedMbps()));
            }
            out.println("  Each hop has its own port state; the connection's port_state is the worst hop's, and QoS 2 with both");
            out.println("  hops loaded composes the profile's port cells (union bound served; the independent-hops value beside it).");
        }
        out.println("  CPU: every host's snmpd reports the WHOLE machine's CPU (/proc/stat is not namespaced): ws1 and ws2 read");
        out.println("  the same utilisation, so the CPU states are not per host here; only the port state is.");
        out.println();
    }

    /** The scenario's steps, one line each. */
    private static void printScenario(final PrintStream out, final DemoReady ready, final RealNetworkScenario scenario) {
        out.println(String.format(Locale.ROOT, "  What to look at: every %d s the load changes (%s):", scenario.stepMillis() / 1000,
            ready.scenario()));
        for (int i = 0; i < scenario.steps().size(); i++) {
            final RealNetworkScenario.Step step = scenario.steps().get(i);
            final String ports = step.portPercent().size() == 1
                ? "port " + portText(step.portPercent().values().iterator().next())
                : "ports " + step.portPercent().entrySet().stream().map(e -> e.getKey() + " " + portText(e.getValue()))
                    .collect(Collectors.joining(", "));
            out.println(String.format(Locale.ROOT, "    %d. CPU %s; %s", i + 1, step.cpuPercent().entrySet().stream()
                .map(e -> e.getKey() + " " + e.getValue() + " %").collect(Collectors.joining(", ")), ports));
        }
        out.println("  - the port state follows the load within net-snmp's counter refresh (~3 s) and a poll: LOADED in bands");
        out.println("    91-95, 96-98, 99-100 % (port_state 95, 98, 100), SATURATED (101) while it drops, NORMAL when idle;");
    }

    /** One port's load in a step, for people. */
    private static String portText(final int percent) {
        return percent == 0 ? "idle" : percent + " %" + (percent > 100 ? " offered (overload: the tbf drops; the counters read 100 %,"
            + " the drops make it SATURATED)" : "");
    }

    /** What each connection serves, by the profile served ({@code null}: the shipped one). */
    private static void printConnections(final PrintStream out, final RealNetworkConfig.ServedProfile profile) {
        if (profile == null) {
            out.println("  - connection 1 (QoS 1): the profile's mean (" + RealNetworkConfig.PROFILE + ") for the CPU pair, plus the");
            out.println("    thesis's queue model while the port is LOADED (labelled in the estimate);");
            out.println("  - connection 2 (QoS 2): the profile's 96 % bound while the port is NORMAL. The profile has no port cells,");
            out.println("    so while the port is LOADED QoS 2 is REFUSED, naming the port state - by design: it never serves the idle");
            out.println("    port's bound for a queueing port. The console shows the refusal and its reason;");
            out.println("  - on a loaded port every connection then serves its path's own probes and measurements of the port state");
            out.println("    once they hold 100 round trips (source 'band probes': about 10 s of probes, or one measurement);");
        } else {
            out.println("  - every connection's profile is " + profile.name() + " (--profile " + profile.file() + "):");
            out.println("  - connection 1 (QoS 1): its mean for the CPU pair; while the port is LOADED its port cell for the band,");
            out.println("    plus what the CPU pair adds (labelled), or the thesis's queue model where it has no cell;");
            out.println("  - connection 2 (QoS 2): its 96 % bound; while the port is LOADED its port cell's for the band - REFUSED,");
            out.println("    naming the port state, in a band (or SATURATED) it has no cell for;");
            out.println("  - on a loaded port every connection then serves its path's own probes and measurements of the port state");
            out.println("    once they hold 100 round trips (source 'band probes': about 10 s of probes, or one measurement);");
        }
        out.println("  - connections 3 and 4 (QoS 3, 4): measured by the client agent on ws1 against the peer agent on ws2,");
        out.println("    through the bottleneck, paced to 5 % of its rate, each result kept only if the state held for 5.1 s after it.");
    }
}
