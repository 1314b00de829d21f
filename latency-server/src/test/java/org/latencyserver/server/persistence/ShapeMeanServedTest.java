package org.latencyserver.server.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencyserver.core.calibration.ShapeMeanModel;
import org.latencyserver.core.estimate.Measurement;
import org.latencyserver.core.histogram.LatencyHistogram;
import org.latencyserver.core.input.InputFaults;
import org.latencyserver.core.input.InputFormat;
import org.latencyserver.core.input.InputNode;
import org.latencyserver.core.state.CpuThresholds;
import org.latencyserver.core.state.WorkstationType;
import org.latencyserver.core.traffic.CallKind;
import org.latencyserver.core.traffic.TrafficShape;
import org.latencyserver.server.engine.EngineSettings;
import org.latencyserver.server.engine.ShapedEstimate;
import org.latencyserver.server.engine.UpdateEngine;
import org.latencyserver.server.table.CalibrationMode;
import org.latencyserver.server.table.ConnectionRow;
import org.latencyserver.server.table.ConnectionSpec;
import org.latencyserver.server.table.ConnectionTable;
import org.latencyserver.server.table.MibReading;
import org.latencyserver.testkit.RoundTrips;

/**
 * A QoS 3 connection's answer for an application's own shape: the probe windows of every shape teach the connection's
 * shape mean model, whose mean for a slow application (round trips 1.5 × the back-to-back ones) holds where the state's
 * one mean for every shape is a third off; the model is in the state file, and a file without it still loads.
 */
class ShapeMeanServedTest {

    private static final long SECOND = 1_000_000_000L;
    private static final TrafficShape FAST = new TrafficShape(500, 20, 0, CallKind.OCTETS);
    private static final TrafficShape SLOW = new TrafficShape(10_000, 10, 0, CallKind.ARRAYS);

    @TempDir
    Path directory;

    private final AtomicLong tickets = new AtomicLong();

    private UpdateEngine engine() {
        final ConnectionSpec spec = new ConnectionSpec((short) 4, "lab1", (short) 5, new WorkstationType("LOCAL-2CORE", 5), "lab2",
            (short) 6, new WorkstationType("LOCAL-2CORE", 5), null, 1024, 3, 0, null, CalibrationMode.ADAPTIVE, 4.0);
        return new UpdateEngine(new ConnectionTable(List.of(ConnectionRow.initial(spec, 0))), Map.of(),
            new EngineSettings(CpuThresholds.DEFAULT, 1.0, 1000, 30 * SECOND, 0, 2, 20, 100_000, 0), tickets::incrementAndGet,
            () -> 1_700_000_000_000L);
    }

    private static LatencyHistogram roundTrips(final int count, final long lowMicros, final long highMicros) {
        return LatencyHistogram.fromHdr(RoundTrips.evenlySpread(count, lowMicros, highMicros));
    }

    /** A measurement of round trips evenly spread over 100..300 µs: the state's thesis mean, 0.2 ms. */
    private static void measure(final UpdateEngine engine, final long nowNanos) {
        final LatencyHistogram histogram = roundTrips(1000, 100, 300);
        final double mean = histogram.meanNanosFromBinMidpoints() / 1e6;
        engine.tick(nowNanos);
        final ConnectionRow row = engine.table().row((short) 4);
        assertTrue(engine.submitMeasurement((short) 4, row.pending().ticket(),
            new Measurement(histogram, 1000, mean, mean / 4, 0.3), "test", nowNanos).accepted());
    }

    private static ShapedEstimate.ForShape forShape(final UpdateEngine engine, final TrafficShape shape) {
        return ShapedEstimate.of(engine.table().row((short) 4), shape).orElseThrow(IllegalStateException::new);
    }

    /** Measured, then probe windows alternately of back-to-back octets (the thesis's mean) and the slow shape (1.5 ×). */
    private UpdateEngine learned(final int windowsPerShape) {
        final UpdateEngine engine = engine();
        engine.applyMib((short) 4, new MibReading((short) 10, (short) 10, (short) 10), 0);
        measure(engine, SECOND);
        for (int w = 0; w < windowsPerShape; w++) {
            assertTrue(engine.submitProbe((short) 4, "lab1", roundTrips(20, 100, 300), 0.2, 2000, FAST, (10 + 4 * w) * SECOND)
                .accepted());
            assertTrue(engine.submitProbe((short) 4, "lab1", roundTrips(10, 150, 450), 0.3, 2000, SLOW, (12 + 4 * w) * SECOND)
                .accepted());
        }
        return engine;
    }

