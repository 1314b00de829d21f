package org.latencyserver.server.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
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
import org.latencyserver.core.state.ConnectionLoadState;
import org.latencyserver.core.state.CpuStatePair;
import org.latencyserver.core.state.CpuThresholds;
import org.latencyserver.core.state.PortBands;
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

/**
 * A port that began to queue reads idle until its counters refresh: the trains accepted within the settle window before
 * a polled reading moves the ports between the idle band and the loaded one teach the shape models nothing, while a
 * move within the loaded band, a move of the CPUs, a pushed reading, an answerless source or a reading after the settle
 * window takes nothing back.
 */
class SettlingShapeTeachersTest {

    private static final long SECOND = 1_000_000_000L;
    private static final long SETTLE = 3 * SECOND;
    private static final short INDEX = 4;
    private static final TrafficShape FAST = new TrafficShape(500, 20, 0, CallKind.OCTETS);
    /** More than the shape model needs to be fitted, so that its level learns too. */
    private static final int QUIET_WINDOWS = 20;

    private final AtomicLong tickets = new AtomicLong(1000);

    /** @return an adaptive connection of the QoS on an idle port, measured at 1 s (0.1–1 ms) and so serving */
    private UpdateEngine servingOnAnIdlePort(final int qos, final PortBands bands) {
        final ConnectionSpec spec = new ConnectionSpec(INDEX, "ws1", (short) 1, WorkstationType.TAC_4, "ws2", (short) 2,
            WorkstationType.TAC_4, "port-a", 256, qos, qos == 4 ? 96 : 0, null, CalibrationMode.ADAPTIVE, 4.0);
        final UpdateEngine engine = new UpdateEngine(new ConnectionTable(List.of(ConnectionRow.initial(spec, 0))), Map.of(),
            new EngineSettings(CpuThresholds.DEFAULT, 1.0, 1000, 30 * SECOND, 0, 2, 20, 20_000, 0, bands, SETTLE,
                MeasurementPacing.NONE, 1), tickets::incrementAndGet, () -> 42L);
        engine.applyPolledMib(INDEX, mib(10, 10), 0);
        measure(engine, 100, 1000, SECOND);
        assertNotNull(row(engine).estimate(), "the measurement is served");
        return engine;
    }

    private UpdateEngine servingABound() {
        return servingOnAnIdlePort(4, PortBands.DEFAULT_BANDS);
    }

    /**
     * Ticks the engine to {@code atNanos} and answers the measurement it then asks for with 1000 round trips spread from
     * {@code lowMicros} to {@code highMicros}.
     */
    private static void measure(final UpdateEngine engine, final long lowMicros, final long highMicros, final long atNanos) {
        final LatencyHistogram measured = roundTrips(1000, lowMicros, highMicros);
        final double meanMillis = measured.meanNanosFromBinMidpoints() / 1e6;
        engine.tick(atNanos);
        assertNotNull(row(engine).pending(), "a measurement is asked for");
        assertTrue(engine.submitMeasurement(INDEX, row(engine).pending().ticket(), new Measurement(measured,
            measured.totalCount(), meanMillis, meanMillis / 4, highMicros / 1000.0), "test", atNanos).accepted());
    }

    private static MibReading mib(final int cpu, final int port) {
        return new MibReading((short) cpu, (short) cpu, (short) port);
    }

    private static ConnectionRow row(final UpdateEngine engine) {
        return engine.table().row(INDEX);
    }

    /** Probe windows of 1 s at the idle port's pace, one every 2 s from 10 s: the models learn the idle port. */
    private static long quietWindows(final UpdateEngine engine) {
        long now = 10 * SECOND;
        for (int w = 0; w < QUIET_WINDOWS; w++) {
            assertTrue(engine.submitProbe(INDEX, "ws1", roundTrips(20, 100, 1000), 0.5, 1000, FAST, now).accepted());
            now += 2 * SECOND;
        }
        return now;
    }

    /** A window of a port that already queues (10–30 ms) while its counters still read idle. */
    private static void queueingWindow(final UpdateEngine engine, final long atNanos) {
        assertTrue(engine.submitProbe(INDEX, "ws1", roundTrips(20, 10_000, 30_000), 20, 1000, FAST, atNanos).accepted());
    }

