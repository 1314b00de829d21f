package org.latencyserver.server.persistence;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.latencyserver.core.calibration.PortBand;
import org.latencyserver.core.calibration.ShapeExcessModel;
import org.latencyserver.core.calibration.ShapeSpreadModel;
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

/** The records a primary sends its standby: whole journal records that restore the same row on the other side. */
class ReplicaRecordsTest {

    private static final long SECOND = 1_000_000_000L;
    private final AtomicLong tickets = new AtomicLong();

    private UpdateEngine engine(final int messageSizeBytes) {
        return engine(messageSizeBytes, 4, 96);
    }

    private UpdateEngine engine(final int messageSizeBytes, final int qos, final int boundPercent) {
        final ConnectionSpec spec = new ConnectionSpec((short) 4, "lab1", (short) 5, new WorkstationType("LOCAL-2CORE", 5), "lab2",
            (short) 6, new WorkstationType("LOCAL-2CORE", 5), null, messageSizeBytes, qos, boundPercent, null,
            CalibrationMode.ADAPTIVE, 4.0);
        return new UpdateEngine(new ConnectionTable(List.of(ConnectionRow.initial(spec, 0))), Map.of(),
            new EngineSettings(CpuThresholds.DEFAULT, 1.0, 1000, 30 * SECOND, 0, 2, 20, 100_000, 0), tickets::incrementAndGet,
            () -> 1_700_000_000_000L);
    }

    private static UpdateEngine measured(final UpdateEngine engine) {
        engine.applyMib((short) 4, new MibReading((short) 10, (short) 20, (short) 30), 0);
        engine.tick(SECOND);
        final LatencyHistogram histogram = LatencyHistogram.fromHdr(RoundTrips.evenlySpread(1000, 100, 300));
        final double mean = histogram.meanNanosFromBinMidpoints() / 1e6;
        assertTrue(engine.submitMeasurement((short) 4, engine.table().row((short) 4).pending().ticket(),
            new Measurement(histogram, 1000, mean, mean / 4, 0.3), "test", SECOND).accepted());
        return engine;
    }

    @Test
    void theStandbyReceivesThePortPatternsLevelsWithTheRow() {
        final UpdateEngine primary = measured(engine(1024));
        for (int w = 0; w < 5; w++) {
            assertTrue(primary.submitProbe((short) 4, "lab1", LatencyHistogram.fromHdr(RoundTrips.evenlySpread(8, 250, 400)),
                0.3, 2000, null, (10 + 2 * w) * SECOND).accepted());
        }
        final ConnectionRow sent = primary.table().row((short) 4);
        assertEquals(5, sent.learning().patternLevel(sent.load()).blocks(), "the probe windows taught the state's pattern");

        final UpdateEngine standby = engine(1024);
        final List<Command.RestoreConnection> commands = ReplicaRecords.decode(ReplicaRecords.encode(List.of(sent)),
            standby.table(), InputLimits.DEFAULT.maxHistogramBins());
        assertTrue(commands.get(0).applyTo(standby, 0));
        assertEquals(sent.learning().patternLevels(), standby.table().row((short) 4).learning().patternLevels());
    }

    @Test
    void aReplicatedPatternWithAnotherNumberOfHopsThanTheStandbysPathIsLeftOutAndTheRowApplied() {
        final UpdateEngine primary = measured(engine(1024));
        assertTrue(primary.submitProbe((short) 4, "lab1", LatencyHistogram.fromHdr(RoundTrips.evenlySpread(8, 250, 400)),
            0.3, 2000, null, 10 * SECOND).accepted());
        final String record = new String(ReplicaRecords.encode(List.of(primary.table().row((short) 4))), StandardCharsets.UTF_8);
        assertTrue(record.contains("\"hop_states\":[\"NORMAL\"]"), record);
        final byte[] twoHops = record.replace("\"hop_states\":[\"NORMAL\"]", "\"hop_states\":[\"NORMAL\",\"NORMAL\"]")
            .getBytes(StandardCharsets.UTF_8);

        final UpdateEngine standby = engine(1024);
        final List<Command.RestoreConnection> commands = ReplicaRecords.decode(twoHops, standby.table(),
            InputLimits.DEFAULT.maxHistogramBins());
        assertEquals(1, commands.size());
        assertTrue(commands.get(0).applyTo(standby, 0));
        final ConnectionRow copy = standby.table().row((short) 4);
        assertTrue(copy.learning().patternLevels().isEmpty(), "the pattern of another path is left out");
        assertEquals(primary.table().row((short) 4).latest(), copy.latest());
    }

