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
 * @param portCells       the loaded port's measured cells, bands that do not overlap per size; may be empty
 */
public record Profile(String name, String workstationType, Layer layer, Provenance provenance,
                      ProfileAssumptions assumptions, PortModel portModel, List<ProfileCell> cells, List<PortCell> portCells) {

    /**
     * A profile without measured port cells.
     */
    public Profile(final String name, final String workstationType, final Layer layer, final Provenance provenance,
                   final ProfileAssumptions assumptions, final PortModel portModel, final List<ProfileCell> cells) {
        this(name, workstationType, layer, provenance, assumptions, portModel, cells, List.of());
    }

    /**
     * @throws IllegalArgumentException when a required part is missing, or two port cells of one size overlap
     */
    public Profile {
        if (name == null || name.isBlank() || workstationType == null || layer == null || provenance == null
            || portModel == null || cells == null || cells.isEmpty() || portCells == null) {
            throw new IllegalArgumentException("a profile needs a name, workstation type, layer, provenance, port model and cells");
        }
        cells = List.copyOf(cells);
        portCells = List.copyOf(portCells);
        for (int i = 0; i < portCells.size(); i++) {
            for (int j = i + 1; j < portCells.size(); j++) {
                final PortCell a = portCells.get(i);
                final PortCell b = portCells.get(j);
                if (a.messageSizeBytes() == b.messageSizeBytes() && a.lowestPercent() <= b.highestPercent()
                    && b.lowestPercent() <= a.highestPercent()) {
                    throw new IllegalArgumentException("port cells " + a.label() + " and " + b.label() + " overlap");
                }
            }
        }
    }

    /**
     * @param portPercent      a loaded port's percent, 91..100 (a band's upper edge with loaded bands)
     * @param messageSizeBytes the message size
     * @return the port cell whose band holds the percent at that size, or empty
     */
    public Optional<PortCell> portCell(final int portPercent, final int messageSizeBytes) {
        for (final PortCell cell : portCells) {
            if (cell.messageSizeBytes() == messageSizeBytes && cell.covers(portPercent)) {
                return Optional.of(cell);
            }
        }
        return Optional.empty();
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
