package org.latencyserver.server.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.latencyserver.core.estimate.Measurement;
import org.latencyserver.core.histogram.LatencyHistogram;
import org.latencyserver.core.profile.Profile;
import org.latencyserver.core.profile.ProfileJson;
import org.latencyserver.core.state.CpuThresholds;
import org.latencyserver.core.state.WorkstationType;
import org.latencyserver.orb.EstimateSource;
import org.latencyserver.server.table.CalibrationMode;
import org.latencyserver.server.table.ConnectionRow;
import org.latencyserver.server.table.ConnectionSpec;
import org.latencyserver.server.table.ConnectionTable;
import org.latencyserver.server.table.MibReading;
import org.latencyserver.server.table.ServedEstimate;
import org.latencyserver.testkit.RoundTrips;

/**
 * What {@code calibration: adaptive} serves: dwell before measuring, memory per load
 * state, a profile for a state never measured, probes that correct the served value and raise drift
 * alarms — and that {@code calibration: thesis} keeps the thesis's semantics.
 */
class AdaptiveServingTest {

    private static final long SECOND = 1_000_000_000L;
    private static final long MS = 1_000_000L;
    private static final long DWELL = 500 * MS;

    private final AtomicLong tickets = new AtomicLong();
    private final AtomicLong clockMillis = new AtomicLong(1_000_000);
    private UpdateEngine engine;

    @BeforeEach
    void setUp() throws Exception {
        final Profile measured = ProfileJson.read(Path.of("../profiles/measured-loopback-jacorb.json"));
        final List<ConnectionRow> rows = List.of(
            ConnectionRow.initial(spec(3, 3, 0, null, CalibrationMode.ADAPTIVE), 0),
            ConnectionRow.initial(spec(4, 4, 96, measured.name(), CalibrationMode.ADAPTIVE), 0),
            ConnectionRow.initial(spec(5, 4, 96, null, CalibrationMode.THESIS), 0),
            ConnectionRow.initial(spec(6, 4, 96, null, CalibrationMode.ADAPTIVE), 0));
        engine = new UpdateEngine(new ConnectionTable(rows), Map.of(measured.name(), measured),
            new EngineSettings(CpuThresholds.DEFAULT, 1.0, 1000, 30 * SECOND, 0, 10, 20, 1_000_000, DWELL),
            tickets::incrementAndGet, clockMillis::get);
    }

    private static ConnectionSpec spec(final int indexRef, final int qos, final double bound, final String profile,
                                       final CalibrationMode mode) {
        return new ConnectionSpec((short) indexRef, "lab1", (short) 5, new WorkstationType("LOCAL-2CORE", 5), "lab2",
            (short) 6, new WorkstationType("LOCAL-2CORE", 5), null, 256, qos, bound, profile, mode, 4.0);
    }

    private ConnectionRow row(final int indexRef) {
        return engine.table().row((short) indexRef);
    }

    private static MibReading mib(final int client, final int peer) {
        return new MibReading((short) client, (short) peer, (short) 10);
    }

    /** Round trips spread evenly over [lowMicros, highMicros], recorded as an agent does. */
    private static LatencyHistogram roundTrips(final int count, final long lowMicros, final long highMicros) {
        return LatencyHistogram.fromHdr(RoundTrips.evenlySpread(count, lowMicros, highMicros));
    }

    private static Measurement measurement(final LatencyHistogram histogram) {
        final double mean = histogram.meanNanosFromBinMidpoints() / 1e6;
        return new Measurement(histogram, histogram.totalCount(), mean, mean / 4, histogram.lastEdgeNanos() / 1e6);
    }

    private void measure(final int indexRef, final long lowMicros, final long highMicros, final long nowNanos) {
        assertNotNull(row(indexRef).pending(), "a request is open for " + indexRef);
        assertTrue(engine.submitMeasurement((short) indexRef, row(indexRef).pending().ticket(),
            measurement(roundTrips(1000, lowMicros, highMicros)), "test", nowNanos).accepted());
    }

