package org.latencyserver.testbed;

import java.util.Optional;

/**
 * A host of a topology: a network namespace with one interface on a switch, its address, and
 * optionally a bottleneck on the switch's port toward it.
 *
 * <p>Immutable; thread-safe.
 *
 * @param name       unique among the topology's switches, hosts and links; also its switch port's name
 * @param switchName the switch it is plugged into
 * @param address    its interface's address, in the benchmarking range
 * @param bottleneck the switch port toward it, when limited
 */
public record HostSpec(String name, String switchName, Ipv4Prefix address, Optional<Bottleneck> bottleneck) {
}
