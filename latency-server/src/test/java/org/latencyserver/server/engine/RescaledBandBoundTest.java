package org.latencyserver.server.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
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
 * One window of a queue's burst drives a loaded port's adaptive level to the top of the band's probes. The level is
 * floored one clean block below 100 % (anti-windup), so it comes back below the top after a few clean windows by itself,
 * and by the time the burst is no longer among the newest {@code RatioScores.CAPACITY} ratio scores, the bound read at
 * the level is the band's 96th percentile again, with nothing rescaled. With no burst the level decides throughout.
 */
class RescaledBandBoundTest {

    private static final long SECOND = 1_000_000_000L;
    private static final long MS = 1_000_000L;
    private static final short QOS2 = 2;

    private final AtomicLong tickets = new AtomicLong(1000);
    private final AtomicLong epochMillis = new AtomicLong(1_000_000);

    private UpdateEngine engine() {
        final ConnectionSpec bound = new ConnectionSpec(QOS2, "ws1", (short) 1, WorkstationType.TAC_4, "ws2", (short) 2,
            WorkstationType.TAC_4, "port-a", 256, 2, 96, "not-loaded", CalibrationMode.ADAPTIVE, 10.0);
        return new UpdateEngine(new ConnectionTable(List.of(ConnectionRow.initial(bound, 0))), Map.of(),
            new EngineSettings(CpuThresholds.DEFAULT, 1.0, 1000, 30 * SECOND, 0, 2, 20, 20_000, 0, PortBands.of(List.of(95, 98)),
                3 * SECOND, MeasurementPacing.NONE, 1), tickets::incrementAndGet, epochMillis::get);
    }

    /** 18 round trips in (10, 11] ms, 2 in (14, 15] ms: the band's usual queue. */
    private static LatencyHistogram usual() {
        final long[] counts = new long[15];
        counts[10] = 18;
        counts[14] = 2;
        return LatencyHistogram.uniform(MS, counts, 0);
    }

    /** All 20 round trips in (29, 30] ms: a burst of cross-traffic. */
    private static LatencyHistogram burst() {
        final long[] counts = new long[30];
        counts[29] = 20;
        return LatencyHistogram.uniform(MS, counts, 0);
    }

    private long probe(final UpdateEngine engine, final LatencyHistogram window, final double meanMillis, final int windows,
                       final long fromNanos) {
        long now = fromNanos;
        for (int i = 0; i < windows; i++) {
            now += 2 * SECOND;
            epochMillis.addAndGet(2_000);
            assertTrue(engine.submitProbe(QOS2, "ws1", window, meanMillis, 2_000, ProbeShapes.CLASSIC, now).accepted());
        }
        return now;
    }

    @Test
    void afterABurstTheLevelLeavesTheTopWithinThreeCleanWindowsAndServesTheBandsNinetySixthPercentileAgain() {
        final UpdateEngine engine = engine();
        engine.applyPolledMib(QOS2, new MibReading((short) 10, (short) 10, (short) 100), 0);
        final double usualMean = (18 * 10.5 + 2 * 14.5) / 20;
        long now = probe(engine, usual(), usualMean, 6, 0);
        assertEquals(EstimateSource.BAND_PROBES, engine.table().row(QOS2).served().source());
        assertEquals(15.0, engine.table().row(QOS2).estimate().valueMillis(), 1e-9, "the band's 96 % bound");

        now = probe(engine, burst(), 29.5, 1, now);
        assertEquals(30.0, engine.table().row(QOS2).estimate().valueMillis(), 1e-9, "the level went to 100 %: the top");
        assertEquals(100.0, engine.table().row(QOS2).currentKnowledge().level().servedPercent(), 1e-9);

        // Each clean window of 20 adds γ · 20 · α_target = 0.004 from the floor, −0.01: above 0 (below the top) at the
        // third. Without the floor, the burst's −0.096 would have kept the level at the top for five more windows.
        now = probe(engine, usual(), usualMean, 3, now);
        assertTrue(engine.table().row(QOS2).currentKnowledge().level().servedPercent() < 100.0,
            "the state's level left the top: " + engine.table().row(QOS2).currentKnowledge().level().servedPercent());

        now = probe(engine, usual(), usualMean, RatioScoresWindows.AFTER_BURST - 3, now);
        final ConnectionRow row = engine.table().row(QOS2);
        assertEquals(EstimateSource.BAND_PROBES, row.served().source());
        assertEquals(15.0, row.estimate().valueMillis(), 1e-9, "the band's 96th percentile, read at the level");
        assertFalse(row.served().correction().contains("rescaled"), row.served().correction());
    }

    @Test
    void withoutABurstTheLevelDecidesAndNothingIsRescaled() {
        // One round trip in each of (10, 11] … (29, 30] ms: the level's bound moves by a bin, never by a factor 1.3.
        final long[] counts = new long[30];
        java.util.Arrays.fill(counts, 10, 30, 1);
        final LatencyHistogram even = LatencyHistogram.uniform(MS, counts, 0);
        final UpdateEngine engine = engine();
        engine.applyPolledMib(QOS2, new MibReading((short) 10, (short) 10, (short) 100), 0);
        long now = 0;
        for (int i = 0; i < 40; i++) {
            now = probe(engine, even, 20.0, 1, now);
            final ConnectionRow row = engine.table().row(QOS2);
            if (row.estimate() != null) {
                assertFalse(row.served().correction().contains("rescaled"), row.served().correction());
                assertTrue(row.estimate().valueMillis() >= 27.0, "about the band's 96th percentile: " + row.estimate().valueMillis());
            }
        }
        assertEquals(EstimateSource.BAND_PROBES, engine.table().row(QOS2).served().source());
    }

    /** Windows of 20 round trips after which the burst's 20 scores have left the newest 400. */
    private static final class RatioScoresWindows {
        static final int AFTER_BURST = org.latencyserver.core.calibration.RatioScores.CAPACITY / 20 + 1;
    }
}
