package org.latencyserver.benchmarks.accuracy;

import java.util.Comparator;

/**
 * A connection's load state as the server reports it: the CPU state pair and the port state,
 * encoded as in {@code Latserv.idl}. {@link #POOLED} stands for all states together.
 *
 * @param cpuState  10 · client + peer, each 1 LOW, 2 MEDIUM, 3 HIGH; 0 unknown; -1 pooled
 * @param portState 0 NORMAL, 91..100 LOADED at that percent, 101 SATURATED, -1 unknown
 */
public record LoadState(int cpuState, int portState) implements Comparable<LoadState> {

    /** All states together. */
    public static final LoadState POOLED = new LoadState(-1, 0);

    private static final String[] LEVELS = {"?", "LOW", "MEDIUM", "HIGH"};
    private static final Comparator<LoadState> ORDER = Comparator.comparingInt((LoadState state) -> state == POOLED ? 1 : 0)
        .thenComparingInt(LoadState::portState).thenComparingInt(LoadState::cpuState);

    /** @return e.g. "LOW/MEDIUM NORMAL", "LOW/LOW LOADED 95", "all states" */
    public String label() {
        if (equals(POOLED)) {
            return "all states";
        }
        return cpuLabel() + " " + portLabel();
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
        return portState < 0 ? "UNKNOWN" : "LOADED " + portState;
    }

    /** NORMAL port states first, then LOADED ones, each by CPU pair; pooled last. */
    @Override
    public int compareTo(final LoadState other) {
        return ORDER.compare(this, other);
    }
}
