package org.latencyserver.server.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
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
import org.latencyserver.server.table.CalibrationMode;
import org.latencyserver.server.table.ConnectionRow;
import org.latencyserver.server.table.ConnectionSpec;
import org.latencyserver.server.table.ConnectionTable;
import org.latencyserver.server.table.MibReading;

/**
 * The plausibility limits on results and probe reports: an absolute ceiling, and a
 * factor either way of what the connection is known to take in its load state. The reasons are
 * asserted word for word: they are what the bad-input catalogue matches.
 */
class ResultLimitsTest {

    private static final long SECOND = 1_000_000_000L;
    private static final long MS = 1_000_000L;

    private final AtomicLong tickets = new AtomicLong(1000);
    private UpdateEngine engine;

    @BeforeEach
    void setUp() throws Exception {
        engine = engine(InputLimits.DEFAULT);
    }

    /**
     * Connection 3: QoS 3 (thesis semantics) without a profile; 4: QoS 4 at 96 % without one; 7: QoS 3
     * with the thesis TAC-4 profile as its fallback; 8: QoS 1 on that profile, probed.
     */
    private UpdateEngine engine(final InputLimits limits) throws Exception {
        final Profile tac4 = ProfileJson.read(Path.of("../profiles/thesis-tac4-corba.json"));
        final List<ConnectionRow> rows = List.of(
            ConnectionRow.initial(spec(3, 3, 0, null, CalibrationMode.THESIS, 0), 0),
            ConnectionRow.initial(spec(4, 4, 96, null, CalibrationMode.THESIS, 0), 0),
            ConnectionRow.initial(spec(7, 3, 0, tac4.name(), CalibrationMode.ADAPTIVE, 0), 0),
            ConnectionRow.initial(spec(8, 1, 0, tac4.name(), CalibrationMode.ADAPTIVE, 10), 0));
        return new UpdateEngine(new ConnectionTable(rows), Map.of(tac4.name(), tac4),
            new EngineSettings(CpuThresholds.DEFAULT, 1.0, 1000, 30 * SECOND, 5 * SECOND, 10, 20, 1_000_000, 0),
            limits, tickets::incrementAndGet, () -> 42L);
    }

    private static ConnectionSpec spec(final int indexRef, final int qos, final double bound, final String profile,
                                       final CalibrationMode mode, final double probeRate) {
        return new ConnectionSpec((short) indexRef, "ws1", (short) 1, WorkstationType.TAC_4, "ws2", (short) 2,
            WorkstationType.TAC_4, "port-a", 256, qos, bound, profile, mode, probeRate);
    }

    private ConnectionRow row(final int indexRef) {
        return engine.table().row((short) indexRef);
    }

    private static MibReading mib(final int client, final int peer) {
        return new MibReading((short) client, (short) peer, (short) 10);
    }

    /** 1000 round trips in 1 ms bins, half in the first; the stated mean is taken as given. */
    private static Measurement measurement(final double meanMillis) {
        return new Measurement(LatencyHistogram.uniform(MS, new long[] {500, 400, 100}, 0), 1000, meanMillis, 0.3,
            Math.max(2.9, 2 * meanMillis));
    }

    private SubmitOutcome submit(final int indexRef, final double meanMillis, final long nowNanos) {
        return engine.submitMeasurement((short) indexRef, row(indexRef).pending().ticket(), measurement(meanMillis), "test", nowNanos);
    }

    /** Connection 3 measured at 48 ms in LOW/LOW, then moved to HIGH/LOW and back, so a request is open again in LOW/LOW. */
    private void measuredInLowLowAndBack() {
        engine.applyMib((short) 3, mib(10, 10), 0);
        assertTrue(submit(3, 48, SECOND).accepted());
        engine.applyMib((short) 3, mib(80, 10), 10 * SECOND);
        engine.applyMib((short) 3, mib(10, 10), 20 * SECOND);
        assertNotNull(row(3).pending(), "a request is open in LOW/LOW again");
    }

    @Test
    void aMeanAboveTheCeilingIsRefusedAndChangesNothing() {
        engine.applyMib((short) 3, mib(10, 10), 0);
        final ConnectionRow before = row(3);
        final SubmitOutcome outcome = submit(3, 1.5e9, SECOND);
        assertEquals(Refusal.Kind.IMPLAUSIBLE, outcome.kind());
        assertEquals("mean 1500000000 ms is above the limit of 60000 ms (limits.max_result_millis)", outcome.reason());
        assertSame(before, row(3), "nothing served, nothing learned; the request stays open for a plausible result");
        assertTrue(submit(3, 48, 2 * SECOND).accepted(), "the same ticket still takes a plausible result");
    }

