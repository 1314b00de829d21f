package org.latencyserver.testbed;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A testbed's network as its topology file describes it (read by {@link TopologyReader}, which
 * checks every rule stated here): switches, hosts each on one switch, and links between switches
 * that form no loop (bridges here run no spanning tree). All names are unique across switches,
 * hosts and links, so that a port is named by its host or link.
 *
 * <p>Immutable; thread-safe.
 *
 * @param name     the testbed's name (its namespaces are {@code lt-NAME-NODE}); a command line may override it
 * @param switches in file order
 * @param hosts    in file order
 * @param links    in file order
 */
public record Topology(String name, List<SwitchSpec> switches, List<HostSpec> hosts, List<LinkSpec> links) {

    /** Copies the lists. */
    public Topology {
        switches = List.copyOf(switches);
        hosts = List.copyOf(hosts);
        links = List.copyOf(links);
    }

    /** @return the same topology under another testbed name */
    public Topology named(final String otherName) {
        return new Topology(otherName, switches, hosts, links);
    }

    /** @return the host of that name, if any */
    public Optional<HostSpec> host(final String hostName) {
        return hosts.stream().filter(h -> h.name().equals(hostName)).findFirst();
    }

    /** @return the link of that name, if any */
    public Optional<LinkSpec> link(final String linkName) {
        return links.stream().filter(l -> l.name().equals(linkName)).findFirst();
    }

    /**
     * The hosts reached from a switch without crossing a link: the side of the link that switch is on.
     *
     * @param start    a switch
     * @param withheld a link not to cross, or null to cross any
     * @return the hosts on that side, in file order
     */
    public List<HostSpec> hostsReachedFrom(final String start, final LinkSpec withheld) {
        final Set<String> reached = new LinkedHashSet<>();
        final Deque<String> queue = new ArrayDeque<>(List.of(start));
        while (!queue.isEmpty()) {
            final String at = queue.pop();
            if (!reached.add(at)) {
                continue;
            }
            for (final LinkSpec link : links) {
                if (link != withheld && link.switches().contains(at)) {
                    queue.add(link.otherEnd(at));
                }
            }
        }
        final List<HostSpec> side = new ArrayList<>();
        for (final HostSpec host : hosts) {
            if (reached.contains(host.switchName())) {
                side.add(host);
            }
        }
        return side;
    }
}
