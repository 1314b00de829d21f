package org.latencyserver.core.estimate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.HdrHistogram.Histogram;
import org.apache.commons.math3.distribution.NormalDistribution;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.latencyserver.core.histogram.LatencyHistogram;
import org.latencyserver.core.histogram.ThesisExample;
import org.latencyserver.core.port.ThesisQueuePortModel;
import org.latencyserver.core.profile.Layer;
import org.latencyserver.core.profile.Profile;
import org.latencyserver.core.profile.ProfileCell;
import org.latencyserver.core.profile.ProfileJson;
import org.latencyserver.core.profile.Provenance;
import org.latencyserver.core.state.ConnectionLoadState;
import org.latencyserver.core.state.CpuState;
import org.latencyserver.core.state.CpuStatePair;
import org.latencyserver.core.state.PortState;
import org.latencyserver.core.stats.ConfidenceInterval;

class EstimatorsTest {

    private static final Path CSV = Path.of("../profiles/data/thesis-appendix-a.csv");
    private static final double Z = new NormalDistribution().inverseCumulativeProbability(0.975);
    private static final long MS = 1_000_000L;

    private static Profile tac4Corba() throws Exception {
        return ProfileJson.read(Path.of("../profiles/thesis-tac4-corba.json"));
    }

    /** The Appendix A mean for a row, read straight from the CSV (not through the profile code). */
    private static double appendixMean(final String platform, final String layer, final int size, final String sender,
                                       final String receiver) throws IOException {
        for (final String line : Files.readAllLines(CSV)) {
            final String[] f = line.split(",");
            if (f[0].equals(platform) && f[1].equals(layer) && f[2].equals(Integer.toString(size))
                && f[3].equals(sender) && f[4].equals(receiver)) {
                return Double.parseDouble(f[5]);
            }
        }
        throw new AssertionError("no Appendix A row for " + platform + " " + layer + " " + size + " " + sender + "/" + receiver);
    }

    private static ConnectionLoadState load(final String client, final String peer, final PortState port) {
        return new ConnectionLoadState(new CpuStatePair(CpuState.parse(client), CpuState.parse(peer)), port);
    }

    @ParameterizedTest(name = "{0} B, {1}/{2}")
    @CsvSource({"64, 0-33, 0-33", "256, 0-33, 0-33", "256, 34-66, 67-100", "1024, 0-33, 34-66",
        "4096, 67-100, 67-100", "8192, 34-66, 34-66", "512, 0-33, 67-100"})
    void qos1ReadsTheAppendixAMeanWithTheThesisInterval(final int size, final String client, final String peer) throws Exception {
        final Estimate estimate = ProfileAverageEstimator.estimate(tac4Corba(), load(client, peer, PortState.NORMAL), size);
        final double mean = appendixMean("TAC-4", "CORBA", size, client, peer);
        assertEquals(1, estimate.qos());
        assertEquals(EstimateKind.AVERAGE, estimate.kind());
        assertEquals(mean, estimate.valueMillis(), 1e-12);
        // Thesis Eq. 1 with its assumption s = 5 ms and n = 10,000.
        assertEquals(mean - Z * 5.0 / Math.sqrt(10_000), estimate.interval().lower(), 1e-12);
        assertEquals(mean + Z * 5.0 / Math.sqrt(10_000), estimate.interval().upper(), 1e-12);
        assertTrue(estimate.notes().stream().anyMatch(n -> n.contains("assumed standard deviation 5.0 ms")), estimate.notes().toString());
        assertFalse(estimate.interpolated());
    }

    @Test
    void senderAndReceiverOrderDoesNotMatter() throws Exception {
        final Profile profile = tac4Corba();
        for (final int size : profile.messageSizesBytes()) {
            final Estimate lowHigh = ProfileAverageEstimator.estimate(profile, load("0-33", "67-100", PortState.NORMAL), size);
            final Estimate highLow = ProfileAverageEstimator.estimate(profile, load("67-100", "0-33", PortState.NORMAL), size);
            assertEquals(lowHigh.valueMillis(), highLow.valueMillis());
            assertEquals(appendixMean("TAC-4", "CORBA", size, "0-33", "67-100"), highLow.valueMillis(), 1e-12);
        }
    }

    @ParameterizedTest(name = "port at {0} %")
    @CsvSource({"91, 1.0", "95, 1.6666666666666667", "98, 3.3333333333333335"})
    void qos1AddsThePortContributionAboveNinetyPercent(final int portPercent, final double addedMillis) throws Exception {
        final double mean = appendixMean("TAC-4", "CORBA", 256, "0-33", "0-33");
        final Estimate estimate = ProfileAverageEstimator.estimate(tac4Corba(), load("0-33", "0-33", PortState.loaded(portPercent)), 256);
        assertEquals(mean + addedMillis, estimate.valueMillis(), 1e-12);
        assertEquals(mean + addedMillis - Z * 0.05, estimate.interval().lower(), 1e-9);
        assertTrue(estimate.notes().stream().anyMatch(n -> n.startsWith("port contribution")), estimate.notes().toString());
    }