    @Test
    void theSlowApplicationsMeanIsItsOwnOnceTheModelLearnedFromProbeWindows() {
        final UpdateEngine young = learned(5);
        final ShapedEstimate.ForShape before = forShape(young, SLOW);
        assertFalse(young.table().row((short) 4).learning().shapeMeanModel().fitted(), "10 windows: not yet fitted");
        final double slowMeanMillis = 0.3;
        assertTrue(Math.abs(before.estimate().valueMillis() - slowMeanMillis) / slowMeanMillis > 0.2,
            "the state's one mean is far from the slow shape's: " + before.estimate().valueMillis());
        assertFalse(before.correction().startsWith("shape mean"), before.correction());

        final UpdateEngine engine = learned(20);
        final ConnectionRow row = engine.table().row((short) 4);
        assertEquals(40, row.learning().shapeMeanModel().blocks());
        final ShapedEstimate.ForShape slow = forShape(engine, SLOW);
        final ShapedEstimate.ForShape fast = forShape(engine, FAST);
        assertEquals(slowMeanMillis, slow.estimate().valueMillis(), 0.1 * slowMeanMillis, slow.correction());
        assertEquals(0.2, fast.estimate().valueMillis(), 0.1 * 0.2, fast.correction());
        assertTrue(slow.correction().startsWith("shape mean: thesis mean × 1.5"), slow.correction());
        assertTrue(slow.traffic().contains("shape mean model from 40 probe windows"), slow.traffic());
        assertTrue(slow.estimate().interval().lower() < slow.estimate().valueMillis()
            && slow.estimate().valueMillis() < slow.estimate().interval().upper(), "the interval moved with the mean");
    }

    @Test
    void theModelIsRestoredAndAFileWithoutItLoadsWithNoneLearned() throws Exception {
        final UpdateEngine before = learned(20);
        final ConnectionRow saved = before.table().row((short) 4);
        final Path file = directory.resolve("state.json");
        final StateStore store = new StateStore(file, before.table());
        store.write();
        store.close();

        final UpdateEngine after = engine();
        assertEquals(1, new StateStore(file, after.table()).restoreInto(after, 0));
        assertEquals(saved.learning().shapeMeanModel(), after.table().row((short) 4).learning().shapeMeanModel());
        assertEquals(forShape(before, SLOW).estimate().valueMillis(), forShape(after, SLOW).estimate().valueMillis(), 1e-12);

        final ObjectMapper json = new ObjectMapper();
        final JsonNode root = json.readTree(file.toFile());
        assertTrue(strip(root) >= 1, "the model was written");
        Files.writeString(file, json.writeValueAsString(root));
        Files.deleteIfExists(directory.resolve("state.json.journal"));
        final UpdateEngine older = engine();
        assertEquals(1, new StateStore(file, older.table()).restoreInto(older, 0));
        assertEquals(ShapeMeanModel.EMPTY, older.table().row((short) 4).learning().shapeMeanModel(), "none learned yet");
        assertFalse(forShape(older, SLOW).correction().startsWith("shape mean"));
    }

    @Test
    void aDamagedModelIsRefusedNamingTheField() throws Exception {
        final ObjectNode record = ConnectionRecordCodec.encode(learned(20).table().row((short) 4), null);
        assertEquals(40, record.get("shape_mean_model").get("blocks").asLong());
        ((ObjectNode) record.get("shape_mean_model")).putArray("gram").add(1.0).add(2.0);
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ConnectionRecordCodec.decode(
            InputNode.parse(record.toString(), InputFormat.JSON, new InputFaults("test")), Map.of(), 1000));
        assertTrue(e.getMessage().contains("shape_mean_model: gram: expected 10 numbers, found 2"), e.getMessage());
        ((ObjectNode) record.get("shape_mean_model")).put("blocks", -3);
        final IllegalArgumentException blocks = assertThrows(IllegalArgumentException.class, () -> ConnectionRecordCodec.decode(
            InputNode.parse(record.toString(), InputFormat.JSON, new InputFaults("test")), Map.of(), 1000));
        assertTrue(blocks.getMessage().contains("shape_mean_model: blocks: expected a whole number >= 0"), blocks.getMessage());
    }

    private static int strip(final JsonNode node) {
        int removed = 0;
        if (node instanceof ObjectNode object && object.remove("shape_mean_model") != null) {
            removed++;
        }
        for (final JsonNode child : node) {
            removed += strip(child);
        }
        return removed;
    }
}
