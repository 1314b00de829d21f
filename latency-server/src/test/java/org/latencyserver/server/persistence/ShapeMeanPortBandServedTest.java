package org.latencyserver.server.persistence;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.latencyserver.core.calibration.PortBand;
import org.latencyserver.core.calibration.ShapeMeanModel;
import org.latencyserver.core.calibration.WindowNoise;
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
import org.latencyserver.server.engine.InputLimits;
import org.latencyserver.server.engine.ShapedEstimate;
import org.latencyserver.server.engine.UpdateEngine;
import org.latencyserver.server.table.CalibrationMode;
import org.latencyserver.server.table.ConnectionRow;
import org.latencyserver.server.table.ConnectionSpec;
import org.latencyserver.server.table.ConnectionTable;
import org.latencyserver.server.table.MibReading;
import org.latencyserver.testkit.RoundTrips;

/**
 * A QoS 3 connection's shape mean model learns each port band apart: a fast shape that queues behind itself on the
 * loaded port (3 × the thesis mean there, the thesis's own mean on the idle one) is served its own mean in each band;
 * the loaded port's sums are in the record (after the band-blind ones), reach the standby, and an older record without
 * them loads with nothing learned on a loaded port.
 */
class ShapeMeanPortBandServedTest {

    private static final long SECOND = 1_000_000_000L;
    private static final TrafficShape FAST = new TrafficShape(500, 20, 0, CallKind.OCTETS);
    private static final TrafficShape SLOW = new TrafficShape(10_000, 10, 0, CallKind.ARRAYS);
    private static final short IDLE_PORT_PERCENT = 10;
    private static final short LOADED_PORT_PERCENT = 95;

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

    /** The port's load set, then a measurement of round trips evenly spread over the given µs: the state's thesis mean. */
    private static void measure(final UpdateEngine engine, final short portPercent, final long lowMicros, final long highMicros,
                                final long nowNanos) {
        engine.applyMib((short) 4, new MibReading((short) 10, (short) 10, portPercent), nowNanos);
        engine.tick(nowNanos);
        final LatencyHistogram histogram = roundTrips(1000, lowMicros, highMicros);
        final double mean = histogram.meanNanosFromBinMidpoints() / 1e6;
        final ConnectionRow row = engine.table().row((short) 4);
        assertTrue(engine.submitMeasurement((short) 4, row.pending().ticket(),
            new Measurement(histogram, 1000, mean, mean / 4, highMicros / 1000.0), "test", nowNanos).accepted());
    }

    /**
     * On the idle port (thesis 0.2 ms) windows of the fast shape at the thesis mean and of the slow one at 1.5 ×; then on
     * the loaded port (thesis 0.4 ms) the fast shape at 3 × (it queues behind itself) and the slow one at 1.5 ×.
     */
    private UpdateEngine learned() {
        final UpdateEngine engine = engine();
        measure(engine, IDLE_PORT_PERCENT, 100, 300, SECOND);
        assertEquals(PortBand.IDLE, PortBand.of(engine.table().row((short) 4).load()));
        long now = 10 * SECOND;
        for (int w = 0; w < 12; w++) {
            assertTrue(engine.submitProbe((short) 4, "lab1", roundTrips(20, 100, 300), 0.2, 2000, FAST, now += 2 * SECOND).accepted());
            assertTrue(engine.submitProbe((short) 4, "lab1", roundTrips(10, 150, 450), 0.3, 2000, SLOW, now += 2 * SECOND).accepted());
        }
        measure(engine, LOADED_PORT_PERCENT, 200, 600, now += SECOND);
        assertEquals(PortBand.LOADED, PortBand.of(engine.table().row((short) 4).load()));
        for (int w = 0; w < 12; w++) {
            assertTrue(engine.submitProbe((short) 4, "lab1", roundTrips(20, 1000, 1400), 1.2, 2000, FAST, now += 2 * SECOND)
                .accepted());
            assertTrue(engine.submitProbe((short) 4, "lab1", roundTrips(10, 450, 750), 0.6, 2000, SLOW, now += 2 * SECOND)
                .accepted());
        }
        return engine;
    }

