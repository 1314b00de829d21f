package org.latencyserver.server.corba;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencyserver.core.calibration.NextBurstPrediction;
import org.latencyserver.core.calibration.NextBurstWidth;
import org.latencyserver.core.calibration.StateKnowledge;
import org.latencyserver.core.estimate.Measurement;
import org.latencyserver.core.histogram.LatencyHistogram;
import org.latencyserver.core.state.CpuThresholds;
import org.latencyserver.core.state.WorkstationType;
import org.latencyserver.idl.latency.Estimate;
import org.latencyserver.server.engine.EngineSettings;
import org.latencyserver.server.engine.UpdateEngine;
import org.latencyserver.server.persistence.StateStore;
import org.latencyserver.server.table.CalibrationMode;
import org.latencyserver.server.table.ConnectionRow;
import org.latencyserver.server.table.ConnectionSpec;
import org.latencyserver.server.table.ConnectionTable;
import org.latencyserver.server.table.MibReading;
import org.latencyserver.testkit.RoundTrips;

/**
 * An adaptive QoS 3 connection as a client reads it: its interval is a prediction interval for the mean of the
 * next burst of round trips, in ms, and says so in its method and notes; the thesis's confidence interval of the
 * mean stays among the alternatives, labelled; the width's calibration is in the state file and comes back, and
 * a state file written before it was kept still loads.
 */
class NextBurstIntervalServedTest {

    private static final long SECOND = 1_000_000_000L;
    private static final short INDEX = 3;

    @TempDir
    Path directory;

    private final AtomicLong tickets = new AtomicLong();

    private UpdateEngine engine() {
        final ConnectionSpec spec = new ConnectionSpec(INDEX, "lab1", (short) 5, new WorkstationType("LOCAL-2CORE", 5), "lab2",
            (short) 6, new WorkstationType("LOCAL-2CORE", 5), null, 256, 3, 0, null, CalibrationMode.ADAPTIVE, 4.0);
        return new UpdateEngine(new ConnectionTable(List.of(ConnectionRow.initial(spec, 0))), Map.of(),
            new EngineSettings(CpuThresholds.DEFAULT, 1.0, 1000, 30 * SECOND, 0, 2, 20, 100_000, 0), tickets::incrementAndGet,
            () -> 1_700_000_000_000L);
    }

    private static LatencyHistogram roundTrips(final int count, final long lowMicros, final long highMicros) {
        return LatencyHistogram.fromHdr(RoundTrips.evenlySpread(count, lowMicros, highMicros));
    }

    /** A measurement of 1000 round trips from 100 to 300 µs, with 20 batch means that wander as a busy machine's do. */
    private static void measure(final UpdateEngine engine, final long nowNanos) {
        final LatencyHistogram histogram = roundTrips(1000, 100, 300);
        final double mean = histogram.meanNanosFromBinMidpoints() / 1e6;
        final List<Double> batches = new ArrayList<>();
        for (int b = 0; b < 20; b++) {
            batches.add(mean * (b % 2 == 0 ? 0.9 : 1.1));
        }
        engine.tick(nowNanos);
        final ConnectionRow row = engine.table().row(INDEX);
        assertTrue(engine.submitMeasurement(INDEX, row.pending().ticket(),
            new Measurement(histogram, 1000, mean, mean / 4, 0.3, batches), "test", nowNanos).accepted());
    }

    private UpdateEngine measuredAndProbed() {
        final UpdateEngine engine = engine();
        engine.applyMib(INDEX, new MibReading((short) 10, (short) 10, (short) 10), 0);
        measure(engine, SECOND);
        for (int w = 0; w < 30; w++) {
            final double meanMillis = 0.2 * (w % 3 == 0 ? 1.3 : 0.9);
            engine.submitProbe(INDEX, "lab1", roundTrips(19, Math.round(meanMillis * 800), Math.round(meanMillis * 1200)),
                meanMillis, 2000, (10 + 2 * w) * SECOND);
        }
        return engine;
    }

    @Test
    void aQos3EstimateSaysItsIntervalIsAPredictionIntervalForTheNextBurstsMean() {
        final ConnectionRow row = measuredAndProbed().table().row(INDEX);
        final Estimate idl = IdlConversions.estimate(row, row.estimate(), 0);
        assertEquals("ms", idl.interval.unit);
        assertTrue(idl.interval.method.startsWith("prediction interval for the mean of the next burst of 50 round trips"),
            idl.interval.method);
        assertTrue(idl.interval.method.contains("calibrated on the last 30 windows"), idl.interval.method);
        assertTrue(idl.interval.lower < idl.value_ms && idl.value_ms < idl.interval.upper);
        assertTrue(Arrays.stream(idl.notes).anyMatch(note -> note.contains("prediction interval for the mean of the next burst"
            + " of 50 round trips") && note.contains("not a confidence interval of the mean")), Arrays.toString(idl.notes));
        assertTrue(idl.alternatives[0].method.contains(NextBurstPrediction.THESIS_LABEL), idl.alternatives[0].method);
        assertEquals("ms", idl.alternatives[0].unit);
        assertTrue(idl.alternatives[0].upper - idl.alternatives[0].lower < idl.interval.upper - idl.interval.lower,
            "a confidence interval of a thousand round trips' mean is narrower than a burst's prediction interval");
        assertTrue(idl.correction.contains("interval: prediction interval for the mean of the next burst of 50"),
            idl.correction);
    }

    @Test
    void theWidthsCalibrationIsSavedAndAFileWithoutItStillLoads() throws Exception {
        final UpdateEngine before = measuredAndProbed();
        final ConnectionRow saved = before.table().row(INDEX);
        final StateKnowledge savedKnowledge = saved.learning().byState().get(saved.load());
        assertNotEquals(NextBurstWidth.START, savedKnowledge.burstWidth());
        final Path file = directory.resolve("state.json");
        final StateStore store = new StateStore(file, before.table());
        store.write();
        store.close();

        final UpdateEngine after = engine();
        assertEquals(1, new StateStore(file, after.table()).restoreInto(after, 0));
        final ConnectionRow restored = after.table().row(INDEX);
        assertEquals(savedKnowledge.burstWidth(), restored.learning().byState().get(saved.load()).burstWidth());
        assertEquals(saved.estimate().interval(), restored.estimate().interval());

        final String text = Files.readString(file, StandardCharsets.UTF_8);
        assertTrue(text.contains("\"next_burst_width\""), "the file holds the width");
        final Path old = directory.resolve("old").resolve("state.json");
        Files.createDirectories(old.getParent());
        Files.writeString(old, text.replaceAll(",\\s*\"next_burst_width\"\\s*:\\s*\\{[^}]*\\}", ""), StandardCharsets.UTF_8);
        final UpdateEngine fromOld = engine();
        assertEquals(1, new StateStore(old, fromOld.table()).restoreInto(fromOld, 0));
        final ConnectionRow oldRow = fromOld.table().row(INDEX);
        assertEquals(NextBurstWidth.START, oldRow.learning().byState().get(saved.load()).burstWidth());
        assertEquals(savedKnowledge.meanCorrection(), oldRow.learning().byState().get(saved.load()).meanCorrection());
    }
}
