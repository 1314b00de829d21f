package org.latencyserver.server.snmp;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.latencyserver.server.config.LinkConfig;
import org.latencyserver.server.config.MibSource;
import org.latencyserver.server.config.NodeConfig;
import org.latencyserver.server.config.SnmpAccess;
import org.latencyserver.server.table.ConnectionSpec;
import org.latencyserver.server.table.PortPercents;
import org.snmp4j.Target;
import org.snmp4j.security.USM;

/**
 * What the poller asks and whom each answer feeds: the polled workstations ({@code mib_source:
 * snmp} nodes, their CPU) and switch ports (links), in configuration order, nodes first; the
 * connections with at least one polled end; and per source the connections it feeds.
 *
 * <p>Built once before the poller starts; the lists never change. The sources themselves are
 * thread-safe ({@link PolledSource}).
 */
final class PollPlan {

    /** A polled agent's target, the local address its block names (null: the default), and its node or link. */
    record Agent(Target<?> target, String localAddress, String label) {
    }

    /**
     * A connection and its polled sources (null where that end is pushed); its path's ports in order, empty when its
     * one port is pushed or it has none (a path of several ports has every port polled).
     */
    record Wiring(short indexRef, PolledSource client, PolledSource peer, List<PolledSource> ports) {

        Wiring {
            ports = List.copyOf(ports);
        }

        /** @return whether any polled end has a value or turned UNKNOWN */
        boolean settled() {
            if (client != null && client.settled() || peer != null && peer.settled()) {
                return true;
            }
            for (final PolledSource port : ports) {
                if (port.settled()) {
                    return true;
                }
            }
            return false;
        }

        /** @return the polled ends' values now (−1 where an end is pushed or unknown) */
        PolledValues values() {
            final PortPercents percents;
            if (ports.size() <= 1) {
                percents = PortPercents.single(percent(ports.isEmpty() ? null : ports.get(0)));
            } else {
                final short[] hops = new short[ports.size()];
                for (int i = 0; i < hops.length; i++) {
                    hops[i] = percent(ports.get(i));
                }
                percents = PortPercents.of(hops);
            }
            return new PolledValues(indexRef, client != null, percent(client), peer != null, percent(peer), !ports.isEmpty(),
                percents);
        }

        /** @return the poller's monotonic time of the newest answer behind the values, or {@code Long.MIN_VALUE} */
        long lastAnswerNanos() {
            long newest = Math.max(lastAnswerNanos(client), lastAnswerNanos(peer));
            for (final PolledSource port : ports) {
                newest = Math.max(newest, lastAnswerNanos(port));
            }
            return newest;
        }

        private static long lastAnswerNanos(final PolledSource source) {
            return source == null ? Long.MIN_VALUE : source.lastAnswerNanos();
        }

        private static short percent(final PolledSource source) {
            return (short) (source == null ? -1 : source.percent());
        }
    }

    private final Map<String, PolledSource> nodes = new LinkedHashMap<>();
    private final Map<String, PolledSource> links = new LinkedHashMap<>();
    private final List<Agent> agents = new ArrayList<>();
    private final List<Wiring> connections = new ArrayList<>();
    /** Every polled source, nodes then links. */
    private final List<PolledSource> polled = new ArrayList<>();
    /** Per polled source (same order), the connections it feeds. */
    private final List<List<Wiring>> wiringsOfPolled = new ArrayList<>();