    @Test
    void qos1RefusesUnknownCpuStatesAndUnprofiledSizes() throws Exception {
        final Profile profile = tac4Corba();
        final EstimateRefusedException unknown = assertThrows(EstimateRefusedException.class, () ->
            ProfileAverageEstimator.estimate(profile, new ConnectionLoadState(
                new CpuStatePair(CpuState.UNKNOWN, CpuState.LOW), PortState.NORMAL), 256));
        assertTrue(unknown.getMessage().contains("CPU state unknown"), unknown.getMessage());
        final EstimateRefusedException size = assertThrows(EstimateRefusedException.class, () ->
            ProfileAverageEstimator.estimate(profile, load("0-33", "0-33", PortState.NORMAL), 300));
        assertTrue(size.getMessage().contains("300 B"), size.getMessage());
    }

    @Test
    void qos1WithoutAnyStandardDeviationIsRefusedNotInvented() throws Exception {
        final Profile bare = new Profile("bare", "TAC-4", Layer.CORBA, new Provenance("test", null, null, null, null, null),
            null, ThesisQueuePortModel.INSTANCE, tac4Corba().cells());
        final EstimateRefusedException error = assertThrows(EstimateRefusedException.class, () ->
            ProfileAverageEstimator.estimate(bare, load("0-33", "0-33", PortState.NORMAL), 256));
        assertTrue(error.getMessage().contains("no standard deviation"), error.getMessage());
    }

    @Test
    void qos2OnTheThesisProfilesIsRefusedWithTheReason() throws Exception {
        final EstimateRefusedException error = assertThrows(EstimateRefusedException.class, () ->
            ProfileBoundEstimator.estimate(tac4Corba(), load("0-33", "0-33", PortState.NORMAL), 256, 96));
        assertTrue(error.getMessage().contains("no latency histograms"), error.getMessage());
        assertTrue(error.getMessage().contains("Appendix A"), error.getMessage());
    }

    @Test
    void qos2ReadsTheBoundOfTheCellHistogramAndNotesAnUncoveredPortState() throws Exception {
        final Profile profile = histogramProfile();
        final Estimate estimate = ProfileBoundEstimator.estimate(profile, load("67-100", "0-33", PortState.NORMAL), 256, 93);
        assertEquals(EstimateKind.BOUND, estimate.kind());
        assertEquals(7.0, estimate.valueMillis(), 1e-12);
        assertEquals(0.93679 - Z * Math.sqrt(0.93679 * 0.06321 / 100_000), estimate.interval().lower(), 1e-12);
        assertEquals(List.of("Wilson score", "distribution-free (order statistics), of the bound in ms"),
            estimate.alternatives().stream().map(ConfidenceInterval::method).toList());
        final Estimate loaded = ProfileBoundEstimator.estimate(profile, load("0-33", "67-100", PortState.loaded(95)), 256, 93);
        assertEquals(7.0, loaded.valueMillis(), 1e-12, "the bound depends on the CPU state only");
        assertTrue(loaded.notes().get(0).contains("does not cover this state"), loaded.notes().toString());
    }

    @Test
    void qos3GivesTheMeasuredMeanWithTheThesisInterval() {
        final Measurement measurement = new Measurement(LatencyHistogram.uniform(MS, new long[] {600, 400}, 0), 1000, 1.46, 1.6, 1.99);
        final Estimate estimate = MeasuredAverageEstimator.estimate(measurement, "measured");
        assertEquals(1.46, estimate.valueMillis());
        assertEquals(1.46 - Z * 1.6 / Math.sqrt(1000), estimate.interval().lower(), 1e-12);
        assertEquals("Student's t", estimate.alternatives().get(0).method());
    }

    /** Thesis verification test 5 for QoS 4: the bound never falls as the percentage rises. */
    @Test
    void qos4BoundNeverDecreasesAsTheBoundPercentageRises() throws Exception {
        final Random random = new Random(96);
        for (int trial = 0; trial < 100; trial++) {
            final Histogram hdr = new Histogram(3_600_000_000_000L, 3);
            final int samples = 200 + random.nextInt(3000);
            for (int i = 0; i < samples; i++) {
                hdr.recordValue(300_000L + (long) (-random.nextDouble(0.2, 4) * MS * Math.log(1 - random.nextDouble())));
            }
            final Measurement measurement = new Measurement(LatencyHistogram.fromHdr(hdr), samples,
                hdr.getMean() / 1e6, hdr.getStdDeviation() / 1e6, hdr.getMaxValue() / 1e6);
            double previous = 0;
            for (double percent = 50; percent <= 100; percent += 1) {
                final Estimate estimate = MeasuredBoundEstimator.estimate(measurement, percent, "trial " + trial);
                assertTrue(estimate.valueMillis() >= previous, "trial " + trial + " fell at " + percent + " %");
                final long boundNanos = Math.round(estimate.valueMillis() * 1e6);
                final double share = (double) measurement.histogram().countAtOrBelow(boundNanos) / samples;
                assertTrue(share >= percent / 100.0, "share below the bound reaches the percentage");
                assertTrue(estimate.interval().contains(share));
                previous = estimate.valueMillis();
            }
        }
    }

