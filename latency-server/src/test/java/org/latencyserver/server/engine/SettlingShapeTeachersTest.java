package org.latencyserver.server.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.latencyserver.server.engine.AdaptiveConnectionFixture.roundTrips;

import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.latencyserver.core.calibration.ShapeExcessModel;
import org.latencyserver.core.estimate.Measurement;
import org.latencyserver.core.histogram.LatencyHistogram;
import org.latencyserver.core.state.CpuThresholds;
import org.latencyserver.core.state.PortBands;
import org.latencyserver.core.state.WorkstationType;
import org.latencyserver.core.traffic.CallKind;
import org.latencyserver.core.traffic.TrafficShape;
import org.latencyserver.server.table.CalibrationMode;
import org.latencyserver.server.table.ConnectionRow;
import org.latencyserver.server.table.ConnectionSpec;
import org.latencyserver.server.table.ConnectionTable;
import org.latencyserver.server.table.Learning;
import org.latencyserver.server.table.MibReading;

/**
 * A port that began to queue reads idle until its counters refresh: the probe windows accepted within the settle window
 * before a polled reading moves the ports teach the shape models nothing, while a CPU move, a pushed reading, an
 * answerless source or a reading after the settle window takes nothing back.
 */
class SettlingShapeTeachersTest {

    private static final long SECOND = 1_000_000_000L;
    private static final long SETTLE = 3 * SECOND;
    private static final short INDEX = 4;
    private static final TrafficShape FAST = new TrafficShape(500, 20, 0, CallKind.OCTETS);

    private final AtomicLong tickets = new AtomicLong(1000);

    /** @return an adaptive QoS 4 connection on an idle port, measured at 1 s (0.1–1 ms) and so serving a bound */
    private UpdateEngine servingOnAnIdlePort() {
        final ConnectionSpec spec = new ConnectionSpec(INDEX, "ws1", (short) 1, WorkstationType.TAC_4, "ws2", (short) 2,
            WorkstationType.TAC_4, "port-a", 256, 4, 96, null, CalibrationMode.ADAPTIVE, 4.0);
        final UpdateEngine engine = new UpdateEngine(new ConnectionTable(List.of(ConnectionRow.initial(spec, 0))), Map.of(),
            new EngineSettings(CpuThresholds.DEFAULT, 1.0, 1000, 30 * SECOND, 0, 2, 20, 20_000, 0,
                PortBands.of(List.of(95, 98)), SETTLE, MeasurementPacing.NONE, 1), tickets::incrementAndGet, () -> 42L);
        engine.applyPolledMib(INDEX, mib(10, 10), 0);
        engine.tick(0);
        final LatencyHistogram measured = roundTrips(1000, 100, 1000);
        final double meanMillis = measured.meanNanosFromBinMidpoints() / 1e6;
        assertTrue(engine.submitMeasurement(INDEX, row(engine).pending().ticket(),
            new Measurement(measured, 1000, meanMillis, meanMillis / 4, 1.0), "test", SECOND).accepted());
        assertNotNull(row(engine).estimate(), "the measurement is served");
        return engine;
    }

    private static MibReading mib(final int cpu, final int port) {
        return new MibReading((short) cpu, (short) cpu, (short) port);
    }

    private static ConnectionRow row(final UpdateEngine engine) {
        return engine.table().row(INDEX);
    }

    /** Probe windows of 1 s at the idle port's pace, one every 2 s from 10 s: the model learns the idle port. */
    private static long quietWindows(final UpdateEngine engine) {
        long now = 10 * SECOND;
        for (int w = 0; w < 6; w++) {
            assertTrue(engine.submitProbe(INDEX, "ws1", roundTrips(20, 100, 1000), 0.5, 1000, FAST, now).accepted());
            now += 2 * SECOND;
        }
        return now;
    }

    /** Two windows of a port that already queues (10–30 ms) while its counters still read idle, at {@code from}, +1 s. */
    private static void queueingWindows(final UpdateEngine engine, final long from) {
        for (int w = 0; w < 2; w++) {
            assertTrue(engine.submitProbe(INDEX, "ws1", roundTrips(20, 10_000, 30_000), 20, 1000, FAST, from + w * SECOND)
                .accepted());
        }
    }