    private static ShapedEstimate.ForShape forShape(final UpdateEngine engine, final TrafficShape shape) {
        return ShapedEstimate.of(engine.table().row((short) 4), shape).orElseThrow(IllegalStateException::new);
    }

    @Test
    void aFastShapeQueueingOnTheLoadedPortIsServedItsLoadedMeanThereAndItsIdleMeanOnTheIdlePort() {
        final UpdateEngine engine = learned();
        final ShapeMeanModel model = engine.table().row((short) 4).learning().shapeMeanModel();
        assertEquals(48, model.blocks());
        assertTrue(model.loadedGram()[0] > 0 && model.loadedGram()[0] < model.gram()[0], "both bands learned: " + model);
        final ShapedEstimate.ForShape loaded = forShape(engine, FAST);
        assertEquals(1.2, loaded.estimate().valueMillis(), 0.1 * 1.2, loaded.correction());
        assertTrue(loaded.correction().contains("on a loaded port"), loaded.correction());
        assertEquals(0.6, forShape(engine, SLOW).estimate().valueMillis(), 0.1 * 0.6);

        measure(engine, IDLE_PORT_PERCENT, 100, 300, 200 * SECOND);
        final ShapedEstimate.ForShape idle = forShape(engine, FAST);
        assertEquals(0.2, idle.estimate().valueMillis(), 0.1 * 0.2, "what the idle windows taught: " + idle.correction());
        assertTrue(idle.correction().contains("on an idle port"), idle.correction());
        assertEquals(0.3, forShape(engine, SLOW).estimate().valueMillis(), 0.1 * 0.3);
    }

    @Test
    void theLoadedPortsSumsAreWrittenLastAndReadBackAndReachTheStandby() {
        final ConnectionRow sent = learned().table().row((short) 4);
        final ShapeMeanModel model = sent.learning().shapeMeanModel();
        final ObjectNode record = ConnectionRecordCodec.encode(sent, null);
        final List<String> fields = new ArrayList<>();
        for (final Iterator<String> names = record.get("shape_mean_model").fieldNames(); names.hasNext(); ) {
            fields.add(names.next());
        }
        assertEquals(List.of("blocks", "gram", "moments", "relative_variance", "loaded_gram", "loaded_moments", "window_noise"),
            fields);
        assertEquals(model, ConnectionRecordCodec.decode(parse(record), Map.of(), 1000).learning().shapeMeanModel());

        final UpdateEngine standby = engine();
        assertTrue(ReplicaRecords.decode(ReplicaRecords.encode(List.of(sent)), standby.table(), InputLimits.DEFAULT.maxHistogramBins())
            .get(0).applyTo(standby, 0));
        final ShapeMeanModel copy = standby.table().row((short) 4).learning().shapeMeanModel();
        assertEquals(model, copy);
        assertEquals(model.meanFactor(FAST, PortBand.LOADED), copy.meanFactor(FAST, PortBand.LOADED), 0.0);
    }

    @Test
    void aRecordWrittenBeforeThePortBandLoadsWithNothingLearnedOnALoadedPort() {
        final ShapeMeanModel model = learned().table().row((short) 4).learning().shapeMeanModel();
        final ObjectNode record = ConnectionRecordCodec.encode(learned().table().row((short) 4), null);
        ((ObjectNode) record.get("shape_mean_model")).remove(List.of("loaded_gram", "loaded_moments"));
        final ShapeMeanModel older = ConnectionRecordCodec.decode(parse(record), Map.of(), 1000).learning().shapeMeanModel();
        assertArrayEquals(model.gram(), older.gram(), 0.0, "the band-blind sums as written");
        assertArrayEquals(new double[ShapeMeanModel.GRAM_ENTRIES], older.loadedGram(), 0.0);
        assertEquals(older.meanFactor(FAST, PortBand.IDLE), older.meanFactor(FAST, PortBand.LOADED), 1e-12,
            "nothing learned on a loaded port: both bands alike");
    }

