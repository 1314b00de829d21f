package org.latencyserver.server.persistence;

import static org.latencyserver.server.persistence.LenientJson.doubles;
import static org.latencyserver.server.persistence.LenientJson.field;
import static org.latencyserver.server.persistence.LenientJson.longOr;
import static org.latencyserver.server.persistence.LenientJson.number;
import static org.latencyserver.server.persistence.LenientJson.requiredInt;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.latencyserver.core.calibration.ShapeExcessModel;
import org.latencyserver.core.calibration.ShapeSpreadModel;
import org.latencyserver.core.input.InputNode;

/**
 * A connection's shape model ({@link ShapeExcessModel}) in its record, {@code shape_model}: {@code {"blocks": n,
 * "gram": [10 numbers: the upper triangle of X'WX, row by row], "moments": [4 numbers: X'Wy], "residual_first_bin": i,
 * "residual_weights": [the residual bins' weights from bin i on; bins after the last given weigh 0], "spread": {...}}};
 * absent when nothing was learned (and in older records: then nothing is learned yet). {@code spread} is each shape's
 * spread ({@link ShapeSpreadModel}), {@code {"blocks": n, "gram": [10 numbers], "moments": [4 numbers],
 * "score_first_bin": i, "score_weights": [the score bins' weights from bin i on], "shared_sum": x, "shared_weight": w}}
 * (the blocks' forgotten sum of their shared part's variance, and their forgotten count), absent when none was learned (and
 * in records written before it existed: then the spread is learned afresh and the single margin stands meanwhile).
 * The coefficients, the margin and the scale are computed from these sums when read. The standby's replication
 * carries the same record.
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
        sums(node, model.blocks(), model.gram(), model.moments());
        bins(node, "residual", model.residualWeights());
        final ShapeSpreadModel spread = model.spread();
        if (spread.blocks() > 0) {
            final ObjectNode spreadNode = node.putObject("spread");
            sums(spreadNode, spread.blocks(), spread.gram(), spread.moments());
            bins(spreadNode, "score", spread.scoreWeights());
            spreadNode.put("shared_sum", spread.sharedSum());
            spreadNode.put("shared_weight", spread.sharedWeight());
        }
    }

    private static void sums(final ObjectNode node, final long blocks, final double[] gramValues, final double[] momentValues) {
        node.put("blocks", blocks);
        final ArrayNode gram = node.putArray("gram");
        for (final double value : gramValues) {
            gram.add(value);
        }
        final ArrayNode moments = node.putArray("moments");
        for (final double value : momentValues) {
            moments.add(value);
        }
    }

    /** Writes {@code PREFIX_first_bin} and {@code PREFIX_weights}: the bins from the first to the last not empty. */
    private static void bins(final ObjectNode node, final String prefix, final double[] binWeights) {
        int first = 0;
        while (first < binWeights.length && binWeights[first] == 0) {
            first++;
        }
        int last = binWeights.length - 1;
        while (last >= first && binWeights[last] == 0) {
            last--;
        }
        node.put(prefix + "_first_bin", first);
        final ArrayNode weights = node.putArray(prefix + "_weights");
        for (int bin = first; bin <= last; bin++) {
            weights.add(binWeights[bin]);
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
            final long blocks = blocks(node);
            final double[] gram = part(node, "gram", ShapeExcessModel.GRAM_ENTRIES);
            final double[] moments = part(node, "moments", ShapeExcessModel.PARAMETERS);
            final double[] residuals = bins(node, "residual", ShapeExcessModel.RESIDUAL_BINS);
            return new ShapeExcessModel(blocks, gram, moments, residuals, spread(node));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(name + ": " + e.getMessage(), e);
        }
    }

    private static ShapeSpreadModel spread(final InputNode model) {
        final InputNode node = field(model, "spread");
        if (node == null) {
            return ShapeSpreadModel.EMPTY;
        }
        try {
            return new ShapeSpreadModel(blocks(node), part(node, "gram", ShapeExcessModel.GRAM_ENTRIES),
                part(node, "moments", ShapeExcessModel.PARAMETERS), bins(node, "score", ShapeSpreadModel.SCORE_BINS),
                number(node, "shared_sum"), number(node, "shared_weight"));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("spread: " + e.getMessage(), e);
        }
    }

    private static long blocks(final InputNode node) {
        final long blocks = longOr(node, "blocks", -1);
        if (blocks < 0) {
            throw new IllegalArgumentException("blocks: expected a whole number >= 0");
        }
        return blocks;
    }

    private static double[] bins(final InputNode node, final String prefix, final int binCount) {
        final int first = requiredInt(node, prefix + "_first_bin");
        final double[] given = doublesOf(node, prefix + "_weights");
        if (first < 0 || first + given.length > binCount) {
            throw new IllegalArgumentException(prefix + "_weights: " + given.length + " bins from bin " + first + ", at most "
                + binCount + " bins in all");
        }
        final double[] weights = new double[binCount];
        System.arraycopy(given, 0, weights, first, given.length);
        return weights;
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
