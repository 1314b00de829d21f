package org.latencyserver.testbed;

import java.util.ArrayList;
import java.util.List;

/**
 * The {@code ip} and {@code tc} commands that build a topology, in order: each switch's namespace
 * and bridge with its management address; each host's namespace, a veth pair from the switch's
 * bridge to the host's {@value TestbedNames#HOST_INTERFACE}, and its address; each link's veth
 * pair between two bridges; and a {@code tbf} on the egress of every port with a bottleneck.
 *
 * <p>Nothing is created in the caller's namespace: a veth pair is made in the switch's namespace
 * with its peer placed straight into the other, so deleting the namespaces removes every
 * interface, bridge and qdisc. No route beyond the hosts' own networks is added (no default
 * route). IPv6 is switched off in every namespace when the kernel has it, so that no router
 * solicitation or duplicate-address probe moves a port's counters.
 *
 * <p>Stateless; thread-safe.
 */
public final class NetworkPlan {

    private static final String IP = "ip";
    private static final String TC = "tc";

    private NetworkPlan() {
    }

    /**
     * @param topology what to build
     * @param names    its names
     * @param ipv6     whether the kernel has IPv6 (then it is switched off in each namespace)
     * @return the commands, to run in order
     */
    public static List<Command> commands(final Topology topology, final TestbedNames names, final boolean ipv6) {
        final List<Command> commands = new ArrayList<>();
        for (final SwitchSpec sw : topology.switches()) {
            final String ns = names.namespace(sw.name());
            namespace(commands, ns, "switch " + sw.name(), ipv6);
            commands.add(Command.of("the bridge of switch " + sw.name(),
                IP, "-n", ns, "link", "add", TestbedNames.BRIDGE, "type", "bridge"));
            commands.add(Command.of("the management address of switch " + sw.name(),
                IP, "-n", ns, "address", "add", sw.managementAddress().toString(), "dev", TestbedNames.BRIDGE));
            commands.add(Command.of("the bridge of switch " + sw.name(), IP, "-n", ns, "link", "set", TestbedNames.BRIDGE, "up"));
        }
        for (final HostSpec host : topology.hosts()) {
            final String ns = names.namespace(host.name());
            final String sw = names.namespace(host.switchName());
            final String port = TestbedNames.hostPort(host.name());
            final String what = "host " + host.name();
            namespace(commands, ns, what, ipv6);
            commands.add(Command.of("the cable of " + what, IP, "-n", sw, "link", "add", port, "type", "veth",
                "peer", "name", TestbedNames.HOST_INTERFACE, "netns", ns));
            plug(commands, sw, port, "switch " + host.switchName() + "'s port toward " + host.name());
            commands.add(Command.of("the address of " + what,
                IP, "-n", ns, "address", "add", host.address().toString(), "dev", TestbedNames.HOST_INTERFACE));
            commands.add(Command.of("the interface of " + what, IP, "-n", ns, "link", "set", TestbedNames.HOST_INTERFACE, "up"));
            host.bottleneck().ifPresent(b -> commands.add(tbf(sw, port, b, "the bottleneck toward " + host.name())));
        }
        for (final LinkSpec link : topology.links()) {
            final String port = TestbedNames.linkPort(link.name());
            final String first = names.namespace(link.firstSwitch());
            final String second = names.namespace(link.secondSwitch());
            commands.add(Command.of("link " + link.name() + " between " + link.firstSwitch() + " and " + link.secondSwitch(),
                IP, "-n", first, "link", "add", port, "type", "veth", "peer", "name", port, "netns", second));
            plug(commands, first, port, "switch " + link.firstSwitch() + "'s port on link " + link.name());
            plug(commands, second, port, "switch " + link.secondSwitch() + "'s port on link " + link.name());
            if (link.bottleneck().isPresent()) {
                commands.add(tbf(names.namespace(link.limitedEnd().orElseThrow()), port, link.bottleneck().get(),
                    "the bottleneck of link " + link.name() + " toward " + link.towardSwitch().orElseThrow()));
            }
        }
        return commands;
    }

    private static void namespace(final List<Command> commands, final String ns, final String what, final boolean ipv6) {
        commands.add(Command.of("the namespace of " + what, IP, "netns", "add", ns));
        commands.add(Command.of("the loopback of " + what, IP, "-n", ns, "link", "set", "lo", "up"));
        if (ipv6) {
            commands.add(Command.of("IPv6 off in " + what, IP, "netns", "exec", ns, "sysctl", "-q", "-w",
                "net.ipv6.conf.all.disable_ipv6=1", "net.ipv6.conf.default.disable_ipv6=1"));
        }
    }

    private static void plug(final List<Command> commands, final String ns, final String port, final String what) {
        commands.add(Command.of(what, IP, "-n", ns, "link", "set", port, "master", TestbedNames.BRIDGE));
        commands.add(Command.of(what, IP, "-n", ns, "link", "set", port, "up"));
    }

    private static Command tbf(final String ns, final String port, final Bottleneck bottleneck, final String what) {
        final List<String> argv = new ArrayList<>(List.of(TC, "-n", ns, "qdisc", "replace", "dev", port, "root", "tbf"));
        argv.addAll(bottleneck.tbfArguments());
        return new Command(argv, what);
    }
}