    /**
     * The connection enters LOW/LOW at time 0, holds it for the dwell, and its request is answered
     * with round trips of 100..300 µs 1 ms later.
     */
    private void measuredInLowLowAfterTheDwell(final int indexRef) {
        engine.applyMib((short) indexRef, mib(10, 10), 0);
        engine.tick(DWELL);
        measure(indexRef, 100, 300, DWELL + MS);
    }

    @Test
    void aNewStateIsMeasuredOnlyOnceItHasHeldForTheDwell() {
        engine.applyMib((short) 3, mib(10, 10), 0);
        assertNull(row(3).pending(), "not at once");
        assertTrue(row(3).updateRequired(), "update_required_flag is 1 meanwhile");
        engine.tick(DWELL - MS);
        assertNull(row(3).pending());
        engine.tick(DWELL);
        assertNotNull(row(3).pending());
        assertTrue(row(3).pending().reason().startsWith("load state changed to LOW/LOW"), row(3).pending().reason());
    }

    @Test
    void aTransientStateShorterThanTheDwellSpendsNoMeasurement() {
        measuredInLowLowAfterTheDwell(3);
        engine.applyMib((short) 3, mib(80, 10), 10 * SECOND); // one poll of a mixed state...
        engine.applyMib((short) 3, mib(80, 80), 10 * SECOND + 100 * MS); // ...on the way to HIGH/HIGH
        engine.tick(10 * SECOND + 100 * MS + DWELL - MS);
        assertNull(row(3).pending(), "HIGH/LOW never held for the dwell");
        engine.tick(10 * SECOND + 100 * MS + DWELL);
        assertTrue(row(3).pending().reason().contains("HIGH/HIGH"), row(3).pending().reason());
        assertEquals(1, tickets.get() - 1, "one measurement for HIGH/HIGH, none for HIGH/LOW");
    }

    @Test
    void aReturnToAMeasuredStateServesItsLastMeasurementAtOnceLabelledWithItsAge() {
        measuredInLowLowAfterTheDwell(3);
        final double lowLow = row(3).estimate().valueMillis();
        final long measuredAt = clockMillis.get();
        engine.applyMib((short) 3, mib(80, 80), 10 * SECOND);
        engine.tick(10 * SECOND + DWELL);
        measure(3, 900, 1100, 10 * SECOND + DWELL + MS);
        clockMillis.addAndGet(60_000);
        engine.applyMib((short) 3, mib(10, 10), 20 * SECOND);
        final ConnectionRow back = row(3);
        assertEquals(lowLow, back.estimate().valueMillis(), 1e-9, "LOW/LOW's own value, not HIGH/HIGH's");
        assertEquals(EstimateSource.REMEMBERED, back.served().source());
        assertEquals(measuredAt, back.served().dataEpochMillis());
        assertTrue(back.updateRequired(), "a fresh measurement is still asked for");
    }

    @Test
    void aStateNeverMeasuredFallsBackToTheProfileLabelledAndWithoutAProfileSaysWhy() {
        engine.applyMib((short) 4, mib(10, 10), 0);
        assertEquals(EstimateSource.PROFILE_FALLBACK, row(4).served().source());
        assertEquals(4, row(4).estimate().qos(), "served at the connection's QoS level");
        assertTrue(row(4).estimate().basis().startsWith("profile fallback (LOW/LOW NORMAL never measured)"), row(4).estimate().basis());
        engine.applyMib((short) 6, mib(10, 10), 0);
        assertNull(row(6).estimate());
        assertTrue(row(6).unavailableReason().contains("has not been measured in LOW/LOW"), row(6).unavailableReason());
    }

