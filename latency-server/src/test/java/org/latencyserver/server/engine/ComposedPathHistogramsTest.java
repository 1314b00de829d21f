package org.latencyserver.server.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.latencyserver.core.estimate.DeadlineMiss;
import org.latencyserver.core.estimate.Estimate;
import org.latencyserver.core.estimate.PathProfiles;
import org.latencyserver.core.estimate.ProfileHistograms;
import org.latencyserver.core.path.BoundMethod;
import org.latencyserver.core.profile.Profile;
import org.latencyserver.core.state.CpuThresholds;
import org.latencyserver.core.state.PortBands;
import org.latencyserver.core.state.WorkstationType;
import org.latencyserver.server.table.CalibrationMode;
import org.latencyserver.server.table.ConnectionRow;
import org.latencyserver.server.table.ConnectionSpec;
import org.latencyserver.server.table.ConnectionTable;
import org.latencyserver.server.table.MibReading;
import org.latencyserver.server.table.PortPercents;

/**
 * A composed path's convolution is computed once per profile, combined state and size and kept in an immutable
 * snapshot the questions read; its percentile and deadline-miss intervals rest on the parts' samples.
 */
class ComposedPathHistogramsTest {

    private static final long SECOND = 1_000_000_000L;
    private static final short BOUND = 2;

    private final Profile profile = PathProfiles.profile();

    private UpdateEngine engine() {
        final WorkstationType type = new WorkstationType("LOCAL-2CORE", 5);
        final ConnectionSpec bound = new ConnectionSpec(BOUND, "ws1", (short) 1, type, "ws2", (short) 2, type,
            List.of("sw1-p3", "sw2-p1"), 256, 2, 96, "paths", CalibrationMode.THESIS, 0.0, BoundMethod.UNION);
        return new UpdateEngine(new ConnectionTable(List.of(ConnectionRow.initial(bound, 0))), Map.of(profile.name(), profile),
            new EngineSettings(CpuThresholds.DEFAULT, 1.0, 1000, 30 * SECOND, 0, 2, 20, 20_000, 0, PortBands.of(List.of(95, 98)), 0,
                MeasurementPacing.NONE, 1), new AtomicLong(1)::incrementAndGet, new AtomicLong(1_000_000)::get);
    }

    private static MibReading mib(final int hop1, final int hop2) {
        return new MibReading((short) 10, (short) 10, PortPercents.of(new short[] {(short) hop1, (short) hop2}));
    }

    @Test
    void theConvolutionIsKeptOncePerCombinedStateAndServedAgainFromTheSnapshot() {
        final UpdateEngine engine = engine();
        assertEquals(0, engine.pathHistograms().size());
        assertTrue(engine.applyPolledMib(BOUND, mib(95, 97), SECOND));
        final ConnectionRow row = engine.table().row(BOUND);
        final PathHistograms first = engine.pathHistograms();
        assertEquals(1, first.size(), "the QoS 2 bound's reference, composed once");
        final ProfileHistograms.StateHistogram kept = first.find(profile, row.load(), 256);
        assertNotNull(kept);
        assertEquals(100, kept.effectiveSampleCount());

        assertTrue(engine.applyPolledMib(BOUND, mib(95, 50), 2 * SECOND));
        assertTrue(engine.applyPolledMib(BOUND, mib(95, 97), 3 * SECOND));
        assertEquals(1, engine.pathHistograms().size(), "back in the same combined state: nothing composed again");
        assertSame(kept, engine.pathHistograms().find(profile, engine.table().row(BOUND).load(), 256));
        assertEquals(1, first.size(), "a snapshot never changes");
    }

    @Test
    void percentileAndDeadlineMissOfAComposedPathHaveIntervalsOfItsPartsSamples() throws Exception {
        final UpdateEngine engine = engine();
        assertTrue(engine.applyPolledMib(BOUND, mib(95, 97), SECOND));
        final EstimateQuestions questions = new EstimateQuestions(new EngineQuery(engine));
        final ConnectionRow row = engine.table().row(BOUND);
        final Estimate p96 = questions.atPercentile(row, 96).orElseThrow(IllegalStateException::new);
        // Eq. 3 over the 100 samples of each part's cell: about 0.077 wide, where a billion counts gave 1e-5.
        assertEquals(2 * 1.959963984540054 * Math.sqrt(0.96 * 0.04 / 100), p96.interval().upper() - p96.interval().lower(), 0.01);
        final DeadlineMiss miss = questions.deadlineMiss(row, p96.valueMillis()).orElseThrow(IllegalStateException::new);
        assertTrue(miss.interval().upper() - miss.interval().lower() > 0.02, miss.interval().toString());
        assertTrue(miss.notes().stream().anyMatch(n -> n.startsWith("interval over 100 effective samples")), miss.notes().toString());
    }
}
