package org.latencyserver.server.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.latencyserver.core.calibration.BandProbes;
import org.latencyserver.core.estimate.EstimateKind;
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
import org.latencyserver.server.table.ServedEstimate;

/**
 * On a loaded port a connection's own probes of the port state are served once they hold enough round trips: a QoS
 * 1/2 connection's instead of a profile that lacks (or misjudges) the band, a QoS 3/4 connection's while its
 * measurement of the state is awaited; CPU states are pooled within the band, windows a late-seen change may have
 * spoiled are dropped, and old windows age out.
 */
class BandProbesServingTest {

    private static final long SECOND = 1_000_000_000L;
    private static final long MS = 1_000_000L;
    private static final long SETTLE = 3 * SECOND;
    private static final short QOS2 = 2;
    private static final short QOS4 = 4;

    private final AtomicLong tickets = new AtomicLong(1000);
    private final AtomicLong epochMillis = new AtomicLong(1_000_000);

    private UpdateEngine engine() {
        final ConnectionSpec bound = new ConnectionSpec(QOS2, "ws1", (short) 1, WorkstationType.TAC_4, "ws2", (short) 2,
            WorkstationType.TAC_4, "port-a", 256, 2, 96, "not-loaded", CalibrationMode.ADAPTIVE, 10.0);
        final ConnectionSpec measured = new ConnectionSpec(QOS4, "ws1", (short) 1, WorkstationType.TAC_4, "ws2", (short) 2,
            WorkstationType.TAC_4, "port-a", 1024, 4, 96, null, CalibrationMode.ADAPTIVE, 10.0);
        return new UpdateEngine(new ConnectionTable(List.of(ConnectionRow.initial(bound, 0), ConnectionRow.initial(measured, 0))),
            Map.of(), new EngineSettings(CpuThresholds.DEFAULT, 1.0, 1000, 30 * SECOND, 0, 2, 20, 20_000, 0,
                PortBands.of(List.of(95, 98)), SETTLE, MeasurementPacing.NONE, 1), tickets::incrementAndGet, epochMillis::get);
    }

    private static MibReading mib(final int cpu, final int port) {
        return new MibReading((short) cpu, (short) cpu, (short) port);
    }

    /** A 2 s window of one probe train: 18 round trips in (10, 11] ms, 2 in (14, 15] ms. */
    private static LatencyHistogram window() {
        final long[] counts = new long[15];
        counts[10] = 18;
        counts[14] = 2;
        return LatencyHistogram.uniform(MS, counts, 0);
    }

    private static final double WINDOW_MEAN_MILLIS = (18 * 10.5 + 2 * 14.5) / 20;

    private static ConnectionRow row(final UpdateEngine engine, final short indexRef) {
        return engine.table().row(indexRef);
    }

    /** Probe windows 2 s apart from {@code fromNanos}, every connection; returns the time after the last. */
    private long probe(final UpdateEngine engine, final int windows, final long fromNanos) {
        long now = fromNanos;
        for (int i = 0; i < windows; i++) {
            now += 2 * SECOND;
            epochMillis.addAndGet(2_000);
            for (final short indexRef : new short[] {QOS2, QOS4}) {
                assertTrue(engine.submitProbe(indexRef, "ws1", window(), WINDOW_MEAN_MILLIS, 2_000, ProbeShapes.CLASSIC, now).accepted());
            }
        }
        return now;
    }

    @Test
    void aQos2ConnectionOnALoadedPortWithoutAPortCellServesTheBoundOfItsProbesOnceTheyHoldEnoughRoundTrips() {
        final UpdateEngine engine = engine();
        engine.applyPolledMib(QOS2, mib(10, 100), 0);
        assertNull(row(engine, QOS2).estimate(), "no profile, no probes yet: nothing");
        long now = probe(engine, 4, 0);
        assertNull(row(engine, QOS2).estimate(), "80 round trips are too few");
        now = probe(engine, 1, now);
        final ConnectionRow served = row(engine, QOS2);
        assertNotNull(served.estimate(), "100 round trips: served");
        assertEquals(EstimateSource.BAND_PROBES, served.served().source());
        assertEquals(EstimateKind.BOUND, served.estimate().kind());
        assertEquals(2, served.estimate().qos());
        assertEquals(15.0, served.estimate().valueMillis(), 1e-9, "96 % of 100: 90 at or below 11 ms, the rest at 15 ms");
        assertTrue(served.estimate().basis().contains("of ws1 -> ws2 via port-a, 256 B, in port LOADED 100"), served.estimate().basis());
        assertEquals(epochMillis.get(), served.served().dataEpochMillis(), "the newest window's time");
    }

