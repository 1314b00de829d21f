package org.latencyserver.core.state;

import java.util.List;

/**
 * The load state of a connection: its CPU state pair and the state of each switch port (hop) its
 * path crosses. A change of any of them is what makes the server recompute (QoS 1, 2) or ask for a
 * measurement (QoS 3, 4).
 *
 * <p>{@link #port()} is the path's worst hop ({@link #worstOf}): what the thesis's one
 * {@code port_state} reports, and all a one-hop path has. {@link #hops()} holds every hop in path
 * order; a path with no observed port has one UNKNOWN hop, as the thesis's row has one port.
 *
 * <p>Immutable and thread-safe.
 *
 * @param cpu  the (client, peer) CPU states
 * @param port the worst hop's state: equal to {@code worstOf(hops)}
 * @param hops every hop's state, in path order; at least one, unmodifiable
 */
public record ConnectionLoadState(CpuStatePair cpu, PortState port, List<PortState> hops) {

    /** Nothing known yet. */
    public static final ConnectionLoadState UNKNOWN =
        new ConnectionLoadState(new CpuStatePair(CpuState.UNKNOWN, CpuState.UNKNOWN), PortState.UNKNOWN);

    /**
     * @throws NullPointerException     when a part is null
     * @throws IllegalArgumentException when there is no hop, or {@code port} is not the worst hop
     */
    public ConnectionLoadState {
        if (cpu == null || port == null || hops == null) {
            throw new NullPointerException("cpu, port and hop states must not be null");
        }
        hops = List.copyOf(hops);
        if (hops.isEmpty()) {
            throw new IllegalArgumentException("a load state needs at least one hop (UNKNOWN when the port is not observed)");
        }
        if (!port.equals(worstOf(hops))) {
            throw new IllegalArgumentException("the port state " + port + " is not the worst of the hops " + hops);
        }
    }

    /**
     * A path of one hop: the thesis's connection, with one switch port.
     *
     * @param cpu  the (client, peer) CPU states
     * @param port the port's state
     */
    public ConnectionLoadState(final CpuStatePair cpu, final PortState port) {
        this(cpu, port, List.of(port == null ? PortState.UNKNOWN : port));
    }

    /**
     * @param cpu  the (client, peer) CPU states
     * @param hops every hop's state in path order, at least one
     * @return the load state, its port the worst hop
     */
    public static ConnectionLoadState ofHops(final CpuStatePair cpu, final List<PortState> hops) {
        return new ConnectionLoadState(cpu, worstOf(hops), hops);
    }

    /**
     * The worst of a path's hops, as one port state: UNKNOWN when any hop is unknown (the path's
     * state is then not known), else the hop with the highest {@link PortState#code()} — SATURATED
     * above every LOADED percentage, LOADED above NORMAL.
     *
     * @param hops at least one hop state
     * @return the worst
     * @throws IllegalArgumentException when the list is empty
     */
    public static PortState worstOf(final List<PortState> hops) {
        if (hops == null || hops.isEmpty()) {
            throw new IllegalArgumentException("a path needs at least one hop state");
        }
        PortState worst = hops.get(0);
        for (final PortState hop : hops) {
            if (hop.kind() == PortState.Kind.UNKNOWN) {
                return PortState.UNKNOWN;
            }
            if (hop.code() > worst.code()) {
                worst = hop;
            }
        }
        return worst;
    }

    /**
     * Whether going from {@code previous} to this state is a state change in the sense of thesis
     * section 4.2.4: a different CPU state at either end (in order: (LOW, HIGH) to (HIGH, LOW) is a
     * change, the client and the peer swapped loads), any hop crossing 90 % either way, or any
     * change of a loaded hop's utilisation; also a change to or from UNKNOWN.
     *
     * @param previous the state before; null (no state before) counts as a change
     * @return true when this state differs from {@code previous}
     */
    public boolean isStateChangeFrom(final ConnectionLoadState previous) {
        return !equals(previous);
    }

    /** @return true when both CPU states are known; the port may be unknown (no link observed) */
    public boolean isKnown() {
        return cpu.isKnown();
    }

    /** @return how many hops are above their loaded threshold (LOADED or SATURATED) */
    public int loadedHopCount() {
        int loaded = 0;
        for (final PortState hop : hops) {
            if (hop.isLoaded()) {
                loaded++;
            }
        }
        return loaded;
    }

    /**
     * @return the state as logs, reasons and labels name it: e.g. {@code "LOW/LOW LOADED 100 %"}, and for a path of
     *         several ports every hop in path order, e.g. {@code "LOW/LOW [LOADED 95 %, NORMAL]"}
     */
    public String label() {
        return cpu + " " + (isMultiHop() ? hops.toString() : port.toString());
    }

    /** @return true when the path crosses more than one switch port */
    public boolean isMultiHop() {
        return hops.size() > 1;
    }

    /**
     * @param hop the state of this path's only loaded hop, or of its worst
     * @return this state's CPU pair with a path of that one hop: how a profile's one-port cells are read
     */
    public ConnectionLoadState withOnlyHop(final PortState hop) {
        return new ConnectionLoadState(cpu, hop);
    }
}
