package org.latencyserver.server.persistence;

import static org.latencyserver.server.persistence.LenientJson.doubles;
import static org.latencyserver.server.persistence.LenientJson.field;
import static org.latencyserver.server.persistence.LenientJson.longOr;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.latencyserver.core.calibration.ShapeMeanModel;
import org.latencyserver.core.calibration.WindowNoise;
import org.latencyserver.core.input.InputNode;

/**
 * A connection's shape mean model ({@link ShapeMeanModel}) in its record, {@code shape_mean_model}: {@code {"blocks": n,
 * "gram": [10 numbers: the upper triangle of X'WX over the shape's four features, row by row, every window's],
 * "moments": [4 numbers: X'Wy, every window's], "relative_variance": [2 numbers: the variance sum and the square sum
 * behind the connection-wide squared coefficient of variation], "loaded_gram": [10 numbers: the same as gram over the
 * windows sent on a loaded port alone], "loaded_moments": [4 numbers], "window_noise": [2 numbers: the windows'
 * forgotten weighted sum of squared one-step-ahead residuals and their forgotten count, which set the ridge on the
 * slopes]}}; absent when nothing was learned (and in older records: then nothing is learned yet);
 * {@code relative_variance} absent (older records) reads as none learned, {@code window_noise} absent as no scatter
 * kept (the smallest ridge, until windows teach it).
 *
 * <p>{@code gram} and {@code moments} are the band-blind model's sums, as a server before the port band wrote and reads
 * them: such a server ignores the {@code loaded_} fields (written last) and serves the band-blind model from the same
 * record. The port band's features follow from the {@code loaded_} sums, kept apart because each band forgets only on
 * its own windows. A record without them (written before the band) is read with the loaded sums zero: nothing learned
 * on a loaded port yet. A wrong count, or loaded sums beyond every window's, is an error naming the part. The
 * coefficients are computed from these sums when read. The standby's replication carries the same record.
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
        final ArrayNode loadedGram = node.putArray("loaded_gram");
        for (final double value : model.loadedGram()) {
            loadedGram.add(value);
        }
        final ArrayNode loadedMoments = node.putArray("loaded_moments");
        for (final double value : model.loadedMoments()) {
            loadedMoments.add(value);
        }
        node.putArray("window_noise").add(model.noise().residualSum()).add(model.noise().windows());
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
            final boolean loaded = field(node, "loaded_gram") != null || field(node, "loaded_moments") != null;
            return new ShapeMeanModel(blocks, part(node, "gram", ShapeMeanModel.GRAM_ENTRIES),
                part(node, "moments", ShapeMeanModel.SHAPE_PARAMETERS),
                loaded ? part(node, "loaded_gram", ShapeMeanModel.GRAM_ENTRIES) : new double[ShapeMeanModel.GRAM_ENTRIES],
                loaded ? part(node, "loaded_moments", ShapeMeanModel.SHAPE_PARAMETERS)
                    : new double[ShapeMeanModel.SHAPE_PARAMETERS], relative[0], relative[1], noise(node));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(name + ": " + e.getMessage(), e);
        }
    }

    /** @return the windows' residual sums; none learned when the part is absent (a record written before it) */
    private static WindowNoise noise(final InputNode node) {
        if (field(node, "window_noise") == null) {
            return WindowNoise.NONE;
        }
        final double[] sums = part(node, "window_noise", 2);
        try {
            return new WindowNoise(sums[0], sums[1]);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("window_noise: " + e.getMessage(), e);
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