    @Test
    void aQos4ConnectionAwaitingItsMeasurementInASaturatedPortServesItsProbesThenTheMeasurement() {
        final UpdateEngine engine = engine();
        engine.applyPolledMib(QOS4, mib(10, 101), 0);
        engine.tick(0);
        assertNotNull(row(engine, QOS4).pending(), "the saturated port is measured");
        assertNull(row(engine, QOS4).estimate());
        final long now = probe(engine, 5, 0);
        assertEquals(EstimateSource.BAND_PROBES, row(engine, QOS4).served().source());
        assertEquals(15.0, row(engine, QOS4).estimate().valueMillis(), 1e-9);
        assertNotNull(row(engine, QOS4).pending(), "the measurement is still awaited");

        final long[] counts = new long[30];
        counts[20] = 1000;
        final long ticket = row(engine, QOS4).pending().ticket();
        assertTrue(engine.submitMeasurement(QOS4, ticket, new Measurement(LatencyHistogram.uniform(MS, counts, 0), 1000, 20.5,
            0.3, 21.0), "test", now + SECOND).accepted());
        assertEquals(EstimateSource.MEASUREMENT, row(engine, QOS4).served().source());
        probe(engine, 1, now + SECOND);
        assertEquals(EstimateSource.MEASUREMENT, row(engine, QOS4).served().source(), "a measurement of the state is not replaced");
    }

    @Test
    void aCpuChangeWithinTheBandKeepsServingTheBandsProbes() {
        final UpdateEngine engine = engine();
        engine.applyPolledMib(QOS2, mib(10, 100), 0);
        final long now = probe(engine, 5, 0);
        engine.applyPolledMib(QOS2, mib(95, 100), now + SECOND);
        assertNotEquals(mib(10, 100), row(engine, QOS2).latest());
        assertEquals(EstimateSource.BAND_PROBES, row(engine, QOS2).served().source(), "the port's queue decides, whatever the CPUs");
        assertEquals(15.0, row(engine, QOS2).estimate().valueMillis(), 1e-9);
    }

    @Test
    void probesOfAnIdlePortAreNotServedAsABand() {
        final UpdateEngine engine = engine();
        engine.applyPolledMib(QOS4, mib(10, 20), 0);
        engine.tick(0);
        probe(engine, 10, 0);
        assertNull(row(engine, QOS4).estimate(), "an idle port's probes say nothing of a band");
        assertEquals(EstimateSource.NONE, row(engine, QOS4).served().source());
    }

    @Test
    void windowsWithinTheSettleWindowBeforeAPolledChangeOutOfTheBandAreDropped() {
        final UpdateEngine engine = engine();
        engine.applyPolledMib(QOS2, mib(10, 100), 0);
        final long now = probe(engine, 5, 0);
        // Counters lag the load: the last window (at `now`) may have run on an already idle port.
        engine.applyPolledMib(QOS2, mib(10, 20), now + SECOND);
        engine.applyPolledMib(QOS2, mib(10, 100), now + 20 * SECOND);
        assertNull(row(engine, QOS2).estimate(), "80 round trips kept: too few");
        probe(engine, 1, now + 20 * SECOND);
        assertEquals(EstimateSource.BAND_PROBES, row(engine, QOS2).served().source());
    }