    @Test
    void aThesisUpdateResponseAboveTheCeilingIsRefused() {
        engine.applyMib((short) 3, mib(10, 10), 0);
        final SubmitOutcome outcome = engine.submitThesisResponse((short) 3, 1e30f, 0f, 1e30f, 1f, (short) 1, SECOND);
        assertEquals(Refusal.Kind.IMPLAUSIBLE, outcome.kind());
        assertEquals("mean 1.00e+30 ms is above the limit of 60000 ms (limits.max_result_millis)", outcome.reason());
        assertNull(row(3).estimate(), "nothing is served");
    }

    @Test
    void aThesisIntervalReachingAboveTheCeilingIsRefused() {
        engine.applyMib((short) 3, mib(10, 10), 0);
        final SubmitOutcome outcome = engine.submitThesisResponse((short) 3, 48f, 0f, 1e9f, 40f, (short) 1, SECOND);
        assertEquals("interval upper end 1000000000 ms is above the limit of 60000 ms (limits.max_result_millis)",
            outcome.reason());
    }

    @Test
    void aThesisBoundIsComparedWithTheLastMeasuredBoundOfTheState() {
        engine.applyMib((short) 4, mib(10, 10), 0);
        assertTrue(submit(4, 1.1, SECOND).accepted(), "96 % bound 3 ms (the third 1 ms bin)");
        engine.applyMib((short) 4, mib(80, 10), 10 * SECOND);
        engine.applyMib((short) 4, mib(10, 10), 20 * SECOND);
        final SubmitOutcome outcome = engine.submitThesisResponse((short) 4, 0f, 0.001f, 95f, 93f, (short) 1, 21 * SECOND);
        assertEquals("96 % bound 0.001 ms is 1/3000 of the connection's last measured 96 % bound 3 ms in LOW/LOW NORMAL; the"
            + " limit is 1/1000 (limits.plausibility_factor)", outcome.reason());
        assertTrue(engine.submitThesisResponse((short) 4, 0f, 2.5f, 95f, 93f, (short) 1, 22 * SECOND).accepted());
    }

    @Test
    void aMeanFarAboveTheLastMeasurementInTheStateIsRefusedNamingBoth() {
        measuredInLowLowAndBack();
        final SubmitOutcome outcome = submit(3, 50_000, 21 * SECOND);
        assertEquals(Refusal.Kind.IMPLAUSIBLE, outcome.kind());
        assertEquals("mean 50000 ms is 1040 × the connection's last measured mean 48 ms in LOW/LOW NORMAL; the limit is"
            + " 1000 × (limits.plausibility_factor)", outcome.reason());
    }

    @Test
    void aMeanFarBelowTheLastMeasurementInTheStateIsRefusedToo() {
        measuredInLowLowAndBack();
        final SubmitOutcome outcome = submit(3, 0.024, 21 * SECOND);
        assertEquals("mean 0.024 ms is 1/2000 of the connection's last measured mean 48 ms in LOW/LOW NORMAL; the limit is"
            + " 1/1000 (limits.plausibility_factor)", outcome.reason());
    }

    @Test
    void aGenuineLoadChangeIsNeverRefused() {
        // A busy host is 10-50 times slower than an idle one in the same coarse CPU band.
        measuredInLowLowAndBack();
        assertTrue(submit(3, 48 * 50, 21 * SECOND).accepted());
        engine.applyMib((short) 3, mib(80, 10), 40 * SECOND);
        engine.applyMib((short) 3, mib(10, 10), 50 * SECOND);
        assertTrue(submit(3, 48 * 50 / 50.0 / 10, 51 * SECOND).accepted(), "50 times faster again, and then some");
    }