    @Test
    void aRowsRecordRestoresTheSameReadingsMeasurementAndEstimateOnTheOtherSide() {
        final UpdateEngine primary = measured(engine(1024));
        final ConnectionRow sent = primary.table().row((short) 4);
        final byte[] records = ReplicaRecords.encode(List.of(sent));
        assertTrue(new String(records, StandardCharsets.UTF_8).endsWith("\n"), "one record a line");

        final UpdateEngine standby = engine(1024);
        final List<Command.RestoreConnection> commands = ReplicaRecords.decode(records, standby.table(),
            InputLimits.DEFAULT.maxHistogramBins());
        assertEquals(1, commands.size());
        assertTrue(commands.get(0).applyTo(standby, 0));
        final ConnectionRow copy = standby.table().row((short) 4);
        assertEquals(sent.latest(), copy.latest());
        assertEquals(sent.measurement().histogram(), copy.measurement().histogram());
        assertEquals(sent.estimate().valueMillis(), copy.estimate().valueMillis(), 0.0);
        assertEquals(sent.served().source(), copy.served().source());
    }

    @Test
    void eachShapeClasssExcessLearnedOnThePrimaryReachesTheStandby() {
        final UpdateEngine primary = measured(engine(1024));
        final org.latencyserver.core.traffic.TrafficShape octets = new org.latencyserver.core.traffic.TrafficShape(800, 5, 0,
            org.latencyserver.core.traffic.CallKind.OCTETS);
        for (int w = 0; w < 6; w++) {
            assertTrue(primary.submitProbe((short) 4, "lab1", LatencyHistogram.fromHdr(RoundTrips.evenlySpread(8, 150, 400)), 0.27,
                2000, octets, (2 + w) * SECOND).accepted());
        }
        final ConnectionRow sent = primary.table().row((short) 4);
        assertEquals(6, sent.learning().classExcess().byClass().get(org.latencyserver.core.traffic.ShapeClass.of(octets)).blocks());

        final UpdateEngine standby = engine(1024);
        assertTrue(ReplicaRecords.decode(ReplicaRecords.encode(List.of(sent)), standby.table(), InputLimits.DEFAULT.maxHistogramBins())
            .get(0).applyTo(standby, 0));
        assertEquals(sent.learning().classExcess(), standby.table().row((short) 4).learning().classExcess());
        assertEquals(6, sent.learning().shapeModel().blocks());
        assertEquals(sent.learning().shapeModel(), standby.table().row((short) 4).learning().shapeModel());
    }

    /** A QoS 3 connection's shape mean model, learned from probe windows of two shapes, is the same on the standby. */
    @Test
    void theShapeMeanModelLearnedOnThePrimaryReachesTheStandby() {
        final UpdateEngine primary = measured(engine(1024, 3, 0));
        final TrafficShape fast = new TrafficShape(500, 20, 0, CallKind.OCTETS);
        final TrafficShape slow = new TrafficShape(10_000, 10, 0, CallKind.ARRAYS);
        for (int w = 0; w < 20; w++) {
            assertTrue(primary.submitProbe((short) 4, "lab1", LatencyHistogram.fromHdr(RoundTrips.evenlySpread(20, 100, 300)), 0.2,
                2000, fast, (10 + 4 * w) * SECOND).accepted());
            assertTrue(primary.submitProbe((short) 4, "lab1", LatencyHistogram.fromHdr(RoundTrips.evenlySpread(10, 150, 450)), 0.3,
                2000, slow, (12 + 4 * w) * SECOND).accepted());
        }
        final ConnectionRow sent = primary.table().row((short) 4);
        assertEquals(40, sent.learning().shapeMeanModel().blocks());
        assertTrue(sent.learning().shapeMeanModel().fitted() && sent.learning().shapeMeanModel().relativeVariance() > 0,
            "fitted, with the windows' spread learned: " + sent.learning().shapeMeanModel());

        final UpdateEngine standby = engine(1024, 3, 0);
        assertTrue(ReplicaRecords.decode(ReplicaRecords.encode(List.of(sent)), standby.table(), InputLimits.DEFAULT.maxHistogramBins())
            .get(0).applyTo(standby, 0));
        assertEquals(sent.learning().shapeMeanModel(), standby.table().row((short) 4).learning().shapeMeanModel());
    }

