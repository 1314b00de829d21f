package org.latencyserver.demo;

import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.latencyserver.testbed.TestbedStatus;

/**
 * The server configuration of {@code ./latency demo --real-network}, generated from the testbed's
 * status file: the client workstation ws1 and the peer workstation ws2 polled through their own
 * {@code snmpd} (UCD CPU counters: every host's agent reports the whole machine's CPU, since
 * {@code /proc/stat} is not namespaced), every bottleneck port on the way from ws1 to ws2 ({@link #path}:
 * on one switch the port toward ws2; through two switches also the trunk port toward ws2's switch) through
 * its own switch's {@code snmpd} (IF-MIB, with the port's {@code if_index} and the bottleneck's
 * {@code speed_mbps}: a veth reports ifHighSpeed 10000 whatever its tbf allows), loaded port bands, a settle
 * time covering net-snmp's counter refresh, and one connection of each QoS level from ws1 to ws2 through
 * those ports ({@code link:} for one, {@code links:} in path order for several) on the profile measured on
 * this kind of machine.
 *
 * <p>Stateless; thread-safe.
 */
final class RealNetworkConfig {

    /** The client workstation (client agent, core 0) and the peer workstation (peer agent, core 1). */
    static final String CLIENT_HOST = "ws1";
    static final String PEER_HOST = "ws2";
    /** The host the naming service and the server run on. */
    static final String SERVER_HOST = "srv";
    /** The bottleneck port every path ends with: the switch's port toward the peer workstation. */
    static final String PORT = PEER_HOST;
    /** The profile of every connection: its CPU cells were measured on this kind of machine; it has no port cells. */
    static final String PROFILE = "measured-loopback-jacorb";
    /** The workstation type of ws1 and ws2: the shipped profile's. */
    static final String WORKSTATION_TYPE = "LOCAL-2CORE";
    /** The environment variable holding the testbed's SNMPv2c community. */
    static final String COMMUNITY_ENV = "TESTBED_COMMUNITY";
    /** net-snmp refreshes CPU counters every ~5 s (IF-MIB every ~3 s): the slowest refresh plus one poll. */
    static final long SETTLE_MILLIS = 5_100;
    static final long POLL_INTERVAL_MILLIS = 100;
    /** {@code measurement.path_share_percent} unless {@code --path-share-percent} says otherwise. */
    static final double DEFAULT_PATH_SHARE_PERCENT = 5;

    private RealNetworkConfig() {
    }

    /**
     * @param status    the running testbed
     * @param profiles  the shipped profiles' directory
     * @param certs     the certificates {@code ./latency certs} made (server, trust, the agent of ws1)
     * @return the configuration's YAML text
     * @throws IllegalArgumentException when the testbed lacks ws1, ws2, or a bottleneck port toward ws2
     */
    static String yaml(final TestbedStatus status, final Path profiles, final Path certs) {
        return yaml(status, profiles, certs, DEFAULT_PATH_SHARE_PERCENT);
    }

    /**
     * As {@link #yaml(TestbedStatus, Path, Path)}, with another share of the port the agents may take.
     *
     * @param pathSharePercent {@code measurement.path_share_percent}, (0, 100]
     * @return the configuration's YAML text
     */
    static String yaml(final TestbedStatus status, final Path profiles, final Path certs, final double pathSharePercent) {
        return yaml(status, profiles, certs, pathSharePercent, null);
    }

    /**
     * A profile the connections serve from instead of the shipped one ({@code --profile}): e.g. one with
     * port cells measured on this testbed ({@code profile measure --peer … --port-loads …}), so that QoS 2 is
     * served on a loaded port and QoS 3/4 fall back to the loaded band's cell while a measurement runs.
     *
     * @param file            the profile's file
     * @param name            its {@code name}, which the connections name
     * @param workstationType its {@code workstation_type}, which ws1 and ws2 are given
     */
    record ServedProfile(Path file, String name, String workstationType) {
    }

    /**
     * As {@link #yaml(TestbedStatus, Path, Path, double)}, every connection on {@code profile} when it is given.
     *
     * @param profile the profile of every connection; null for the shipped {@value #PROFILE}
     * @return the configuration's YAML text
     */
    static String yaml(final TestbedStatus status, final Path profiles, final Path certs, final double pathSharePercent,
                       final ServedProfile profile) {
        final String profileName = profile == null ? PROFILE : profile.name();
        final String profileFile = (profile == null ? profiles.resolve(PROFILE + ".json") : profile.file()).toString();
        final String workstationType = profile == null ? WORKSTATION_TYPE : profile.workstationType();
        final TestbedStatus.Host client = host(status, CLIENT_HOST);
        final TestbedStatus.Host peer = host(status, PEER_HOST);
        final List<PathPort> path = path(status);
        return String.join("\n", serverSections(status, path, pathSharePercent, profile == null ? profileFile
                : profileFile + "   # --profile"),
            nodesAndLinks(status.snmp().port(), client, peer, path, workstationType),
            connections(path, profileName, profile == null),
            "")
            + DemoMain.securitySection(certs, CLIENT_HOST);
    }