    /**
     * @param nodes                   the configured workstations; those with {@code mib_source: snmp} are polled
     * @param links                   the configured switch ports; those with {@code mib_source: snmp} are polled
     * @param connectionSpecs         the connections; those with at least one polled end are fed
     * @param unknownAfterMissedPolls misses in a row that make a source UNKNOWN, ≥ 1
     * @param environment             looks up the environment variables holding the SNMP secrets
     * @param usm                     the session's user-based security model (v3 users are added to it)
     * @throws IllegalArgumentException when an address is unsupported or a secret's variable is unset
     */
    PollPlan(final List<NodeConfig> nodes, final List<LinkConfig> links, final List<ConnectionSpec> connectionSpecs,
             final int unknownAfterMissedPolls, final Function<String, String> environment, final USM usm) {
        for (final NodeConfig node : nodes) {
            if (node.mibSource() == MibSource.SNMP) {
                final Target<?> target = SnmpTargets.target(node.snmp(), environment, usm);
                final String label = "node " + node.name();
                this.nodes.put(node.name(), node.snmp().cpuSource() == SnmpAccess.CpuSource.HR_PROCESSOR_LOAD
                    ? new HrProcessorLoadSource(label, target, unknownAfterMissedPolls)
                    : new UcdCpuSource(label, target, unknownAfterMissedPolls));
                agents.add(new Agent(target, node.snmp().localAddress(), label));
            }
        }
        for (final LinkConfig link : links) {
            if (link.mibSource() == MibSource.SNMP) {
                final Target<?> target = SnmpTargets.target(link.snmp(), environment, usm);
                this.links.put(link.name(), new LinkSource("link " + link.name(), target, unknownAfterMissedPolls, link.ifIndex(),
                    link.speedMbps(), link.discardsOid()));
                agents.add(new Agent(target, link.snmp().localAddress(), "link " + link.name()));
            }
        }
        wire(connectionSpecs);
    }

    private void wire(final List<ConnectionSpec> connectionSpecs) {
        for (final ConnectionSpec connection : connectionSpecs) {
            final List<PolledSource> ports = new ArrayList<>();
            for (final String link : connection.linkNames()) {
                final PolledSource port = links.get(link);
                if (port != null) {
                    ports.add(port);
                }
            }
            final Wiring wiring = new Wiring(connection.indexRef(), nodes.get(connection.clientNodeName()),
                nodes.get(connection.peerNodeName()), ports);
            if (wiring.client() != null || wiring.peer() != null || !wiring.ports().isEmpty()) {
                connections.add(wiring);
            }
        }
        polled.addAll(nodes.values());
        polled.addAll(links.values());
        final Map<PolledSource, List<Wiring>> wiringsBySource = new IdentityHashMap<>();
        for (final Wiring wiring : connections) {
            final List<PolledSource> ends = new ArrayList<>();
            ends.add(wiring.client());
            ends.add(wiring.peer());
            ends.addAll(wiring.ports());
            for (final PolledSource end : ends) {
                if (end != null) {
                    final List<Wiring> fed = wiringsBySource.computeIfAbsent(end, unused -> new ArrayList<>());
                    if (fed.isEmpty() || fed.get(fed.size() - 1) != wiring) { // a node both client and peer: once
                        fed.add(wiring);
                    }
                }
            }
        }
        for (final PolledSource source : polled) {
            wiringsOfPolled.add(wiringsBySource.getOrDefault(source, List.of()));
        }
    }

    /** @return the polled agents, nodes first, in configuration order */
    List<Agent> agents() {
        return agents;
    }

    /** @return every polled source, nodes then links; index i is the i-th of {@link #wiringsOf} */
    List<PolledSource> polled() {
        return polled;
    }

    /** @return the connections the i-th polled source feeds */
    List<Wiring> wiringsOf(final int polledIndex) {
        return wiringsOfPolled.get(polledIndex);
    }

    /** @return how many workstations are polled */
    int nodeCount() {
        return nodes.size();
    }

    /** @return how many switch ports are polled */
    int linkCount() {
        return links.size();
    }

    /** @return how many connections have at least one polled end */
    int connectionCount() {
        return connections.size();
    }

    /** @return per polled node and link name (nodes first): true while it answers, false while it is UNKNOWN */
    Map<String, Boolean> sourcesUp() {
        final Map<String, Boolean> up = new LinkedHashMap<>();
        nodes.forEach((name, source) -> up.put(name, !source.unknown()));
        links.forEach((name, source) -> up.put(name, !source.unknown()));
        return up;
    }

    /** @return per polled node or link name, how often its agent refreshes its counters, seconds; unseen ones left out */
    Map<String, Double> counterRefreshSeconds() {
        final Map<String, Double> refresh = new LinkedHashMap<>();
        nodes.forEach((name, source) -> putRefresh(refresh, name, source));
        links.forEach((name, source) -> putRefresh(refresh, name, source));
        return refresh;
    }

    private static void putRefresh(final Map<String, Double> refresh, final String name, final PolledSource source) {
        final long nanos = source.counterRefreshNanos();
        if (nanos > 0) {
            refresh.put(name, nanos / 1e9);
        }
    }
}
