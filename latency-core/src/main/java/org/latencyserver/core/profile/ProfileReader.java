package org.latencyserver.core.profile;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.latencyserver.core.histogram.LatencyHistogram;
import org.latencyserver.core.port.MeasuredTablePortModel;
import org.latencyserver.core.port.PortModel;
import org.latencyserver.core.port.ThesisQueuePortModel;
import org.latencyserver.core.state.CpuState;
import org.latencyserver.core.state.CpuStatePair;

/**
 * Walks a profile's JSON tree, collecting every fault with its location, and builds the
 * {@link Profile} only when there is none. One instance reads one document; not thread-safe.
 */
final class ProfileReader {

    private static final Set<String> TOP_FIELDS = Set.of("format", "name", "workstation_type", "layer", "units",
        "provenance", "assumptions", "port_model", "cells");
    private static final Set<String> UNITS_FIELDS = Set.of("latency", "histogram_edges");
    private static final Set<String> PROVENANCE_FIELDS = Set.of("source", "hardware", "orb", "operating_system",
        "measured_on", "method");
    private static final Set<String> ASSUMPTIONS_FIELDS = Set.of("std_dev_ms", "note");
    private static final Set<String> PORT_MODEL_FIELDS = Set.of("kind", "rows");
    private static final Set<String> PORT_ROW_FIELDS = Set.of("message_size_bytes", "port_load_percent", "avg_round_trip_us");
    private static final Set<String> CELL_FIELDS = Set.of("cpu", "message_size_bytes", "n", "mean_ms", "std_dev_ms",
        "max_ms", "histogram");
    private static final Set<String> HISTOGRAM_FIELDS = Set.of("upper_edges_ns", "counts", "overflow");

    private final String file;
    private final List<ProfileFault> faults;
    private final int maxHistogramBins;

    ProfileReader(final String file, final List<ProfileFault> faults, final int maxHistogramBins) {
        this.file = file;
        this.faults = faults;
        this.maxHistogramBins = maxHistogramBins;
    }

    Profile read(final JsonNode root) {
        if (!root.isObject()) {
            fault("$", "a profile is a JSON object, found " + found(root));
            return null;
        }
        knownFields(root, "", TOP_FIELDS);
        final String format = text(root, "", "format", true);
        if (format != null && !ProfileJson.FORMAT.equals(format)) {
            fault("format", "unknown format '" + format + "'; this reader understands '" + ProfileJson.FORMAT + "'");
        }
        final String name = text(root, "", "name", true);
        final String workstationType = text(root, "", "workstation_type", true);
        final Layer layer = layer(root);
        units(root);
        final Provenance provenance = provenance(root);
        final ProfileAssumptions assumptions = assumptions(root);
        final PortModel portModel = portModel(root);
        final List<ProfileCell> cells = cells(root);
        if (!faults.isEmpty()) {
            return null;
        }
        return new Profile(name, workstationType, layer, provenance, assumptions, portModel, cells);
    }

