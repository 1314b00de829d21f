package org.latencyserver.testbed;

/**
 * A switch of a topology: a Linux bridge in a network namespace of its own, with a management
 * address on the bridge where its {@code snmpd} answers.
 *
 * <p>Immutable; thread-safe.
 *
 * @param name              unique among the topology's switches, hosts and links
 * @param managementAddress the bridge's address, in the benchmarking range
 */
public record SwitchSpec(String name, Ipv4Prefix managementAddress) {
}
