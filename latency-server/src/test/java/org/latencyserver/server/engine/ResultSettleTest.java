package org.latencyserver.server.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.latencyserver.core.estimate.Measurement;
import org.latencyserver.core.histogram.LatencyHistogram;
import org.latencyserver.core.state.CpuThresholds;
import org.latencyserver.core.state.PortBands;
import org.latencyserver.core.state.WorkstationType;
import org.latencyserver.orb.EstimateSource;
import org.latencyserver.server.table.CalibrationMode;
import org.latencyserver.server.table.ConnectionRow;
import org.latencyserver.server.table.ConnectionSpec;
import org.latencyserver.server.table.ConnectionTable;
import org.latencyserver.server.table.MibReading;

/**
 * What a QoS 3/4 connection serves around a port state change: a result whose load state changes within the settle
 * window is taken back from that state, and a thesis connection entering or leaving a loaded band serves what is known
 * of the new band, never the other band's value.
 */
class ResultSettleTest {

    private static final long SECOND = 1_000_000_000L;
    private static final long MS = 1_000_000L;
    private static final long SETTLE = 3 * SECOND;

    private final AtomicLong tickets = new AtomicLong(1000);

    private UpdateEngine engine(final CalibrationMode calibration) {
        final ConnectionSpec spec = new ConnectionSpec((short) 4, "ws1", (short) 1, WorkstationType.TAC_4, "ws2", (short) 2,
            WorkstationType.TAC_4, "port-a", 256, 4, 96, null, calibration, 0.0);
        return new UpdateEngine(new ConnectionTable(List.of(ConnectionRow.initial(spec, 0))), Map.of(),
            new EngineSettings(CpuThresholds.DEFAULT, 1.0, 1000, 30 * SECOND, 0, 2, 20, 20_000, 0,
                PortBands.of(List.of(95, 98)), SETTLE, MeasurementPacing.NONE, 1), tickets::incrementAndGet, () -> 42L);
    }

    /** @return an adaptive connection whose port polls saturated at 0, its first measurement requested */
    private UpdateEngine saturatedAdaptive() {
        final UpdateEngine engine = engine(CalibrationMode.ADAPTIVE);
        poll(engine, mib(100), 0);
        engine.tick(0);
        return engine;
    }

    /** @return a thesis connection whose port polls at {@code portPercent} at 0, measured at 1 s */
    private UpdateEngine thesisMeasuredAt(final int portPercent) {
        final UpdateEngine engine = engine(CalibrationMode.THESIS);
        poll(engine, mib(portPercent), 0);
        measure(engine, SECOND);
        return engine;
    }

    private static void poll(final UpdateEngine engine, final MibReading reading, final long atNanos) {
        engine.applyPolledMib((short) 4, reading, atNanos);
    }

    /** Ticks the engine to {@code atNanos}, then polls {@code reading} at that time. */
    private static void tickAndPoll(final UpdateEngine engine, final MibReading reading, final long atNanos) {
        engine.tick(atNanos);
        poll(engine, reading, atNanos);
    }

    private static MibReading mib(final int port) {
        return new MibReading((short) 10, (short) 10, (short) port);
    }

    private static Measurement loadedPort() {
        return new Measurement(LatencyHistogram.uniform(MS, new long[] {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 10, 900, 90}, 0), 1000,
            11.6, 0.5, 12.9);
    }

    private static ConnectionRow row(final UpdateEngine engine) {
        return engine.table().row((short) 4);
    }

    private static long measure(final UpdateEngine engine, final long atNanos) {
        final long ticket = row(engine).pending().ticket();
        assertTrue(engine.submitMeasurement((short) 4, ticket, loadedPort(), "test", atNanos).accepted());
        return ticket;
    }

    @Test
    void aStateChangeWithinTheSettleWindowTakesTheResultBackFromTheStateItWasFiledUnder() {
        final UpdateEngine engine = saturatedAdaptive();
        assertNotNull(row(engine).pending(), "the saturated band is measured");
        measure(engine, 10 * SECOND);
        assertEquals(13.0, row(engine).estimate().valueMillis(), 1e-9, "the 96 % bound, served at once");
        assertNotNull(row(engine).currentKnowledge().lastMeasurement());

        // Counters still said 99-100 % when it ended; the port had emptied: the change is seen 2 s later.
        poll(engine, mib(10), 12 * SECOND);
        assertEquals(1, engine.resultsTakenBack());
        poll(engine, mib(100), 20 * SECOND);
        assertNull(row(engine).currentKnowledge().lastMeasurement(), "the loaded band keeps nothing of a result it may not have held for");
        assertNull(row(engine).measurement());
    }

    @Test
    void aPushedStateChangeWithinTheSettleWindowTakesNothingBack() {
        final UpdateEngine engine = engine(CalibrationMode.ADAPTIVE);
        engine.applyMib((short) 4, mib(100), 0);
        engine.tick(0);
        measure(engine, 10 * SECOND);
        engine.applyMib((short) 4, mib(10), 10 * SECOND + 50 * MS);
        assertEquals(0, engine.resultsTakenBack(), "a pushed reading is the load as the pusher saw it, with no counter lag");
        engine.applyMib((short) 4, mib(100), 20 * SECOND);
        assertNotNull(row(engine).currentKnowledge().lastMeasurement());
    }

    @Test
    void aStateChangeAfterTheSettleWindowKeepsTheResult() {
        final UpdateEngine engine = saturatedAdaptive();
        measure(engine, 10 * SECOND);
        tickAndPoll(engine, mib(10), 14 * SECOND);
        assertEquals(0, engine.resultsTakenBack());
        poll(engine, mib(100), 20 * SECOND);
        assertNotNull(row(engine).currentKnowledge().lastMeasurement(), "remembered for the band");
        assertEquals(13.0, row(engine).estimate().valueMillis(), 1e-9, "served again when the band returns");
    }

