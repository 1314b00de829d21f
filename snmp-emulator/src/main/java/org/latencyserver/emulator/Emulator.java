package org.latencyserver.emulator;

import java.io.IOException;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * All emulated agents of one scenario: one {@link SnmpEndpoint} per node and per link, each on
 * its own UDP port, all driven by one clock so their counters tell one consistent story.
 *
 * <p>Not thread-safe for start/close (one owner); the running endpoints are thread-safe.
 */
public final class Emulator implements AutoCloseable {
    private final Scenario scenario;
    private final AccessConfig access;
    private final InetAddress bindAddress;
    private final LongSupplier elapsedMicros;
    private final List<SnmpEndpoint> endpoints = new ArrayList<>();

    /**
     * @param scenario the validated scenario
     * @param access who may read the agents
     * @param bindAddress the local address every agent listens on
     * @param elapsedMicros the clock: microseconds since the emulator started, never decreasing
     */
    public Emulator(Scenario scenario, AccessConfig access, InetAddress bindAddress, LongSupplier elapsedMicros) {
        this.scenario = scenario;
        this.access = access;
        this.bindAddress = bindAddress;
        this.elapsedMicros = elapsedMicros;
    }

    /**
     * Binds every agent's port.
     *
     * @throws IOException naming the node or link and the port when one cannot be bound; the
     *         agents already started are closed again
     */
    public void start() throws IOException {
        CounterModel model = new CounterModel(scenario);
        try {
            for (NodeSpec node : scenario.nodes()) {
                open(EmulatedMib.forNode(model, node), node.udpPort());
            }
            for (LinkSpec link : scenario.links()) {
                open(EmulatedMib.forLink(model, link), link.udpPort());
            }
        } catch (IOException | RuntimeException e) {
            close();
            throw e;
        }
    }

    private void open(EmulatedMib mib, int udpPort) throws IOException {
        SnmpEndpoint endpoint = new SnmpEndpoint(mib, bindAddress, udpPort, access, elapsedMicros);
        try {
            endpoint.start();
        } catch (IOException e) {
            throw new IOException("cannot open the SNMP agent of '" + mib.name() + "' on udp:"
                    + bindAddress.getHostAddress() + ":" + udpPort + ": " + e.getMessage(), e);
        }
        endpoints.add(endpoint);
    }

    /** @return the running agents, nodes first, in scenario order */
    public List<SnmpEndpoint> endpoints() {
        return List.copyOf(endpoints);
    }

    /**
     * @param name a node or link name
     * @return the UDP port its agent is bound to
     */
    public int udpPortOf(String name) {
        return endpoints.stream().filter(e -> e.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no running agent named '" + name + "'"))
                .boundUdpPort();
    }

    @Override
    public void close() {
        for (SnmpEndpoint e : endpoints) {
            try {
                e.close();
            } catch (IOException ignored) {
                // closing a UDP socket: nothing useful to do on failure
            }
        }
        endpoints.clear();
    }
}
