package org.latencyserver.core.state;

/**
 * The load state of a connection: its CPU state pair and its switch port state. A change of
 * either is what makes the server recompute (QoS 1, 2) or ask for a measurement (QoS 3, 4).
 *
 * <p>Immutable and thread-safe.
 *
 * @param cpu  the (client, peer) CPU states
 * @param port the intermediate switch port's state
 */
public record ConnectionLoadState(CpuStatePair cpu, PortState port) {

    /** Nothing known yet. */
    public static final ConnectionLoadState UNKNOWN =
        new ConnectionLoadState(new CpuStatePair(CpuState.UNKNOWN, CpuState.UNKNOWN), PortState.UNKNOWN);

    /**
     * @throws NullPointerException when either part is null
     */
    public ConnectionLoadState {
        if (cpu == null || port == null) {
            throw new NullPointerException("cpu and port states must not be null");
        }
    }

    /**
     * Whether going from {@code previous} to this state is a state change in the sense of thesis
     * section 4.2.4: a different CPU state at either end (in order: (LOW, HIGH) to (HIGH, LOW) is a
     * change, the client and the peer swapped loads), the port crossing 90 % either way, or any
     * change of a loaded port's utilisation; also a change to or from UNKNOWN.
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
}
