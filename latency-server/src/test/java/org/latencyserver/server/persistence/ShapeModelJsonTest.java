package org.latencyserver.server.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.latencyserver.core.calibration.PortBand;
import org.latencyserver.core.calibration.ShapeExcessModel;
import org.latencyserver.core.calibration.ShapeSpreadModel;
import org.latencyserver.core.histogram.LatencyHistogram;
import org.latencyserver.core.input.InputFaults;
import org.latencyserver.core.input.InputFormat;
import org.latencyserver.core.input.InputNode;
import org.latencyserver.core.traffic.CallKind;
import org.latencyserver.core.traffic.TrafficShape;

/** The shape model's spread is written in {@code shape_model.spread} and read back; older records load without it. */
class ShapeModelJsonTest {

    private static final TrafficShape FAST = new TrafficShape(500, 100, 0, CallKind.OCTETS);
    private static final TrafficShape SLOW = new TrafficShape(10_000, 10, 0, CallKind.ARRAYS);

    private static ShapeExcessModel learned(final int trains) {
        return learned(trains, PortBand.IDLE);
    }

    /** Trains of a fast and a slow shape by turns, every one sent in the given port band. */
    private static ShapeExcessModel learned(final int trains, final PortBand band) {
        final long[] edges = new long[400];
        for (int i = 0; i < edges.length; i++) {
            edges[i] = Math.round(10_000.0 * Math.pow(1.02, i + 1));
        }
        final SplittableRandom random = new SplittableRandom(11);
        ShapeExcessModel model = ShapeExcessModel.EMPTY;
        for (int b = 0; b < trains; b++) {
            final long[] counts = new long[edges.length];
            for (int i = 0; i < 10; i++) {
                counts[200 + (int) Math.round((b % 2 == 0 ? 20 : 5) * (random.nextDouble() - 0.5))]++;
            }
            model = model.observe(b % 2 == 0 ? FAST : SLOW, LatencyHistogram.of(edges, counts, 0), 1e6, band);
        }
        return model;
    }

    private static InputNode parsed(final ObjectNode record) throws Exception {
        return InputNode.parse(record.toString(), InputFormat.JSON, new InputFaults("test"));
    }

    @Test
    void theSpreadIsWrittenAndReadBack() throws Exception {
        final ShapeExcessModel model = learned(30);
        assertTrue(model.spread().fitted(), "30 trains fit the spread");
        final ObjectNode record = new ObjectMapper().createObjectNode();
        ShapeModelJson.write(record, "shape_model", model);
        final ObjectNode spread = (ObjectNode) record.get("shape_model").get("spread");
        assertEquals(25, spread.get("blocks").asLong(), "the spread learns from the sixth train on");
        assertEquals(ShapeExcessModel.GRAM_ENTRIES, spread.get("gram").size());
        final ShapeExcessModel read = ShapeModelJson.read(parsed(record), "shape_model");
        assertEquals(model, read);
        assertEquals(model.boundFactor(FAST, 0.04), read.boundFactor(FAST, 0.04), 0.0);
    }

    @Test
    void aRecordWithoutTheSpreadLoadsWithNone() throws Exception {
        final ShapeExcessModel model = learned(30);
        final ObjectNode record = new ObjectMapper().createObjectNode();
        ShapeModelJson.write(record, "shape_model", model);
        ((ObjectNode) record.get("shape_model")).remove("spread");
        final ShapeExcessModel read = ShapeModelJson.read(parsed(record), "shape_model");
        assertEquals(ShapeSpreadModel.EMPTY, read.spread());
        assertEquals(model.blocks(), read.blocks());
        assertEquals(model.shiftBoundFactor(FAST, 0.04), read.boundFactor(FAST, 0.04), 0.0, "the single margin stands");
    }

    @Test
    void aModelWithTooFewTrainsWritesNoSpread() {
        final ObjectNode record = new ObjectMapper().createObjectNode();
        ShapeModelJson.write(record, "shape_model", learned((int) ShapeExcessModel.MIN_FIT_BLOCKS));
        assertTrue(record.get("shape_model").has("gram"));
        assertTrue(!record.get("shape_model").has("spread"), record::toString);
    }

    @Test
    void aModelLearnedOnALoadedPortIsWrittenWithTheBandsSumsAndReadBack() throws Exception {
        final ShapeExcessModel model = learned(30, PortBand.LOADED);
        assertTrue(model.gram()[ShapeExcessModel.GRAM_ENTRIES - 1] > 0, "the band's sums learned: " + model);
        final ObjectNode record = new ObjectMapper().createObjectNode();
        ShapeModelJson.write(record, "shape_model", model);
        assertEquals(ShapeExcessModel.GRAM_ENTRIES, record.get("shape_model").get("gram").size());
        assertEquals(ShapeExcessModel.PARAMETERS, record.get("shape_model").get("moments").size());
        final ShapeExcessModel read = ShapeModelJson.read(parsed(record), "shape_model");
        assertEquals(model, read);
        assertEquals(model.boundFactor(FAST, PortBand.LOADED, 0.04), read.boundFactor(FAST, PortBand.LOADED, 0.04), 0.0);
    }

    @Test
    void gramAndMomentsOfDifferentFeatureCountsAreRefusedNamingThePart() throws Exception {
        final ObjectNode record = new ObjectMapper().createObjectNode();
        ShapeModelJson.write(record, "shape_model", learned(30));
        ((ObjectNode) record.get("shape_model")).putArray("moments").add(1.0).add(2.0).add(3.0).add(4.0);
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> ShapeModelJson.read(parsed(record), "shape_model"));
        assertTrue(e.getMessage().startsWith("shape_model: moments: expected 7 numbers with 28 gram entries, found 4"),
            e.getMessage());
    }

    @Test
    void aDamagedSpreadIsRefusedNamingWhere() throws Exception {
        final ObjectNode record = new ObjectMapper().createObjectNode();
        ShapeModelJson.write(record, "shape_model", learned(30));
        ((ObjectNode) record.get("shape_model").get("spread")).putArray("gram").add(1.0);
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> ShapeModelJson.read(parsed(record), "shape_model"));
        assertTrue(e.getMessage().startsWith("shape_model: spread: gram: expected 28 numbers (or 10 with 4 moments, a record before the port band), found 1"), e.getMessage());
        final ObjectNode other = new ObjectMapper().createObjectNode();
        ShapeModelJson.write(other, "shape_model", learned(30));
        ((ObjectNode) other.get("shape_model").get("spread")).put("score_first_bin", ShapeSpreadModel.SCORE_BINS - 1)
            .putArray("score_weights").add(1.0).add(1.0);
        final IllegalArgumentException bins = assertThrows(IllegalArgumentException.class,
            () -> ShapeModelJson.read(parsed(other), "shape_model"));
        assertTrue(bins.getMessage().startsWith("shape_model: spread: score_weights: 2 bins from bin 239, at most 240 bins"),
            bins.getMessage());
    }
}
