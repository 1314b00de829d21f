package org.latencyserver.core.profile;

import java.util.List;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;
import org.latencyserver.core.port.PortModel;
import org.latencyserver.core.state.CpuStatePair;

/**
 * An a priori latency profile: for one workstation type and layer, a cell per (CPU state pair,
 * message size), with where the numbers came from and what they assume.
 *
 * <p>Read one with {@link ProfileJson#read}, which validates everything and names every fault.
 * Immutable and thread-safe.
 *
 * @param name            unique name, e.g. {@code "thesis-tac4-corba"}
 * @param workstationType e.g. {@code "TAC-4"}
 * @param layer           CORBA, TCP or UDP
 * @param provenance      where the numbers came from
 * @param assumptions     what is assumed where data are silent; null for none
 * @param portModel       how a loaded switch port adds latency
 * @param cells           the cells; for every message size present, all six CPU state pairs
 */
public record Profile(String name, String workstationType, Layer layer, Provenance provenance,
                      ProfileAssumptions assumptions, PortModel portModel, List<ProfileCell> cells) {

    /**
     * @throws IllegalArgumentException when a required part is missing
     */
    public Profile {
        if (name == null || name.isBlank() || workstationType == null || layer == null || provenance == null
            || portModel == null || cells == null || cells.isEmpty()) {
            throw new IllegalArgumentException("a profile needs a name, workstation type, layer, provenance, port model and cells");
        }
        cells = List.copyOf(cells);
    }

    /**
     * @param pair             any CPU state pair; (HIGH, LOW) finds the (LOW, HIGH) cell
     * @param messageSizeBytes the message size
     * @return the cell, or empty when the profile has none for that size
     */
    public Optional<ProfileCell> cell(final CpuStatePair pair, final int messageSizeBytes) {
        final CpuStatePair key = pair.canonical();
        for (final ProfileCell cell : cells) {
            if (cell.messageSizeBytes() == messageSizeBytes && cell.cpuStates().equals(key)) {
                return Optional.of(cell);
            }
        }
        return Optional.empty();
    }

    /** @return the profiled message sizes, ascending */
    public SortedSet<Integer> messageSizesBytes() {
        final SortedSet<Integer> sizes = new TreeSet<>();
        cells.forEach(cell -> sizes.add(cell.messageSizeBytes()));
        return sizes;
    }

    /** @return true when every cell carries a histogram (QoS 2 can be served) */
    public boolean hasHistograms() {
        return cells.stream().allMatch(ProfileCell::hasHistogram);
    }
}