    @Test
    void windowsWithinTheSettleWindowBeforeThePortsMoveTeachTheShapeModelsNothingWhileEveryLevelKeepsThem() {
        final UpdateEngine engine = servingABound();
        final long now = quietWindows(engine);
        final Learning before = row(engine).learning();
        assertTrue(before.shapeModel().fitted(), "the quiet windows fitted the model");
        assertNotNull(before.shapeModelLevel(), "and its level learned");
        queueingWindow(engine, now);
        queueingWindow(engine, now + SECOND);
        assertNotSame(before.shapeModel(), row(engine).learning().shapeModel(), "the queueing windows taught the model");
        assertNotSame(before.shapeModelLevel(), row(engine).learning().shapeModelLevel(), "and its level");
        final Learning taught = row(engine).learning();
        assertTrue(taught.pooledLevel().missFraction() < before.pooledLevel().missFraction(),
            "their misses raised the pooled level (a lower miss fraction to serve)");
        final ConnectionLoadState idle = row(engine).load();
        final long idleWindows = row(engine).currentKnowledge().probeWindows();

        engine.applyPolledMib(INDEX, mib(10, 100), now + 2 * SECOND);

        final Learning after = row(engine).learning();
        assertSame(before.shapeModel(), after.shapeModel(), "the shape model is as it was before the first queueing window");
        assertSame(taught.shapeModelLevel(), after.shapeModelLevel(), "the levels keep what an application met in those seconds");
        assertSame(taught.pooledLevel(), after.pooledLevel());
        assertEquals(taught.pooledLevelBlocks(), after.pooledLevelBlocks());
        assertSame(taught.patternLevels(), after.patternLevels());
        assertEquals(idleWindows, after.of(idle, 96).probeWindows(), "the idle state's own calibration keeps the windows");
        assertEquals(2, engine.shapeTrainsTakenBack());
    }

    @Test
    void aMeasurementAskedForByTheQueueingWindowsIsTakenBackFromTheShapeModelWithThem() {
        final UpdateEngine engine = servingABound();
        final long now = quietWindows(engine);
        final Learning before = row(engine).learning();
        final Object measuredBefore = row(engine).currentKnowledge().lastMeasurement();
        queueingWindow(engine, now);
        queueingWindow(engine, now + SECOND);
        // The misses raised the drift alarm: the state is measured again, on the queueing port.
        measure(engine, 10_000, 30_000, now + 1_500_000_000L);
        assertEquals(before.shapeModel().blocks() + 3, row(engine).learning().shapeModel().blocks(),
            "the result taught the model too");

        engine.applyPolledMib(INDEX, mib(10, 100), now + 2 * SECOND);

        final Learning after = row(engine).learning();
        assertSame(before.shapeModel(), after.shapeModel());
        assertEquals(3, engine.shapeTrainsTakenBack());
        assertEquals(1, engine.resultsTakenBack(), "the result is also taken back from the idle state's own knowledge");
        assertSame(measuredBefore, after.of(new ConnectionLoadState(row(engine).load().cpu(), PortState.NORMAL), 96)
            .lastMeasurement());
    }

    @Test
    void windowsOfAMeanConnectionTeachItsShapeMeanModelNothingEither() {
        final UpdateEngine engine = servingOnAnIdlePort(3, PortBands.DEFAULT_BANDS);
        final long now = quietWindows(engine);
        final Learning before = row(engine).learning();
        queueingWindow(engine, now + SECOND);
        assertNotSame(before.shapeMeanModel(), row(engine).learning().shapeMeanModel(), "the window taught the mean model");

        engine.applyPolledMib(INDEX, mib(10, 100), now + 2 * SECOND);

        assertSame(before.shapeMeanModel(), row(engine).learning().shapeMeanModel());
        assertEquals(1, engine.shapeTrainsTakenBack());
    }

    @Test
    void aWindowAcceptedBeforeTheSettleWindowKeepsWhatItTaught() {
        final UpdateEngine engine = servingABound();
        final long now = quietWindows(engine);
        queueingWindow(engine, now);
        final ShapeExcessModel afterFirst = row(engine).learning().shapeModel();
        queueingWindow(engine, now + SECOND);

        // 3.5 s after the first queueing window, 2.5 s after the second: only the second is taken back.
        engine.applyPolledMib(INDEX, mib(10, 100), now + 3_500_000_000L);

        assertSame(afterFirst, row(engine).learning().shapeModel(), "the first queueing window stays taught");
        assertEquals(1, engine.shapeTrainsTakenBack());
    }

    @Test
    void aPushedMoveForgetsTheTrainsBeforeItSoALaterPolledMoveTakesBackOnlyTheLoadedPortsOwn() {
        final UpdateEngine engine = servingABound();
        // Right after the last quiet window, a pushed reading (no lag) to a loaded port, which is measured; one window
        // of it, and a polled move back within the settle window of every one of them.
        final long now = quietWindows(engine) - 2 * SECOND;
        engine.applyMib(INDEX, mib(10, 100), now + 500_000_000L);
        measure(engine, 5_000, 9_000, now + SECOND);
        final ShapeExcessModel idleTaught = row(engine).learning().shapeModel();
        assertTrue(engine.submitProbe(INDEX, "ws1", roundTrips(20, 5_000, 9_000), 7, 1000, FAST, now + 2 * SECOND).accepted());
        assertNotSame(idleTaught, row(engine).learning().shapeModel(), "the loaded port's window taught the model");

        engine.applyPolledMib(INDEX, mib(10, 10), now + 2_500_000_000L);

        assertSame(idleTaught, row(engine).learning().shapeModel(), "only the loaded window is taken back, not the idle ones");
        assertEquals(1, engine.shapeTrainsTakenBack());
    }

