package org.latencyserver.server.snmp;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.snmp4j.AbstractTarget;
import org.snmp4j.Snmp;
import org.snmp4j.TransportMapping;
import org.snmp4j.smi.UdpAddress;
import org.snmp4j.transport.DefaultUdpTransportMapping;

/**
 * The poller's UDP sockets: one per distinct local address the agents' snmp blocks name
 * ({@code local_address}), and one for the agents that name none, on the loopback when they are all
 * on loopback, else on the wildcard ({@link PollerBinding}). Each agent's target sends from its own.
 * A socket's receive buffer grows with the agents it polls.
 *
 * <p>Built once before the poller starts; then read-only and thread-safe.
 */
final class PollerSockets {

    /**
     * Receive buffer asked per agent a socket polls: the agents of a slice are asked at once, so their
     * answers arrive together, and the kernel counts about a kilobyte per small datagram. Below
     * {@link #DEFAULT_RECEIVE_BUFFER_BYTES} the system's default is kept; Linux caps what is asked at
     * {@code net.core.rmem_max}. (Thousands of agents overflowed the default 208 KiB: answers lost.)
     */
    static final int RECEIVE_BUFFER_BYTES_PER_AGENT = 2048;
    private static final int DEFAULT_RECEIVE_BUFFER_BYTES = 212_992;
    private static final int MAX_RECEIVE_BUFFER_BYTES = 64 * 1024 * 1024;

    /** The sockets, by local address, and why each is there (for the start line). */
    private final Map<InetAddress, DefaultUdpTransportMapping> sockets = new LinkedHashMap<>();
    private final Map<InetAddress, String> reasons = new LinkedHashMap<>();

    private PollerSockets() {
    }

    /**
     * Opens the sockets on {@code snmp} and makes each agent's target send from its own.
     *
     * @param snmp   the session the sockets are added to
     * @param agents the polled agents
     * @return the sockets
     * @throws IOException when a socket cannot be bound (the message names the address)
     */
    @SuppressWarnings({"unchecked", "rawtypes"}) // SnmpTargets makes AbstractTargets with UDP addresses; the generics cannot say so
    static PollerSockets bind(final Snmp snmp, final List<PollPlan.Agent> agents) throws IOException {
        final PollerSockets bound = new PollerSockets();
        final List<InetAddress> defaultAgents = new ArrayList<>();
        for (final PollPlan.Agent agent : agents) {
            if (agent.localAddress() == null) {
                defaultAgents.add(((UdpAddress) agent.target().getAddress()).getInetAddress());
            }
        }
        final InetAddress fallback = PollerBinding.defaultFor(defaultAgents);
        final Map<InetAddress, List<String>> namedBy = new LinkedHashMap<>();
        final Map<InetAddress, Integer> agentsBySocket = new HashMap<>();
        for (final PollPlan.Agent agent : agents) {
            // Validated as an IP literal when the configuration was read: no name lookup here.
            final InetAddress local = agent.localAddress() == null ? fallback : InetAddress.getByName(agent.localAddress());
            final DefaultUdpTransportMapping socket = bound.socketFor(snmp, local);
            agentsBySocket.merge(local, 1, Integer::sum);
            ((AbstractTarget) agent.target()).setPreferredTransports(List.of((TransportMapping) socket));
            if (agent.localAddress() != null) {
                namedBy.computeIfAbsent(local, a -> new ArrayList<>()).add(agent.label());
            }
        }
        bound.sizeReceiveBuffers(agentsBySocket);
        bound.sayWhy(namedBy, fallback, !defaultAgents.isEmpty());
        return bound;
    }

    private DefaultUdpTransportMapping socketFor(final Snmp snmp, final InetAddress local) throws IOException {
        DefaultUdpTransportMapping socket = sockets.get(local);
        if (socket == null) {
            try {
                socket = new DefaultUdpTransportMapping(new UdpAddress(local, 0));
            } catch (IOException e) {
                throw new IOException("cannot bind the SNMP poller's UDP socket to " + local.getHostAddress() + ": "
                    + e.getMessage(), e);
            }
            sockets.put(local, socket);
            snmp.addTransportMapping(socket);
        }
        return socket;
    }

    private void sizeReceiveBuffers(final Map<InetAddress, Integer> agentsBySocket) {
        sockets.forEach((local, socket) -> {
            final long wanted = (long) agentsBySocket.get(local) * RECEIVE_BUFFER_BYTES_PER_AGENT;
            if (wanted > DEFAULT_RECEIVE_BUFFER_BYTES) {
                socket.setReceiveBufferSize((int) Math.min(wanted, MAX_RECEIVE_BUFFER_BYTES)); // applied at listen
            }
        });
    }

    private void sayWhy(final Map<InetAddress, List<String>> namedBy, final InetAddress fallback, final boolean anyDefault) {
        for (final InetAddress local : sockets.keySet()) {
            final List<String> why = new ArrayList<>();
            if (namedBy.containsKey(local)) {
                why.add("local_address of " + String.join(", ", namedBy.get(local)));
            }
            if (local.equals(fallback) && anyDefault) {
                why.add(fallback.isAnyLocalAddress() ? "the default: not every polled agent is on loopback"
                    : "the default: every polled agent is on loopback");
            }
            reasons.put(local, String.join("; ", why));
        }
    }

    /** @return where the sockets are bound, one per distinct local address (after the session listens: with their ports) */
    List<InetSocketAddress> localAddresses() {
        final List<InetSocketAddress> bound = new ArrayList<>();
        for (final DefaultUdpTransportMapping socket : sockets.values()) {
            final UdpAddress address = socket.getListenAddress();
            bound.add(new InetSocketAddress(address.getInetAddress(), address.getPort()));
        }
        return List.copyOf(bound);
    }

    /**
     * @return the sockets in words, e.g. "127.0.0.1 port 40001 (the default: every polled agent is on loopback)";
     *         empty when there is none
     */
    String describe() {
        final List<String> bound = new ArrayList<>();
        // The address as bound, not as the socket reports it (a dual-stack wildcard reads "::").
        sockets.forEach((local, socket) -> bound.add(local.getHostAddress()
            + (local.isAnyLocalAddress() ? " (every interface)" : "") + " port " + socket.getListenAddress().getPort()
            + " (" + reasons.get(local) + ")"));
        return String.join(" and ", bound);
    }
}
