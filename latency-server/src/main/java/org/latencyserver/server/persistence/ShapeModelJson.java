package org.latencyserver.server.persistence;

import static org.latencyserver.server.persistence.LenientJson.doubles;
import static org.latencyserver.server.persistence.LenientJson.field;
import static org.latencyserver.server.persistence.LenientJson.longOr;
import static org.latencyserver.server.persistence.LenientJson.requiredInt;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.latencyserver.core.calibration.ShapeExcessModel;
import org.latencyserver.core.input.InputNode;

/**
 * A connection's shape model ({@link ShapeExcessModel}) in its record, {@code shape_model}: {@code {"blocks": n,
 * "gram": [10 numbers: the upper triangle of X'WX, row by row], "moments": [4 numbers: X'Wy], "residual_first_bin": i,
 * "residual_weights": [the residual bins' weights from bin i on; bins after the last given weigh 0]}}; absent when
 * nothing was learned (and in older records: then nothing is learned yet). The coefficients and the margin are
 * computed from these sums when read.
 *
 * <p>Stateless and thread-safe.
 */
final class ShapeModelJson {

    private ShapeModelJson() {
    }

    /**
     * @param record the record being written
     * @param name   the field's name
     * @param model  what to write; nothing is written when nothing was learned
     */
    static void write(final ObjectNode record, final String name, final ShapeExcessModel model) {
        if (model.blocks() == 0) {
            return;
        }
        final ObjectNode node = record.putObject(name);
        node.put("blocks", model.blocks());
        final ArrayNode gram = node.putArray("gram");
        for (final double value : model.gram()) {
            gram.add(value);
        }
        final ArrayNode moments = node.putArray("moments");
        for (final double value : model.moments()) {
            moments.add(value);
        }
        final double[] residuals = model.residualWeights();
        int first = 0;
        while (first < residuals.length && residuals[first] == 0) {
            first++;
        }
        int last = residuals.length - 1;
        while (last >= first && residuals[last] == 0) {
            last--;
        }
        node.put("residual_first_bin", first);
        final ArrayNode weights = node.putArray("residual_weights");
        for (int bin = first; bin <= last; bin++) {
            weights.add(residuals[bin]);
        }
    }

    /**
     * @param record the record read
     * @param name   the field's name
     * @return the model; {@link ShapeExcessModel#EMPTY} when the field is absent
     * @throws IllegalArgumentException naming the field and the part at fault
     */
    static ShapeExcessModel read(final InputNode record, final String name) {
        final InputNode node = field(record, name);
        if (node == null) {
            return ShapeExcessModel.EMPTY;
        }
        try {
            final long blocks = longOr(node, "blocks", -1);
            if (blocks < 0) {
                throw new IllegalArgumentException("blocks: expected a whole number >= 0");
            }
            final double[] gram = part(node, "gram", ShapeExcessModel.GRAM_ENTRIES);
            final double[] moments = part(node, "moments", ShapeExcessModel.PARAMETERS);
            final int first = requiredInt(node, "residual_first_bin");
            final double[] given = doublesOf(node, "residual_weights");
            if (first < 0 || first + given.length > ShapeExcessModel.RESIDUAL_BINS) {
                throw new IllegalArgumentException("residual_weights: " + given.length + " bins from bin " + first + ", at most "
                    + ShapeExcessModel.RESIDUAL_BINS + " bins in all");
            }
            final double[] residuals = new double[ShapeExcessModel.RESIDUAL_BINS];
            System.arraycopy(given, 0, residuals, first, given.length);
            return new ShapeExcessModel(blocks, gram, moments, residuals);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(name + ": " + e.getMessage(), e);
        }
    }

    private static double[] part(final InputNode node, final String part, final int length) {
        final double[] values = doublesOf(node, part);
        if (values.length != length) {
            throw new IllegalArgumentException(part + ": expected " + length + " numbers, found " + values.length);
        }
        return values;
    }

    private static double[] doublesOf(final InputNode node, final String part) {
        try {
            return doubles(field(node, part));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(part + ": " + e.getMessage(), e);
        }
    }
}
