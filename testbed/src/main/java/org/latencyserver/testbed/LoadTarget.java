package org.latencyserver.testbed;

import java.util.ArrayList;
import java.util.List;

/**
 * Where a load on a named bottleneck port goes: the port's rate, the host that receives (beyond the
 * port) and the host that sends (on the other side of it), and the TCP/UDP port iperf3 uses for it.
 *
 * <p>A host's port ({@code ws2}) is loaded from another host toward that host; a link's port
 * ({@code trunk}) from a host on the link's sending side toward a host on its {@code toward} side.
 * Unless told, the sender is the first host in topology order on the sending side that is not the
 * receiver (for a host's port, one on the same switch first), and for a link the receiver is the
 * first host on the far side.
 *
 * <p>Immutable; thread-safe.
 *
 * @param port        the port's name
 * @param limit       its bottleneck
 * @param receiver    the receiving host
 * @param sender      the sending host
 * @param iperfPort   the port iperf3 listens on
 */
public record LoadTarget(String port, TestbedStatus.Limit limit, TestbedStatus.Host receiver, TestbedStatus.Host sender,
                         int iperfPort) {

    /** iperf3's usual port; each bottleneck port of a testbed uses its own from here on. */
    public static final int FIRST_IPERF_PORT = 5201;

    /**
     * @param status   the running testbed
     * @param topology its topology (for the sides of a link)
     * @param port     a bottleneck port's name: a host's or a link's
     * @param from     the sending host's name, or null for the default
     * @return the target
     * @throws IllegalArgumentException naming the port or host when there is no such bottleneck or sender
     */
    public static LoadTarget of(final TestbedStatus status, final Topology topology, final String port, final String from) {
        final List<String> bottlenecks = new ArrayList<>();
        topology.hosts().stream().filter(h -> h.bottleneck().isPresent()).forEach(h -> bottlenecks.add(h.name()));
        topology.links().stream().filter(l -> l.bottleneck().isPresent()).forEach(l -> bottlenecks.add(l.name()));
        if (!bottlenecks.contains(port)) {
            throw new IllegalArgumentException("no bottleneck port '" + port + "' in testbed " + status.testbed()
                + "; its bottleneck ports are " + bottlenecks);
        }
        final int iperfPort = FIRST_IPERF_PORT + bottlenecks.indexOf(port);
        final List<HostSpec> receivers;
        final List<HostSpec> senders;
        final TestbedStatus.Limit limit;
        final var host = topology.host(port);
        if (host.isPresent()) {
            receivers = List.of(host.get());
            // Hosts on the port's own switch first: their load crosses no other bottleneck.
            senders = topology.hosts().stream().filter(h -> !h.name().equals(port))
                .sorted(java.util.Comparator.comparing((HostSpec h) -> !h.switchName().equals(host.get().switchName()))).toList();
            limit = TestbedStatus.Limit.of(host.get().bottleneck().orElseThrow());
        } else {
            final LinkSpec link = topology.link(port).orElseThrow();
            receivers = topology.hostsReachedFrom(link.towardSwitch().orElseThrow(), link);
            senders = topology.hostsReachedFrom(link.limitedEnd().orElseThrow(), link);
            limit = TestbedStatus.Limit.of(link.bottleneck().orElseThrow());
        }
        if (receivers.isEmpty()) {
            throw new IllegalArgumentException("no host beyond port '" + port + "' to receive its load");
        }
        final HostSpec receiver = receivers.get(0);
        final HostSpec sender;
        if (from == null) {
            sender = senders.stream().findFirst().orElseThrow(() ->
                new IllegalArgumentException("no host to send load through port '" + port + "'"));
        } else {
            sender = senders.stream().filter(h -> h.name().equals(from)).findFirst().orElseThrow(() ->
                new IllegalArgumentException("--from " + from + ": load through port '" + port + "' can come from "
                    + senders.stream().map(HostSpec::name).toList()));
        }
        return new LoadTarget(port, limit, status.host(receiver.name()).orElseThrow(), status.host(sender.name()).orElseThrow(),
            iperfPort);
    }
}
