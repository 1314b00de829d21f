package org.latencyserver.server.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.latencyserver.core.calibration.PortBand;
import org.latencyserver.core.calibration.ShapeMeanModel;
import org.latencyserver.core.estimate.Measurement;
import org.latencyserver.core.histogram.LatencyHistogram;
import org.latencyserver.core.state.ConnectionLoadState;
import org.latencyserver.core.state.CpuThresholds;
import org.latencyserver.core.state.PortState;
import org.latencyserver.core.state.WorkstationType;
import org.latencyserver.core.traffic.CallKind;
import org.latencyserver.core.traffic.TrafficShape;
import org.latencyserver.server.table.CalibrationMode;
import org.latencyserver.server.table.ConnectionRow;
import org.latencyserver.server.table.ConnectionSpec;
import org.latencyserver.server.table.ConnectionTable;
import org.latencyserver.server.table.Learning;
import org.latencyserver.server.table.MibReading;
import org.latencyserver.testkit.RoundTrips;

/**
 * A mean's probe window teaches the shape mean model in the band of the path it was sent on: a loaded hop anywhere
 * makes it the loaded port's, an idle path the idle port's, and a path whose unknown hop may hide a loaded one teaches
 * nothing.
 */
class ShapeMeanBandLearningTest {

    private static final long SECOND = 1_000_000_000L;
    private static final TrafficShape FAST = new TrafficShape(500, 20, 0, CallKind.OCTETS);

    private final AtomicLong tickets = new AtomicLong();

    /** A QoS 3 adaptive connection serving its measurement's mean (0.2 ms) on an idle port. */
    private ConnectionRow servingAMean() {
        final ConnectionSpec spec = new ConnectionSpec((short) 4, "lab1", (short) 5, new WorkstationType("LOCAL-2CORE", 5), "lab2",
            (short) 6, new WorkstationType("LOCAL-2CORE", 5), null, 1024, 3, 0, null, CalibrationMode.ADAPTIVE, 4.0);
        final UpdateEngine engine = new UpdateEngine(new ConnectionTable(List.of(ConnectionRow.initial(spec, 0))), Map.of(),
            new EngineSettings(CpuThresholds.DEFAULT, 1.0, 1000, 30 * SECOND, 0, 2, 20, 100_000, 0), tickets::incrementAndGet,
            () -> 1_700_000_000_000L);
        engine.applyMib((short) 4, new MibReading((short) 10, (short) 10, (short) 10), 0);
        engine.tick(SECOND);
        final LatencyHistogram histogram = LatencyHistogram.fromHdr(RoundTrips.evenlySpread(1000, 100, 300));
        final double mean = histogram.meanNanosFromBinMidpoints() / 1e6;
        assertTrue(engine.submitMeasurement((short) 4, engine.table().row((short) 4).pending().ticket(),
            new Measurement(histogram, 1000, mean, mean / 4, 0.3), "test", SECOND).accepted());
        return engine.table().row((short) 4);
    }

    private static ShapeMeanModel afterAWindow(final ConnectionRow row) {
        return ServedCalibration.tested(row, window(), 20, 0.6, true, FAST).shapeMeanModel();
    }

    /** A window of 20 round trips, 0.5–0.7 ms. */
    private static LatencyHistogram window() {
        return LatencyHistogram.fromHdr(RoundTrips.evenlySpread(20, 500, 700));
    }

    private static ConnectionRow onHops(final ConnectionRow row, final PortState... hops) {
        return row.withMib(row.latest(), ConnectionLoadState.ofHops(row.load().cpu(), List.of(hops)), 0);
    }

    @Test
    void aWindowOnAnIdlePathTeachesTheIdlePortsSumsAndLeavesWhatALoadedHopTaught() {
        final ConnectionRow row = servingAMean();
        final ShapeMeanModel before = row.learning().shapeMeanModel();
        final ConnectionRow loadedRow = onHops(row, PortState.NORMAL, PortState.loaded(95));
        assertEquals(PortBand.LOADED, PortBand.of(loadedRow.load()));
        final Learning afterLoaded = ServedCalibration.tested(loadedRow, window(), 20, 0.6, true, FAST);
        final ShapeMeanModel loaded = afterLoaded.shapeMeanModel();
        assertEquals(before.blocks() + 1, loaded.blocks());
        assertEquals(before.loadedGram()[0] + ShapeMeanModel.MAX_BLOCK_WEIGHT, loaded.loadedGram()[0], 1e-9,
            "a loaded hop anywhere: the loaded port's window");
        assertTrue(loaded.loadedMoments()[0] != 0.0, "the loaded window's response is in the loaded sums");
        final ConnectionRow idleRow = onHops(loadedRow.withLearning(afterLoaded), PortState.NORMAL, PortState.NORMAL);
        final ShapeMeanModel idle = afterAWindow(idleRow);
        assertEquals(loaded.blocks() + 1, idle.blocks());
        assertArrayEquals(loaded.loadedGram(), idle.loadedGram(), 0.0, "the idle port's window leaves the loaded sums");
        assertArrayEquals(loaded.loadedMoments(), idle.loadedMoments(), 0.0);
        final double idleWeight = loaded.gram()[0] - loaded.loadedGram()[0];
        assertEquals(loaded.loadedGram()[0] + ShapeMeanModel.FORGETTING * idleWeight + ShapeMeanModel.MAX_BLOCK_WEIGHT,
            idle.gram()[0], 1e-9, "and is learned in every window's sums, forgetting the idle windows' alone");
    }

    @Test
    void aWindowWhoseUnknownHopMayHideALoadedOneTeachesNothing() {
        final ConnectionRow row = servingAMean();
        final ConnectionRow hidden = onHops(row, PortState.NORMAL, PortState.UNKNOWN);
        assertTrue(PortBand.hidesLoad(hidden.load()));
        assertSame(hidden.learning().shapeMeanModel(), afterAWindow(hidden));
        final ShapeMeanModel unobserved = afterAWindow(onHops(row, PortState.UNKNOWN));
        assertEquals(row.learning().shapeMeanModel().blocks() + 1, unobserved.blocks(),
            "no hop observed: band-blind, learned as the idle port's");
    }
}