    @Test
    void theMovesThatCountAreBetweenIdleAndLoadedOrToAnotherSetOfLoadedHops() {
        final CpuStatePair cpus = row(servingABound()).load().cpu();
        final ConnectionLoadState idlePath = ConnectionLoadState.ofHops(cpus, List.of(PortState.NORMAL, PortState.NORMAL));
        final ConnectionLoadState firstLoaded = ConnectionLoadState.ofHops(cpus, List.of(PortState.loaded(97), PortState.NORMAL));
        final ConnectionLoadState firstSaturated = ConnectionLoadState.ofHops(cpus, List.of(PortState.SATURATED, PortState.NORMAL));
        final ConnectionLoadState secondLoaded = ConnectionLoadState.ofHops(cpus, List.of(PortState.NORMAL, PortState.loaded(97)));
        final ConnectionLoadState secondUnknown = ConnectionLoadState.ofHops(cpus, List.of(PortState.NORMAL, PortState.UNKNOWN));

        assertTrue(SettlingShapeTeachers.portsMoved(idlePath, firstLoaded));
        assertTrue(SettlingShapeTeachers.portsMoved(firstLoaded, idlePath));
        assertTrue(SettlingShapeTeachers.portsMoved(firstLoaded, secondLoaded), "the same band, another hop's queue");
        assertFalse(SettlingShapeTeachers.portsMoved(firstLoaded, firstSaturated), "one hop loaded, another percent");
        assertFalse(SettlingShapeTeachers.portsMoved(idlePath, secondUnknown));
        assertTrue(SettlingShapeTeachers.bothAnswered(idlePath, firstLoaded));
        assertFalse(SettlingShapeTeachers.bothAnswered(idlePath, secondUnknown), "a hop did not answer");
    }

    @Test
    void movesWithinTheLoadedBandOfTheCpusAloneToAnUnansweredSourceOrPushedTakeNothingBack() {
        final UpdateEngine thesisPercents = servingOnAnIdlePort(4, PortBands.THESIS);
        long now = quietWindows(thesisPercents) + 2 * SECOND;
        thesisPercents.applyPolledMib(INDEX, mib(10, 97), now);
        measure(thesisPercents, 5_000, 9_000, now + SECOND);
        final ShapeExcessModel measuredLoaded = row(thesisPercents).learning().shapeModel();
        assertTrue(thesisPercents.submitProbe(INDEX, "ws1", roundTrips(20, 5_000, 9_000), 7, 1000, FAST, now + 3 * SECOND)
            .accepted());
        final ShapeExcessModel loadedTaught = row(thesisPercents).learning().shapeModel();
        assertNotSame(measuredLoaded, loadedTaught, "the loaded port's window taught the model");
        thesisPercents.applyPolledMib(INDEX, mib(10, 98), now + 3_500_000_000L);
        assertTrue(row(thesisPercents).load().label().contains("98 %"), row(thesisPercents).load()::label);
        assertSame(loadedTaught, row(thesisPercents).learning().shapeModel(), "97 % to 98 % is one loaded band");

        final UpdateEngine cpus = servingABound();
        now = quietWindows(cpus);
        queueingWindow(cpus, now);
        final ShapeExcessModel taughtCpus = row(cpus).learning().shapeModel();
        final ConnectionLoadState cpusBefore = row(cpus).load();
        cpus.applyPolledMib(INDEX, mib(90, 10), now + SECOND);
        assertNotEquals(cpusBefore.cpu(), row(cpus).load().cpu(), "the CPUs moved");
        assertEquals(cpusBefore.port(), row(cpus).load().port());
        assertSame(taughtCpus, row(cpus).learning().shapeModel(), "only the CPUs moved: " + row(cpus).load().label());

        final UpdateEngine pushed = servingABound();
        queueingWindow(pushed, quietWindows(pushed));
        final ShapeExcessModel taughtPushed = row(pushed).learning().shapeModel();
        pushed.applyMib(INDEX, mib(10, 100), now + SECOND);
        assertTrue(row(pushed).load().port().isLoaded(), row(pushed).load()::label);
        assertSame(taughtPushed, row(pushed).learning().shapeModel(), "a pushed reading has no counter lag");

        final UpdateEngine unknown = servingABound();
        queueingWindow(unknown, quietWindows(unknown));
        final ShapeExcessModel taughtUnknown = row(unknown).learning().shapeModel();
        unknown.applyPolledMib(INDEX, mib(10, -1), now + SECOND);
        assertEquals(PortState.Kind.UNKNOWN, row(unknown).load().port().kind());
        unknown.applyPolledMib(INDEX, mib(10, 10), now + 1_500_000_000L);
        unknown.applyPolledMib(INDEX, mib(10, 100), now + 2 * SECOND);
        assertTrue(row(unknown).load().port().isLoaded(), row(unknown).load()::label);
        assertSame(taughtUnknown, row(unknown).learning().shapeModel(),
            "an unanswered poll forgets the trains before it: the answered move after it takes nothing back");

        assertEquals(0, thesisPercents.shapeTrainsTakenBack() + cpus.shapeTrainsTakenBack() + pushed.shapeTrainsTakenBack()
            + unknown.shapeTrainsTakenBack());
    }
}
