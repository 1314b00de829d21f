package org.latencyserver.core.profile;

import static org.latencyserver.core.profile.ProfileFields.found;
import static org.latencyserver.core.profile.ProfileFields.isObject;
import static org.latencyserver.core.profile.ProfileFields.wholeNumber;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.latencyserver.core.histogram.LatencyHistogram;
import org.latencyserver.core.input.InputNode;
import org.latencyserver.core.state.CpuState;
import org.latencyserver.core.state.CpuStatePair;

/**
 * Reads a profile's measured cells: {@code cells}, one per CPU state pair and message size, every
 * size with all six pairs and none twice; and {@code port_cells}, one per loaded-port band and
 * size, no two bands of a size overlapping. A cell whose CPU pair and size could be read is named
 * by them in its faults. Faults go to the document's {@link ProfileFields}; not thread-safe.
 */
final class ProfileCellsReader {

    private static final Set<String> CELL_FIELDS = Set.of("cpu", "message_size_bytes", "n", "mean_ms", "std_dev_ms",
        "max_ms", "histogram");
    private static final Set<String> PORT_CELL_FIELDS = Set.of("port_percent", "message_size_bytes", "n", "mean_ms",
        "std_dev_ms", "max_ms", "histogram");

    private final ProfileFields fields;
    private final ProfileHistogramReader histograms;

    /**
     * @param fields     the document's field reader, which reports faults
     * @param histograms reads each cell's histogram
     */
    ProfileCellsReader(final ProfileFields fields, final ProfileHistogramReader histograms) {
        this.fields = fields;
        this.histograms = histograms;
    }

    /** @return the CPU cells without a fault (every fault reported) */
    List<ProfileCell> cells(final InputNode root) {
        final InputNode node = fields.array(root, "", "cells", true);
        final List<ProfileCell> cells = new ArrayList<>();
        if (node == null) {
            return cells;
        }
        if (node.items().isEmpty()) {
            fields.fault("cells", "a profile needs at least one cell");
            return cells;
        }
        // Keys of every cell whose CPU pair and size could be read, faulty or not: a cell with a bad
        // count is a bad cell, not a missing one.
        final Map<String, Integer> seen = new HashMap<>();
        final Set<Integer> sizes = new TreeSet<>();
        for (int i = 0; i < node.items().size(); i++) {
            final ProfileCell cell = cell(node.items().get(i), i, seen, sizes);
            if (cell != null) {
                cells.add(cell);
            }
        }
        for (final int size : sizes) {
            for (final CpuStatePair pair : CpuStatePair.PROFILED_PAIRS) {
                if (!seen.containsKey(pair.thesisLabel() + ", " + size + " B")) {
                    fields.fault("cells", "missing cell " + pair.thesisLabel() + " at " + size
                        + " B (every message size needs all six CPU state pairs)");
                }
            }
        }
        return cells;
    }

    private ProfileCell cell(final InputNode node, final int index, final Map<String, Integer> seen, final Set<Integer> sizes) {
        String where = "cells[" + index + "]";
        if (!isObject(node)) {
            fields.fault(where, "expected an object, found " + found(node));
            return null;
        }
        final int before = fields.faultCount();
        final CpuStatePair pair = cpuPair(node, where);
        final Long size = fields.integer(node, where, "message_size_bytes", 1, Integer.MAX_VALUE);
        if (pair != null && size != null) {
            final String key = pair.canonical().thesisLabel() + ", " + size + " B";
            where = where + " (" + key + ")";
            sizes.add(size.intValue());
            final Integer first = seen.putIfAbsent(key, index);
            if (first != null) {
                fields.fault(where, "duplicate cell: cells[" + first + "] is the same CPU pair and size");
            }
        }
        fields.knownFields(node, where, CELL_FIELDS);
        final Sample sample = sample(node, where);
        if (fields.faultCount() > before) {
            return null;
        }
        return new ProfileCell(pair, size.intValue(), sample.n(), sample.meanMillis(), sample.stdDevMillis(),
            sample.maxMillis(), sample.histogram());
    }

    /** What a CPU or port cell measured; any value null where it was faulty (reported). */
    private record Sample(Long n, Double meanMillis, Double stdDevMillis, Double maxMillis, LatencyHistogram histogram) {
    }

