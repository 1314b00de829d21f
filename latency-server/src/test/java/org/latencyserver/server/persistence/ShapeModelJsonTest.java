package org.latencyserver.server.persistence;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.latencyserver.core.calibration.BandLogRatios;
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

    /** @return a record holding {@code model} under {@code shape_model}, as a state file writes it */
    private static ObjectNode written(final ShapeExcessModel model) {
        final ObjectNode record = new ObjectMapper().createObjectNode();
        ShapeModelJson.write(record, "shape_model", model);
        return record;
    }

    private static InputNode parsed(final ObjectNode record) throws Exception {
        return InputNode.parse(record.toString(), InputFormat.JSON, new InputFaults("test"));
    }

    @Test
    void theSpreadIsWrittenAndReadBack() throws Exception {
        final ShapeExcessModel model = learned(30);
        assertTrue(model.spread().fitted(), "30 trains fit the spread");
        final ObjectNode record = written(model);
        final ObjectNode spread = (ObjectNode) record.get("shape_model").get("spread");
        assertEquals(25, spread.get("blocks").asLong(), "the spread learns from the sixth train on");
        assertEquals(10, spread.get("gram").size(), "the band-blind sums over the shape's four features");
        assertEquals(10, spread.get("loaded_gram").size());
        final ShapeExcessModel read = ShapeModelJson.read(parsed(record), "shape_model");
        assertEquals(model, read);
        assertEquals(model.boundFactor(FAST, 0.04), read.boundFactor(FAST, 0.04), 0.0);
    }

    @Test
    void aRecordWithoutTheSpreadLoadsWithNone() throws Exception {
        final ShapeExcessModel model = learned(30);
        final ObjectNode record = written(model);
        ((ObjectNode) record.get("shape_model")).remove("spread");
        final ShapeExcessModel read = ShapeModelJson.read(parsed(record), "shape_model");
        assertEquals(ShapeSpreadModel.EMPTY, read.spread());
        assertEquals(model.blocks(), read.blocks());
        assertEquals(model.shiftBoundFactor(FAST, 0.04), read.boundFactor(FAST, 0.04), 0.0, "the single margin stands");
    }

    @Test
    void aModelWithTooFewTrainsWritesNoSpread() {
        final ObjectNode record = written(learned((int) ShapeExcessModel.MIN_FIT_BLOCKS));
        assertTrue(record.get("shape_model").has("gram"));
        assertTrue(!record.get("shape_model").has("spread"), record::toString);
    }

    @Test
    void aModelLearnedOnALoadedPortIsWrittenWithTheBandsSumsAndReadBack() throws Exception {
        final ShapeExcessModel model = learned(30, PortBand.LOADED);
        assertTrue(model.gram()[ShapeExcessModel.GRAM_ENTRIES - 1] > 0, "the band's sums learned: " + model);
        final ObjectNode record = written(model);
        assertEquals(10, record.get("shape_model").get("gram").size(), "gram stays the band-blind model's");
        assertEquals(4, record.get("shape_model").get("moments").size());
        assertEquals(10, record.get("shape_model").get("loaded_gram").size());
        assertEquals(4, record.get("shape_model").get("loaded_moments").size());
        assertEquals(record.get("shape_model").get("gram"), record.get("shape_model").get("loaded_gram"),
            "every block was loaded: the loaded sums are all the sums");
        final ShapeExcessModel read = ShapeModelJson.read(parsed(record), "shape_model");
        assertEquals(model, read);
        assertEquals(model.boundFactor(FAST, PortBand.LOADED, 0.04), read.boundFactor(FAST, PortBand.LOADED, 0.04), 0.0);
    }

    @Test
    void gramAndMomentsOfDifferentFeatureCountsAreRefusedNamingThePart() throws Exception {
        final ObjectNode record = written(learned(30));
        ((ObjectNode) record.get("shape_model")).putArray("moments").add(1.0).add(2.0).add(3.0).add(4.0).add(5.0).add(6.0)
            .add(7.0);
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> ShapeModelJson.read(parsed(record), "shape_model"));
        assertTrue(e.getMessage().startsWith("shape_model: gram, moments: expected 10 and 4 numbers (or 28 and 7 without"
            + " loaded_gram), found 10 and 7"), e.getMessage());
        final ObjectNode loaded = written(learned(30));
        ((ObjectNode) loaded.get("shape_model")).putArray("loaded_moments").add(1.0);
        final IllegalArgumentException band = assertThrows(IllegalArgumentException.class,
            () -> ShapeModelJson.read(parsed(loaded), "shape_model"));
        assertTrue(band.getMessage().startsWith("shape_model: loaded_gram, loaded_moments: expected 10 and 4 numbers, found 10"
            + " and 1"), band.getMessage());
    }

    @Test
    void theTrainsLogRatiosAreWrittenPerBandAndReadBack() throws Exception {
        final ShapeExcessModel model = learned(30, PortBand.LOADED);
        assertTrue(model.logRatios().weight(PortBand.LOADED) > 0);
        final ObjectNode record = written(model);
        assertTrue(record.get("shape_model").get("loaded_log_ratio_weights").size() > 0, record::toString);
        assertEquals(0, record.get("shape_model").get("idle_log_ratio_weights").size(), "no idle train");
        final ShapeExcessModel read = ShapeModelJson.read(parsed(record), "shape_model");
        assertEquals(model.logRatios(), read.logRatios());
        assertEquals(2, record.get("shape_model").get("loaded_shapes").size(), "the fast and the slow shape: " + record);
        assertEquals("octets", record.get("shape_model").get("loaded_shapes").get(0).get("call").asText());
        assertEquals(model.servedBoundFactor(FAST, PortBand.LOADED, 0.04, 0.04),
            read.servedBoundFactor(FAST, PortBand.LOADED, 0.04, 0.04), 0.0);
    }

    @Test
    void aRecordWithoutTheTrainsLogRatiosLoadsWithoutAndServesTheModelsOwnBound() throws Exception {
        final ShapeExcessModel model = learned(30);
        final ObjectNode record = written(model);
        for (final String part : new String[] {"idle_log_ratio_first_bin", "idle_log_ratio_weights", "loaded_log_ratio_first_bin",
            "loaded_log_ratio_weights"}) {
            ((ObjectNode) record.get("shape_model")).remove(part);
        }
        final ShapeExcessModel read = ShapeModelJson.read(parsed(record), "shape_model");
        assertEquals(BandLogRatios.EMPTY, read.logRatios());
        assertEquals(read.boundFactor(FAST, PortBand.IDLE, 0.04), read.servedBoundFactor(FAST, PortBand.IDLE, 0.04, 0.04), 0.0);
    }

    @Test
    void aDamagedKeptShapeIsRefusedNamingItsPlace() throws Exception {
        final ObjectNode record = written(learned(30));
        ((ObjectNode) record.get("shape_model").get("idle_shapes").get(1)).put("call", "smoke");
        final IllegalArgumentException call = assertThrows(IllegalArgumentException.class,
            () -> ShapeModelJson.read(parsed(record), "shape_model"));
        assertTrue(call.getMessage().startsWith("shape_model: idle_shapes[1]: call: expected octets or arrays, was 'smoke'"),
            call.getMessage());
        ((ObjectNode) record.get("shape_model").get("idle_shapes").get(1)).put("call", "arrays").put("spacing_micros", 0);
        final IllegalArgumentException spacing = assertThrows(IllegalArgumentException.class,
            () -> ShapeModelJson.read(parsed(record), "shape_model"));
        assertTrue(spacing.getMessage().startsWith("shape_model: idle_shapes[1]: "), spacing.getMessage());
    }

    @Test
    void aRecordWithLogRatiosButNoShapesTakesItsTrainsAsOtherShapesNotTheNextTrainsAsTheMix() throws Exception {
        final ShapeExcessModel model = learned(30);
        final ObjectNode record = written(model);
        ((ObjectNode) record.get("shape_model")).remove("idle_shapes");
        final ShapeExcessModel read = ShapeModelJson.read(parsed(record), "shape_model");
        assertEquals(model.logRatios().weight(PortBand.IDLE), read.logRatios().shapes(PortBand.IDLE).otherWeight(), 1e-9);
        final ShapeExcessModel next = read.observe(FAST, LatencyHistogram.of(new long[] {1_000_000, 2_000_000}, new long[] {5, 5}, 0),
            1e6, PortBand.IDLE);
        assertTrue(!next.logRatios().shapes(PortBand.IDLE).few(), "one new train is not the band's whole mix");
    }

    @Test
    void aKeptShapesBurstLengthBeyondAnyShapesIsRefusedNotWrapped() throws Exception {
        final ObjectNode record = written(learned(30));
        ((ObjectNode) record.get("shape_model").get("idle_shapes").get(0)).put("burst_round_trips", 4_294_967_297L);
        final IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
            () -> ShapeModelJson.read(parsed(record), "shape_model"));
        assertTrue(refused.getMessage().startsWith("shape_model: idle_shapes[0]: burst_round_trips: expected a whole number in [1,"),
            refused.getMessage());
    }

    @Test
    void damagedLogRatiosAreRefusedNamingThePart() throws Exception {
        final ObjectNode record = written(learned(30));
        ((ObjectNode) record.get("shape_model")).putArray("loaded_log_ratio_weights").add(-1.0);
        ((ObjectNode) record.get("shape_model")).put("loaded_log_ratio_first_bin", 10);
        final IllegalArgumentException negative = assertThrows(IllegalArgumentException.class,
            () -> ShapeModelJson.read(parsed(record), "shape_model"));
        assertTrue(negative.getMessage().startsWith("shape_model: ") && negative.getMessage().contains("loaded band"),
            negative.getMessage());
        ((ObjectNode) record.get("shape_model")).remove("idle_log_ratio_first_bin");
        ((ObjectNode) record.get("shape_model")).putArray("loaded_log_ratio_weights").add(1.0);
        final IllegalArgumentException missing = assertThrows(IllegalArgumentException.class,
            () -> ShapeModelJson.read(parsed(record), "shape_model"));
        assertTrue(missing.getMessage().contains("idle_log_ratio_first_bin"), missing.getMessage());
    }

    @Test
    void aDamagedSpreadIsRefusedNamingWhere() throws Exception {
        final ObjectNode record = written(learned(30));
        ((ObjectNode) record.get("shape_model").get("spread")).putArray("gram").add(1.0);
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> ShapeModelJson.read(parsed(record), "shape_model"));
        assertTrue(e.getMessage().startsWith("shape_model: spread: gram, moments: expected 10 and 4 numbers (or 28 and 7 without loaded_gram), found 1"), e.getMessage());
        final ObjectNode other = written(learned(30));
        ((ObjectNode) other.get("shape_model").get("spread")).put("score_first_bin", ShapeSpreadModel.SCORE_BINS - 1)
            .putArray("score_weights").add(1.0).add(1.0);
        final IllegalArgumentException bins = assertThrows(IllegalArgumentException.class,
            () -> ShapeModelJson.read(parsed(other), "shape_model"));
        assertTrue(bins.getMessage().startsWith("shape_model: spread: score_weights: 2 bins from bin 239, at most 240 bins"),
            bins.getMessage());
    }

    /**
     * A record as a server before the port band wrote it (and as an older server reads this one's): ten gram entries
     * and four moments over the shape's features, typed out rather than computed with the production's index formula.
     */
    private static final String BAND_BLIND_RECORD = "{\"shape_model\": {\"blocks\": 40,"
        + " \"gram\": [400.0, -120.0, 300.0, 100.0, 90.0, -80.0, -20.0, 250.0, 60.0, 100.0],"
        + " \"moments\": [80.0, -30.0, 70.0, 15.0], \"residual_first_bin\": 58, \"residual_weights\": [100.0, 200.0, 100.0]}}";

    @Test
    void aRecordBeforeThePortBandLoadsWithTheLoadedSumsZero() throws Exception {
        final ShapeExcessModel read = ShapeModelJson.read(InputNode.parse(BAND_BLIND_RECORD, InputFormat.JSON,
            new InputFaults("test")), "shape_model");
        assertArrayEquals(new double[] {400.0, -120.0, 300.0, 100.0, 90.0, -80.0, -20.0, 250.0, 60.0, 100.0}, read.shapeGram(), 0.0);
        assertArrayEquals(new double[] {80.0, -30.0, 70.0, 15.0}, read.shapeMoments(), 0.0);
        assertArrayEquals(new double[10], read.loadedGram(), 0.0, "nothing learned on a loaded port yet");
        assertArrayEquals(new double[4], read.loadedMoments(), 0.0);
        assertArrayEquals(new double[3], Arrays.copyOfRange(read.coefficients(), 4, 7), 0.0);
        assertEquals(read.boundFactor(FAST, PortBand.IDLE, 0.04), read.boundFactor(FAST, PortBand.LOADED, 0.04), 0.0);
    }

    @Test
    void aRecordKeepsTheBandBlindSumsWhereAnOlderServerReadsThem() throws Exception {
        ShapeExcessModel model = learned(20, PortBand.IDLE);
        final ShapeExcessModel loaded = learned(20, PortBand.LOADED);
        model = new ShapeExcessModel(40, sum(model.shapeGram(), loaded.shapeGram()), sum(model.shapeMoments(),
            loaded.shapeMoments()), loaded.loadedGram(), loaded.loadedMoments(), model.residualWeights(), ShapeSpreadModel.EMPTY);
        final ObjectNode record = written(model);
        final double[] gram = numbersOf(record.get("shape_model").get("gram"));
        assertArrayEquals(model.shapeGram(), gram, 0.0, "gram: every block's, the band-blind model's");
        assertTrue(gram[0] > numbersOf(record.get("shape_model").get("loaded_gram"))[0]);
        final ObjectNode older = record.deepCopy();
        ((ObjectNode) older.get("shape_model")).remove(java.util.List.of("loaded_gram", "loaded_moments"));
        final ShapeExcessModel blind = ShapeModelJson.read(parsed(older), "shape_model");
        assertArrayEquals(model.shapeGram(), blind.shapeGram(), 0.0, "without the loaded sums: the band-blind model");
        assertEquals(model, ShapeModelJson.read(parsed(record), "shape_model"));
    }

    @Test
    void aRecordOfTheFullSevenFeatureSumsIsStillRead() throws Exception {
        final ShapeExcessModel model = learned(30, PortBand.LOADED);
        final ObjectNode record = written(model);
        final ObjectNode node = (ObjectNode) record.get("shape_model");
        node.remove(java.util.List.of("loaded_gram", "loaded_moments"));
        final com.fasterxml.jackson.databind.node.ArrayNode gram = node.putArray("gram");
        for (final double value : model.gram()) {
            gram.add(value);
        }
        final com.fasterxml.jackson.databind.node.ArrayNode moments = node.putArray("moments");
        for (final double value : model.moments()) {
            moments.add(value);
        }
        ((ObjectNode) node.get("spread")).remove(java.util.List.of("loaded_gram", "loaded_moments"));
        ((ObjectNode) node.get("spread")).putArray("gram").addAll(arrayOf(model.spread().gram()));
        ((ObjectNode) node.get("spread")).putArray("moments").addAll(arrayOf(model.spread().moments()));
        final ShapeExcessModel read = ShapeModelJson.read(parsed(record), "shape_model");
        assertArrayEquals(model.coefficients(), read.coefficients(), 1e-9);
        assertArrayEquals(model.loadedGram(), read.loadedGram(), 0.0);
    }

    private static com.fasterxml.jackson.databind.node.ArrayNode arrayOf(final double[] values) {
        final com.fasterxml.jackson.databind.node.ArrayNode array = new ObjectMapper().createArrayNode();
        for (final double value : values) {
            array.add(value);
        }
        return array;
    }

    private static double[] sum(final double[] a, final double[] b) {
        final double[] sum = new double[a.length];
        for (int i = 0; i < a.length; i++) {
            sum[i] = a[i] + b[i];
        }
        return sum;
    }

    private static double[] numbersOf(final com.fasterxml.jackson.databind.JsonNode array) {
        final double[] values = new double[array.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = array.get(i).asDouble();
        }
        return values;
    }
}
