package org.latencyserver.core.estimate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.latencyserver.core.histogram.LatencyHistogram;
import org.latencyserver.core.path.PathComposition;
import org.latencyserver.core.state.ConnectionLoadState;
import org.latencyserver.core.state.CpuState;
import org.latencyserver.core.state.CpuStatePair;
import org.latencyserver.core.state.PortState;

/**
 * A composed path's convolution has counts scaled to a billion: its percentile and deadline-miss intervals rest on the
 * fewest samples behind any part instead, so they are as wide as the profile's cells allow.
 */
class ComposedPathIntervalsTest {

    private static final ConnectionLoadState BOTH_LOADED = ConnectionLoadState.ofHops(new CpuStatePair(CpuState.LOW, CpuState.LOW),
        List.of(PortState.loaded(95), PortState.loaded(97)));

    @Test
    void theComposedHistogramCarriesTheFewestSamplesBehindItsParts() throws Exception {
        final ProfileHistograms.StateHistogram composed = ProfilePath.independentHistogram(PathProfiles.profile(), BOTH_LOADED,
            PathProfiles.SIZE);
        assertEquals(PathComposition.HISTOGRAM_SCALE_COUNT, composed.histogram().totalCount(), 1_000);
        assertEquals(100, composed.effectiveSampleCount(), "each part's cell holds 100 round trips");
        assertTrue(composed.scaled());
        assertTrue(composed.notes().get(composed.notes().size() - 1).startsWith("its intervals rest on 100 samples"));
        final ProfileHistograms.StateHistogram cell = ProfileHistograms.forState(PathProfiles.profile(),
            ConnectionLoadState.ofHops(BOTH_LOADED.cpu(), List.of(PortState.loaded(95), PortState.NORMAL)), PathProfiles.SIZE);
        assertEquals(cell.histogram().totalCount(), cell.effectiveSampleCount(), "a cell's own samples");
    }

    @Test
    void scalingKeepsTheEdgesAndEveryQuantileWithinOneRank() {
        final LatencyHistogram fine = LatencyHistogram.of(new long[] {1_000_000, 2_000_000, 3_000_000, 4_000_000},
            new long[] {333_333_333, 333_333_333, 233_333_334, 99_000_000}, 1_000_000);
        final LatencyHistogram held = EffectiveSample.scaledTo(fine, 100);
        assertEquals(100, held.totalCount());
        assertEquals(List.of(33L, 34L, 23L, 10L), java.util.Arrays.stream(held.counts()).boxed().toList());
        assertEquals(0, held.overflowCount(), "0.1 % of 100 rounds to none");
        assertSame(fine, EffectiveSample.scaledTo(fine, 2_000_000_000L), "never scaled up");
    }

    @Test
    void percentileAndDeadlineMissIntervalsOfAComposedPathAreThoseOfItsEffectiveSamples() throws Exception {
        final ProfileHistograms.StateHistogram composed = ProfilePath.independentHistogram(PathProfiles.profile(), BOTH_LOADED,
            PathProfiles.SIZE);
        final Estimate asScaled = PercentileEstimator.atPercentile(2, composed.histogram(), 96, composed.basis());
        final Estimate asSampled = PercentileEstimator.atPercentile(2, composed.histogram(), 96, composed.basis(),
            composed.effectiveSampleCount());
        assertEquals(asScaled.valueMillis(), asSampled.valueMillis(), 0.0, "the value is read from the convolution itself");
        final double scaledWidth = asScaled.interval().upper() - asScaled.interval().lower();
        final double sampledWidth = asSampled.interval().upper() - asSampled.interval().lower();
        assertTrue(scaledWidth < 1e-4, "a billion counts: " + scaledWidth);
        // Eq. 3 over 100 samples at 96 %: 1.96 x sqrt(0.96 x 0.04 / 100) = 0.038 either side
        assertEquals(2 * 1.959963984540054 * Math.sqrt(0.96 * 0.04 / 100), sampledWidth, 0.01);
        assertTrue(asSampled.notes().get(asSampled.notes().size() - 1).startsWith("intervals over 100 effective samples"));

        final double deadlineMillis = asScaled.valueMillis();
        final DeadlineMiss scaledMiss = DeadlineMissEstimator.estimate(composed.histogram(), deadlineMillis);
        final DeadlineMiss sampledMiss = DeadlineMissEstimator.estimate(composed.histogram(), deadlineMillis, 100);
        assertEquals(scaledMiss.missProbability(), sampledMiss.missProbability(), 0.0);
        assertTrue(sampledMiss.interval().upper() - sampledMiss.interval().lower()
            > 100 * (scaledMiss.interval().upper() - scaledMiss.interval().lower()), "Wilson over 100 samples, not a billion");
        assertTrue(sampledMiss.interval().lower() <= sampledMiss.missProbability()
            && sampledMiss.missProbability() <= sampledMiss.interval().upper());
    }
}