    @Test
    void anUnknownSourceWithinTheSettleWindowTakesNothingBack() {
        final UpdateEngine engine = saturatedAdaptive();
        measure(engine, 10 * SECOND);
        poll(engine, mib(-1), 11 * SECOND);
        assertEquals(0, engine.resultsTakenBack());
        assertNotNull(row(engine).measurement());
    }

    @Test
    void theThesisCalibrationServesThePreviousValueAgainNotTheResultTakenBack() {
        final UpdateEngine engine = thesisMeasuredAt(100);
        final double previous = row(engine).estimate().valueMillis();
        tickAndPoll(engine, new MibReading((short) 80, (short) 10, (short) 100), 10 * SECOND);
        assertEquals(previous, row(engine).estimate().valueMillis(), 1e-9, "thesis semantics: the previous state's value");
        final long ticket = row(engine).pending().ticket();
        assertTrue(engine.submitMeasurement((short) 4, ticket, new Measurement(
            LatencyHistogram.uniform(MS, new long[] {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1000}, 0), 1000,
            20.5, 0.3, 20.9), "test", 20 * SECOND).accepted());
        assertEquals(21.0, row(engine).estimate().valueMillis(), 1e-9);
        poll(engine, new MibReading((short) 10, (short) 10, (short) 100), 21 * SECOND);
        assertEquals(1, engine.resultsTakenBack());
        assertEquals(previous, row(engine).estimate().valueMillis(), 1e-9, "the value before the result taken back");
        assertTrue(row(engine).updateRequired(), "the new state is measured");
    }

    @Test
    void aThesisConnectionEnteringALoadedBandServesNothingOfTheIdlePortWhileItsMeasurementRuns() {
        final UpdateEngine engine = thesisMeasuredAt(10);
        assertNotNull(row(engine).estimate(), "the idle port measured");
        tickAndPoll(engine, mib(96), 10 * SECOND);
        assertNull(row(engine).estimate(), "the idle port's bound is no bound for a queueing port");
        assertTrue(row(engine).unavailableReason().contains("has not been measured in LOW/LOW LOADED 98 %"),
            row(engine).unavailableReason());
        assertTrue(row(engine).updateRequired());
        measure(engine, 12 * SECOND);
        final double loaded = row(engine).estimate().valueMillis();
        tickAndPoll(engine, mib(10), 20 * SECOND);
        tickAndPoll(engine, mib(97), 30 * SECOND);
        assertEquals(loaded, row(engine).estimate().valueMillis(), 1e-9, "the band's own last measurement, remembered");
    }

    @Test
    void aThesisConnectionWhoseCpuChangesWithinABandKeepsThePreviousValueLabelled() {
        final UpdateEngine engine = thesisMeasuredAt(96);
        final double value = row(engine).estimate().valueMillis();
        tickAndPoll(engine, new MibReading((short) 80, (short) 10, (short) 97), 10 * SECOND);
        assertEquals(value, row(engine).estimate().valueMillis(), 1e-9);
        assertEquals(org.latencyserver.orb.EstimateSource.PREVIOUS_STATE, row(engine).served().source());
    }

    @Test
    void aThesisConnectionWhosePortWentUnknownAndCameBackLoadedDoesNotServeTheIdlePortsValue() {
        final UpdateEngine engine = thesisMeasuredAt(10);
        tickAndPoll(engine, mib(-1), 10 * SECOND);
        assertNotNull(row(engine).estimate(), "while the port is unknown the last value stays, stale");
        poll(engine, mib(100), 12 * SECOND);
        assertNull(row(engine).estimate(), "what the port was meanwhile is not known: the idle port's value is not served");
        assertTrue(row(engine).updateRequired());
    }

    @Test
    void aMeasuredConnectionWaitingInALoadedBandIsNotServedTheIdlePortsCellWithAModelAdded() throws Exception {
        final org.latencyserver.core.profile.Profile measured = org.latencyserver.core.profile.ProfileJson.read(
            java.nio.file.Path.of("../profiles/measured-loopback-jacorb.json"));
        final ConnectionSpec spec = new ConnectionSpec((short) 3, "ws1", (short) 1, new WorkstationType("LOCAL-2CORE", 5), "ws2",
            (short) 2, new WorkstationType("LOCAL-2CORE", 5), "port-a", 256, 3, 0, measured.name(), CalibrationMode.ADAPTIVE, 0.0);
        final UpdateEngine engine = new UpdateEngine(new ConnectionTable(List.of(ConnectionRow.initial(spec, 0))),
            Map.of(measured.name(), measured), new EngineSettings(CpuThresholds.DEFAULT, 1.0, 1000, 30 * SECOND, 0, 2, 20, 20_000,
                SECOND, PortBands.of(List.of(95, 98)), SETTLE, MeasurementPacing.NONE, 1), tickets::incrementAndGet, () -> 42L);
        engine.applyPolledMib((short) 3, mib(10), 0);
        assertEquals(org.latencyserver.orb.EstimateSource.PROFILE_FALLBACK, engine.table().row((short) 3).served().source(),
            "an idle port: the profile's CPU cell stands in");
        engine.applyPolledMib((short) 3, mib(95), SECOND);
        final ConnectionRow loaded = engine.table().row((short) 3);
        assertNull(loaded.estimate(), "a loaded band: no cell of its own, so nothing stands in");
        assertTrue(loaded.unavailableReason().contains("does not cover LOADED 95 %"), loaded.unavailableReason());
    }
}
