package org.latencyserver.server.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
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
import org.latencyserver.core.calibration.PortBand;
import org.latencyserver.core.calibration.ShapeModelLevel;
import org.latencyserver.core.estimate.Measurement;
import org.latencyserver.core.histogram.LatencyHistogram;
import org.latencyserver.core.state.CpuThresholds;
import org.latencyserver.core.state.WorkstationType;
import org.latencyserver.core.traffic.CallKind;
import org.latencyserver.core.traffic.TrafficShape;
import org.latencyserver.server.engine.Command;
import org.latencyserver.server.engine.EngineSettings;
import org.latencyserver.server.engine.InputLimits;
import org.latencyserver.server.engine.UpdateEngine;
import org.latencyserver.server.table.CalibrationMode;
import org.latencyserver.server.table.ConnectionRow;
import org.latencyserver.server.table.ConnectionSpec;
import org.latencyserver.server.table.ConnectionTable;
import org.latencyserver.server.table.MibReading;
import org.latencyserver.testkit.RoundTrips;

/**
 * The level the shape model's score quantile is read at ({@code shape_model_level}) is in the connection's record: it
 * comes back after a restart and with a replicated record, loads as nominal from an older record, and a damaged part of
 * it sets the connection aside naming the part.
 */
class ShapeModelLevelSurvivesRestartTest {

    private static final long SECOND = 1_000_000_000L;
    private static final TrafficShape OCTETS = new TrafficShape(800, 5, 0, CallKind.OCTETS);

    @TempDir
    Path directory;

    private final AtomicLong tickets = new AtomicLong();

    private UpdateEngine engine() {
        final ConnectionSpec spec = new ConnectionSpec((short) 4, "lab1", (short) 5, new WorkstationType("LOCAL-2CORE", 5), "lab2",
            (short) 6, new WorkstationType("LOCAL-2CORE", 5), null, 1024, 4, 96, null, CalibrationMode.ADAPTIVE, 4.0);
        return new UpdateEngine(new ConnectionTable(List.of(ConnectionRow.initial(spec, 0))), Map.of(),
            new EngineSettings(CpuThresholds.DEFAULT, 1.0, 1000, 30 * SECOND, 0, 2, 20, 100_000, 0), tickets::incrementAndGet,
            () -> 1_700_000_000_000L);
    }

    private static LatencyHistogram roundTrips(final int count, final long lowMicros, final long highMicros) {
        return LatencyHistogram.fromHdr(RoundTrips.evenlySpread(count, lowMicros, highMicros));
    }

    /** A measurement, then 30 shaped trains (the model fits after 15, each later one teaches its level); saved. */
    private ConnectionRow learnAndSave(final Path file) throws Exception {
        final UpdateEngine before = engine();
        before.applyMib((short) 4, new MibReading((short) 10, (short) 10, (short) 10), 0);
        final LatencyHistogram histogram = roundTrips(1000, 100, 300);
        final double mean = histogram.meanNanosFromBinMidpoints() / 1e6;
        before.tick(SECOND);
        assertTrue(before.submitMeasurement((short) 4, before.table().row((short) 4).pending().ticket(),
            new Measurement(histogram, 1000, mean, mean / 4, 0.3), "test", SECOND).accepted());
        for (int w = 0; w < 30; w++) {
            assertTrue(before.submitProbe((short) 4, "lab1", roundTrips(8, 150, 400 + 10 * (w % 5)), 0.27, 2000, OCTETS,
                (10 + w) * SECOND).accepted());
        }
        final ConnectionRow saved = before.table().row((short) 4);
        final StateStore store = new StateStore(file, before.table());
        store.write();
        store.close();
        return saved;
    }

    private ConnectionRow restored(final Path file) throws Exception {
        final UpdateEngine after = engine();
        assertEquals(1, new StateStore(file, after.table()).restoreInto(after, 0));
        return after.table().row((short) 4);
    }

    @Test
    void theShapeModelsLevelIsRestored() throws Exception {
        final Path file = directory.resolve("state.json");
        final ConnectionRow saved = learnAndSave(file);
        final ShapeModelLevel level = saved.learning().shapeModelLevel();
        assertNotNull(level, "trains after the model fitted taught its level");
        assertTrue(level.blocks(PortBand.IDLE) > 0 && level.connectionBlocks() == level.blocks(PortBand.IDLE), level::toString);
        assertTrue(Math.abs(level.idle().missFraction() - 0.04) > 1e-9, "the idle level moved off the nominal: " + level);
        assertEquals(level, restored(file).learning().shapeModelLevel());
    }

