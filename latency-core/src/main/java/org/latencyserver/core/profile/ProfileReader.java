package org.latencyserver.core.profile;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.latencyserver.core.histogram.LatencyHistogram;
import org.latencyserver.core.histogram.LatencyHistogramJson;
import org.latencyserver.core.input.InputFaults;
import org.latencyserver.core.input.InputNode;
import org.latencyserver.core.port.MeasuredTablePortModel;
import org.latencyserver.core.port.PortModel;
import org.latencyserver.core.port.ThesisQueuePortModel;
import org.latencyserver.core.state.CpuState;
import org.latencyserver.core.state.CpuStatePair;

/**
 * Walks a profile's JSON tree, collecting every fault with its location — the key path, with a
 * cell named by its CPU pair and size, and the line and column of the value (or of the object
 * that lacks a field) — and builds the {@link Profile} only when there is none. One instance reads
 * one document; not thread-safe.
 */
final class ProfileReader {

    private static final Set<String> TOP_FIELDS = Set.of("format", "name", "workstation_type", "layer", "units",
        "provenance", "assumptions", "port_model", "cells", "port_cells");
    private static final Set<String> UNITS_FIELDS = Set.of("latency", "histogram_edges");
    private static final Set<String> PROVENANCE_FIELDS = Set.of("source", "hardware", "orb", "operating_system",
        "measured_on", "method");
    private static final Set<String> ASSUMPTIONS_FIELDS = Set.of("std_dev_ms", "note");
    private static final Set<String> PORT_MODEL_FIELDS = Set.of("kind", "rows");
    private static final Set<String> PORT_ROW_FIELDS = Set.of("message_size_bytes", "port_load_percent", "avg_round_trip_us");
    private static final Set<String> CELL_FIELDS = Set.of("cpu", "message_size_bytes", "n", "mean_ms", "std_dev_ms",
        "max_ms", "histogram");
    private static final Set<String> PORT_CELL_FIELDS = Set.of("port_percent", "message_size_bytes", "n", "mean_ms",
        "std_dev_ms", "max_ms", "histogram");
    private static final Set<String> HISTOGRAM_FIELDS = Set.of(LatencyHistogramJson.UPPER_EDGES_NS, LatencyHistogramJson.COUNTS,
        LatencyHistogramJson.OVERFLOW);

    /** One step of a key path: a field name or a list index. */
    private static final Pattern PATH_STEP = Pattern.compile("([^.\\[]+)|\\[(\\d+)\\]");

    private final InputFaults faults;
    private final int maxHistogramBins;
    private InputNode root;

    ProfileReader(final InputFaults faults, final int maxHistogramBins) {
        this.faults = faults;
        this.maxHistogramBins = maxHistogramBins;
    }

    Profile read(final InputNode root) {
        this.root = root;
        if (root.kind() != InputNode.Kind.MAP) {
            fault("$", "a profile is a JSON object, found " + found(root));
            return null;
        }
        knownFields(root, "", TOP_FIELDS);
        final String format = text(root, "", "format", true);
        if (format != null && !ProfileJson.FORMAT.equals(format) && !ProfileJson.FORMAT_WITH_PORT_CELLS.equals(format)) {
            fault("format", "unknown format '" + format + "'; this reader understands '" + ProfileJson.FORMAT + "' and '"
                + ProfileJson.FORMAT_WITH_PORT_CELLS + "'");
        }
        if (ProfileJson.FORMAT.equals(format) && root.fields().containsKey("port_cells")) {
            fault("port_cells", "measured port cells need format '" + ProfileJson.FORMAT_WITH_PORT_CELLS + "', the document says '"
                + format + "'");
        }
        final String name = text(root, "", "name", true);
        final String workstationType = text(root, "", "workstation_type", true);
        final Layer layer = layer(root);
        units(root);
        final Provenance provenance = provenance(root);
        final ProfileAssumptions assumptions = assumptions(root);
        final PortModel portModel = portModel(root);
        final List<ProfileCell> cells = cells(root);
        final List<PortCell> portCells = portCells(root);
        if (!faults.isEmpty()) {
            return null;
        }
        return new Profile(name, workstationType, layer, provenance, assumptions, portModel, cells, portCells);
    }

