package org.latencyserver.core.estimate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.latencyserver.core.histogram.LatencyHistogram;
import org.latencyserver.core.path.BoundMethod;
import org.latencyserver.core.path.PathComposition;
import org.latencyserver.core.path.PathHop;
import org.latencyserver.core.port.ThesisQueuePortModel;
import org.latencyserver.core.profile.Layer;
import org.latencyserver.core.profile.PortCell;
import org.latencyserver.core.profile.Profile;
import org.latencyserver.core.profile.ProfileCell;
import org.latencyserver.core.profile.Provenance;
import org.latencyserver.core.state.ConnectionLoadState;
import org.latencyserver.core.state.CpuState;
import org.latencyserver.core.state.CpuStatePair;
import org.latencyserver.core.state.PortState;

class ProfilePathTest {

    private static final CpuStatePair LOW_LOW = new CpuStatePair(CpuState.LOW, CpuState.LOW);
    private static final CpuStatePair LOW_HIGH = new CpuStatePair(CpuState.LOW, CpuState.HIGH);
    private static final int SIZE = 256;

    /** 100 round trips, one per 0.1 ms bin above {@code fromMillis}. */
    private static LatencyHistogram spread(final double fromMillis) {
        final long[] edges = new long[100];
        final long[] counts = new long[100];
        for (int i = 0; i < 100; i++) {
            edges[i] = Math.round(fromMillis * 1e6) + (i + 1) * 100_000L;
            counts[i] = 1;
        }
        return LatencyHistogram.of(edges, counts, 0);
    }

    /**
     * CPU cells: LOW/LOW mean 1.0 ms, fastest round trip 0.9 ms; LOW/HIGH 1.5 ms; the others 2 ms. Port cells at 256 B:
     * 91–95 % from 10.1 to 20 ms (mean 15.05), 96–98 % from 20.1 to 30 ms (mean 25.05).
     */
    private static Profile profile() {
        final LatencyHistogram cpu = LatencyHistogram.of(new long[] {900_000, 1_000_000, 1_100_000}, new long[] {0, 90, 10}, 0);
        final List<ProfileCell> cells = new ArrayList<>();
        for (final CpuStatePair pair : CpuStatePair.PROFILED_PAIRS) {
            final double mean = pair.equals(LOW_LOW) ? 1.0 : pair.equals(LOW_HIGH) ? 1.5 : 2.0;
            cells.add(new ProfileCell(pair, SIZE, 100, mean, 0.3, 2.0, cpu));
        }
        final List<PortCell> port = List.of(new PortCell(91, 95, SIZE, 100, 15.05, 2.9, 20.0, spread(10.0)),
            new PortCell(96, 98, SIZE, 100, 25.05, 2.9, 30.0, spread(20.0)));
        return new Profile("paths", "LOCAL", Layer.CORBA, new Provenance("test", null, null, null, null, null), null,
            ThesisQueuePortModel.INSTANCE, cells, port);
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
