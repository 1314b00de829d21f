package org.latencyserver.server.persistence;

import static org.latencyserver.server.persistence.LenientJson.doubles;
import static org.latencyserver.server.persistence.LenientJson.field;
import static org.latencyserver.server.persistence.LenientJson.items;
import static org.latencyserver.server.persistence.LenientJson.text;
import static org.latencyserver.server.persistence.LenientJson.longOr;
import static org.latencyserver.server.persistence.LenientJson.number;
import static org.latencyserver.server.persistence.LenientJson.requiredInt;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import org.latencyserver.core.calibration.BandLogRatios;
import org.latencyserver.core.calibration.BandShapes;
import org.latencyserver.core.calibration.PortBand;
import org.latencyserver.core.calibration.ShapeExcessModel;
import org.latencyserver.core.calibration.ShapeFeatures;
import org.latencyserver.core.calibration.ShapeSpreadModel;
import org.latencyserver.core.input.InputNode;
import org.latencyserver.core.traffic.CallKind;
import org.latencyserver.core.traffic.TrafficShape;

/**
 * A connection's shape model ({@link ShapeExcessModel}) in its record, {@code shape_model}: {@code {"blocks": n,
 * "gram": [10 numbers: the upper triangle of X'WX over the shape's four features, row by row, every block's],
 * "moments": [4 numbers: X'Wy, every block's], "loaded_gram": [10 numbers: the same over the blocks sent on a loaded
 * port alone], "loaded_moments": [4 numbers], "residual_first_bin": i, "residual_weights": [the residual bins' weights
 * from bin i on; bins after the last given weigh 0], "idle_log_ratio_first_bin": i, "idle_log_ratio_weights": [...],
 * "loaded_log_ratio_first_bin": i, "loaded_log_ratio_weights": [...], "idle_shapes": [{"spacing_micros": n,
 * "burst_round_trips": n, "call": "octets"|"arrays", "weight": w}, ...], "idle_other_shapes_weight": w, "loaded_shapes":
 * [...], "loaded_other_shapes_weight": w, "spread": {...}}}; absent when nothing was learned (and in older
 * records: then nothing is learned yet). {@code spread} is each shape's spread ({@link ShapeSpreadModel}),
 * {@code {"blocks": n, "gram": [10], "moments": [4], "loaded_gram": [10], "loaded_moments": [4], "score_first_bin": i,
 * "score_weights": [the score bins' weights from bin i on], "shared_sum": x, "shared_weight": w}} (the blocks' forgotten
 * sum of their shared part's variance, and their forgotten count), absent when none was learned (and in records written
 * before it existed: then the spread is learned afresh and the single margin stands meanwhile). The {@code log_ratio}
 * bins are where each band's trains lay against their state's bound ({@link BandLogRatios}, in its own bins);
 * absent in records written before them, which load without (the model's own bound is then served until the trains
 * teach them again); a weight negative or not a number is an error naming the part. The {@code shapes} are each band's
 * trains' shapes while few ({@link BandShapes}); absent, none is kept and the band's trains' weight counts as other
 * shapes', so its mix is taken as spread normally until those trains are forgotten.
 *
 * <p>{@code gram} and {@code moments} are the band-blind model's sums, as a server before the port band wrote and reads
 * them: such a server ignores the {@code loaded_} fields and serves the band-blind model from the same record. The port
 * band's features ({@link ShapeFeatures}) follow from the {@code loaded_} sums (a loaded block's band features repeat
 * its shape's), kept apart because each band forgets only on its own blocks. A record without them (written before the
 * band) is read with the loaded sums zero: nothing learned on a loaded port yet. A record of 28 gram entries and 7
 * moments (the full sums, as written for a while) is read as {@link ShapeExcessModel#ShapeExcessModel(long, double[],
 * double[], double[], ShapeSpreadModel)}. Any other count is an error naming the part. The coefficients, the margin and
 * the scale are computed from these sums when read. The standby's replication carries the same record.
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
        sums(node, model.blocks(), model.shapeGram(), model.shapeMoments());
        numbers(node, "loaded_gram", model.loadedGram());
        numbers(node, "loaded_moments", model.loadedMoments());
        bins(node, "residual", model.residualWeights());
        bins(node, "idle_log_ratio", model.logRatios().idleWeights());
        bins(node, "loaded_log_ratio", model.logRatios().loadedWeights());
        shapes(node, "idle", model.logRatios().shapes(PortBand.IDLE));
        shapes(node, "loaded", model.logRatios().shapes(PortBand.LOADED));
        final ShapeSpreadModel spread = model.spread();
        if (spread.blocks() > 0) {
            final ObjectNode spreadNode = node.putObject("spread");
            sums(spreadNode, spread.blocks(), spread.shapeGram(), spread.shapeMoments());
            numbers(spreadNode, "loaded_gram", spread.loadedGram());
            numbers(spreadNode, "loaded_moments", spread.loadedMoments());
            bins(spreadNode, "score", spread.scoreWeights());
            spreadNode.put("shared_sum", spread.sharedSum());
            spreadNode.put("shared_weight", spread.sharedWeight());
        }
    }

    /** Writes {@code BAND_shapes} (the kept shapes) and {@code BAND_other_shapes_weight}. */
    private static void shapes(final ObjectNode node, final String band, final BandShapes shapes) {
        final ArrayNode array = node.putArray(band + "_shapes");
        for (final BandShapes.Entry entry : shapes.entries()) {
            array.addObject().put("spacing_micros", entry.shape().spacingMicros())
                .put("burst_round_trips", entry.shape().burstRoundTrips()).put("call", entry.shape().call().word())
                .put("weight", entry.weight());
        }
        node.put(band + "_other_shapes_weight", shapes.otherWeight());
    }

    private static void sums(final ObjectNode node, final long blocks, final double[] gramValues, final double[] momentValues) {
        node.put("blocks", blocks);
        numbers(node, "gram", gramValues);
        numbers(node, "moments", momentValues);
    }

    private static void numbers(final ObjectNode node, final String name, final double[] values) {
        final ArrayNode array = node.putArray(name);
        for (final double value : values) {
            array.add(value);
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
            final double[][] sums = sums(node);
            final double[] residuals = bins(node, "residual", ShapeExcessModel.RESIDUAL_BINS);
            final ShapeExcessModel model = sums.length == 2 ? new ShapeExcessModel(blocks, sums[0], sums[1], residuals, spread(node))
                : new ShapeExcessModel(blocks, sums[0], sums[1], sums[2], sums[3], residuals, spread(node));
            return model.withLogRatios(logRatios(node));
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
            final long blocks = blocks(node);
            final double[][] sums = sums(node);
            final double[] scores = bins(node, "score", ShapeSpreadModel.SCORE_BINS);
            return sums.length == 2 ? new ShapeSpreadModel(blocks, sums[0], sums[1], scores, number(node, "shared_sum"),
                number(node, "shared_weight"))
                : new ShapeSpreadModel(blocks, sums[0], sums[1], sums[2], sums[3], scores, number(node, "shared_sum"),
                    number(node, "shared_weight"));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("spread: " + e.getMessage(), e);
        }
    }

    /** @return the trains' log ratios per band, or none when the record has neither band's (written before them) */
    private static BandLogRatios logRatios(final InputNode node) {
        if (field(node, "idle_log_ratio_first_bin") == null && field(node, "loaded_log_ratio_first_bin") == null) {
            return BandLogRatios.EMPTY;
        }
        final double[] idle = bins(node, "idle_log_ratio", BandLogRatios.BINS);
        final double[] loaded = bins(node, "loaded_log_ratio", BandLogRatios.BINS);
        return new BandLogRatios(idle, loaded, shapes(node, "idle", idle), shapes(node, "loaded", loaded));
    }

    /**
     * @param ratios the band's log ratio weights read beside them
     * @return a band's kept shapes; when the record has none, none kept and the band's trains' weight as the other shapes'
     *         (a family's trains are then taken as spread normally until they are forgotten, not the first new train's
     *         shape as the whole mix)
     */
    private static BandShapes shapes(final InputNode node, final String band, final double[] ratios) {
        final String name = band + "_shapes";
        if (field(node, name) == null) {
            double weight = 0;
            for (final double ratio : ratios) {
                weight += ratio;
            }
            return new BandShapes(java.util.List.of(), weight);
        }
        final List<BandShapes.Entry> entries = new ArrayList<>();
        int index = 0;
        for (final InputNode item : items(node, name)) {
            try {
                final String call = text(item, "call", "");
                final CallKind kind = CallKind.OCTETS.word().equals(call) ? CallKind.OCTETS
                    : CallKind.ARRAYS.word().equals(call) ? CallKind.ARRAYS : null;
                if (kind == null) {
                    throw new IllegalArgumentException("call: expected " + CallKind.OCTETS.word() + " or " + CallKind.ARRAYS.word()
                        + ", was '" + call + "'");
                }
                final long burst = longOr(item, "burst_round_trips", -1);
                if (burst < 1 || burst > TrafficShape.MAX_BURST_ROUND_TRIPS) {
                    throw new IllegalArgumentException("burst_round_trips: expected a whole number in [1, "
                        + TrafficShape.MAX_BURST_ROUND_TRIPS + "], was " + burst);
                }
                entries.add(new BandShapes.Entry(new TrafficShape(longOr(item, "spacing_micros", -1), (int) burst, 0, kind),
                    number(item, "weight")));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(name + "[" + index + "]: " + e.getMessage(), e);
            }
            index++;
        }
        try {
            return new BandShapes(entries, number(node, band + "_other_shapes_weight"));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(name + ": " + e.getMessage(), e);
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

    /**
     * @return {@code {gram, moments, loaded gram, loaded moments}} over the shape's {@value ShapeFeatures#SHAPE_PARAMETERS}
     *         features (the loaded sums zero when the record has none), or {@code {gram, moments}} of the full
     *         {@value ShapeFeatures#PARAMETERS} features when the record holds those
     */
    private static double[][] sums(final InputNode node) {
        final double[] gram = doublesOf(node, "gram");
        final double[] moments = doublesOf(node, "moments");
        if (gram.length == ShapeFeatures.GRAM_ENTRIES && moments.length == ShapeFeatures.PARAMETERS
            && field(node, "loaded_gram") == null && field(node, "loaded_moments") == null) {
            return new double[][] {gram, moments};
        }
        if (gram.length != ShapeFeatures.SHAPE_GRAM_ENTRIES || moments.length != ShapeFeatures.SHAPE_PARAMETERS) {
            throw new IllegalArgumentException("gram, moments: expected " + ShapeFeatures.SHAPE_GRAM_ENTRIES + " and "
                + ShapeFeatures.SHAPE_PARAMETERS + " numbers (or " + ShapeFeatures.GRAM_ENTRIES + " and " + ShapeFeatures.PARAMETERS
                + " without loaded_gram), found " + gram.length + " and " + moments.length);
        }
        final boolean loaded = field(node, "loaded_gram") != null || field(node, "loaded_moments") != null;
        final double[] loadedGram = loaded ? doublesOf(node, "loaded_gram") : new double[ShapeFeatures.SHAPE_GRAM_ENTRIES];
        final double[] loadedMoments = loaded ? doublesOf(node, "loaded_moments") : new double[ShapeFeatures.SHAPE_PARAMETERS];
        if (loadedGram.length != ShapeFeatures.SHAPE_GRAM_ENTRIES || loadedMoments.length != ShapeFeatures.SHAPE_PARAMETERS) {
            throw new IllegalArgumentException("loaded_gram, loaded_moments: expected " + ShapeFeatures.SHAPE_GRAM_ENTRIES
                + " and " + ShapeFeatures.SHAPE_PARAMETERS + " numbers, found " + loadedGram.length + " and "
                + loadedMoments.length);
        }
        return new double[][] {gram, moments, loadedGram, loadedMoments};
    }

    private static double[] doublesOf(final InputNode node, final String part) {
        try {
            return doubles(field(node, part));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(part + ": " + e.getMessage(), e);
        }
    }
}
