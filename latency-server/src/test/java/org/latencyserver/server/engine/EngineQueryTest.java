package org.latencyserver.server.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
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
import org.latencyserver.testkit.RoundTrips;

/** The read side: answers drawn from the published rows and snapshots, unavailability as a typed answer. */
class EngineQueryTest {

    private static final long SECOND = 1_000_000_000L;

    private Profile measured;
    private UpdateEngine engine;
    private EngineQuery query;
    private EstimateQuestions questions;

    @BeforeEach
    void setUp() throws Exception {
        measured = ProfileJson.read(Path.of("../profiles/measured-loopback-jacorb.json"));
        engine = new UpdateEngine(new ConnectionTable(List.of(ConnectionRow.initial(new ConnectionSpec((short) 1, "lab1", (short) 5,
                new WorkstationType("LOCAL-2CORE", 5), "lab2", (short) 6, new WorkstationType("LOCAL-2CORE", 5), null, 256, 2, 96,
                measured.name(), CalibrationMode.ADAPTIVE, 4.0), 0))),
            Map.of(measured.name(), measured),
            new EngineSettings(CpuThresholds.DEFAULT, 1.0, 1000, 30 * SECOND, 0, 10, 20, 1_000_000, 0),
            new AtomicLong()::incrementAndGet, () -> 1_000_000L);
        query = new EngineQuery(engine);
        questions = new EstimateQuestions(query);
    }

    private static LatencyHistogram roundTrips(final int count, final long lowMicros, final long highMicros) {
        return LatencyHistogram.fromHdr(RoundTrips.evenlySpread(count, lowMicros, highMicros));
    }

    @Test
    void withTheLoadUnknownNoProfileCellStandsBehindTheEstimate() {
        final Answer<EstimateQuestions.SourcedHistogram> answer = questions.histogramBehind(query.row((short) 1));
        assertEquals(new Answer.Unavailable<EstimateQuestions.SourcedHistogram>("CPU state unknown: no profile cell applies"), answer);
    }

    @Test
    void aProfileServedConnectionDrawsItsPercentilesFromItsProfileCell() throws Exception {
        engine.applyMib((short) 1, new MibReading((short) 10, (short) 10, (short) 10), 0);
        final EstimateQuestions.SourcedHistogram source = questions.histogramBehind(query.row((short) 1))
            .orElseThrow(IllegalStateException::new);
        assertTrue(source.basis().startsWith("profile " + measured.name() + ", cell "), source.basis());
        assertTrue(questions.atPercentile(query.row((short) 1), 99) instanceof Answer.Found, "a percentile of the cell");
    }

    @Test
    void probesOfAProfileServedConnectionShowAsDriftOfItsCellAndInTheLearnedProfile() {
        engine.applyMib((short) 1, new MibReading((short) 10, (short) 10, (short) 10), 0);
        assertTrue(query.profileDrifts().isEmpty(), "nothing learned yet");
        assertTrue(engine.submitProbe((short) 1, "lab1", roundTrips(8, 150, 400), 0.27, 2000, ProbeShapes.CLASSIC, 10 * SECOND).accepted());

        final List<EngineQuery.CellDrift> drifts = query.profileDrifts();
        assertEquals(1, drifts.size(), drifts::toString);
        assertEquals(measured.name(), drifts.get(0).profileName());
        assertEquals(8, drifts.get(0).live().roundTrips());
        assertEquals(11, drifts.get(0).key().cpuStates().code(), "LOW/LOW");
        assertInstanceOf(Answer.Found.class, query.learnedProfile(measured.name()));
    }

    @Test
    void anUnknownProfileIsUnavailableNamingTheLoadedOnes() {
        assertEquals(new Answer.Unavailable<Profile>("no profile 'nope' is loaded; the loaded profiles are " + measured.name()),
            query.learnedProfile("nope"));
    }
}
