package org.latencyserver.core.estimate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.latencyserver.core.path.BoundMethod;
import org.latencyserver.core.path.PathComposition;
import org.latencyserver.core.path.PathHop;
import org.latencyserver.core.profile.Profile;
import org.latencyserver.core.state.ConnectionLoadState;
import org.latencyserver.core.state.CpuState;
import org.latencyserver.core.state.CpuStatePair;
import org.latencyserver.core.state.PortState;

class ProfilePathTest {

    private static final CpuStatePair LOW_LOW = new CpuStatePair(CpuState.LOW, CpuState.LOW);
    private static final CpuStatePair LOW_HIGH = new CpuStatePair(CpuState.LOW, CpuState.HIGH);
    private static final int SIZE = PathProfiles.SIZE;

    private static Profile profile() {
        return PathProfiles.profile();
    }

    private static ConnectionLoadState path(final CpuStatePair cpu, final PortState... hops) {
        return ConnectionLoadState.ofHops(cpu, List.of(hops));
    }

    @Test
    void twoLoadedHopsAreBoundedByTheUnionOfEachPartAtItsShareSummed() throws Exception {
        final Estimate bound = ProfileBoundEstimator.estimate(profile(),
            path(LOW_LOW, PortState.loaded(95), PortState.NORMAL, PortState.loaded(97)), SIZE, 96);
        // Each of two parts at 98 %: 19.8 ms (the 95 % band's cell), 29.8 − 0.9 ms (the 98 % band's, less the idle path's
        // fastest round trip).
        assertEquals(19.8 + 28.9, bound.valueMillis(), 1e-9);
        assertTrue(bound.basis().endsWith("composed by union bound"), bound.basis());
        assertTrue(bound.basis().contains("hop 3 (LOADED 97 %)"), bound.basis());
        assertTrue(bound.notes().stream().anyMatch(n -> n.startsWith("independent hops: ") && n.endsWith("ms (not served)")),
            bound.notes().toString());
    }

    @Test
    void theIndependentBoundIsServedWhenAskedAndLiesBetweenTheWorstPartAndTheUnionBound() throws Exception {
        final ConnectionLoadState load = path(LOW_LOW, PortState.loaded(95), PortState.loaded(97));
        final Estimate union = ProfileBoundEstimator.estimate(profile(), load, SIZE, 96, BoundMethod.UNION);
        final Estimate independent = ProfileBoundEstimator.estimate(profile(), load, SIZE, 96, BoundMethod.INDEPENDENT);
        assertTrue(independent.valueMillis() < union.valueMillis(), independent.valueMillis() + " vs " + union.valueMillis());
        // The path's x % quantile is never below one part's x % quantile plus the other's least value.
        assertTrue(independent.valueMillis() >= 28.7 + 10.1, "below the queue's 96 % quantile plus the first part's least: "
            + independent.valueMillis());
        assertTrue(independent.basis().endsWith("composed by independent hops"), independent.basis());
    }

    @Test
    void aLoadedHopWhoseBandWasNeverMeasuredIsRefusedWithTheHopNamed() {
        final EstimateRefusedException refused = assertThrows(EstimateRefusedException.class, () -> ProfileBoundEstimator
            .estimate(profile(), path(LOW_LOW, PortState.loaded(95), PortState.loaded(99)), SIZE, 96));
        assertTrue(refused.getMessage().startsWith("hop 2 (LOADED 99 %): "), refused.getMessage());
    }

    @Test
    void aPathsMeanIsTheFirstLoadedHopsPlusWhatEachFurtherQueueAddsOverTheIdleCell() throws Exception {
        final Estimate mean = ProfileAverageEstimator.estimate(profile(),
            path(LOW_HIGH, PortState.loaded(93), PortState.loaded(98)), SIZE);
        // 15.05 (the 95 % band's cell) + 0.5 (LOW/HIGH over LOW/LOW) + (25.05 − 1.0).
        assertEquals(15.05 + 0.5 + 24.05, mean.valueMillis(), 1e-9);
        assertTrue(mean.interval().lower() < mean.valueMillis() && mean.valueMillis() < mean.interval().upper(),
            mean.interval().toString());
    }

    @Test
    void aPathsHistogramIsTheConvolutionOfItsParts() throws Exception {
        final ConnectionLoadState load = path(LOW_LOW, PortState.loaded(95), PortState.loaded(97));
        final ProfileHistograms.StateHistogram state = ProfileHistograms.forState(profile(), load, SIZE);
        final ProfilePath.Parts parts = ProfilePath.parts(profile(), load, SIZE);
        final long expectedNanos = PathComposition.of(parts.hops()).independentBound(96).boundNanos();
        assertEquals(expectedNanos, state.histogram().boundAt(96).boundNanos());
        assertTrue(state.notes().stream().anyMatch(n -> n.contains("independent")), state.notes().toString());
    }

    @Test
    void aFurtherHopsQueueIsItsCellLessTheIdlePathsFastestRoundTrip() throws Exception {
        final ProfilePath.Parts parts = ProfilePath.parts(profile(), path(LOW_LOW, PortState.loaded(95), PortState.loaded(97)), SIZE);
        final PathHop queue = parts.hops().get(1);
        assertEquals(20.1 - 0.9, queue.histogram().boundAt(1).boundNanos() / 1e6, 1e-9);
        assertEquals(100, queue.histogram().totalCount());
    }

    @Test
    void oneLoadedHopOfSeveralIsReadAsAOnePortPath() throws Exception {
        final Estimate path = ProfileBoundEstimator.estimate(profile(),
            path(LOW_LOW, PortState.NORMAL, PortState.loaded(95), PortState.NORMAL), SIZE, 96);
        final Estimate onePort = ProfileBoundEstimator.estimate(profile(), new ConnectionLoadState(LOW_LOW, PortState.loaded(95)),
            SIZE, 96);
        assertEquals(onePort.valueMillis(), path.valueMillis());
        assertEquals(onePort.basis(), path.basis());
    }
}