    /**
     * A bottleneck port on the way from ws1 to ws2.
     *
     * @param sw   its switch, whose snmpd serves its counters
     * @param port the port
     */
    record PathPort(TestbedStatus.Switch sw, TestbedStatus.Port port) {
        /** @return the server's name for it: switch-port, e.g. {@code sw1-trunk}, {@code sw2-ws2} */
        String linkName() {
            return sw.name() + "-" + port.name();
        }
    }

    /**
     * The bottleneck ports the traffic from ws1 to ws2 leaves by, in path order: on each switch from ws1's to
     * ws2's, the port toward the next switch, then the port toward ws2; ports without a bottleneck are left out
     * (unlimited, they never queue).
     *
     * @param status the running testbed
     * @return at least one port
     * @throws IllegalArgumentException when ws1 or ws2 is missing, or no port on the way has a bottleneck
     */
    static List<PathPort> path(final TestbedStatus status) {
        final TestbedStatus.Host client = host(status, CLIENT_HOST);
        final TestbedStatus.Host peer = host(status, PEER_HOST);
        final List<String> switches = switchRoute(status, client.switchName(), peer.switchName());
        final List<PathPort> ports = new ArrayList<>();
        for (int i = 0; i < switches.size(); i++) {
            final String name = switches.get(i);
            final TestbedStatus.Switch sw = status.switchNamed(name)
                .orElseThrow(() -> new IllegalArgumentException("no switch " + name + " in the testbed's status"));
            final String toward = i + 1 < switches.size() ? switches.get(i + 1) : PEER_HOST;
            sw.ports().stream().filter(p -> p.toward().equals(toward) && p.bottleneck() != null).findFirst()
                .ifPresent(p -> ports.add(new PathPort(sw, p)));
        }
        if (ports.isEmpty()) {
            throw new IllegalArgumentException("the testbed has no bottleneck on the way from " + CLIENT_HOST + " to " + PORT
                + " (none on the port toward " + PORT + " nor on a link between)");
        }
        return List.copyOf(ports);
    }

    /** The switches from one to another over the testbed's links (which form no loop), both ends included. */
    private static List<String> switchRoute(final TestbedStatus status, final String from, final String to) {
        final Map<String, String> cameFrom = new LinkedHashMap<>();
        final Deque<String> queue = new ArrayDeque<>(List.of(from));
        cameFrom.put(from, from);
        while (!queue.isEmpty() && !cameFrom.containsKey(to)) {
            final String at = queue.pop();
            for (final TestbedStatus.Link link : status.links()) {
                if (link.between().contains(at)) {
                    final String next = link.between().get(0).equals(at) ? link.between().get(1) : link.between().get(0);
                    if (cameFrom.putIfAbsent(next, at) == null) {
                        queue.add(next);
                    }
                }
            }
        }
        if (!cameFrom.containsKey(to)) {
            throw new IllegalArgumentException("no link path from switch " + from + " to switch " + to + " in the testbed");
        }
        final Deque<String> route = new ArrayDeque<>();
        for (String at = to; !at.equals(from); at = cameFrom.get(at)) {
            route.push(at);
        }
        route.push(from);
        return List.copyOf(route);
    }

    /** The header comment and the server, thresholds, measurement and profiles sections. */
    private static String serverSections(final TestbedStatus status, final List<PathPort> path, final double pathSharePercent,
                                         final String profileLine) {
        return String.join("\n",
            "# Generated by ./latency demo --real-network from the testbed's status file (" + status.stateDirectory() + "/status.json).",
            "# Every host's snmpd reports the whole machine's CPU (/proc/stat is not namespaced): ws1 and ws2 read the same",
            path.size() == 1
                ? "# utilisation. The port is the switch's port toward ws2, a " + plain(path.get(0).port().bottleneck().rateMbit())
                    + " Mbit/s tbf."
                : "# utilisation. The path's ports, in order: " + path.stream().map(p -> p.linkName() + " (a "
                    + plain(p.port().bottleneck().rateMbit()) + " Mbit/s tbf toward " + p.port().toward() + ")")
                    .collect(Collectors.joining(", ")) + ".",
            "server:",
            "  name: LatencyServer",
            "  state_file: demo.state.json            # the demo deletes it at start: each run begins fresh",
            "  poll_interval_millis: " + POLL_INTERVAL_MILLIS,
            "  unknown_after_missed_polls: 20         # 2 s without answers: a busy snmpd is not UNKNOWN at once",
            "  metrics: { enabled: true, address: 127.0.0.1, port: 0 }   # srv's loopback; the demo forwards it",
            "  operator_calls_enabled: true",
            "  planner_calls_enabled: true",
            "",
            "thresholds:",
            "  port_states: bands                     # 91-95, 96-98, 99-100 %: a real port near its rate is one state",
            "",
            "measurement:",
            "  round_trips: 1000",
            "  warmup_round_trips: 200",
            "  timeout_millis: 20000",
            "  min_interval_millis: 2000",
            "  max_concurrent_measurements: 2",
            "  path_share_percent: " + plain(pathSharePercent) + "                  # of speed_mbps: measuring does not load the port it measures",
            "  time_budget_millis: 10000",
            "  settle_millis: " + SETTLE_MILLIS + "                  # net-snmp: CPU counters refresh every ~5 s, IF-MIB ~3 s; plus one poll",
            "",
            "profiles:",
            "  - " + profileLine);
    }

