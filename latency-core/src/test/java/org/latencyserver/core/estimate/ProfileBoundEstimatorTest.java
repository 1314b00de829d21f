package org.latencyserver.core.estimate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.apache.commons.math3.distribution.NormalDistribution;
import org.junit.jupiter.api.Test;
import org.latencyserver.core.histogram.HistogramQuantiles;
import org.latencyserver.core.histogram.LatencyHistogram;
import org.latencyserver.core.histogram.ThesisExample;
import org.latencyserver.core.port.ThesisQueuePortModel;
import org.latencyserver.core.profile.Layer;
import org.latencyserver.core.profile.Profile;
import org.latencyserver.core.profile.ProfileCell;
import org.latencyserver.core.profile.Provenance;
import org.latencyserver.core.state.ConnectionLoadState;
import org.latencyserver.core.state.CpuState;
import org.latencyserver.core.state.CpuStatePair;
import org.latencyserver.core.state.PortState;
import org.latencyserver.core.stats.ConfidenceInterval;
import org.latencyserver.core.stats.ProportionConfidence;

class ProfileBoundEstimatorTest {

    private static final double Z = new NormalDistribution().inverseCumulativeProbability(0.975);

    private static ConnectionLoadState load(final String client, final String peer, final PortState port) {
        return new ConnectionLoadState(new CpuStatePair(CpuState.parse(client), CpuState.parse(peer)), port);
    }

    /** A profile whose cells at 256 B carry the histogram of the thesis's worked example (or none). */
    private static Profile histogramProfile(final boolean everyCell) {
        final LatencyHistogram histogram = ThesisExample.figure322();
        final List<ProfileCell> cells = new ArrayList<>();
        for (final CpuStatePair pair : CpuStatePair.PROFILED_PAIRS) {
            final boolean withHistogram = everyCell || !pair.equals(new CpuStatePair(CpuState.HIGH, CpuState.HIGH));
            cells.add(new ProfileCell(pair, 256, 100_000, 2.5, 3.0, 41.0, withHistogram ? histogram : null));
        }
        return new Profile("worked-example", "TAC-4", Layer.CORBA, new Provenance("test", null, null, null, null, null),
            null, ThesisQueuePortModel.INSTANCE, cells);
    }

    @Test
    void qos2OnAHistogramLessProfileIsRefusedWithTheReason() {
        final EstimateRefusedException error = assertThrows(EstimateRefusedException.class, () ->
            ProfileBoundEstimator.estimate(ThesisAppendixA.tac4Corba(), load("0-33", "0-33", PortState.NORMAL), 256, 96));
        assertEquals("profile appendix-a-TAC-4-CORBA has no latency histograms: a bound or percentile needs a profile measured with "
            + "histograms (thesis Appendix A gives only averages and maxima)", error.getMessage());
    }

    @Test
    void qos2OnACellWithoutAHistogramNamesTheCell() {
        final EstimateRefusedException error = assertThrows(EstimateRefusedException.class, () ->
            ProfileBoundEstimator.estimate(histogramProfile(false), load("67-100", "67-100", PortState.NORMAL), 256, 93));
        assertTrue(error.getMessage().contains("67-100/67-100, 256 B"), error.getMessage());
    }

    /** Thesis section 4.2.4: 93 % of 100,000 samples is 7 ms, 93.679 % at or below, CI 93.52-93.82 %. */
    @Test
    void qos2ReproducesTheThesisWorkedExample() throws Exception {
        final Estimate estimate = ProfileBoundEstimator.estimate(histogramProfile(true), load("67-100", "0-33", PortState.NORMAL),
            256, 93);
        assertEquals(2, estimate.qos());
        assertEquals(EstimateKind.BOUND, estimate.kind());
        assertEquals(93, estimate.boundPercent());
        assertEquals(7.0, estimate.valueMillis(), 1e-12);
        final double p = 0.93679;
        final double halfWidth = Z * Math.sqrt(p * (1 - p) / 100_000);
        assertEquals(p - halfWidth, estimate.interval().lower(), 1e-12);
        assertEquals(p + halfWidth, estimate.interval().upper(), 1e-12);
        // The thesis cut its figures to two decimals (93.528 % -> 93.52, 93.8298 % -> 93.82).
        assertEquals(93.52, Math.floor(estimate.interval().lower() * 10_000) / 100.0, 1e-9);
        assertEquals(93.82, Math.floor(estimate.interval().upper() * 10_000) / 100.0, 1e-9);
    }

