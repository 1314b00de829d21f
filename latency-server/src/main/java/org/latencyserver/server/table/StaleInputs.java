package org.latencyserver.server.table;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * The inputs of a connection's served estimate that stopped answering (their value is unknown), so that the estimate
 * may no longer hold: a typed set, empty while every input answers. {@link #reason()} gives the text the extended
 * interface's {@code stale_reason} carries; {@link Input#metricLabel()} the {@code reason} label of
 * {@code latency_server_estimate_stale_reason}.
 *
 * <p>Immutable and thread-safe.
 *
 * @param inputs       the inputs whose values are unknown, in {@link Input} order; empty when the estimate is fresh
 * @param unknownPorts for a path of several switch ports, the links whose utilisation is unknown, in path order; empty
 *                     otherwise (a one-port connection's port is {@link Input#PORT} alone)
 */
public record StaleInputs(Set<Input> inputs, List<String> unknownPorts) {

    /** An input of a served estimate, in the order the reason names them. */
    public enum Input {
        /** The client workstation's CPU utilisation. */
        CLIENT_CPU("client_cpu_unknown"),
        /** The peer workstation's CPU utilisation. */
        PEER_CPU("peer_cpu_unknown"),
        /** The switch port's utilisation: unknown, it may hide a load above 90 %, whose contribution the estimate lacks. */
        PORT("port_unknown");

        private final String metricLabel;

        Input(final String metricLabel) {
            this.metricLabel = metricLabel;
        }

        /** @return the {@code reason} label of {@code latency_server_estimate_stale_reason}, e.g. {@code port_unknown} */
        public String metricLabel() {
            return metricLabel;
        }
    }

    /** Every input answers: the estimate is not stale. */
    public static final StaleInputs NONE = new StaleInputs(Set.of());

    /** @param inputs the inputs whose values are unknown, of a connection with at most one switch port */
    public StaleInputs(final Set<Input> inputs) {
        this(inputs, List.of());
    }

    /** @throws NullPointerException when the set, the list or an item in them is missing */
    public StaleInputs {
        unknownPorts = List.copyOf(unknownPorts);
        inputs = inputs.isEmpty() ? Collections.unmodifiableSet(EnumSet.noneOf(Input.class))
            : Collections.unmodifiableSet(EnumSet.copyOf(inputs));
    }

    /**
     * @param inputs the inputs that stopped answering
     * @return them as a set
     */
    public static StaleInputs of(final Input... inputs) {
        return new StaleInputs(Set.of(inputs));
    }

    /**
     * @param reading a connection's MIB values; −1 for unknown
     * @return the inputs whose values are unknown
     */
    public static StaleInputs unknownIn(final MibReading reading) {
        return unknownIn(reading, List.of());
    }

    /**
     * @param reading   a connection's MIB values; −1 for unknown
     * @param linkNames the connection's links in path order: a path of several names each unknown hop
     * @return the inputs whose values are unknown
     */
    public static StaleInputs unknownIn(final MibReading reading, final List<String> linkNames) {
        final Set<Input> unknown = EnumSet.noneOf(Input.class);
        if (reading.clientCpuPercent() < 0) {
            unknown.add(Input.CLIENT_CPU);
        }
        if (reading.peerCpuPercent() < 0) {
            unknown.add(Input.PEER_CPU);
        }
        final List<String> unknownPorts = new ArrayList<>();
        if (reading.portPercent() < 0) {
            unknown.add(Input.PORT);
            if (linkNames.size() > 1) {
                for (int i = 0; i < linkNames.size(); i++) {
                    if (reading.ports().at(i) < 0) {
                        unknownPorts.add(linkNames.get(i));
                    }
                }
            }
        }
        return unknown.isEmpty() ? NONE : new StaleInputs(unknown, unknownPorts);
    }

    /** @return whether some input stopped answering */
    public boolean isStale() {
        return !inputs.isEmpty();
    }

    /** @return whether this input stopped answering */
    public boolean contains(final Input input) {
        return inputs.contains(input);
    }

    /**
     * @return why the served estimate may not hold, e.g. {@code "client workstation CPU utilisation unknown; switch port
     *         utilisation unknown"}; empty when it is not stale
     */
    public String reason() {
        final String cpu;
        if (contains(Input.CLIENT_CPU) && contains(Input.PEER_CPU)) {
            cpu = "CPU utilisation of both workstations unknown";
        } else if (contains(Input.CLIENT_CPU)) {
            cpu = "client workstation CPU utilisation unknown";
        } else if (contains(Input.PEER_CPU)) {
            cpu = "peer workstation CPU utilisation unknown";
        } else {
            cpu = "";
        }
        final String port = !contains(Input.PORT) ? "" : unknownPorts.isEmpty() ? "switch port utilisation unknown"
            : "switch port utilisation unknown at " + (unknownPorts.size() == 1 ? "hop " : "hops ") + String.join(", ", unknownPorts);
        return cpu.isEmpty() || port.isEmpty() ? cpu + port : cpu + "; " + port;
    }

    @Override
    public String toString() {
        return isStale() ? reason() : "fresh";
    }
}