    /** The two hosts' nodes and each path port's link, each polled through its snmpd. */
    private static String nodesAndLinks(final int snmpPort, final TestbedStatus.Host client, final TestbedStatus.Host peer,
                                        final List<PathPort> path, final String workstationType) {
        final List<String> lines = new ArrayList<>(List.of(
            "",
            "nodes:",
            "  - { name: " + client.name() + ", node_id: 1, workstation_type: " + workstationType + ", mib_source: snmp,",
            "      snmp: { address: \"udp:" + client.snmpd().address() + "/" + snmpPort + "\", version: v2c, community_env: "
                + COMMUNITY_ENV + " } }",
            "  - { name: " + peer.name() + ", node_id: 2, workstation_type: " + workstationType + ", mib_source: snmp,",
            "      snmp: { address: \"udp:" + peer.snmpd().address() + "/" + snmpPort + "\", version: v2c, community_env: "
                + COMMUNITY_ENV + " } }",
            "",
            "links:"));
        for (final PathPort hop : path) {
            final TestbedStatus.Port port = hop.port();
            lines.add("  - { name: " + hop.linkName() + ", mib_source: snmp,");
            lines.add("      snmp: { address: \"udp:" + hop.sw().snmpd().address() + "/" + snmpPort + "\", version: v2c, community_env: "
                + COMMUNITY_ENV + ",");
            lines.add("              if_index: " + port.ifIndex() + ", speed_mbps: " + port.bottleneck().speedMbps()
                + (port.discardsOid() == null ? "" : ", discards_oid: " + port.discardsOid()) + " } }");
        }
        return String.join("\n", lines);
    }

    /**
     * The four connections ws1 to ws2 over the path, one per QoS level.
     *
     * @param shippedProfile whether the profile is the shipped one (no port cells)
     */
    private static String connections(final List<PathPort> path, final String profileName, final boolean shippedProfile) {
        // One port: link: NAME, as always; several: links: [HOP1, HOP2] in path order (QoS 2 composes the loaded hops' cells).
        final String link = path.size() == 1 ? path.get(0).linkName()
            : "[" + path.stream().map(PathPort::linkName).collect(Collectors.joining(", ")) + "]";
        final String key = path.size() == 1 ? "link: " : "links: ";
        final String header = path.size() == 1 ? "connections:" : "connections:\n  # the path: " + path.size()
            + " switch ports, each polled; QoS 2 with two or more loaded composes their port cells (path_bound: union, the default)";
        return String.join("\n",
            "",
            header,
            "  # QoS 1: the profile's mean for the CPU state pair; on a loaded port plus the thesis's queue model (labelled),",
            "  # then (as for every connection) its own probes of the port state once they hold 100 round trips",
            "  - { index_ref: 1, client: ws1, peer: ws2, " + key + link
                + ", message_size_bytes: 256, qos: 1, profile: " + profileName + " }",
            shippedProfile
                ? "  # QoS 2: the profile's 96 % bound; the profile has no port cells, so on a loaded port it is refused, naming the"
                    + " state, until its probes of the state hold 100 round trips"
                : "  # QoS 2: the profile's 96 % bound; on a loaded port its port cell's (else refused), until its probes of the"
                    + " state hold 100 round trips",
            "  - { index_ref: 2, client: ws1, peer: ws2, " + key + link
                + ", message_size_bytes: 256, qos: 2, bound_percent: 96, profile: " + profileName + " }",
            "  # QoS 3: the mean of a measurement by the client agent on ws1 against the peer agent on ws2, through the port",
            "  - { index_ref: 3, client: ws1, peer: ws2, " + key + link
                + ", message_size_bytes: 256, qos: 3, profile: " + profileName + " }",
            "  # QoS 4: the 96 % bound of each new measurement",
            "  - { index_ref: 4, client: ws1, peer: ws2, " + key + link
                + ", message_size_bytes: 1024, qos: 4, bound_percent: 96, profile: " + profileName + " }");
    }

    /** @return the testbed's host of that name */
    static TestbedStatus.Host host(final TestbedStatus status, final String name) {
        return status.host(name).orElseThrow(() -> new IllegalArgumentException("no host " + name + " in the testbed's status"));
    }

    /** @return the value without a fraction when it is whole ({@code 20}, {@code 2.5}) */
    static String plain(final double value) {
        return value == Math.rint(value) ? Long.toString((long) value) : Double.toString(value);
    }
}