    @Test
    void anyPercentileUsesTheSameRule() throws Exception {
        final LatencyHistogram histogram = LatencyHistogram.uniform(MS, new long[] {50, 30, 15, 5}, 0);
        assertEquals(2.0, PercentileEstimator.atPercentile(4, histogram, 80, "h").valueMillis());
        assertEquals(3.0, PercentileEstimator.atPercentile(4, histogram, 80.1, "h").valueMillis());
        assertThrows(IllegalArgumentException.class, () -> PercentileEstimator.atPercentile(4, histogram, 0, "h"));
    }

    @Test
    void deadlineMissProbabilityMatchesADirectCountAndIsConservativeInsideABin() throws Exception {
        final Random random = new Random(1);
        final Histogram hdr = new Histogram(3_600_000_000_000L, 3);
        final List<Long> raw = new ArrayList<>();
        for (int i = 0; i < 5000; i++) {
            final long value = 100_000L + (long) (random.nextDouble() * 8 * MS);
            raw.add(value);
            hdr.recordValue(value);
        }
        final LatencyHistogram millisecondBins = LatencyHistogram.fromHdr(hdr, MS, 20);
        final long directMisses = raw.stream().filter(v -> hdr.highestEquivalentValue(v) > 5 * MS).count();
        final DeadlineMiss atEdge = DeadlineMissEstimator.estimate(millisecondBins, 5.0);
        assertEquals((double) directMisses / 5000, atEdge.missProbability(), 1e-12);
        assertTrue(atEdge.interval().contains(atEdge.missProbability()));
        final DeadlineMiss inside = DeadlineMissEstimator.estimate(millisecondBins, 5.5);
        assertEquals(atEdge.missProbability(), inside.missProbability(), 1e-12, "the straddled bin counts as missing");
        assertTrue(inside.notes().get(0).contains("counted as misses"), inside.notes().toString());
        assertThrows(IllegalArgumentException.class, () -> DeadlineMissEstimator.estimate(millisecondBins, -1));
    }

    @Test
    void sizesBetweenTheProfiledOnesAreInterpolatedAndLabelled() throws Exception {
        final Profile profile = tac4Corba();
        final ConnectionLoadState state = load("0-33", "0-33", PortState.NORMAL);
        final Estimate between = ProfileAverageEstimator.estimateForSize(profile, state, 3000);
        assertTrue(between.interpolated());
        assertTrue(between.notes().get(0).startsWith("interpolated"), between.notes().toString());
        final double at2k = appendixMean("TAC-4", "CORBA", 2048, "0-33", "0-33");
        final double at4k = appendixMean("TAC-4", "CORBA", 4096, "0-33", "0-33");
        assertTrue(between.valueMillis() > Math.min(at2k, at4k) - 1 && between.valueMillis() < Math.max(at2k, at4k) + 1);
        assertTrue(between.interval().contains(between.valueMillis()));
        final Estimate beyond = ProfileAverageEstimator.estimateForSize(profile, state, 16_384);
        assertTrue(beyond.notes().get(0).startsWith("extrapolated"), beyond.notes().toString());
        assertTrue(beyond.interval().halfWidth() > between.interval().halfWidth(), "less certain outside the data");
        final Estimate exact = ProfileAverageEstimator.estimateForSize(profile, state, 256);
        assertFalse(exact.interpolated());
        assertEquals(appendixMean("TAC-4", "CORBA", 256, "0-33", "0-33"), exact.valueMillis(), 1e-12);
    }

    /** A profile whose every cell carries the histogram of the thesis's worked example. */
    private static Profile histogramProfile() {
        final LatencyHistogram histogram = ThesisExample.figure322();
        final List<ProfileCell> cells = new ArrayList<>();
        for (final CpuStatePair pair : CpuStatePair.PROFILED_PAIRS) {
            cells.add(new ProfileCell(pair, 256, 100_000, 2.5, 3.0, 41.0, histogram));
        }
        return new Profile("worked-example", "TAC-4", Layer.CORBA, new Provenance("test", null, null, null, null, null),
            null, ThesisQueuePortModel.INSTANCE, cells);
    }
}
