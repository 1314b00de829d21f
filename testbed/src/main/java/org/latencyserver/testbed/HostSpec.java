package org.latencyserver.testbed;

import java.util.Optional;

/**
 * A host of a topology: a network namespace with one interface on a switch, its address,
 * optionally a bottleneck on the switch's port toward it, and optionally a CPU of its own: the core
 * whose counters its snmpd serves as UCD-SNMP-MIB's raw CPU counters (a namespace shares
 * {@code /proc/stat} with the whole machine, so without one its agent reports every core).
 *
 * <p>Immutable; thread-safe.
 *
 * @param name       unique among the topology's switches, hosts and links; also its switch port's name
 * @param switchName the switch it is plugged into
 * @param address    its interface's address, in the benchmarking range
 * @param bottleneck the switch port toward it, when limited
 * @param cpuCore    the core its snmpd reports as its CPU, when it has one of its own
 */
public record HostSpec(String name, String switchName, Ipv4Prefix address, Optional<Bottleneck> bottleneck,
                       Optional<Integer> cpuCore) {

    /** A host that reports the whole machine's CPU. */
    public HostSpec(final String name, final String switchName, final Ipv4Prefix address, final Optional<Bottleneck> bottleneck) {
        this(name, switchName, address, bottleneck, Optional.empty());
    }
}
