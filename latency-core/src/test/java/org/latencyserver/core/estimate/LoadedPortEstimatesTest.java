package org.latencyserver.core.estimate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.latencyserver.core.histogram.LatencyHistogram;
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

class LoadedPortEstimatesTest {

    private static final CpuStatePair LOW_LOW = new CpuStatePair(CpuState.LOW, CpuState.LOW);
    private static final CpuStatePair LOW_HIGH = new CpuStatePair(CpuState.LOW, CpuState.HIGH);

    /** 100 round trips, one per 0.1 ms bin from 10.1 to 20 ms: the 96 % bound is the 96th bin's edge, 19.6 ms. */
    private static final LatencyHistogram PORT_95 = portHistogram();

    private static LatencyHistogram portHistogram() {
        final long[] edges = new long[100];
        final long[] counts = new long[100];
        for (int i = 0; i < 100; i++) {
            edges[i] = 10_000_000L + (i + 1) * 100_000L;
            counts[i] = 1;
        }
        return LatencyHistogram.of(edges, counts, 0);
    }

    /** CPU cells: LOW/LOW 1.0 ms, LOW/HIGH 1.5 ms, others 2 ms; a port cell 91-95 % at 256 B, mean 15.05 ms. */
    private static Profile profile(final boolean withPortCell) {
        final LatencyHistogram cpu = LatencyHistogram.uniform(1_000_000L, new long[] {90, 10}, 0);
        final List<ProfileCell> cells = new ArrayList<>();
        for (final CpuStatePair pair : CpuStatePair.PROFILED_PAIRS) {
            final double mean = pair.equals(LOW_LOW) ? 1.0 : pair.equals(LOW_HIGH) ? 1.5 : 2.0;
            cells.add(new ProfileCell(pair, 256, 100, mean, 0.3, 2.0, cpu));
        }
        final List<PortCell> port = withPortCell ? List.of(new PortCell(91, 95, 256, 100, 15.05, 2.9, 20.0, PORT_95)) : List.of();
        return new Profile("with-port", "LOCAL", Layer.CORBA, new Provenance("test", null, null, null, null, null), null,
            ThesisQueuePortModel.INSTANCE, cells, port);
    }

    private static ConnectionLoadState load(final CpuStatePair cpu, final PortState port) {
        return new ConnectionLoadState(cpu, port);
    }

    @Test
    void aLoadedPortWithIdleCpusGetsThePortCellsOwnBound() throws Exception {
        final Estimate bound = ProfileBoundEstimator.estimate(profile(true), load(LOW_LOW, PortState.loaded(95)), 256, 96);
        assertEquals(19.6, bound.valueMillis(), 1e-9);
        assertTrue(bound.basis().contains("port 91–95 %, 256 B for LOADED 95 %"), bound.basis());
    }

    @Test
    void aLoadedPortWithBusyCpusAddsWhatThePairAddsOverIdleCpusAndSaysSo() throws Exception {
        final Estimate bound = ProfileBoundEstimator.estimate(profile(true), load(LOW_HIGH, PortState.loaded(93)), 256, 96);
        assertEquals(19.6 + 0.5, bound.valueMillis(), 1e-9, "LOW/HIGH's mean is 0.5 ms above LOW/LOW's");
        assertTrue(bound.notes().get(0).startsWith(ProfileHistograms.ADDITIVE), bound.notes().toString());
    }

    @Test
    void aLoadedPortOutsideEveryMeasuredBandIsRefusedNamingThePercent() {
        final EstimateRefusedException refused = assertThrows(EstimateRefusedException.class, () ->
            ProfileBoundEstimator.estimate(profile(true), load(LOW_LOW, PortState.loaded(98)), 256, 96));
        assertTrue(refused.getMessage().contains("does not cover LOADED 98 % at 256 B: no measured port cell holds 98 %"),
            refused.getMessage());
    }