    @Test
    void probeMissesRaiseTheServedBoundWhileTheThesisValueStaysAvailable() {
        measuredInLowLowAfterTheDwell(6);
        final double thesis = row(6).estimate().valueMillis();
        assertEquals("", row(6).served().correction(), "nothing learned yet");
        // The path got slower: every window's round trips spread up to 400 µs, above the 292 µs bound.
        long now = 10 * SECOND;
        for (int w = 0; w < 30; w++) {
            now += 2 * SECOND;
            assertTrue(engine.submitProbe((short) 6, "lab1", roundTrips(8, 150, 400), 0.27, 2000, ProbeShapes.CLASSIC, now).accepted());
        }
        final ConnectionRow corrected = row(6);
        assertTrue(corrected.estimate().valueMillis() > thesis, corrected.estimate().valueMillis() + " > " + thesis);
        assertEquals(thesis, corrected.served().thesis().valueMillis(), 1e-12);
        assertTrue(corrected.served().correction().startsWith("adaptive conformal"), corrected.served().correction());
        assertTrue(corrected.currentKnowledge().coverage().coverage() < 0.96);
    }

    @Test
    void aThesisConnectionServesTheThesisValueWhateverTheProbesSay() {
        engine.applyMib((short) 5, mib(10, 10), 0);
        assertNotNull(row(5).pending(), "thesis semantics: the state change opens a measurement at once");
        measure(5, 100, 300, MS);
        final double thesis = row(5).estimate().valueMillis();
        long now = 10 * SECOND;
        for (int w = 0; w < 30; w++) {
            now += 2 * SECOND;
            engine.submitProbe((short) 5, "lab1", roundTrips(8, 150, 400), 0.27, 2000, ProbeShapes.CLASSIC, now);
        }
        assertEquals(thesis, row(5).estimate().valueMillis(), 0.0);
        assertEquals("", row(5).served().correction());
        assertEquals(30 * 8, row(5).currentKnowledge().coverage().roundTrips(), "calibration is still kept");
        engine.applyMib((short) 5, mib(80, 80), now + SECOND);
        assertEquals(EstimateSource.PREVIOUS_STATE, row(5).served().source(), "the old state's value, labelled");
        assertEquals(thesis, row(5).estimate().valueMillis(), 0.0);
    }

    @Test
    void aProbeStreamThatStopsHoldingOpensAMeasurementForDrift() {
        measuredInLowLowAfterTheDwell(6);
        final long ticketsBefore = tickets.get();
        long now = 10 * SECOND;
        for (int w = 0; w < 40 && row(6).pending() == null; w++) {
            now += 2 * SECOND;
            engine.submitProbe((short) 6, "lab1", roundTrips(8, 500, 900), 0.7, 2000, ProbeShapes.CLASSIC, now);
        }
        assertNotNull(row(6).pending(), "drift opened a measurement");
        assertTrue(row(6).pending().reason().startsWith("drift:"), row(6).pending().reason());
        assertEquals(ticketsBefore + 1, tickets.get());
        assertEquals(1, row(6).currentKnowledge().driftAlarms());
    }

    @Test
    void probesFromAnotherNodeOrOfAConnectionWithProbingOffAreRefused() {
        engine.applyMib((short) 6, mib(10, 10), 0);
        final SubmitOutcome forged = engine.submitProbe((short) 6, "lab2", roundTrips(8, 100, 200), 0.15, 2000, ProbeShapes.CLASSIC, SECOND);
        assertFalse(forged.accepted());
        assertTrue(forged.reason().contains("only the client's own agent"), forged.reason());
        assertEquals(Refusal.Kind.UNKNOWN_CONNECTION,
            engine.submitProbe((short) 99, "lab1", roundTrips(8, 100, 200), 0.15, 2000, ProbeShapes.CLASSIC, SECOND).kind());
    }

    @Test
    void aProbeWindowThatBeganBeforeTheStateChangeIsNotCounted() {
        measuredInLowLowAfterTheDwell(6);
        engine.submitProbe((short) 6, "lab1", roundTrips(8, 100, 200), 0.15, 2000, ProbeShapes.CLASSIC, DWELL + SECOND);
        assertEquals(0, row(6).currentKnowledge().coverage().roundTrips(), "the window straddled the change");
    }
}
