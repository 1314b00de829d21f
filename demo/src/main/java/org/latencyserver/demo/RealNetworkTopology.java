package org.latencyserver.demo;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.latencyserver.testbed.Topology;

/**
 * The testbeds {@code ./latency demo --real-network} runs on ({@code --topology}): the shipped topology file
 * and the load walk used unless {@code --scenario} names another. The connections ws1 to ws2 cross every
 * bottleneck port on the way ({@link RealNetworkConfig#path}).
 *
 * <p>Immutable; thread-safe.
 */
enum RealNetworkTopology {

    /** srv, ws1, ws2 on sw1; one 20 Mbit/s bottleneck, the port toward ws2. */
    ONE_SWITCH("one-switch", "examples/testbed/one-switch.yaml", "examples/demo/real-network-scenario.yaml"),
    /**
     * srv and ws1 on sw1, ld2 and ws2 on sw2; two 20 Mbit/s bottlenecks, sw1's trunk port (hop 1) and sw2's
     * port toward ws2 (hop 2), each loadable alone (trunk from srv to ld2, ws2's port from ld2).
     */
    TWO_SWITCHES("two-switches", "examples/testbed/two-switches-path.yaml", "examples/demo/real-network-paths-scenario.yaml");

    private final String optionValue;
    private final String topologyFile;
    private final String defaultScenario;

    RealNetworkTopology(final String optionValue, final String topologyFile, final String defaultScenario) {
        this.optionValue = optionValue;
        this.topologyFile = topologyFile;
        this.defaultScenario = defaultScenario;
    }

    /** @return its name on the command line ({@code --topology two-switches}) */
    String optionValue() {
        return optionValue;
    }

    /** @return its topology file, relative to the installation's root */
    String topologyFile() {
        return topologyFile;
    }

    /** @return its load walk unless {@code --scenario} says otherwise, relative to the installation's root */
    String defaultScenario() {
        return defaultScenario;
    }

    /**
     * @param value {@code --topology}'s value
     * @return the topology of that name
     * @throws IllegalArgumentException naming the known ones
     */
    static RealNetworkTopology of(final String value) {
        return Arrays.stream(values()).filter(t -> t.optionValue.equals(value.toLowerCase(Locale.ROOT))).findFirst()
            .orElseThrow(() -> new IllegalArgumentException("--topology must be one of "
                + Arrays.stream(values()).map(RealNetworkTopology::optionValue).toList() + ", not '" + value + "'"));
    }

    /**
     * @param topology a testbed's topology
     * @return its bottleneck ports (a host's name for the port toward it, a link's for its limited end), hosts first,
     *         each in file order: the ports a scenario may load
     */
    static List<String> bottleneckPorts(final Topology topology) {
        final List<String> ports = new ArrayList<>();
        topology.hosts().stream().filter(h -> h.bottleneck().isPresent()).forEach(h -> ports.add(h.name()));
        topology.links().stream().filter(l -> l.bottleneck().isPresent()).forEach(l -> ports.add(l.name()));
        return List.copyOf(ports);
    }
}
