package org.latencyserver.core.calibration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.latencyserver.core.histogram.LatencyHistogram;
import org.latencyserver.core.profile.Profile;
import org.latencyserver.core.profile.ProfileCell;
import org.latencyserver.core.profile.ProfileJson;
import org.latencyserver.core.state.CpuState;
import org.latencyserver.core.state.CpuStatePair;

class LearnedCellTest {

    private static final CpuStatePair LOW_LOW = new CpuStatePair(CpuState.LOW, CpuState.LOW);

    private static Profile measuredProfile() throws Exception {
        return ProfileJson.read(Path.of("../profiles/measured-loopback-jacorb.json"));
    }

    /** A probe window: {@code count} round trips drawn from a cell's histogram, scaled by {@code factor}. */
    private static LatencyHistogram windowFrom(final ProfileCell cell, final int count, final double factor,
                                               final java.util.Random random) {
        final LatencyHistogram source = cell.histogram();
        final Histogram hdr = new Histogram(1, 60_000_000_000L, 3);
        for (int i = 0; i < count; i++) {
            final long rank = 1 + (long) (random.nextDouble() * source.totalCount());
            final int bin = Math.max(0, source.binOfRank(Math.min(rank, source.totalCount())));
            // A measured profile's bins are HdrHistogram buckets exported sparsely: the upper edge is the value.
            final long nanos = source.upperEdgeNanos(bin);
            hdr.recordValue(Math.max(1, Math.round(nanos * factor)));
        }
        return LatencyHistogram.fromHdr(hdr);
    }

    /** The window's values are its bins' upper edges (see windowFrom): their mean, as an agent reports it. */
    private static double exactMeanMillis(final LatencyHistogram window) {
        double sum = 0;
        for (int bin = 0; bin < window.binCount(); bin++) {
            sum += (double) window.count(bin) * window.upperEdgeNanos(bin);
        }
        return sum / window.totalCount() / 1e6;
    }

    private static LearnedCell learn(final ProfileCell cell, final double factor, final int windows) {
        LearnedCell learned = LearnedCell.empty(cell);
        // One generator for the whole stream: fresh ones seeded 0, 1, 2... start almost alike.
        final java.util.Random random = new java.util.Random(42);
        for (int w = 0; w < windows; w++) {
            final LatencyHistogram window = windowFrom(cell, 8, factor, random);
            learned = learned.add(window, exactMeanMillis(window), 1_000_000L + w * 2000L);
        }
        return learned;
    }

    @Test
    void liveRoundTripsLikeTheProfilesAreNotFlagged() throws Exception {
        final ProfileCell cell = measuredProfile().cell(LOW_LOW, 256).orElseThrow();
        final LearnedCell learned = learn(cell, 1.0, 100);
        final LearnedCell.Verdict verdict = learned.compareWith(cell);
        assertFalse(verdict.drifting(), "D " + verdict.statistic() + " vs " + verdict.criticalValue());
        assertEquals(800, learned.roundTrips());
        assertEquals(cell.meanMillis(), learned.meanMillis(), 0.15 * cell.meanMillis());
    }

    @Test
    void liveRoundTripsAThirdSlowerAreFlaggedAsDrifting() throws Exception {
        final ProfileCell cell = measuredProfile().cell(LOW_LOW, 256).orElseThrow();
        final LearnedCell.Verdict verdict = learn(cell, 1.33, 100).compareWith(cell);
        assertTrue(verdict.drifting(), "D " + verdict.statistic() + " vs " + verdict.criticalValue());
        assertEquals(LearnedCell.TEST, verdict.test());
    }

    @Test
    void tooFewRoundTripsGiveNoVerdict() throws Exception {
        final ProfileCell cell = measuredProfile().cell(LOW_LOW, 256).orElseThrow();
        assertFalse(learn(cell, 2.0, 5).compareWith(cell).drifting(), "40 round trips are not enough to judge");
    }

    @Test
    void oldRoundTripsWeighLessAsTheyAge() throws Exception {
        final ProfileCell cell = measuredProfile().cell(LOW_LOW, 256).orElseThrow();
        final LearnedCell learned = learn(cell, 1.0, 10);
        final LatencyHistogram window = windowFrom(cell, 8, 1.0, new java.util.Random(99));
        final LearnedCell hourLater = learned.add(window, 0.2, learned.lastEpochMillis() + LearnedCell.HALF_LIFE_MILLIS);
        assertEquals(80 / 2.0 + 8, hourLater.decayedRoundTrips(), 0.2, "the windows 2 s apart decayed a little too");
        assertEquals(88, hourLater.roundTrips());
    }

    @Test
    void theLearnedProfileIsAValidProfileWithLearnedAndCopiedCellsAndItsProvenance() throws Exception {
        final Profile base = measuredProfile();
        final ProfileCell cell = base.cell(LOW_LOW, 256).orElseThrow();
        final Profile learned = LearnedProfiles.of(base, Map.of(new LearnedProfiles.CellKey(LOW_LOW, 256), learn(cell, 1.33, 50)));
        final Profile reread = ProfileJson.parse(ProfileJson.toJson(learned), "learned");
        assertEquals(base.name() + "-learned", reread.name());
        assertEquals(base.cells().size(), reread.cells().size());
        assertEquals(400, reread.cell(LOW_LOW, 256).orElseThrow().sampleCount());
        final CpuStatePair highHigh = new CpuStatePair(CpuState.HIGH, CpuState.HIGH);
        assertEquals(base.cell(highHigh, 256).orElseThrow().sampleCount(), reread.cell(highHigh, 256).orElseThrow().sampleCount(),
            "a cell without live data is the base's");
        assertTrue(reread.provenance().method().contains("400 live probe round trips"), reread.provenance().method());
        assertTrue(reread.hasHistograms());
    }

    @Test
    void theLearnedProfileKeepsTheBasesMeasuredPortCells() throws Exception {
        final Profile measured = measuredProfile();
        final ProfileCell cell = measured.cell(LOW_LOW, 256).orElseThrow();
        final org.latencyserver.core.profile.PortCell port = new org.latencyserver.core.profile.PortCell(91, 95, 256,
            cell.sampleCount(), cell.meanMillis(), cell.stdDevMillis(), cell.maxMillis(), cell.histogram());
        final Profile base = new Profile(measured.name(), measured.workstationType(), measured.layer(), measured.provenance(),
            measured.assumptions(), measured.portModel(), measured.cells(), java.util.List.of(port));
        final Profile learned = LearnedProfiles.of(base, Map.of(new LearnedProfiles.CellKey(LOW_LOW, 256), learn(cell, 1.33, 50)));
        assertEquals(java.util.List.of(port), ProfileJson.parse(ProfileJson.toJson(learned), "learned").portCells());
    }

    @Test
    void aProfileNothingWasLearnedForIsRefusedWithTheReason() throws Exception {
        final IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
            () -> LearnedProfiles.of(measuredProfile(), Map.of()));
        assertTrue(refused.getMessage().contains("nothing was learned"), refused.getMessage());
    }
}
