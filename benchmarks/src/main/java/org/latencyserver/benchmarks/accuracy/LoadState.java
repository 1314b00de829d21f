package org.latencyserver.benchmarks.accuracy;

import java.util.Comparator;

/**
 * A connection's load state as the server reports it: the CPU state pair and the port state,
 * encoded as in {@code Latserv.idl}. {@link #POOLED} stands for all states together, {@link #port(int)}
 * for one port state (band) whatever the CPU states.
 *
 * @param cpuState  10 · client + peer, each 1 LOW, 2 MEDIUM, 3 HIGH; 0 unknown; -1 pooled; -2 any CPU state
 * @param portState 0 NORMAL, 91..100 LOADED at that percent, 101 SATURATED, -1 unknown
 */
public record LoadState(int cpuState, int portState) implements Comparable<LoadState> {

    /** All states together. */
    public static final LoadState POOLED = new LoadState(-1, 0);

    /** {@link #cpuState} of a port band's row, every CPU state together. */
    public static final int ANY_CPU = -2;

    private static final String[] LEVELS = {"?", "LOW", "MEDIUM", "HIGH"};
    private static final Comparator<LoadState> ORDER = Comparator.comparingInt((LoadState state) -> state.equals(POOLED) ? 2
            : state.isPortBand() ? 1 : 0)
        .thenComparingInt(LoadState::portState).thenComparingInt(LoadState::cpuState);

    /**
     * @param portState a port state (band) as served
     * @return that port state whatever the CPU states
     */
    public static LoadState port(final int portState) {
        return new LoadState(ANY_CPU, portState);
    }

    /** @return whether this stands for one port state whatever the CPU states */
    public boolean isPortBand() {
        return cpuState == ANY_CPU;
    }

    /** @return e.g. "LOW/MEDIUM NORMAL", "LOW/LOW LOADED 95", "LOW/LOW SATURATED", "port LOADED 98", "all states" */
    public String label() {
        if (equals(POOLED)) {
            return "all states";
        }
        return (isPortBand() ? "port" : cpuLabel()) + " " + portLabel();
    }

    private String cpuLabel() {
        final int client = cpuState / 10;
        final int peer = cpuState % 10;
        if (cpuState == 0 || client < 1 || client > 3 || peer < 1 || peer > 3) {
            return "UNKNOWN";
        }
        return LEVELS[client] + "/" + LEVELS[peer];
    }

    private String portLabel() {
        if (portState == 0) {
            return "NORMAL";
        }
        if (portState == SATURATED) {
            return "SATURATED";
        }
        return portState < 0 ? "UNKNOWN" : "LOADED " + portState;
    }

    /** The port state of a saturated port (it carries its rate and drops). */
    public static final int SATURATED = 101;

    /** NORMAL port states first, then LOADED ones and SATURATED, each by CPU pair; then each port state over all CPU states; pooled last. */
    @Override
    public int compareTo(final LoadState other) {
        return ORDER.compare(this, other);
    }
}