    @Test
    void qos2OffersTheWilsonIntervalAndADistributionFreeIntervalOfTheBound() throws Exception {
        final Estimate estimate = ProfileBoundEstimator.estimate(histogramProfile(true), load("0-33", "0-33", PortState.NORMAL),
            256, 93);
        final ConfidenceInterval wilson = estimate.alternatives().get(0);
        assertEquals(ProportionConfidence.WILSON_METHOD, wilson.method());
        // Wilson score interval by its closed form.
        final double n = 100_000;
        final double p = 93_679 / n;
        final double centre = (p + Z * Z / (2 * n)) / (1 + Z * Z / n);
        final double half = Z * Math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / (1 + Z * Z / n);
        assertEquals(centre - half, wilson.lower(), 1e-12);
        assertEquals(centre + half, wilson.upper(), 1e-12);
        final ConfidenceInterval boundMillis = estimate.alternatives().get(1);
        assertTrue(boundMillis.method().startsWith(HistogramQuantiles.METHOD), boundMillis.method());
        assertTrue(boundMillis.contains(estimate.valueMillis()), boundMillis + " around " + estimate.valueMillis());
    }

    @Test
    void qos2OnALoadedPortIsRefusedNamingThePortStateNeverAnsweredWithTheIdlePortsBound() {
        final EstimateRefusedException refused = assertThrows(EstimateRefusedException.class, () ->
            ProfileBoundEstimator.estimate(histogramProfile(true), load("0-33", "67-100", PortState.loaded(95)), 256, 93));
        assertTrue(refused.getMessage().contains("does not cover LOADED 95 %"), refused.getMessage());
        assertTrue(refused.getMessage().contains("measured with the switch port idle"), refused.getMessage());
    }

    @Test
    void qos2OnAnUnknownPortAnswersFromTheCpuCellAndSaysWhatItAssumes() throws Exception {
        final Estimate unknownPort = ProfileBoundEstimator.estimate(histogramProfile(true), load("0-33", "67-100",
            PortState.UNKNOWN), 256, 93);
        assertEquals(7.0, unknownPort.valueMillis(), 1e-12);
        assertTrue(unknownPort.notes().get(0).startsWith("switch port state unknown"), unknownPort.notes().toString());
    }

    @Test
    void qos2RefusesUnknownCpuStatesAndABoundBeyondTheHistogram() {
        assertThrows(EstimateRefusedException.class, () -> ProfileBoundEstimator.estimate(histogramProfile(true),
            new ConnectionLoadState(new CpuStatePair(CpuState.LOW, CpuState.UNKNOWN), PortState.NORMAL), 256, 93));
        final LatencyHistogram withOverflow = LatencyHistogram.uniform(1_000_000L, new long[] {90, 5}, 5);
        final List<ProfileCell> cells = new ArrayList<>();
        for (final CpuStatePair pair : CpuStatePair.PROFILED_PAIRS) {
            cells.add(new ProfileCell(pair, 64, 100, 1.0, 1.0, 150.0, withOverflow));
        }
        final Profile profile = new Profile("overflow", "TAC-4", Layer.CORBA, new Provenance("test", null, null, null, null, null),
            null, ThesisQueuePortModel.INSTANCE, cells);
        final EstimateRefusedException beyond = assertThrows(EstimateRefusedException.class,
            () -> ProfileBoundEstimator.estimate(profile, load("0-33", "0-33", PortState.NORMAL), 64, 99));
        assertTrue(beyond.getMessage().startsWith("profile overflow"), beyond.getMessage());
    }
}
