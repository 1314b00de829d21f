package org.latencyserver.server.persistence;

import org.latencyserver.server.engine.ProbeShapes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.latencyserver.server.engine.AdaptiveConnectionFixture.measure;
import static org.latencyserver.server.engine.AdaptiveConnectionFixture.roundTrips;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.latencyserver.core.calibration.AdaptiveQuantileLevel;
import org.latencyserver.core.calibration.PortBand;
import org.latencyserver.core.calibration.ShapeExcessModel;
import org.latencyserver.core.calibration.ShapeFeatures;
import org.latencyserver.core.calibration.ShapeSpreadModel;
import org.latencyserver.core.calibration.StateKnowledge;
import org.latencyserver.core.traffic.CallKind;
import org.latencyserver.core.traffic.TrafficShape;
import org.latencyserver.orb.EstimateSource;
import org.latencyserver.server.engine.AdaptiveConnectionFixture;
import org.latencyserver.server.engine.Command;
import org.latencyserver.server.engine.InputLimits;
import org.latencyserver.server.engine.UpdateEngine;
import org.latencyserver.server.table.ConnectionRow;
import org.latencyserver.server.table.MibReading;

/** What a connection learned per load state is in the state file and comes back after a restart. */
class LearningSurvivesRestartTest {

    private static final long SECOND = 1_000_000_000L;

    @TempDir
    Path directory;

    private final AdaptiveConnectionFixture connection = new AdaptiveConnectionFixture();

    @Test
    void perStateMeasurementsCorrectionAndCalibrationAreRestored() throws Exception {
        final UpdateEngine before = connection.engine();
        before.applyMib((short) 4, new MibReading((short) 10, (short) 10, (short) 10), 0);
        measure(before, 100, 300, SECOND);
        for (int w = 0; w < 10; w++) {
            before.submitProbe((short) 4, "lab1", roundTrips(8, 150, 400), 0.27, 2000, ProbeShapes.CLASSIC, (10 + 2 * w) * SECOND);
        }
        before.applyMib((short) 4, new MibReading((short) 80, (short) 80, (short) 10), 40 * SECOND);
        measure(before, 900, 1100, 41 * SECOND);
        final ConnectionRow saved = before.table().row((short) 4);
        final Path file = directory.resolve("state.json");
        final StateStore store = new StateStore(file, before.table());
        store.write();
        store.close();
        assertTrue(Files.size(file) > 0);

        final UpdateEngine after = connection.engine();
        assertEquals(1, new StateStore(file, after.table()).restoreInto(after, 0));
        final ConnectionRow restored = after.table().row((short) 4);
        assertEquals(saved.estimate().valueMillis(), restored.estimate().valueMillis(), 0.0);
        assertEquals(saved.served().thesis().valueMillis(), restored.served().thesis().valueMillis(), 0.0);
        assertEquals(2, restored.learning().byState().size());
        for (final var entry : saved.learning().byState().entrySet()) {
            final StateKnowledge was = entry.getValue();
            final StateKnowledge is = restored.learning().byState().get(entry.getKey());
            assertNotNull(is, "state " + entry.getKey());
            assertEquals(was.lastMeasurement().histogram(), is.lastMeasurement().histogram());
            assertEquals(was.level(), is.level());
            assertEquals(was.coverage(), is.coverage());
            assertEquals(was.meanCorrection(), is.meanCorrection());
            assertEquals(was.probeWindows(), is.probeWindows());
        }
        // Back in LOW/LOW after the restart: its own last measurement, not HIGH/HIGH's, at once.
        after.applyMib((short) 4, new MibReading((short) 10, (short) 10, (short) 10), SECOND);
        assertEquals(EstimateSource.REMEMBERED, after.table().row((short) 4).served().source());
        assertTrue(after.table().row((short) 4).estimate().valueMillis() < 0.5);
    }