    @Test
    void windowsWithinTheSettleWindowBeforeThePortsMoveTeachTheShapeModelsNothing() {
        final UpdateEngine engine = servingOnAnIdlePort();
        final long now = quietWindows(engine);
        final Learning before = row(engine).learning();
        assertEquals(6, before.shapeModel().blocks(), "the quiet windows taught the model");
        queueingWindows(engine, now);
        assertNotEquals(before.shapeModel(), row(engine).learning().shapeModel(), "the queueing windows taught it too");

        engine.applyPolledMib(INDEX, mib(10, 100), now + 2 * SECOND);

        final Learning after = row(engine).learning();
        assertSame(before.shapeModel(), after.shapeModel(), "the shape model is as it was before the first queueing window");
        assertSame(before.shapeMeanModel(), after.shapeMeanModel());
        assertSame(before.shapeModelLevel(), after.shapeModelLevel());
        assertEquals(2, engine.shapeTrainsTakenBack());
    }

    @Test
    void aWindowAcceptedBeforeTheSettleWindowKeepsWhatItTaught() {
        final UpdateEngine engine = servingOnAnIdlePort();
        final long now = quietWindows(engine);
        queueingWindows(engine, now);
        final ShapeExcessModel taught = row(engine).learning().shapeModel();
        final ShapeExcessModel beforeSecond = afterFirstQueueingWindow(now);

        // 3.5 s after the first queueing window, 2.5 s after the second: only the second is taken back.
        engine.applyPolledMib(INDEX, mib(10, 100), now + 3_500_000_000L);

        final ShapeExcessModel after = row(engine).learning().shapeModel();
        assertEquals(8, taught.blocks());
        assertEquals(7, after.blocks(), "the first queueing window stays taught");
        assertEquals(beforeSecond.blocks(), after.blocks());
        assertEquals(1, engine.shapeTrainsTakenBack());
    }

    /** @return the shape model after the quiet windows and the first queueing window, replayed on a fresh engine */
    private ShapeExcessModel afterFirstQueueingWindow(final long now) {
        final UpdateEngine replay = servingOnAnIdlePort();
        quietWindows(replay);
        assertTrue(replay.submitProbe(INDEX, "ws1", roundTrips(20, 10_000, 30_000), 20, 1000, FAST, now).accepted());
        return row(replay).learning().shapeModel();
    }

    @Test
    void aMoveOfTheCpusAlonePushedReadingsAndUnknownSourcesTakeNothingBack() {
        final UpdateEngine cpus = servingOnAnIdlePort();
        final long now = quietWindows(cpus);
        queueingWindows(cpus, now);
        final ShapeExcessModel taughtCpus = row(cpus).learning().shapeModel();
        cpus.applyPolledMib(INDEX, mib(90, 10), now + 2 * SECOND);
        assertTrue(row(cpus).load().isKnown());
        assertSame(taughtCpus, row(cpus).learning().shapeModel(), "only the CPUs moved: " + row(cpus).load().label());

        final UpdateEngine pushed = servingOnAnIdlePort();
        queueingWindows(pushed, quietWindows(pushed));
        final ShapeExcessModel taughtPushed = row(pushed).learning().shapeModel();
        pushed.applyMib(INDEX, mib(10, 100), now + 2 * SECOND);
        assertSame(taughtPushed, row(pushed).learning().shapeModel(), "a pushed reading has no counter lag");

        final UpdateEngine unknown = servingOnAnIdlePort();
        queueingWindows(unknown, quietWindows(unknown));
        final ShapeExcessModel taughtUnknown = row(unknown).learning().shapeModel();
        unknown.applyPolledMib(INDEX, mib(10, -1), now + 2 * SECOND);
        assertSame(taughtUnknown, row(unknown).learning().shapeModel(), "no answer says nothing of the load");

        assertEquals(0, cpus.shapeTrainsTakenBack() + pushed.shapeTrainsTakenBack() + unknown.shapeTrainsTakenBack());
    }
}