    @Test
    void theShapeModelsLevelReachesTheStandbyWithTheRecord() throws Exception {
        final ConnectionRow saved = learnAndSave(directory.resolve("state.json"));
        final UpdateEngine standby = engine();
        final List<Command.RestoreConnection> commands = ReplicaRecords.decode(ReplicaRecords.encode(List.of(saved)),
            standby.table(), InputLimits.DEFAULT.maxHistogramBins());
        assertEquals(1, commands.size());
        assertNotNull(saved.learning().shapeModelLevel());
        assertEquals(saved.learning().shapeModelLevel(), commands.get(0).learning().shapeModelLevel());
    }

    @Test
    void aRecordWrittenBeforeTheShapeModelsLevelLoadsItAtTheNominalLevel() throws Exception {
        final Path file = directory.resolve("state.json");
        final ConnectionRow saved = learnAndSave(file);
        SavedStateFile.edit(file, root -> {
            final List<JsonNode> parents = root.findParents("shape_model_level");
            assertEquals(1, parents.size(), "one connection's level was written");
            ((ObjectNode) parents.get(0)).remove("shape_model_level");
        });

        final ConnectionRow restored = restored(file);
        assertNull(restored.learning().shapeModelLevel());
        assertEquals(ShapeModelLevel.start(96), restored.learning().shapeModelLevel(96));
        assertEquals(saved.learning().shapeModel(), restored.learning().shapeModel(), "the rest of the record is kept");
    }

    @Test
    void aDamagedPartOfTheShapeModelsLevelSetsTheConnectionAsideNamingIt() throws Exception {
        assertRefused(level -> level.put("idle_blocks", -2), "shape_model_level.idle_blocks");
        assertRefused(level -> level.put("loaded", "high"), "shape_model_level.loaded");
        assertRefused(level -> level.remove("connection"), "shape_model_level.connection");
    }

    /**
     * An α beyond the ceiling or floor of a fresh level for the bound (a level never learns outside them) would serve a
     * quantile read at a probability at or below 0: refused, naming the part and the range.
     */
    @Test
    void aMissFractionOutsideTheLevelsRangeSetsTheConnectionAsideNamingIt() throws Exception {
        final org.latencyserver.core.calibration.AdaptiveQuantileLevel fresh =
            org.latencyserver.core.calibration.AdaptiveQuantileLevel.start(96);
        assertRefused(level -> level.put("idle", 3.0), "shape_model_level.idle: must be within [" + fresh.minMissFraction()
            + ", " + fresh.maxMissFraction() + "], was 3.0");
        assertRefused(level -> level.put("loaded", fresh.maxMissFraction() + 0.01), "shape_model_level.loaded: must be within");
        assertRefused(level -> level.put("connection", fresh.minMissFraction() - 0.01), "shape_model_level.connection: must be within");
    }

    /** The levels' ceiling and floor themselves are what a level can learn: they load. */
    @Test
    void aMissFractionAtTheLevelsCeilingOrFloorLoads() throws Exception {
        final org.latencyserver.core.calibration.AdaptiveQuantileLevel fresh =
            org.latencyserver.core.calibration.AdaptiveQuantileLevel.start(96);
        final Path file = directory.resolve("state.json");
        learnAndSave(file);
        SavedStateFile.edit(file, root -> {
            final ObjectNode level = (ObjectNode) root.findParents("shape_model_level").get(0).get("shape_model_level");
            level.put("idle", fresh.maxMissFraction());
            level.put("loaded", fresh.minMissFraction());
        });
        final ShapeModelLevel restored = restored(file).learning().shapeModelLevel();
        assertEquals(fresh.maxMissFraction(), restored.idle().missFraction(), 0.0);
        assertEquals(fresh.minMissFraction(), restored.loaded().missFraction(), 0.0);
    }

    private void assertRefused(final java.util.function.Consumer<ObjectNode> damage, final String named) throws Exception {
        final Path file = Files.createTempDirectory(directory, "refused").resolve("state.json");
        learnAndSave(file);
        final ObjectMapper json = new ObjectMapper();
        final JsonNode root = json.readTree(file.toFile());
        damage.accept((ObjectNode) root.findParents("shape_model_level").get(0).get("shape_model_level"));
        Files.writeString(file, json.writeValueAsString(root));
        Files.deleteIfExists(file.resolveSibling("state.json.journal"));

        final UpdateEngine after = engine();
        final StateStore store = new StateStore(file, after.table());
        assertEquals(0, store.restoreInto(after, 0), "the damaged connection is not restored");
        assertTrue(store.refusedBecause() != null && store.refusedBecause().contains(named), String.valueOf(store.refusedBecause()));
    }
}