    /** A state learned from probes of two shape classes, and so a pooled level and per-class levels; saved to {@code file}. */
    private ConnectionRow learnTwoShapesAndSave(final Path file) throws Exception {
        final UpdateEngine before = connection.engine();
        before.applyMib((short) 4, new MibReading((short) 10, (short) 10, (short) 10), 0);
        measure(before, 100, 300, SECOND);
        final TrafficShape octets = new TrafficShape(800, 5, 0, CallKind.OCTETS);
        for (int w = 0; w < 12; w++) {
            assertTrue(before.submitProbe((short) 4, "lab1", roundTrips(8, 150, 400), 0.27, 2000, octets, (10 + 2 * w) * SECOND)
                .accepted());
            assertTrue(before.submitProbe((short) 4, "lab1", roundTrips(8, 100, 280), 0.19, 2000, null, (11 + 2 * w) * SECOND)
                .accepted());
        }
        final ConnectionRow saved = before.table().row((short) 4);
        final StateKnowledge known = saved.currentKnowledge();
        assertEquals(2, known.groups().byClass().size(), known.groups()::toString);
        assertEquals(12, known.groups().byClass().get(StateKnowledge.CLASSIC_PROBES).blocks());
        assertNotNull(saved.learning().pooledLevel());
        assertTrue(saved.learning().pooledLevel().servedPercent() > 96.0, "probes above the bound raised the pooled level");
        final StateStore store = new StateStore(file, before.table());
        store.write();
        store.close();
        return saved;
    }

    @Test
    void thePooledLevelAndEachShapeClasssLevelAreRestored() throws Exception {
        final Path file = directory.resolve("state.json");
        final ConnectionRow saved = learnTwoShapesAndSave(file);
        final UpdateEngine after = connection.engine();
        assertEquals(1, new StateStore(file, after.table()).restoreInto(after, 0));
        final ConnectionRow restored = after.table().row((short) 4);
        assertEquals(saved.learning().pooledLevel(), restored.learning().pooledLevel());
        assertEquals(2, saved.learning().classExcess().byClass().size(), "both classes learned an excess");
        assertEquals(saved.learning().classExcess(), restored.learning().classExcess());
        assertTrue(saved.learning().shapeModel().fitted(), "24 blocks of two shapes fit the shape model");
        assertTrue(saved.learning().shapeModel().spread().fitted(), "19 trains after the first 5 fit the shapes' spread");
        assertEquals(saved.learning().shapeModel(), restored.learning().shapeModel(), "its level sums and its spread");
        for (final var entry : saved.learning().byState().entrySet()) {
            assertEquals(entry.getValue().groups(), restored.learning().byState().get(entry.getKey()).groups(), "state " + entry.getKey());
        }
    }

    @Test
    void thePooledLevelsOwnBlockCountIsRestored() throws Exception {
        final Path file = directory.resolve("state.json");
        final ConnectionRow saved = learnTwoShapesAndSave(file);
        assertEquals(24, saved.learning().pooledLevelBlocks(), "every probe window taught the pooled level");
        final UpdateEngine after = connection.engine();
        assertEquals(1, new StateStore(file, after.table()).restoreInto(after, 0));
        assertEquals(24, after.table().row((short) 4).learning().pooledLevelBlocks());
    }

    @Test
    void aFileWrittenBeforeThePooledBlockCountLoadsItAsTheStatesCoverageBlocks() throws Exception {
        final Path file = directory.resolve("state.json");
        final ConnectionRow saved = learnTwoShapesAndSave(file);
        SavedStateFile.edit(file, root -> {
            final List<JsonNode> parents = root.findParents("pooled_level_blocks");
            assertEquals(1, parents.size(), "one connection's count was written");
            ((ObjectNode) parents.get(0)).remove("pooled_level_blocks");
        });

        final UpdateEngine after = connection.engine();
        assertEquals(1, new StateStore(file, after.table()).restoreInto(after, 0));
        long covered = 0;
        for (final StateKnowledge state : saved.learning().byState().values()) {
            covered += state.coverage().blocks();
        }
        assertTrue(covered > 0, "the states covered blocks");
        assertEquals(covered, after.table().row((short) 4).learning().pooledLevelBlocks());
        assertEquals(saved.learning().pooledLevel(), after.table().row((short) 4).learning().pooledLevel());
    }

    @Test
    void aNegativePooledBlockCountIsRefusedByName() throws Exception {
        final Path file = directory.resolve("state.json");
        learnTwoShapesAndSave(file);
        SavedStateFile.edit(file, root -> {
            ((ObjectNode) root.findParents("pooled_level_blocks").get(0)).put("pooled_level_blocks", -3);
        });

        final UpdateEngine after = connection.engine();
        final StateStore store = new StateStore(file, after.table());
        assertEquals(0, store.restoreInto(after, 0), "the damaged connection is not restored");
        assertTrue(store.refusedBecause() != null && store.refusedBecause().contains("pooled_level_blocks"),
            String.valueOf(store.refusedBecause()));
    }