    private List<PortCell> portCells(final InputNode root) {
        final InputNode node = array(root, "", "port_cells", false);
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
                    fault("port_cells[" + i + "].port_percent", "band " + cell.label() + " overlaps " + other.label()
                        + " of an earlier port cell");
                }
            }
            cells.add(cell);
        }
        return cells;
    }

    private PortCell portCell(final InputNode node, final String where) {
        if (!isObject(node)) {
            fault(where, "expected an object, found " + found(node));
            return null;
        }
        final int before = faults.count();
        knownFields(node, where, PORT_CELL_FIELDS);
        final int[] band = portBand(node, where);
        final Long size = integer(node, where, "message_size_bytes", 1, Integer.MAX_VALUE);
        if (!node.fields().containsKey("histogram")) {
            fault(where, "missing field 'histogram': a port cell serves a loaded port's bound, which needs its histogram");
        }
        final Sample sample = sample(node, where);
        if (faults.count() > before) {
            return null;
        }
        return new PortCell(band[0], band[1], size.intValue(), sample.n(), sample.meanMillis(), sample.stdDevMillis(),
            sample.maxMillis(), sample.histogram());
    }

    /** {@code port_percent: [lowest, highest]}, whole percents within 91..100, lowest first; null on a fault. */
    private int[] portBand(final InputNode cell, final String where) {
        final InputNode band = array(cell, where, "port_percent", true);
        if (band == null) {
            return null;
        }
        if (band.items().size() != 2) {
            fault(where + ".port_percent", "expected [lowest, highest] whole percents of the band, found "
                + band.items().size() + " entries");
            return null;
        }
        final int[] percents = new int[2];
        for (int i = 0; i < 2; i++) {
            final Long percent = wholeNumber(band.items().get(i));
            if (percent == null || percent < 91 || percent > 100) {
                fault(where + ".port_percent[" + i + "]", "expected a whole percent 91..100 (a loaded port), found "
                    + found(band.items().get(i)));
                return null;
            }
            percents[i] = percent.intValue();
        }
        if (percents[1] < percents[0]) {
            fault(where + ".port_percent", "the band's lowest percent " + percents[0] + " is above its highest " + percents[1]);
            return null;
        }
        return percents;
    }

    private Layer layer(final InputNode root) {
        final String layer = text(root, "", "layer", true);
        if (layer == null) {
            return null;
        }
        try {
            return Layer.valueOf(layer);
        } catch (IllegalArgumentException e) {
            fault("layer", "unknown layer '" + layer + "'; expected CORBA, TCP or UDP");
            return null;
        }
    }

    private void units(final InputNode root) {
        final InputNode units = knownObject(root, "", "units", true, UNITS_FIELDS);
        if (units == null) {
            return;
        }
        final String latency = text(units, "units", "latency", true);
        if (latency != null && !"ms".equals(latency)) {
            fault("units.latency", "unit '" + latency + "' is not supported; latencies (mean_ms, max_ms, std_dev_ms) are in 'ms'");
        }
        final String edges = text(units, "units", "histogram_edges", true);
        if (edges != null && !"ns".equals(edges)) {
            fault("units.histogram_edges", "unit '" + edges + "' is not supported; histogram edges are in 'ns'");
        }
    }

    private Provenance provenance(final InputNode root) {
        final InputNode node = knownObject(root, "", "provenance", true, PROVENANCE_FIELDS);
        if (node == null) {
            return null;
        }
        final String source = text(node, "provenance", "source", true);
        final String hardware = text(node, "provenance", "hardware", false);
        final String orb = text(node, "provenance", "orb", false);
        final String os = text(node, "provenance", "operating_system", false);
        final String measuredOn = text(node, "provenance", "measured_on", false);
        final String method = text(node, "provenance", "method", false);
        return source == null ? null : new Provenance(source, hardware, orb, os, measuredOn, method);
    }

    private ProfileAssumptions assumptions(final InputNode root) {
        final InputNode node = knownObject(root, "", "assumptions", false, ASSUMPTIONS_FIELDS);
        if (node == null) {
            return null;
        }
        final Double stdDev = positiveNumber(node, "assumptions", "std_dev_ms", false, true);
        final String note = text(node, "assumptions", "note", false);
        return new ProfileAssumptions(stdDev, note);
    }

    private PortModel portModel(final InputNode root) {
        final InputNode node = knownObject(root, "", "port_model", true, PORT_MODEL_FIELDS);
        if (node == null) {
            return null;
        }
        final String kind = text(node, "port_model", "kind", true);
        if (kind == null) {
            return null;
        }
        switch (kind) {
            case "thesis-queue":
                if (node.fields().containsKey("rows")) {
                    fault("port_model.rows", "the thesis-queue model takes no rows");
                }
                return ThesisQueuePortModel.INSTANCE;
            case "measured-table":
                return measuredTable(node);
            default:
                fault("port_model.kind", "unknown port model '" + kind + "'; expected thesis-queue or measured-table");
                return null;
        }
    }

    private PortModel measuredTable(final InputNode node) {
        final InputNode rows = array(node, "port_model", "rows", true);
        if (rows == null) {
            return null;
        }
        final List<MeasuredTablePortModel.Row> parsed = new ArrayList<>();
        final int before = faults.count();
        for (int i = 0; i < rows.items().size(); i++) {
            final String where = "port_model.rows[" + i + "]";
            final InputNode row = rows.items().get(i);
            if (!isObject(row)) {
                fault(where, "expected an object, found " + found(row));
                continue;
            }
            knownFields(row, where, PORT_ROW_FIELDS);
            final Long size = integer(row, where, "message_size_bytes", 1, Integer.MAX_VALUE);
            final Long load = integer(row, where, "port_load_percent", 0, 100);
            final Double rtt = positiveNumber(row, where, "avg_round_trip_us", true, true);
            if (size != null && load != null && rtt != null) {
                parsed.add(new MeasuredTablePortModel.Row(size.intValue(), load.intValue(), rtt));
            }
        }
        if (faults.count() > before) {
            return null;
        }
        try {
            return MeasuredTablePortModel.of(parsed);
        } catch (IllegalArgumentException e) {
            fault("port_model.rows", e.getMessage());
            return null;
        }
    }

    private List<ProfileCell> cells(final InputNode root) {
        final InputNode node = array(root, "", "cells", true);
        final List<ProfileCell> cells = new ArrayList<>();
        if (node == null) {
            return cells;
        }
        if (node.items().isEmpty()) {
            fault("cells", "a profile needs at least one cell");
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
                    fault("cells", "missing cell " + pair.thesisLabel() + " at " + size
                        + " B (every message size needs all six CPU state pairs)");
                }
            }
        }
        return cells;
    }

    private ProfileCell cell(final InputNode node, final int index, final Map<String, Integer> seen, final Set<Integer> sizes) {
        String where = "cells[" + index + "]";
        if (!isObject(node)) {
            fault(where, "expected an object, found " + found(node));
            return null;
        }
        final int before = faults.count();
        final CpuStatePair pair = cpuPair(node, where);
        final Long size = integer(node, where, "message_size_bytes", 1, Integer.MAX_VALUE);
        if (pair != null && size != null) {
            final String key = pair.canonical().thesisLabel() + ", " + size + " B";
            where = where + " (" + key + ")";
            sizes.add(size.intValue());
            final Integer first = seen.putIfAbsent(key, index);
            if (first != null) {
                fault(where, "duplicate cell: cells[" + first + "] is the same CPU pair and size");
            }
        }
        knownFields(node, where, CELL_FIELDS);
        final Sample sample = sample(node, where);
        if (faults.count() > before) {
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
        final Long n = integer(node, where, "n", 1, Long.MAX_VALUE);
        final Double mean = positiveNumber(node, where, "mean_ms", true, true);
        final Double stdDev = positiveNumber(node, where, "std_dev_ms", false, false);
        final Double max = positiveNumber(node, where, "max_ms", true, true);
        if (mean != null && max != null && max < mean) {
            fault(where + ".max_ms", "maximum " + max + " ms is below the mean " + mean + " ms");
        }
        return new Sample(n, mean, stdDev, max, histogram(node, where, n));
    }

    private CpuStatePair cpuPair(final InputNode cell, final String where) {
        final InputNode cpu = array(cell, where, "cpu", true);
        if (cpu == null) {
            return null;
        }
        if (cpu.items().size() != 2) {
            fault(where + ".cpu", "expected [sender, receiver] CPU states, found " + cpu.items().size() + " entries");
            return null;
        }
        final CpuState[] states = new CpuState[2];
        for (int i = 0; i < 2; i++) {
            final InputNode label = cpu.items().get(i);
            if (!label.isText()) {
                fault(where + ".cpu[" + i + "]", "expected a CPU state such as \"0-33\", found " + found(label));
                continue;
            }
            final String text = label.text();
            if ("0-33".equals(text) || "34-66".equals(text) || "67-100".equals(text)) {
                states[i] = CpuState.parse(text);
            } else {
                fault(where + ".cpu[" + i + "]", "unknown CPU state '" + text + "'; expected 0-33, 34-66 or 67-100");
            }
        }
        return states[0] == null || states[1] == null ? null : new CpuStatePair(states[0], states[1]);
    }

    private LatencyHistogram histogram(final InputNode cell, final String cellWhere, final Long n) {
        final InputNode node = knownObject(cell, cellWhere, "histogram", false, HISTOGRAM_FIELDS);
        if (node == null) {
            return null;
        }
        final String where = path(cellWhere, "histogram");
        final InputNode edges = array(node, where, LatencyHistogramJson.UPPER_EDGES_NS, true);
        final InputNode counts = array(node, where, LatencyHistogramJson.COUNTS, true);
        final Long overflow = node.fields().containsKey(LatencyHistogramJson.OVERFLOW)
            ? integer(node, where, LatencyHistogramJson.OVERFLOW, 0, Long.MAX_VALUE) : Long.valueOf(0);
        if (edges == null || counts == null || overflow == null) {
            return null;
        }
        if (oversized(edges, counts, where)) {
            return null;
        }
        final int before = faults.count();
        if (edges.items().isEmpty()) {
            fault(where + ".upper_edges_ns", "a histogram needs at least one bin");
        }
        if (edges.items().size() != counts.items().size()) {
            fault(where, "upper_edges_ns has " + edges.items().size() + " entries but counts has " + counts.items().size());
        }
        final long[] edgeValues = edgeValues(edges, where);
        final long[] countValues = countValues(counts, where);
        final long total = totalSamples(countValues, overflow, where);
        if (faults.count() > before) {
            return null;
        }
        if (n != null && total != n) {
            fault(where, "counts plus overflow add up to " + total + " samples, but n is " + n);
            return null;
        }
        return LatencyHistogram.of(edgeValues, countValues, overflow);
    }

    /**
     * Refuses a histogram with more bins than the limit before its values are read, so that an
     * oversized histogram costs nothing more.
     *
     * @return true when it is over the limit (the fault is recorded)
     */
    private boolean oversized(final InputNode edges, final InputNode counts, final String where) {
        if (edges.items().size() <= maxHistogramBins && counts.items().size() <= maxHistogramBins) {
            return false;
        }
        final String location = where + (edges.items().size() > maxHistogramBins ? ".upper_edges_ns" : ".counts");
        faults.overSizeLimit(nodeAt(location), location, "has "
            + Math.max(edges.items().size(), counts.items().size()) + " bins, more than the limit of " + maxHistogramBins
            + " bins per histogram");
        return true;
    }

    /** The upper edges in nanoseconds; a faulty edge is left 0 and each edge must be above the one before. */
    private long[] edgeValues(final InputNode edges, final String where) {
        final long[] edgeValues = new long[edges.items().size()];
        for (int i = 0; i < edges.items().size(); i++) {
            final Long edge = element(edges.items().get(i), where + ".upper_edges_ns[" + i + "]", 1);
            if (edge == null) {
                continue;
            }
            edgeValues[i] = edge;
            if (i > 0 && edgeValues[i - 1] > 0 && edge <= edgeValues[i - 1]) {
                fault(where + ".upper_edges_ns[" + i + "]", "bins out of order: edge " + edge
                    + " ns is not above the previous edge " + edgeValues[i - 1] + " ns");
            }
        }
        return edgeValues;
    }

    /** The bin counts; a faulty count is left 0. */
    private long[] countValues(final InputNode counts, final String where) {
        final long[] countValues = new long[counts.items().size()];
        for (int i = 0; i < counts.items().size(); i++) {
            final Long count = element(counts.items().get(i), where + ".counts[" + i + "]", 0);
            if (count != null) {
                countValues[i] = count;
            }
        }
        return countValues;
    }

    /**
     * The samples in the bins plus the overflow; a sum past {@link Long#MAX_VALUE} is a fault (the
     * returned value is then meaningless).
     */
    private long totalSamples(final long[] countValues, final long overflow, final String where) {
        long total = overflow;
        boolean totalOverflows = false;
        for (final long count : countValues) {
            try {
                total = Math.addExact(total, count);
            } catch (ArithmeticException e) {
                totalOverflows = true;
            }
        }
        if (totalOverflows) {
            fault(where + ".counts", "counts plus overflow add up to more than " + Long.MAX_VALUE + " samples");
        }
        return total;
    }

    private Long element(final InputNode value, final String where, final long minimum) {
        final Long v = wholeNumber(value);
        if (v == null) {
            fault(where, "expected a whole number, found " + found(value));
            return null;
        }
        if (v < minimum) {
            fault(where, (minimum == 0 ? "count must be >= 0" : "edge must be >= " + minimum + " ns") + ", was " + v);
            return null;
        }
        return v;
    }

    // --- field helpers: each reports its own fault and returns null on a fault -----------------

    private void knownFields(final InputNode node, final String where, final Set<String> known) {
        for (final String name : node.fields().keySet()) {
            if (!known.contains(name)) {
                final int[] at = node.keyLocation(name);
                faults.add(at[0], at[1], path(where, name), "unknown field '" + name + "'; expected one of " + new TreeSet<>(known));
            }
        }
    }

    private InputNode field(final InputNode node, final String where, final String name, final boolean required) {
        final InputNode value = node.fields().get(name);
        if (value == null || (isNull(value) && !required)) {
            if (required) {
                fault(path(where, name), "missing required field '" + name + "'");
            }
            return null;
        }
        return value;
    }

    private String text(final InputNode node, final String where, final String name, final boolean required) {
        final InputNode value = field(node, where, name, required);
        if (value == null) {
            return null;
        }
        if (!value.isText() || value.text().isBlank()) {
            fault(path(where, name), "expected a non-empty string, found " + found(value));
            return null;
        }
        return value.text();
    }

    private InputNode object(final InputNode node, final String where, final String name, final boolean required) {
        return container(node, where, name, required, InputNode.Kind.MAP, "an object");
    }

    /**
     * An object field whose own fields are all known: an unknown one is a fault, and the object is
     * still returned so that its known fields are checked too.
     *
     * @return the object, or null when it is missing or not an object (a fault when required or not an object)
     */
    private InputNode knownObject(final InputNode node, final String where, final String name, final boolean required,
                                  final Set<String> known) {
        final InputNode value = object(node, where, name, required);
        if (value != null) {
            knownFields(value, path(where, name), known);
        }
        return value;
    }

    private InputNode array(final InputNode node, final String where, final String name, final boolean required) {
        return container(node, where, name, required, InputNode.Kind.LIST, "an array");
    }

    /** @return the field when it is of the given kind, else null (a fault when it is present or required) */
    private InputNode container(final InputNode node, final String where, final String name, final boolean required,
                                final InputNode.Kind kind, final String described) {
        final InputNode value = field(node, where, name, required);
        if (value != null && value.kind() != kind) {
            fault(path(where, name), "expected " + described + ", found " + found(value));
            return null;
        }
        return value;
    }

    private Long integer(final InputNode node, final String where, final String name, final long minimum, final long maximum) {
        final InputNode value = field(node, where, name, true);
        if (value == null) {
            return null;
        }
        final Long v = wholeNumber(value);
        if (v == null) {
            fault(path(where, name), "expected a whole number, found " + found(value));
            return null;
        }
        if (v < minimum || v > maximum) {
            fault(path(where, name), (maximum >= Integer.MAX_VALUE ? "must be >= " + minimum : "must be " + minimum + ".." + maximum)
                + ", was " + v);
            return null;
        }
        return v;
    }

    /** A finite number, {@code > 0} when {@code strictlyPositive}, else {@code >= 0}. */
    private Double positiveNumber(final InputNode node, final String where, final String name, final boolean required,
                                  final boolean strictlyPositive) {
        final InputNode value = field(node, where, name, required);
        if (value == null) {
            return null;
        }
        if (!value.isNumber()) {
            fault(path(where, name), "expected a number, found " + found(value));
            return null;
        }
        final double v = value.doubleValue();
        if (!Double.isFinite(v)) {
            fault(path(where, name), "must be a finite number, was " + v);
            return null;
        }
        if (strictlyPositive ? v <= 0 : v < 0) {
            fault(path(where, name), "must be " + (strictlyPositive ? "> 0" : ">= 0") + ", was " + v);
            return null;
        }
        return v;
    }

    /** Reports a fault at the node its location names, or at the nearest enclosing one that exists (for a missing field). */
    private void fault(final String location, final String reason) {
        faults.at(nodeAt(location), location, reason);
    }

    /**
     * @param location a key path as faults name it, e.g. {@code cells[3] (0-33/67-100, 256 B).histogram.counts[7]}
     * @return the deepest node of the document on that path (the root for {@code $})
     */
    private InputNode nodeAt(final String location) {
        // The cell's name in parentheses is for the reader of the fault, not part of the path.
        final Matcher step = PATH_STEP.matcher(location.replaceAll(" \\([^)]*\\)", ""));
        InputNode node = root;
        while (step.find()) {
            final InputNode next;
            if (step.group(1) != null) {
                next = node.fields().get(step.group(1));
            } else {
                final int index = Integer.parseInt(step.group(2));
                next = index < node.items().size() ? node.items().get(index) : null;
            }
            if (next == null) {
                break;
            }
            node = next;
        }
        return node;
    }

    private static String path(final String where, final String name) {
        return where.isEmpty() ? name : where + "." + name;
    }

    private static boolean isObject(final InputNode node) {
        return node.kind() == InputNode.Kind.MAP;
    }

    private static boolean isNull(final InputNode node) {
        return node.kind() == InputNode.Kind.NULL;
    }

    /** @return the value of an integer written without fraction or exponent that fits a long, else null */
    private static Long wholeNumber(final InputNode node) {
        if (!node.isIntegral()) {
            return null;
        }
        try {
            return Long.parseLong(node.text());
        } catch (NumberFormatException tooLarge) {
            return null;
        }
    }

    /** What was found instead, with the value itself for a scalar: {@code string "ten"}, {@code null}, {@code array}. */
    private static String found(final InputNode node) {
        final String value = switch (node.kind()) {
            case MAP -> "object";
            case LIST -> "array";
            case NULL, INVALID -> "null";
            case SCALAR -> switch (node.scalarType()) {
                // Quoted and escaped as JSON writes it, so the value reads as it stood in the file.
                case TEXT -> "string \"" + node.text().replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
                case NUMBER -> "number " + node.text();
                case BOOLEAN -> "boolean " + node.text();
            };
        };
        return value.length() > 60 ? value.substring(0, 57) + "..." : value;
    }
}