    /** Reads a cell's n, mean, standard deviation, max and histogram, reporting each fault. */
    private Sample sample(final InputNode node, final String where) {
        final Long n = fields.integer(node, where, "n", 1, Long.MAX_VALUE);
        final Double mean = fields.positiveNumber(node, where, "mean_ms", true, true);
        final Double stdDev = fields.positiveNumber(node, where, "std_dev_ms", false, false);
        final Double max = fields.positiveNumber(node, where, "max_ms", true, true);
        if (mean != null && max != null && max < mean) {
            fields.fault(where + ".max_ms", "maximum " + max + " ms is below the mean " + mean + " ms");
        }
        return new Sample(n, mean, stdDev, max, histograms.read(node, where, n));
    }

    private CpuStatePair cpuPair(final InputNode cell, final String where) {
        final InputNode cpu = fields.array(cell, where, "cpu", true);
        if (cpu == null) {
            return null;
        }
        if (cpu.items().size() != 2) {
            fields.fault(where + ".cpu", "expected [sender, receiver] CPU states, found " + cpu.items().size() + " entries");
            return null;
        }
        final CpuState[] states = new CpuState[2];
        for (int i = 0; i < 2; i++) {
            final InputNode label = cpu.items().get(i);
            if (!label.isText()) {
                fields.fault(where + ".cpu[" + i + "]", "expected a CPU state such as \"0-33\", found " + found(label));
                continue;
            }
            final String text = label.text();
            if ("0-33".equals(text) || "34-66".equals(text) || "67-100".equals(text)) {
                states[i] = CpuState.parse(text);
            } else {
                fields.fault(where + ".cpu[" + i + "]", "unknown CPU state '" + text + "'; expected 0-33, 34-66 or 67-100");
            }
        }
        return states[0] == null || states[1] == null ? null : new CpuStatePair(states[0], states[1]);
    }

    /** @return the port cells without a fault, none when the document has none (every fault reported) */
    List<PortCell> portCells(final InputNode root) {
        final InputNode node = fields.array(root, "", "port_cells", false);
        final List<PortCell> cells = new ArrayList<>();
        if (node == null) {
            return cells;
        }
        for (int i = 0; i < node.items().size(); i++) {
            final PortCell cell = portCell(node.items().get(i), "port_cells[" + i + "]");
            if (cell == null) {
                continue;
            }
            for (int j = 0; j < cells.size(); j++) {
                final PortCell other = cells.get(j);
                if (other.messageSizeBytes() == cell.messageSizeBytes() && other.lowestPercent() <= cell.highestPercent()
                    && cell.lowestPercent() <= other.highestPercent()) {
                    fields.fault("port_cells[" + i + "].port_percent", "band " + cell.label() + " overlaps " + other.label()
                        + " of an earlier port cell");
                }
            }
            cells.add(cell);
        }
        return cells;
    }

    private PortCell portCell(final InputNode node, final String where) {
        if (!isObject(node)) {
            fields.fault(where, "expected an object, found " + found(node));
            return null;
        }
        final int before = fields.faultCount();
        fields.knownFields(node, where, PORT_CELL_FIELDS);
        final int[] band = portBand(node, where);
        final Long size = fields.integer(node, where, "message_size_bytes", 1, Integer.MAX_VALUE);
        if (!node.fields().containsKey("histogram")) {
            fields.fault(where, "missing field 'histogram': a port cell serves a loaded port's bound, which needs its histogram");
        }
        final Sample sample = sample(node, where);
        if (fields.faultCount() > before) {
            return null;
        }
        return new PortCell(band[0], band[1], size.intValue(), sample.n(), sample.meanMillis(), sample.stdDevMillis(),
            sample.maxMillis(), sample.histogram());
    }

    /** {@code port_percent: [lowest, highest]}, whole percents within 91..100, lowest first; null on a fault. */
    private int[] portBand(final InputNode cell, final String where) {
        final InputNode band = fields.array(cell, where, "port_percent", true);
        if (band == null) {
            return null;
        }
        if (band.items().size() != 2) {
            fields.fault(where + ".port_percent", "expected [lowest, highest] whole percents of the band, found "
                + band.items().size() + " entries");
            return null;
        }
        final int[] percents = new int[2];
        for (int i = 0; i < 2; i++) {
            final Long percent = wholeNumber(band.items().get(i));
            if (percent == null || percent < 91 || percent > 100) {
                fields.fault(where + ".port_percent[" + i + "]", "expected a whole percent 91..100 (a loaded port), found "
                    + found(band.items().get(i)));
                return null;
            }
            percents[i] = percent.intValue();
        }
        if (percents[1] < percents[0]) {
            fields.fault(where + ".port_percent", "the band's lowest percent " + percents[0] + " is above its highest " + percents[1]);
            return null;
        }
        return percents;
    }
}