    @Test
    void thePortPatternsLevelsAndBlocksAreRestored() throws Exception {
        final Path file = directory.resolve("state.json");
        final ConnectionRow saved = learnTwoShapesAndSave(file);
        assertEquals(1, saved.learning().patternLevels().size(), "one port pattern (one idle port) learned");
        final var pattern = saved.learning().patternLevel(saved.load());
        assertEquals(24, pattern.blocks(), "every probe window taught its state's pattern");
        final UpdateEngine after = connection.engine();
        assertEquals(1, new StateStore(file, after.table()).restoreInto(after, 0));
        assertEquals(saved.learning().patternLevels(), after.table().row((short) 4).learning().patternLevels());
    }

    @Test
    void aFileWrittenBeforePortPatternsLoadsWithNoPatternLevelAndEverythingElse() throws Exception {
        final Path file = directory.resolve("state.json");
        final ConnectionRow saved = learnTwoShapesAndSave(file);
        SavedStateFile.edit(file, root -> {
            final List<JsonNode> parents = root.findParents("pattern_levels");
            assertEquals(1, parents.size(), "one connection's patterns were written");
            ((ObjectNode) parents.get(0)).remove("pattern_levels");
        });

        final UpdateEngine after = connection.engine();
        assertEquals(1, new StateStore(file, after.table()).restoreInto(after, 0));
        final ConnectionRow restored = after.table().row((short) 4);
        assertTrue(restored.learning().patternLevels().isEmpty(), "no pattern level: each starts afresh");
        assertEquals(saved.learning().pooledLevel(), restored.learning().pooledLevel());
        assertEquals(saved.learning().pooledLevelBlocks(), restored.learning().pooledLevelBlocks());
        assertEquals(saved.learning().byState().keySet(), restored.learning().byState().keySet());
    }

    @Test
    void aDamagedPatternLevelIsRefusedByName() throws Exception {
        final Path file = directory.resolve("state.json");
        learnTwoShapesAndSave(file);
        SavedStateFile.edit(file, root -> {
            ((ObjectNode) root.findValue("pattern_levels").get(0)).put("blocks", -3);
        });

        final UpdateEngine after = connection.engine();
        final StateStore store = new StateStore(file, after.table());
        assertEquals(0, store.restoreInto(after, 0), "the damaged connection is not restored");
        assertTrue(store.refusedBecause() != null && store.refusedBecause().contains("pattern_levels[0].blocks"),
            String.valueOf(store.refusedBecause()));
    }

    @Test
    void aPatternWithMoreHopsThanTheConfiguredPathIsLeftOutAndTheRestRestored() throws Exception {
        final Path file = directory.resolve("state.json");
        final ConnectionRow saved = learnTwoShapesAndSave(file);
        SavedStateFile.edit(file, root -> {
            final ObjectNode pattern = (ObjectNode) root.findValue("pattern_levels").get(0);
            assertEquals(1, pattern.get("hop_states").size(), "the fixture's path has one port");
            pattern.putArray("hop_states").add("NORMAL").add("LOADED");
        });

        final UpdateEngine after = connection.engine();
        final StateStore store = new StateStore(file, after.table());
        assertEquals(1, store.restoreInto(after, 0), "a path changed since is not damage: the connection is restored");
        final ConnectionRow restored = after.table().row((short) 4);
        assertTrue(restored.learning().patternLevels().isEmpty(), "the other path's pattern is left out");
        assertEquals(saved.learning().pooledLevel(), restored.learning().pooledLevel());
        assertEquals(saved.learning().byState().keySet(), restored.learning().byState().keySet());
    }

    @Test
    void aFileWrittenBeforeGroupLevelsLoadsWithItsStatesLevelsWeighedByTheirCoverageBlocks() throws Exception {
        final Path file = directory.resolve("state.json");
        final ConnectionRow saved = learnTwoShapesAndSave(file);
        SavedStateFile.edit(file, root -> {
            final int removed = stripNewFields(root);
            assertTrue(removed >= 3, "pooled level, level blocks and shape levels were written: " + removed);
        });

        final UpdateEngine after = connection.engine();
        assertEquals(1, new StateStore(file, after.table()).restoreInto(after, 0));
        final ConnectionRow restored = after.table().row((short) 4);
        assertEquals(AdaptiveQuantileLevel.start(96), restored.learning().pooledLevel(96), "no pooled level: it starts at the nominal");
        assertTrue(restored.learning().classExcess().byClass().isEmpty(), "no class excess: none learned yet");
        assertEquals(ShapeExcessModel.EMPTY, restored.learning().shapeModel(),
            "no shape model: none learned yet");
        for (final var entry : saved.learning().byState().entrySet()) {
            final StateKnowledge is = restored.learning().byState().get(entry.getKey());
            assertEquals(entry.getValue().level(), is.level());
            assertTrue(is.groups().byClass().isEmpty());
            assertEquals(is.coverage().blocks(), is.groups().stateBlocks());
        }
    }