    private Layer layer(final JsonNode root) {
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

    private void units(final JsonNode root) {
        final JsonNode units = knownObject(root, "", "units", true, UNITS_FIELDS);
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

    private Provenance provenance(final JsonNode root) {
        final JsonNode node = knownObject(root, "", "provenance", true, PROVENANCE_FIELDS);
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

    private ProfileAssumptions assumptions(final JsonNode root) {
        final JsonNode node = knownObject(root, "", "assumptions", false, ASSUMPTIONS_FIELDS);
        if (node == null) {
            return null;
        }
        final Double stdDev = positiveNumber(node, "assumptions", "std_dev_ms", false, true);
        final String note = text(node, "assumptions", "note", false);
        return new ProfileAssumptions(stdDev, note);
    }

    private PortModel portModel(final JsonNode root) {
        final JsonNode node = knownObject(root, "", "port_model", true, PORT_MODEL_FIELDS);
        if (node == null) {
            return null;
        }
        final String kind = text(node, "port_model", "kind", true);
        if (kind == null) {
            return null;
        }
        switch (kind) {
            case "thesis-queue":
                if (node.has("rows")) {
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

    private PortModel measuredTable(final JsonNode node) {
        final JsonNode rows = array(node, "port_model", "rows", true);
        if (rows == null) {
            return null;
        }
        final List<MeasuredTablePortModel.Row> parsed = new ArrayList<>();
        final int before = faults.size();
        for (int i = 0; i < rows.size(); i++) {
            final String where = "port_model.rows[" + i + "]";
            final JsonNode row = rows.get(i);
            if (!row.isObject()) {
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
        if (faults.size() > before) {
            return null;
        }
        try {
            return MeasuredTablePortModel.of(parsed);
        } catch (IllegalArgumentException e) {
            fault("port_model.rows", e.getMessage());
            return null;
        }
    }

    private List<ProfileCell> cells(final JsonNode root) {
        final JsonNode node = array(root, "", "cells", true);
        final List<ProfileCell> cells = new ArrayList<>();
        if (node == null) {
            return cells;
        }
        if (node.isEmpty()) {
            fault("cells", "a profile needs at least one cell");
            return cells;
        }
        // Keys of every cell whose CPU pair and size could be read, faulty or not: a cell with a bad
        // count is a bad cell, not a missing one.
        final Map<String, Integer> seen = new HashMap<>();
        final Set<Integer> sizes = new TreeSet<>();
        for (int i = 0; i < node.size(); i++) {
            final ProfileCell cell = cell(node.get(i), i, seen, sizes);
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

    private ProfileCell cell(final JsonNode node, final int index, final Map<String, Integer> seen, final Set<Integer> sizes) {
        String where = "cells[" + index + "]";
        if (!node.isObject()) {
            fault(where, "expected an object, found " + found(node));
            return null;
        }
        final int before = faults.size();
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
        final Long n = integer(node, where, "n", 1, Long.MAX_VALUE);
        final Double mean = positiveNumber(node, where, "mean_ms", true, true);
        final Double stdDev = positiveNumber(node, where, "std_dev_ms", false, false);
        final Double max = positiveNumber(node, where, "max_ms", true, true);
        if (mean != null && max != null && max < mean) {
            fault(where + ".max_ms", "maximum " + max + " ms is below the mean " + mean + " ms");
        }
        final LatencyHistogram histogram = histogram(node, where, n);
        if (faults.size() > before) {
            return null;
        }
        return new ProfileCell(pair, size.intValue(), n, mean, stdDev, max, histogram);
    }

    private CpuStatePair cpuPair(final JsonNode cell, final String where) {
        final JsonNode cpu = array(cell, where, "cpu", true);
        if (cpu == null) {
            return null;
        }
        if (cpu.size() != 2) {
            fault(where + ".cpu", "expected [sender, receiver] CPU states, found " + cpu.size() + " entries");
            return null;
        }
        final CpuState[] states = new CpuState[2];
        for (int i = 0; i < 2; i++) {
            final JsonNode label = cpu.get(i);
            if (!label.isTextual()) {
                fault(where + ".cpu[" + i + "]", "expected a CPU state such as \"0-33\", found " + found(label));
                continue;
            }
            final String text = label.textValue();
            if ("0-33".equals(text) || "34-66".equals(text) || "67-100".equals(text)) {
                states[i] = CpuState.parse(text);
            } else {
                fault(where + ".cpu[" + i + "]", "unknown CPU state '" + text + "'; expected 0-33, 34-66 or 67-100");
            }
        }
        return states[0] == null || states[1] == null ? null : new CpuStatePair(states[0], states[1]);
    }

    private LatencyHistogram histogram(final JsonNode cell, final String cellWhere, final Long n) {
        final JsonNode node = knownObject(cell, cellWhere, "histogram", false, HISTOGRAM_FIELDS);
        if (node == null) {
            return null;
        }
        final String where = path(cellWhere, "histogram");
        final JsonNode edges = array(node, where, "upper_edges_ns", true);
        final JsonNode counts = array(node, where, "counts", true);
        final Long overflow = node.has("overflow") ? integer(node, where, "overflow", 0, Long.MAX_VALUE) : Long.valueOf(0);
        if (edges == null || counts == null || overflow == null) {
            return null;
        }
        if (edges.size() > maxHistogramBins || counts.size() > maxHistogramBins) {
            // Refused before its values are read: an oversized histogram costs nothing more.
            fault(where + (edges.size() > maxHistogramBins ? ".upper_edges_ns" : ".counts"), "has "
                + Math.max(edges.size(), counts.size()) + " bins, more than the limit of " + maxHistogramBins
                + " bins per histogram");
            return null;
        }
        final int before = faults.size();
        if (edges.isEmpty()) {
            fault(where + ".upper_edges_ns", "a histogram needs at least one bin");
        }
        if (edges.size() != counts.size()) {
            fault(where, "upper_edges_ns has " + edges.size() + " entries but counts has " + counts.size());
        }
        final long[] edgeValues = new long[edges.size()];
        for (int i = 0; i < edges.size(); i++) {
            final Long edge = element(edges.get(i), where + ".upper_edges_ns[" + i + "]", 1);
            if (edge == null) {
                continue;
            }
            edgeValues[i] = edge;
            if (i > 0 && edgeValues[i - 1] > 0 && edge <= edgeValues[i - 1]) {
                fault(where + ".upper_edges_ns[" + i + "]", "bins out of order: edge " + edge
                    + " ns is not above the previous edge " + edgeValues[i - 1] + " ns");
            }
        }
        final long[] countValues = new long[counts.size()];
        long total = overflow;
        boolean totalOverflows = false;
        for (int i = 0; i < counts.size(); i++) {
            final Long count = element(counts.get(i), where + ".counts[" + i + "]", 0);
            if (count != null) {
                countValues[i] = count;
                try {
                    total = Math.addExact(total, count);
                } catch (ArithmeticException e) {
                    totalOverflows = true;
                }
            }
        }
        if (totalOverflows) {
            fault(where + ".counts", "counts plus overflow add up to more than " + Long.MAX_VALUE + " samples");
        }
        if (faults.size() > before) {
            return null;
        }
        if (n != null && total != n) {
            fault(where, "counts plus overflow add up to " + total + " samples, but n is " + n);
            return null;
        }
        return LatencyHistogram.of(edgeValues, countValues, overflow);
    }

    private Long element(final JsonNode value, final String where, final long minimum) {
        if (!value.isIntegralNumber() || !value.canConvertToLong()) {
            fault(where, "expected a whole number, found " + found(value));
            return null;
        }
        if (value.longValue() < minimum) {
            fault(where, (minimum == 0 ? "count must be >= 0" : "edge must be >= " + minimum + " ns") + ", was " + value.longValue());
            return null;
        }
        return value.longValue();
    }

    // --- field helpers: each reports its own fault and returns null on a fault -----------------

    private void knownFields(final JsonNode node, final String where, final Set<String> known) {
        final Iterator<String> names = node.fieldNames();
        while (names.hasNext()) {
            final String name = names.next();
            if (!known.contains(name)) {
                fault(path(where, name), "unknown field '" + name + "'; expected one of " + new TreeSet<>(known));
            }
        }
    }

    private JsonNode field(final JsonNode node, final String where, final String name, final boolean required) {
        final JsonNode value = node.get(name);
        if (value == null || (value.isNull() && !required)) {
            if (required) {
                fault(path(where, name), "missing required field '" + name + "'");
            }
            return null;
        }
        return value;
    }

    private String text(final JsonNode node, final String where, final String name, final boolean required) {
        final JsonNode value = field(node, where, name, required);
        if (value == null) {
            return null;
        }
        if (!value.isTextual() || value.textValue().isBlank()) {
            fault(path(where, name), "expected a non-empty string, found " + found(value));
            return null;
        }
        return value.textValue();
    }

    private JsonNode object(final JsonNode node, final String where, final String name, final boolean required) {
        return container(node, where, name, required, JsonNodeType.OBJECT, "an object");
    }

    /**
     * An object field whose own fields are all known: an unknown one is a fault, and the object is
     * still returned so that its known fields are checked too.
     *
     * @return the object, or null when it is missing or not an object (a fault when required or not an object)
     */
    private JsonNode knownObject(final JsonNode node, final String where, final String name, final boolean required,
                                 final Set<String> known) {
        final JsonNode value = object(node, where, name, required);
        if (value != null) {
            knownFields(value, path(where, name), known);
        }
        return value;
    }

    private JsonNode array(final JsonNode node, final String where, final String name, final boolean required) {
        return container(node, where, name, required, JsonNodeType.ARRAY, "an array");
    }

    /** @return the field when it is of the given type, else null (a fault when it is present or required) */
    private JsonNode container(final JsonNode node, final String where, final String name, final boolean required,
                               final JsonNodeType type, final String described) {
        final JsonNode value = field(node, where, name, required);
        if (value != null && value.getNodeType() != type) {
            fault(path(where, name), "expected " + described + ", found " + found(value));
            return null;
        }
        return value;
    }

    private Long integer(final JsonNode node, final String where, final String name, final long minimum, final long maximum) {
        final JsonNode value = field(node, where, name, true);
        if (value == null) {
            return null;
        }
        if (!value.isIntegralNumber() || !value.canConvertToLong()) {
            fault(path(where, name), "expected a whole number, found " + found(value));
            return null;
        }
        final long v = value.longValue();
        if (v < minimum || v > maximum) {
            fault(path(where, name), (maximum >= Integer.MAX_VALUE ? "must be >= " + minimum : "must be " + minimum + ".." + maximum)
                + ", was " + v);
            return null;
        }
        return v;
    }

    /** A finite number, {@code > 0} when {@code strictlyPositive}, else {@code >= 0}. */
    private Double positiveNumber(final JsonNode node, final String where, final String name, final boolean required,
                                  final boolean strictlyPositive) {
        final JsonNode value = field(node, where, name, required);
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

    private void fault(final String location, final String reason) {
        faults.add(new ProfileFault(file, location, reason));
    }

    private static String path(final String where, final String name) {
        return where.isEmpty() ? name : where + "." + name;
    }

    /** What was found instead, with the value itself for a scalar: {@code string "ten"}, {@code null}, {@code array}. */
    private static String found(final JsonNode node) {
        final String kind = node.getNodeType().name().toLowerCase(java.util.Locale.ROOT);
        if (node.isNull() || node.isContainerNode() || node.isMissingNode()) {
            return kind;
        }
        final String value = node.toString();
        return kind + " " + (value.length() > 60 ? value.substring(0, 57) + "..." : value);
    }
}