    @Test
    void withoutHistoryTheProfileIsTheReference() {
        engine.applyMib((short) 7, mib(10, 80), 0);
        engine.tick(0); // adaptive: the request opens after the dwell (0 here)
        final SubmitOutcome outcome = submit(7, 5000, SECOND);
        assertEquals("mean 5000 ms is 2100 × profile thesis-tac4-corba's mean 2.386 ms for LOW/HIGH NORMAL at 256 B; the limit"
            + " is 1000 × (limits.plausibility_factor)", outcome.reason());
        assertTrue(submit(7, 2.386 * 40, 2 * SECOND).accepted(), "another machine and a busy host: within the factor");
    }

    @Test
    void withNeitherHistoryNorProfileOnlyTheCeilingApplies() {
        engine.applyMib((short) 3, mib(10, 10), 0);
        assertTrue(submit(3, 59_999, SECOND).accepted());
    }

    @Test
    void aQos4MeasurementIsCheckedOnItsBoundToo() {
        engine.applyMib((short) 4, mib(10, 10), 0);
        // The mean is fine; the 96 % bound lies in a bin ending at 120 s.
        final Measurement wide = new Measurement(LatencyHistogram.of(new long[] {MS, 120_000 * MS}, new long[] {900, 100}, 0), 1000,
            10, 1, 120_000);
        final SubmitOutcome outcome = engine.submitMeasurement((short) 4, row(4).pending().ticket(), wide, "test", SECOND);
        assertEquals("96 % bound 120000 ms is above the limit of 60000 ms (limits.max_result_millis)", outcome.reason());
    }

    @Test
    void theFactorAndTheCeilingAreConfigurable() throws Exception {
        engine = engine(new InputLimits(1000, 100, 20_000, 1 << 20));
        engine.applyMib((short) 7, mib(10, 80), 0);
        engine.tick(0); // adaptive: the request opens after the dwell (0 here)
        assertEquals("mean 2000 ms is above the limit of 1000 ms (limits.max_result_millis)", submit(7, 2000, SECOND).reason());
        assertEquals("mean 500 ms is 210 × profile thesis-tac4-corba's mean 2.386 ms for LOW/HIGH NORMAL at 256 B; the limit"
            + " is 100 × (limits.plausibility_factor)", submit(7, 500, SECOND).reason());
        assertEquals(InputLimits.DEFAULT_PLAUSIBILITY_FACTOR, InputLimits.DEFAULT.plausibilityFactor());
    }

    @Test
    void aProbeFarFromTheProfileIsRefusedAndTeachesNothing() {
        engine.applyMib((short) 8, mib(10, 80), 0);
        final LatencyHistogram window = LatencyHistogram.uniform(MS, new long[] {20}, 0);
        final SubmitOutcome far = engine.submitProbe((short) 8, "ws1", window, 5000, 2000, ProbeShapes.CLASSIC, 10 * SECOND);
        assertEquals(Refusal.Kind.IMPLAUSIBLE, far.kind());
        assertEquals("mean 5000 ms is 2100 × profile thesis-tac4-corba's mean 2.386 ms for LOW/HIGH NORMAL at 256 B; the limit"
            + " is 1000 × (limits.plausibility_factor)", far.reason());
        assertEquals(0, engine.probeRoundTrips());
        assertEquals("mean 70000 ms is above the limit of 60000 ms (limits.max_result_millis)",
            engine.submitProbe((short) 8, "ws1", window, 70_000, 2000, ProbeShapes.CLASSIC, 10 * SECOND).reason());
        assertTrue(engine.submitProbe((short) 8, "ws1", window, 0.9, 2000, ProbeShapes.CLASSIC, 10 * SECOND).accepted());
        assertEquals(20, engine.probeRoundTrips());
    }

    @Test
    void limitsOutOfRangeAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new InputLimits(0, 1000, 20_000, 1 << 20));
        assertThrows(IllegalArgumentException.class, () -> new InputLimits(60_000, 1, 20_000, 1 << 20));
        assertThrows(IllegalArgumentException.class, () -> new InputLimits(60_000, 1000, 0, 1 << 20));
        final Refusal tooMany = InputLimits.DEFAULT.tooMany("histogram", 20_001, "bins").orElseThrow();
        assertEquals("histogram has 20001 bins, more than the limit of 20000 (limits.max_histogram_bins)", tooMany.message());
        assertEquals(Refusal.Kind.TOO_LARGE, tooMany.kind());
        assertEquals("too_large", tooMany.kind().metricLabel());
        assertTrue(InputLimits.DEFAULT.tooMany("histogram", 20_000, "bins").isEmpty());
    }
}