    @Test
    void aFileWrittenWhenLevelsWoundDownToMinusPointTwoLoadsThemAtTheHistogramsTop() throws Exception {
        final Path file = directory.resolve("state.json");
        final ConnectionRow saved = learnTwoShapesAndSave(file);
        SavedStateFile.edit(file, root -> {
            final int wound = windDown(root, false);
            assertTrue(wound >= 3, "the pooled, the states' and the shape classes' levels were written: " + wound);
        });

        final UpdateEngine after = connection.engine();
        assertEquals(1, new StateStore(file, after.table()).restoreInto(after, 0));
        final ConnectionRow restored = after.table().row((short) 4);
        assertEquals(-0.01, restored.learning().pooledLevel().missFraction(), 1e-12, "−γ · 50 · α_target");
        for (final var entry : saved.learning().byState().entrySet()) {
            final StateKnowledge is = restored.learning().byState().get(entry.getKey());
            assertEquals(100.0, is.level().servedPercent(), 1e-9, "state " + entry.getKey());
            assertEquals(is.level().minMissFraction(), is.level().missFraction(), 1e-12);
            assertEquals(entry.getValue().groups().byClass().keySet(), is.groups().byClass().keySet());
            is.groups().byClass().values().forEach(c ->
                assertEquals(c.level().minMissFraction(), c.level().missFraction(), 1e-12));
        }
    }

    /** Sets every adaptive level's α in the record to −0.2, the floor an older release allowed; returns how many. */
    private static int windDown(final JsonNode node, final boolean inShapeLevels) {
        int wound = 0;
        if (node instanceof ObjectNode object) {
            for (final String name : List.of("pooled_level_miss_fraction", "level_miss_fraction")) {
                if (object.has(name)) {
                    object.put(name, -0.2);
                    wound++;
                }
            }
            if (inShapeLevels && object.has("miss_fraction")) {
                object.put("miss_fraction", -0.2);
                wound++;
            }
            for (final var field : (Iterable<java.util.Map.Entry<String, JsonNode>>) object::fields) {
                wound += windDown(field.getValue(), "shape_levels".equals(field.getKey()));
            }
            return wound;
        }
        for (final JsonNode child : node) {
            wound += windDown(child, inShapeLevels);
        }
        return wound;
    }

    @Test
    void aFileWrittenBeforeTheShapesSpreadLoadsItsShapeModelWithTheSingleMargin() throws Exception {
        final Path file = directory.resolve("state.json");
        final ConnectionRow saved = learnTwoShapesAndSave(file);
        SavedStateFile.edit(file, root -> {
            final List<JsonNode> models = root.findValues("shape_model");
            assertEquals(1, models.size(), "one connection's shape model");
            assertNotNull(((ObjectNode) models.get(0)).remove("spread"), "the spread was written");
        });

        final UpdateEngine after = connection.engine();
        assertEquals(1, new StateStore(file, after.table()).restoreInto(after, 0));
        final ShapeExcessModel model = after.table().row((short) 4).learning().shapeModel();
        final ShapeExcessModel was = saved.learning().shapeModel();
        assertEquals(ShapeSpreadModel.EMPTY, model.spread(), "no spread: learned afresh");
        assertEquals(was.blocks(), model.blocks());
        assertTrue(model.fitted(), "the level sums were read");
        final TrafficShape fast = new TrafficShape(500, 100, 0, CallKind.OCTETS);
        assertEquals(was.shiftBoundFactor(fast, 0.04), model.boundFactor(fast, 0.04), 1e-12, "the single margin stands");
    }

