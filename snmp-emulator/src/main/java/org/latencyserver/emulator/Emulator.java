package org.latencyserver.emulator;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * All emulated agents of one scenario: one {@link SnmpEndpoint} per node and per link, each on its
 * own UDP address and port, all driven by one clock so their counters tell one consistent story.
 *
 * <p>Their sockets are served by {@code ioThreads} {@link UdpSelectorLoop}s (one thread each, the
 * agents dealt out among them), so ten thousand agents cost ten thousand sockets but not ten
 * thousand threads; with {@code ioThreads} 0 every agent has a listener thread of its own, as the
 * emulator ran before (kept to compare the two).
 *
 * <p>Not thread-safe for start/close (one owner); the running endpoints are thread-safe.
 */
public final class Emulator implements AutoCloseable {
    /** Sockets left to the rest of the process (logs, class files, the status file) when counting the file limit. */
    static final int SPARE_FILE_DESCRIPTORS = 64;
    private static final Logger LOG = LoggerFactory.getLogger(Emulator.class);

    private final Scenario scenario;
    private final AccessConfig access;
    private final InetAddress bindAddress;
    private final LongSupplier elapsedMicros;
    private final int ioThreads;
    private final List<SnmpEndpoint> endpoints = new ArrayList<>();
    private final Map<String, SnmpEndpoint> byName = new HashMap<>();
    private final List<UdpSelectorLoop> loops = new ArrayList<>();

    /**
     * Agents served by one shared socket loop.
     *
     * @param scenario the validated scenario
     * @param access who may read the agents
     * @param bindAddress the local address of every agent that has none of its own
     * @param elapsedMicros the clock: microseconds since the emulator started, never decreasing
     */
    public Emulator(Scenario scenario, AccessConfig access, InetAddress bindAddress, LongSupplier elapsedMicros) {
        this(scenario, access, bindAddress, elapsedMicros, 1);
    }

    /**
     * @param ioThreads how many threads serve all the agents' sockets, at least 1; 0 for a listener
     *                  thread per agent (the former way)
     */
    public Emulator(Scenario scenario, AccessConfig access, InetAddress bindAddress, LongSupplier elapsedMicros,
            int ioThreads) {
        if (ioThreads < 0) {
            throw new IllegalArgumentException("--io-threads must be 0 (a thread per agent) or more, got " + ioThreads);
        }
        this.scenario = scenario;
        this.access = access;
        this.bindAddress = bindAddress;
        this.elapsedMicros = elapsedMicros;
        this.ioThreads = ioThreads;
    }

    /**
     * Binds every agent's port.
     *
     * @throws IOException naming the node or link and the address when one cannot be bound, or how
     *         many sockets the scenario needs when the process may not open that many files; the
     *         agents already started are closed again
     */
    public void start() throws IOException {
        int agents = scenario.nodes().size() + scenario.links().size();
        requireFileDescriptors(agents);
        CounterModel model = new CounterModel(scenario);
        AgentEngines engines = new AgentEngines(access);
        long startNanos = System.nanoTime();
        try {
            for (int i = 0; i < ioThreads; i++) {
                loops.add(new UdpSelectorLoop("snmp-agents-" + (i + 1)));
            }
            for (NodeSpec node : scenario.nodes()) {
                open(EmulatedMib.forNode(model, node), node.address(), node.udpPort(), engines);
            }
            for (LinkSpec link : scenario.links()) {
                open(EmulatedMib.forLink(model, link), link.address(), link.udpPort(), engines);
            }
        } catch (IOException | RuntimeException e) {
            close();
            throw e;
        }
        LOG.info("{} SNMP agents ({} workstations, {} switch ports) serve in {} ms, {}", agents, scenario.nodes().size(),
                scenario.links().size(), (System.nanoTime() - startNanos) / 1_000_000, ioThreads == 0
                    ? "a listener thread each" : "their sockets read by " + ioThreads + " thread(s)");
    }

    private void open(EmulatedMib mib, InetAddress ownAddress, int udpPort, AgentEngines engines) throws IOException {
        InetAddress address = ownAddress == null ? bindAddress : ownAddress;
        UdpSelectorLoop loop = loops.isEmpty() ? null : loops.get(endpoints.size() % loops.size());
        SnmpEndpoint endpoint = new SnmpEndpoint(mib, address, udpPort, engines, elapsedMicros, loop);
        try {
            endpoint.start();
        } catch (IOException e) {
            throw new IOException("cannot open the SNMP agent of '" + mib.name() + "' on udp:"
                    + address.getHostAddress() + ":" + udpPort + ": " + e.getMessage(), e);
        }
        endpoints.add(endpoint);
        byName.put(endpoint.name(), endpoint);
    }

    /**
     * Refuses to start, rather than fail at the thousandth agent, when the process may not open a
     * socket per agent.
     */
    private static void requireFileDescriptors(int sockets) throws IOException {
        OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        if (os instanceof com.sun.management.UnixOperatingSystemMXBean unix) {
            long free = unix.getMaxFileDescriptorCount() - unix.getOpenFileDescriptorCount() - SPARE_FILE_DESCRIPTORS;
            if (sockets > free) {
                throw new IOException("the scenario has " + sockets + " SNMP agents, one UDP socket each, but this process"
                        + " may open only " + Math.max(0, free) + " more files (limit " + unix.getMaxFileDescriptorCount()
                        + ", `ulimit -n`, less " + SPARE_FILE_DESCRIPTORS + " kept spare): raise the limit or emulate fewer agents");
            }
        }
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
        return endpoint(name).boundUdpPort();
    }

    /**
     * @param name a node or link name
     * @return its running agent
     */
    public SnmpEndpoint endpoint(String name) {
        SnmpEndpoint endpoint = byName.get(name);
        if (endpoint == null) {
            throw new IllegalArgumentException("no running agent named '" + name + "'");
        }
        return endpoint;
    }

    @Override
    public void close() {
        // The loops close their sockets all at once; an agent with its own thread closes its own.
        loops.forEach(UdpSelectorLoop::close);
        loops.clear();
        for (SnmpEndpoint e : endpoints) {
            try {
                e.close();
            } catch (IOException ignored) {
                // closing a UDP socket: nothing useful to do on failure
            }
        }
        endpoints.clear();
        byName.clear();
    }
}
