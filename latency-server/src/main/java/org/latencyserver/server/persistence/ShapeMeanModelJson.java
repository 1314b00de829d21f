package org.latencyserver.server.persistence;

import static org.latencyserver.server.persistence.LenientJson.doubles;
import static org.latencyserver.server.persistence.LenientJson.field;
import static org.latencyserver.server.persistence.LenientJson.longOr;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.latencyserver.core.calibration.ShapeMeanModel;
import org.latencyserver.core.input.InputNode;

/**
 * A connection's shape mean model ({@link ShapeMeanModel}) in its record, {@code shape_mean_model}: {@code {"blocks": n,
 * "gram": [10 numbers: the upper triangle of X'WX, row by row], "moments": [4 numbers: X'Wy], "relative_variance": [2
 * numbers: the variance sum and the square sum behind the connection-wide squared coefficient of variation]}}; absent when
 * nothing was learned (and in older records: then nothing is learned yet); {@code relative_variance} absent (older
 * records) reads as none learned. The coefficients are computed from these sums when read.
 *
 * <p>Stateless and thread-safe.
 */
final class ShapeMeanModelJson {

    private ShapeMeanModelJson() {
    }

    /**
     * @param record the record being written
     * @param name   the field's name
     * @param model  what to write; nothing is written when nothing was learned
     */
    static void write(final ObjectNode record, final String name, final ShapeMeanModel model) {
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
        node.putArray("relative_variance").add(model.varianceSum()).add(model.squareSum());
    }

    /**
     * @param record the record read
     * @param name   the field's name
     * @return the model; {@link ShapeMeanModel#EMPTY} when the field is absent
     * @throws IllegalArgumentException naming the field and the part at fault
     */
    static ShapeMeanModel read(final InputNode record, final String name) {
        final InputNode node = field(record, name);
        if (node == null) {
            return ShapeMeanModel.EMPTY;
        }
        try {
            final long blocks = longOr(node, "blocks", -1);
            if (blocks < 0) {
                throw new IllegalArgumentException("blocks: expected a whole number >= 0");
            }
            final double[] relative = field(node, "relative_variance") == null ? new double[2] : part(node, "relative_variance", 2);
            return new ShapeMeanModel(blocks, part(node, "gram", ShapeMeanModel.GRAM_ENTRIES),
                part(node, "moments", ShapeMeanModel.PARAMETERS), relative[0], relative[1]);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(name + ": " + e.getMessage(), e);
        }
    }

    private static double[] part(final InputNode node, final String part, final int length) {
        final double[] values;
        try {
            values = doubles(field(node, part));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(part + ": " + e.getMessage(), e);
        }
        if (values.length != length) {
            throw new IllegalArgumentException(part + ": expected " + length + " numbers, found " + values.length);
        }
        return values;
    }
}