    @Test
    void windowsOlderThanTheBandsAgeLimitAreNotServed() {
        final UpdateEngine engine = engine();
        engine.applyPolledMib(QOS2, mib(10, 100), 0);
        final long now = probe(engine, 5, 0);
        engine.applyPolledMib(QOS2, mib(10, 20), now + 10 * SECOND);
        epochMillis.addAndGet(BandProbes.MAX_AGE_MILLIS + 1_000);
        engine.applyPolledMib(QOS2, mib(10, 100), now + 400 * SECOND);
        assertNull(row(engine, QOS2).estimate(), "five-minute-old probes describe another queue");
    }
    @Test
    void aCpuChangeOnALoadedPortKeepsTheRequestOpenAndItsResultJoinsTheBandsProbesFiledUnderNeitherState() {
        final UpdateEngine engine = engine();
        engine.applyPolledMib(QOS4, mib(10, 100), 0);
        engine.tick(0);
        final long ticket = row(engine, QOS4).pending().ticket();
        engine.applyPolledMib(QOS4, mib(95, 100), 5 * SECOND);
        assertEquals(ticket, row(engine, QOS4).pending().ticket(), "the port state held: the request still measures it");

        final long[] counts = new long[30];
        counts[20] = 1000;
        assertTrue(engine.submitMeasurement(QOS4, ticket, new Measurement(LatencyHistogram.uniform(MS, counts, 0), 1000, 20.5,
            0.3, 21.0), "test", 8 * SECOND).accepted());
        final ConnectionRow after = row(engine, QOS4);
        assertEquals(1, engine.resultsPooledInBand());
        assertNull(after.pending());
        assertNull(after.currentKnowledge().lastMeasurement(), "HIGH/HIGH did not hold throughout: nothing filed under it");
        assertEquals(EstimateSource.BAND_PROBES, after.served().source());
        assertEquals(21.0, after.estimate().valueMillis(), 1e-9, "the 96 % bound of the band's round trips");
    }

    @Test
    void aPortChangeStillReplacesTheOpenRequest() {
        final UpdateEngine engine = engine();
        engine.applyPolledMib(QOS4, mib(10, 100), 0);
        engine.tick(0);
        final long ticket = row(engine, QOS4).pending().ticket();
        engine.applyPolledMib(QOS4, mib(10, 20), 5 * SECOND);
        assertNull(row(engine, QOS4).pending(), "an idle port is another measurement");
        engine.tick(10 * SECOND);
        assertNotEquals(ticket, row(engine, QOS4).pending().ticket());
    }
    @Test
    void aMeasurementOnALoadedPortServesTheOtherConnectionsOfItsPath() {
        final ConnectionSpec bound = new ConnectionSpec(QOS2, "ws1", (short) 1, WorkstationType.TAC_4, "ws2", (short) 2,
            WorkstationType.TAC_4, "port-a", 1024, 2, 96, "not-loaded", CalibrationMode.ADAPTIVE, 10.0);
        final ConnectionSpec measured = new ConnectionSpec(QOS4, "ws1", (short) 1, WorkstationType.TAC_4, "ws2", (short) 2,
            WorkstationType.TAC_4, "port-a", 1024, 4, 96, null, CalibrationMode.ADAPTIVE, 10.0);
        final UpdateEngine engine = new UpdateEngine(new ConnectionTable(List.of(ConnectionRow.initial(bound, 0),
            ConnectionRow.initial(measured, 0))), Map.of(), new EngineSettings(CpuThresholds.DEFAULT, 1.0, 1000, 30 * SECOND, 0, 2,
                20, 20_000, 0, PortBands.of(List.of(95, 98)), SETTLE, MeasurementPacing.NONE, 1), tickets::incrementAndGet,
            epochMillis::get);
        engine.applyPolledMib(QOS2, mib(10, 100), 0);
        engine.applyPolledMib(QOS4, mib(10, 100), 0);
        engine.tick(0);
        assertNull(row(engine, QOS2).estimate());
        final long[] counts = new long[30];
        counts[20] = 1000;
        assertTrue(engine.submitMeasurement(QOS4, row(engine, QOS4).pending().ticket(), new Measurement(
            LatencyHistogram.uniform(MS, counts, 0), 1000, 20.5, 0.3, 21.0), "test", 5 * SECOND).accepted());
        assertEquals(EstimateSource.MEASUREMENT, row(engine, QOS4).served().source(), "its own state's measurement");
        assertEquals(EstimateSource.BAND_PROBES, row(engine, QOS2).served().source(), "the same path's port state, for the QoS 2 one");
        assertEquals(21.0, row(engine, QOS2).estimate().valueMillis(), 1e-9);
    }
}