    @Test
    void aFileWrittenBeforeThePortBandLoadsItsShapeModelWithTheBandsTermsZero() throws Exception {
        final Path file = directory.resolve("state.json");
        final ConnectionRow saved = learnTwoShapesAndSave(file);
        SavedStateFile.edit(file, root -> {
            final ObjectNode model = (ObjectNode) root.findValues("shape_model").get(0);
            assertEquals(ShapeFeatures.SHAPE_GRAM_ENTRIES, model.get("gram").size(), "gram stays the band-blind model's");
            assertEquals(ShapeFeatures.SHAPE_GRAM_ENTRIES, model.get("loaded_gram").size(), "the loaded port's sums are written");
            // A record before the port band: the same gram and moments, no loaded sums.
            model.remove(List.of("loaded_gram", "loaded_moments"));
            ((ObjectNode) model.get("spread")).remove(List.of("loaded_gram", "loaded_moments"));
        });

        final UpdateEngine after = connection.engine();
        assertEquals(1, new StateStore(file, after.table()).restoreInto(after, 0));
        final ShapeExcessModel restored = after.table().row((short) 4).learning().shapeModel();
        assertEquals(saved.learning().shapeModel(), restored, "learned on an idle port: the band's sums were zero anyway");
        final TrafficShape fast = new TrafficShape(500, 100, 0, CallKind.OCTETS);
        assertEquals(restored.boundFactor(fast, PortBand.IDLE, 0.04), restored.boundFactor(fast, PortBand.LOADED, 0.04), 1e-12,
            "nothing learned on a loaded port");
    }

    @Test
    void aShapeModelWithTheWrongNumberOfSumsSetsItsConnectionAsideNamingThePart() throws Exception {
        final Path file = directory.resolve("state.json");
        learnTwoShapesAndSave(file);
        SavedStateFile.edit(file, root -> {
            final ObjectNode model = (ObjectNode) root.findValues("shape_model").get(0);
            model.putArray("moments").add(1.0).add(2.0).add(3.0).add(4.0).add(5.0).add(6.0).add(7.0);
        });

        final UpdateEngine after = connection.engine();
        final ConnectionRow fresh = after.table().row((short) 4);
        final StateStore store = new StateStore(file, after.table());
        assertEquals(0, store.restoreInto(after, 0), "the damaged connection is not restored");
        assertTrue(store.refusedBecause() != null && store.refusedBecause().contains("shape_model: gram, moments: expected 10 and 4"),
            String.valueOf(store.refusedBecause()));
        assertEquals(fresh.learning().shapeModel(), after.table().row((short) 4).learning().shapeModel(), "the last good model stands");
    }

    private static int stripNewFields(final JsonNode node) {
        int removed = 0;
        if (node instanceof ObjectNode object) {
            for (final String name : List.of("pooled_level_miss_fraction", "level_blocks", "shape_levels", "class_excess",
                "shape_model", "pattern_levels")) {
                if (object.remove(name) != null) {
                    removed++;
                }
            }
        }
        for (final JsonNode child : node) {
            removed += stripNewFields(child);
        }
        return removed;
    }

    @Test
    void aRestartReplaysTheSavedStateAsOneRestoreCommandPerConnection() throws Exception {
        final UpdateEngine before = connection.engine();
        before.applyMib((short) 4, new MibReading((short) 10, (short) 20, (short) 30), 0);
        measure(before, 100, 300, SECOND);
        final Path file = directory.resolve("state.json");
        final StateStore store = new StateStore(file, before.table());
        store.write();
        store.close();

        final UpdateEngine after = connection.engine();
        final long versionBefore = after.table().row((short) 4).version();
        final List<Command.RestoreConnection> commands =
            new StateRestorer(StateFiles.beside(file), after.table(), InputLimits.DEFAULT.maxHistogramBins()).replay();
        assertEquals(1, commands.size(), commands::toString);
        final Command.RestoreConnection restore = commands.get(0);
        assertEquals(4, restore.indexRef());
        assertEquals(new MibReading((short) 10, (short) 20, (short) 30), restore.latest());
        assertEquals(before.table().row((short) 4).measurement().histogram(), restore.measurement().histogram());
        assertEquals(EstimateSource.MEASUREMENT, restore.served().source());
        assertEquals(versionBefore, after.table().row((short) 4).version(), "replaying changes nothing until a command is applied");
        assertTrue(restore.applyTo(after, 0));
        assertEquals(before.table().row((short) 4).estimate().valueMillis(), after.table().row((short) 4).estimate().valueMillis(),
            0.0);
    }
}