    @Test
    void aRecordWithoutTheWindowsScatterLoadsWithTheSmallestRidgeAndADamagedOneIsRefusedNamingIt() {
        final ShapeMeanModel model = learned().table().row((short) 4).learning().shapeMeanModel();
        assertTrue(model.noise().windows() > 0, "the windows' scatter is kept: " + model);
        final ObjectNode record = ConnectionRecordCodec.encode(learned().table().row((short) 4), null);
        final ObjectNode node = (ObjectNode) record.get("shape_mean_model");
        node.remove("window_noise");
        final ShapeMeanModel older = ConnectionRecordCodec.decode(parse(record), Map.of(), 1000).learning().shapeMeanModel();
        assertEquals(WindowNoise.NONE, older.noise());
        assertEquals(WindowNoise.MIN_RIDGE, older.ridge(), 0.0);
        assertArrayEquals(model.gram(), older.gram(), 0.0, "the sums as written");
        node.putArray("window_noise").add(-1.0).add(3.0);
        final IllegalArgumentException negative = assertThrows(IllegalArgumentException.class,
            () -> ConnectionRecordCodec.decode(parse(record), Map.of(), 1000));
        assertTrue(negative.getMessage().contains("shape_mean_model: window_noise"), negative.getMessage());
        node.putArray("window_noise").add(1.0);
        final IllegalArgumentException count = assertThrows(IllegalArgumentException.class,
            () -> ConnectionRecordCodec.decode(parse(record), Map.of(), 1000));
        assertTrue(count.getMessage().contains("shape_mean_model: window_noise: expected 2 numbers, found 1"), count.getMessage());
        // Sums no sequence of windows gives would silently set every slope to 0 (a ridge of 1e13) or to the smallest ridge.
        for (final double[] impossible : new double[][] {{5.0, 1e-12}, {5.0, 0.0}, {1e308, 1e-300}, {5.0, 500.0}}) {
            node.putArray("window_noise").add(impossible[0]).add(impossible[1]);
            final IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> ConnectionRecordCodec.decode(parse(record), Map.of(), 1000), () -> java.util.Arrays.toString(impossible));
            assertTrue(refused.getMessage().contains("shape_mean_model: window_noise: "), refused.getMessage());
        }
    }

    @Test
    void aDamagedLoadedSumIsRefusedNamingIt() {
        final ObjectNode record = ConnectionRecordCodec.encode(learned().table().row((short) 4), null);
        final ObjectNode node = (ObjectNode) record.get("shape_mean_model");
        node.putArray("loaded_gram").add(1.0).add(2.0);
        final IllegalArgumentException count = assertThrows(IllegalArgumentException.class,
            () -> ConnectionRecordCodec.decode(parse(record), Map.of(), 1000));
        assertTrue(count.getMessage().contains("shape_mean_model: loaded_gram: expected 10 numbers, found 2"), count.getMessage());
        final double everyWindow = node.get("gram").get(0).asDouble();
        node.putArray("loaded_gram").add(2 * everyWindow).add(0.0).add(0.0).add(0.0).add(0.0).add(0.0).add(0.0).add(0.0).add(0.0)
            .add(0.0);
        final IllegalArgumentException beyond = assertThrows(IllegalArgumentException.class,
            () -> ConnectionRecordCodec.decode(parse(record), Map.of(), 1000));
        assertTrue(beyond.getMessage().contains("shape_mean_model") && beyond.getMessage().contains("loaded_gram"),
            beyond.getMessage());
    }

    private static InputNode parse(final ObjectNode record) {
        return InputNode.parse(record.toString(), InputFormat.JSON, new InputFaults("test"));
    }
}