    @Test
    void aQos1MeanOnALoadedPortIsThePortCellsMeanPlusTheCpuExcess() throws Exception {
        final Estimate mean = ProfileAverageEstimator.estimate(profile(true), load(LOW_HIGH, PortState.loaded(95)), 256);
        assertEquals(15.05 + 0.5, mean.valueMillis(), 1e-9);
        assertTrue(mean.interval().contains(mean.valueMillis()));
        assertEquals(2 * 1.96 * 2.9 / Math.sqrt(100), mean.interval().upper() - mean.interval().lower(), 1e-3,
            "the interval from the port cell's spread and n");
        assertTrue(mean.notes().stream().anyMatch(n -> n.startsWith(ProfileHistograms.ADDITIVE)), mean.notes().toString());
    }

    @Test
    void aQos1MeanOnALoadedPortWithoutAPortCellUsesThePortModelAndSaysTheCellIsMissing() throws Exception {
        final Estimate mean = ProfileAverageEstimator.estimate(profile(false), load(LOW_LOW, PortState.loaded(95)), 256);
        assertTrue(mean.valueMillis() > 1.0, "the thesis queue model adds to the idle port's mean");
        assertTrue(mean.notes().get(0).contains("the profile has no measured port cell for LOADED 95 % at 256 B"),
            mean.notes().toString());
    }

    @Test
    void aPercentileOnALoadedPortReadsTheSameShiftedHistogramAsTheBound() throws Exception {
        final ProfileHistograms.StateHistogram state = ProfileHistograms.forState(profile(true),
            load(LOW_HIGH, PortState.loaded(95)), 256);
        assertEquals(PORT_95.upperEdgeNanos(0) + 500_000L, state.histogram().upperEdgeNanos(0));
        assertEquals(PORT_95.totalCount(), state.histogram().totalCount());
    }

    @Test
    void overlappingPortCellsOfOneSizeAreRefused() {
        final IllegalArgumentException overlap = assertThrows(IllegalArgumentException.class, () -> new Profile("x", "LOCAL",
            Layer.CORBA, new Provenance("test", null, null, null, null, null), null, ThesisQueuePortModel.INSTANCE,
            profile(false).cells(), List.of(new PortCell(91, 95, 256, 100, 15.05, 2.9, 20.0, PORT_95),
                new PortCell(95, 98, 256, 100, 15.05, 2.9, 20.0, PORT_95))));
        assertTrue(overlap.getMessage().contains("overlap"), overlap.getMessage());
    }

    @Test
    void aSaturatedPortIsInNoProfilesCellsSoQos2AndAQos1WithPortCellsAreRefused() {
        final EstimateRefusedException bound = assertThrows(EstimateRefusedException.class, () ->
            ProfileBoundEstimator.estimate(profile(true), load(LOW_LOW, PortState.SATURATED), 256, 96));
        assertTrue(bound.getMessage().contains("does not cover SATURATED: a port offered more than its rate"), bound.getMessage());
        final EstimateRefusedException mean = assertThrows(EstimateRefusedException.class, () ->
            ProfileAverageEstimator.estimate(profile(true), load(LOW_LOW, PortState.SATURATED), 256));
        assertTrue(mean.getMessage().contains("does not cover SATURATED"), "the model could serve less than the measured"
            + " cells of a less loaded port: " + mean.getMessage());
    }

    @Test
    void aQos1MeanOnAPortStateNoPortCellHoldsIsRefusedWhenTheProfileHasPortCellsForTheSize() {
        final EstimateRefusedException refused = assertThrows(EstimateRefusedException.class, () ->
            ProfileAverageEstimator.estimate(profile(true), load(LOW_LOW, PortState.loaded(98)), 256));
        assertTrue(refused.getMessage().contains("no measured port cell holds 98 %"), refused.getMessage());
    }

    @Test
    void aSaturatedPortOnAProfileWithoutPortCellsGetsTheModelsFullContributionForQos1() throws Exception {
        final Estimate mean = ProfileAverageEstimator.estimate(profile(false), load(LOW_LOW, PortState.SATURATED), 256);
        assertEquals(1.0 + 10.0, mean.valueMillis(), 1e-9, "the thesis model at 100 %: 1/(1 - 9/10) = 10 ms");
    }
}
