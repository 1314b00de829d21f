package org.latencyserver.core.profile;

import static org.latencyserver.core.profile.ProfileFields.found;
import static org.latencyserver.core.profile.ProfileFields.isObject;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.latencyserver.core.input.InputFaults;
import org.latencyserver.core.input.InputNode;
import org.latencyserver.core.port.MeasuredTablePortModel;
import org.latencyserver.core.port.PortModel;
import org.latencyserver.core.port.ThesisQueuePortModel;

/**
 * Walks a profile's JSON tree, collecting every fault with its location — the key path, with a
 * cell named by its CPU pair and size, and the line and column of the value (or of the object
 * that lacks a field) — and builds the {@link Profile} only when there is none. One instance reads
 * one document; not thread-safe. The top-level sections are read here; the cells by
 * {@link ProfileCellsReader}, their histograms by {@link ProfileHistogramReader}, single fields
 * and fault locations by {@link ProfileFields}.
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

    private final InputFaults faults;
    private final int maxHistogramBins;
    private ProfileFields fields;

    ProfileReader(final InputFaults faults, final int maxHistogramBins) {
        this.faults = faults;
        this.maxHistogramBins = maxHistogramBins;
    }

    Profile read(final InputNode root) {
        this.fields = new ProfileFields(faults, root);
        final ProfileCellsReader cellsReader = new ProfileCellsReader(fields,
            new ProfileHistogramReader(fields, maxHistogramBins));
        if (root.kind() != InputNode.Kind.MAP) {
            fields.fault("$", "a profile is a JSON object, found " + found(root));
            return null;
        }
        fields.knownFields(root, "", TOP_FIELDS);
        final String format = fields.text(root, "", "format", true);
        if (format != null && !ProfileJson.FORMAT.equals(format) && !ProfileJson.FORMAT_WITH_PORT_CELLS.equals(format)) {
            fields.fault("format", "unknown format '" + format + "'; this reader understands '" + ProfileJson.FORMAT + "' and '"
                + ProfileJson.FORMAT_WITH_PORT_CELLS + "'");
        }
        if (ProfileJson.FORMAT.equals(format) && root.fields().containsKey("port_cells")) {
            fields.fault("port_cells", "measured port cells need format '" + ProfileJson.FORMAT_WITH_PORT_CELLS + "', the document says '"
                + format + "'");
        }
        final String name = fields.text(root, "", "name", true);
        final String workstationType = fields.text(root, "", "workstation_type", true);
        final Layer layer = layer(root);
        units(root);
        final Provenance provenance = provenance(root);
        final ProfileAssumptions assumptions = assumptions(root);
        final PortModel portModel = portModel(root);
        final List<ProfileCell> cells = cellsReader.cells(root);
        final List<PortCell> portCells = cellsReader.portCells(root);
        if (!faults.isEmpty()) {
            return null;
        }
        return new Profile(name, workstationType, layer, provenance, assumptions, portModel, cells, portCells);
    }

    private Layer layer(final InputNode root) {
        final String layer = fields.text(root, "", "layer", true);
        if (layer == null) {
            return null;
        }
        try {
            return Layer.valueOf(layer);
        } catch (IllegalArgumentException e) {
            fields.fault("layer", "unknown layer '" + layer + "'; expected CORBA, TCP or UDP");
            return null;
        }
    }

    private void units(final InputNode root) {
        final InputNode units = fields.knownObject(root, "", "units", true, UNITS_FIELDS);
        if (units == null) {
            return;
        }
        final String latency = fields.text(units, "units", "latency", true);
        if (latency != null && !"ms".equals(latency)) {
            fields.fault("units.latency", "unit '" + latency + "' is not supported; latencies (mean_ms, max_ms, std_dev_ms) are in 'ms'");
        }
        final String edges = fields.text(units, "units", "histogram_edges", true);
        if (edges != null && !"ns".equals(edges)) {
            fields.fault("units.histogram_edges", "unit '" + edges + "' is not supported; histogram edges are in 'ns'");
        }
    }

    private Provenance provenance(final InputNode root) {
        final InputNode node = fields.knownObject(root, "", "provenance", true, PROVENANCE_FIELDS);
        if (node == null) {
            return null;
        }
        final String source = fields.text(node, "provenance", "source", true);
        final String hardware = fields.text(node, "provenance", "hardware", false);
        final String orb = fields.text(node, "provenance", "orb", false);
        final String os = fields.text(node, "provenance", "operating_system", false);
        final String measuredOn = fields.text(node, "provenance", "measured_on", false);
        final String method = fields.text(node, "provenance", "method", false);
        return source == null ? null : new Provenance(source, hardware, orb, os, measuredOn, method);
    }

    private ProfileAssumptions assumptions(final InputNode root) {
        final InputNode node = fields.knownObject(root, "", "assumptions", false, ASSUMPTIONS_FIELDS);
        if (node == null) {
            return null;
        }
        final Double stdDev = fields.positiveNumber(node, "assumptions", "std_dev_ms", false, true);
        final String note = fields.text(node, "assumptions", "note", false);
        return new ProfileAssumptions(stdDev, note);
    }

    private PortModel portModel(final InputNode root) {
        final InputNode node = fields.knownObject(root, "", "port_model", true, PORT_MODEL_FIELDS);
        if (node == null) {
            return null;
        }
        final String kind = fields.text(node, "port_model", "kind", true);
        if (kind == null) {
            return null;
        }
        switch (kind) {
            case "thesis-queue":
                if (node.fields().containsKey("rows")) {
                    fields.fault("port_model.rows", "the thesis-queue model takes no rows");
                }
                return ThesisQueuePortModel.INSTANCE;
            case "measured-table":
                return measuredTable(node);
            default:
                fields.fault("port_model.kind", "unknown port model '" + kind + "'; expected thesis-queue or measured-table");
                return null;
        }
    }

    private PortModel measuredTable(final InputNode node) {
        final InputNode rows = fields.array(node, "port_model", "rows", true);
        if (rows == null) {
            return null;
        }
        final List<MeasuredTablePortModel.Row> parsed = new ArrayList<>();
        final int before = fields.faultCount();
        for (int i = 0; i < rows.items().size(); i++) {
            final String where = "port_model.rows[" + i + "]";
            final InputNode row = rows.items().get(i);
            if (!isObject(row)) {
                fields.fault(where, "expected an object, found " + found(row));
                continue;
            }
            fields.knownFields(row, where, PORT_ROW_FIELDS);
            final Long size = fields.integer(row, where, "message_size_bytes", 1, Integer.MAX_VALUE);
            final Long load = fields.integer(row, where, "port_load_percent", 0, 100);
            final Double rtt = fields.positiveNumber(row, where, "avg_round_trip_us", true, true);
            if (size != null && load != null && rtt != null) {
                parsed.add(new MeasuredTablePortModel.Row(size.intValue(), load.intValue(), rtt));
            }
        }
        if (fields.faultCount() > before) {
            return null;
        }
        try {
            return MeasuredTablePortModel.of(parsed);
        } catch (IllegalArgumentException e) {
            fields.fault("port_model.rows", e.getMessage());
            return null;
        }
    }
}