    /** Enough trains that the shape model's spread keeps scores and a shared variance: the same on the standby. */
    @Test
    void theShapeSpreadLearnedOnThePrimaryReachesTheStandby() {
        final UpdateEngine primary = measured(engine(1024));
        final TrafficShape octets = new TrafficShape(800, 5, 0, CallKind.OCTETS);
        final TrafficShape arrays = new TrafficShape(5_000, 20, 0, CallKind.ARRAYS);
        for (int w = 0; w < 30; w++) {
            final TrafficShape shape = w % 2 == 0 ? octets : arrays;
            final long low = 120 + 15 * (w % 5);
            assertTrue(primary.submitProbe((short) 4, "lab1", LatencyHistogram.fromHdr(RoundTrips.evenlySpread(
                shape.burstRoundTrips(), low, low + 100 + 40 * (w % 3))), 0.27, 2000, shape, (2 + w) * SECOND).accepted());
        }
        final ConnectionRow sent = primary.table().row((short) 4);
        final ShapeSpreadModel spread = sent.learning().shapeModel().spread();
        assertTrue(spread.blocks() >= ShapeSpreadModel.MIN_BLOCKS, "enough trains for the spread: " + spread);
        assertTrue(Arrays.stream(spread.scoreWeights()).sum() > 0, "scores kept: " + spread);
        assertTrue(spread.sharedWeight() > 0 && spread.sharedSum() != 0, "a shared sum learned: " + spread);

        final UpdateEngine standby = engine(1024);
        assertTrue(ReplicaRecords.decode(ReplicaRecords.encode(List.of(sent)), standby.table(), InputLimits.DEFAULT.maxHistogramBins())
            .get(0).applyTo(standby, 0));
        final ShapeSpreadModel copy = standby.table().row((short) 4).learning().shapeModel().spread();
        assertEquals(spread, copy);
        assertArrayEquals(spread.scoreWeights(), copy.scoreWeights());
        assertEquals(spread.sharedSum(), copy.sharedSum(), 0.0);
        assertEquals(spread.sharedWeight(), copy.sharedWeight(), 0.0);
        assertEquals(sent.learning().shapeModel(), standby.table().row((short) 4).learning().shapeModel());
    }

    /** Trains probed while the port is LOADED teach the band's sums; the standby gets them and serves that band alike. */
    @Test
    void theShapeModelLearnedOnALoadedPortReachesTheStandbyWithTheBandsSums() {
        final UpdateEngine primary = engine(1024);
        primary.applyMib((short) 4, new MibReading((short) 10, (short) 20, (short) 95), 0);
        primary.tick(SECOND);
        final LatencyHistogram histogram = LatencyHistogram.fromHdr(RoundTrips.evenlySpread(1000, 100, 300));
        final double mean = histogram.meanNanosFromBinMidpoints() / 1e6;
        assertTrue(primary.submitMeasurement((short) 4, primary.table().row((short) 4).pending().ticket(),
            new Measurement(histogram, 1000, mean, mean / 4, 0.3), "test", SECOND).accepted());
        assertEquals(PortBand.LOADED, PortBand.of(primary.table().row((short) 4).load()));
        final TrafficShape fast = new TrafficShape(600, 40, 0, CallKind.OCTETS);
        final TrafficShape slow = new TrafficShape(5_000, 20, 0, CallKind.ARRAYS);
        for (int w = 0; w < 24; w++) {
            final TrafficShape shape = w % 2 == 0 ? fast : slow;
            final long low = w % 2 == 0 ? 400 : 120;
            assertTrue(primary.submitProbe((short) 4, "lab1", LatencyHistogram.fromHdr(RoundTrips.evenlySpread(
                shape.burstRoundTrips(), low, low + 150)), 0.27, 2000, shape, (2 + w) * SECOND).accepted());
        }
        final ShapeExcessModel model = primary.table().row((short) 4).learning().shapeModel();
        assertTrue(model.gram()[ShapeExcessModel.GRAM_ENTRIES - 1] > 0, "the loaded port's blocks filled the band's sums: " + model);

        final UpdateEngine standby = engine(1024);
        assertTrue(ReplicaRecords.decode(ReplicaRecords.encode(List.of(primary.table().row((short) 4))), standby.table(),
            InputLimits.DEFAULT.maxHistogramBins()).get(0).applyTo(standby, 0));
        final ShapeExcessModel copy = standby.table().row((short) 4).learning().shapeModel();
        assertEquals(model, copy);
        assertEquals(model.boundFactor(fast, PortBand.LOADED, 0.04), copy.boundFactor(fast, PortBand.LOADED, 0.04), 0.0);
    }

    @Test
    void aRecordOfAConnectionConfiguredOtherwiseIsRefusedNamingItAndTheLikelyCause() {
        final byte[] records = ReplicaRecords.encode(List.of(measured(engine(1024)).table().row((short) 4)));
        final IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
            () -> ReplicaRecords.decode(records, engine(512).table(), InputLimits.DEFAULT.maxHistogramBins()));
        assertTrue(refused.getMessage().contains("connection 4") && refused.getMessage().contains("same configuration"),
            refused.getMessage());
    }

    @Test
    void aDamagedRecordIsRefusedNamingItsLine() {
        final byte[] good = ReplicaRecords.encode(List.of(engine(1024).table().row((short) 4)));
        final byte[] damaged = (new String(good, StandardCharsets.UTF_8) + "{\"index_ref\": \"four\"}\n").getBytes(StandardCharsets.UTF_8);
        final IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
            () -> ReplicaRecords.decode(damaged, engine(1024).table(), InputLimits.DEFAULT.maxHistogramBins()));
        assertTrue(refused.getMessage().startsWith("replicated record 2:"), refused.getMessage());
    }
}
