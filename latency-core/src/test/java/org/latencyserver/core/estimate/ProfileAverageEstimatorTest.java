package org.latencyserver.core.estimate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.commons.math3.distribution.NormalDistribution;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.latencyserver.core.port.MeasuredTablePortModel;
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

class ProfileAverageEstimatorTest {

    private static final double Z = new NormalDistribution().inverseCumulativeProbability(0.975);
    /** Thesis Eq. 1 with s = 5 ms and n = 10,000: about 0.098 ms. */
    private static final double THESIS_HALF_WIDTH = Z * 5.0 / Math.sqrt(10_000);

    private static ConnectionLoadState load(final String client, final String peer, final PortState port) {
        return new ConnectionLoadState(new CpuStatePair(CpuState.parse(client), CpuState.parse(peer)), port);
    }

    @ParameterizedTest(name = "{0} B, {1}/{2}")
    @CsvSource({"64, 0-33, 0-33", "256, 0-33, 0-33", "256, 34-66, 67-100", "1024, 0-33, 34-66",
        "4096, 67-100, 67-100", "8192, 34-66, 34-66", "512, 0-33, 67-100", "2048, 34-66, 67-100"})
    void qos1IsTheAppendixAMeanWithTheThesisInterval(final int size, final String client, final String peer) throws Exception {
        final Estimate estimate = ProfileAverageEstimator.estimate(ThesisAppendixA.tac4Corba(),
            load(client, peer, PortState.NORMAL), size);
        final double mean = ThesisAppendixA.mean("TAC-4", "CORBA", size, client, peer);
        assertEquals(1, estimate.qos());
        assertEquals(EstimateKind.AVERAGE, estimate.kind());
        assertEquals(mean, estimate.valueMillis(), 1e-12);
        assertEquals(mean - THESIS_HALF_WIDTH, estimate.interval().lower(), 1e-12);
        assertEquals(mean + THESIS_HALF_WIDTH, estimate.interval().upper(), 1e-12);
        assertEquals(0.95, estimate.interval().confidenceLevel());
        assertTrue(estimate.notes().stream().anyMatch(n -> n.startsWith("assumed standard deviation 5.0 ms")),
            estimate.notes().toString());
        assertFalse(estimate.interpolated());
        assertTrue(estimate.notes().stream().noneMatch(n -> n.startsWith("port contribution")), "no port below 90 %");
    }

    @Test
    void senderAndReceiverOrderDoesNotMatter() throws Exception {
        final Profile profile = ThesisAppendixA.tac4Corba();
        for (final int size : profile.messageSizesBytes()) {
            for (final String[] pair : new String[][] {{"0-33", "67-100"}, {"0-33", "34-66"}, {"34-66", "67-100"}}) {
                final Estimate forward = ProfileAverageEstimator.estimate(profile, load(pair[0], pair[1], PortState.NORMAL), size);
                final Estimate reverse = ProfileAverageEstimator.estimate(profile, load(pair[1], pair[0], PortState.NORMAL), size);
                assertEquals(forward.valueMillis(), reverse.valueMillis());
                assertEquals(forward.interval(), reverse.interval());
                assertEquals(ThesisAppendixA.mean("TAC-4", "CORBA", size, pair[0], pair[1]), reverse.valueMillis(), 1e-12);
            }
        }
    }

    @ParameterizedTest(name = "port at {0} %")
    @CsvSource({"91", "95", "98", "100"})
    void qos1AddsTheThesisPortContributionAboveNinetyPercent(final int portPercent) throws Exception {
        final double mean = ThesisAppendixA.mean("TAC-4", "CORBA", 256, "34-66", "67-100");
        final double added = 1.0 / (1.0 - (portPercent - 91) / 10.0);
        final Estimate estimate = ProfileAverageEstimator.estimate(ThesisAppendixA.tac4Corba(),
            load("67-100", "34-66", PortState.loaded(portPercent)), 256);
        assertEquals(mean + added, estimate.valueMillis(), 1e-12);
        assertEquals(mean + added - THESIS_HALF_WIDTH, estimate.interval().lower(), 1e-12);
        assertEquals(mean + added + THESIS_HALF_WIDTH, estimate.interval().upper(), 1e-12);
        assertTrue(estimate.notes().contains(String.format(java.util.Locale.ROOT,
            "port contribution %.3f ms (thesis queue model at %d %%: 1/(1-(u-91)/10); the profile has no measured port cell for"
                + " LOADED %d %% at 256 B)", added, portPercent, portPercent)),
            estimate.notes().toString());
        assertTrue(estimate.notes().stream().anyMatch(n -> n.contains("constraint 4")), estimate.notes().toString());
    }

    @Test
    void qos1WithTheMeasuredPortTableAddsTheTableDifferenceForTheMessageSize() throws Exception {
        final Profile profile = ThesisAppendixA.profile("TAC-4", "CORBA", MeasuredTablePortModel.thesisTable3_6_2_1());
        final Estimate estimate = ProfileAverageEstimator.estimate(profile, load("0-33", "0-33", PortState.loaded(98)), 8192);
        // Table 3.6.2-1, 8 KB: 37028 us at 98 % against 2688 us unloaded.
        assertEquals(ThesisAppendixA.mean("TAC-4", "CORBA", 8192, "0-33", "0-33") + (37_028 - 2_688) / 1000.0,
            estimate.valueMillis(), 1e-9);
    }

    @Test
    void aCellsOwnStandardDeviationIsUsedWithoutAnAssumptionNote() throws Exception {
        final List<ProfileCell> cells = new ArrayList<>();
        for (final CpuStatePair pair : CpuStatePair.PROFILED_PAIRS) {
            cells.add(new ProfileCell(pair, 256, 1_000, 2.0, 0.8, 9.0, null));
        }
        final Profile measured = new Profile("measured", "TAC-4", Layer.CORBA, new Provenance("test", null, null, null, null, null),
            null, ThesisQueuePortModel.INSTANCE, cells);
        final Estimate estimate = ProfileAverageEstimator.estimate(measured, load("0-33", "0-33", PortState.NORMAL), 256);
        assertEquals(2.0 - Z * 0.8 / Math.sqrt(1_000), estimate.interval().lower(), 1e-12);
        assertTrue(estimate.notes().stream().noneMatch(n -> n.contains("assumed")), estimate.notes().toString());
    }

    @Test
    void anUnknownPortAddsNothingAndSaysSo() throws Exception {
        final Estimate estimate = ProfileAverageEstimator.estimate(ThesisAppendixA.tac4Corba(),
            load("0-33", "0-33", PortState.UNKNOWN), 64);
        assertEquals(ThesisAppendixA.mean("TAC-4", "CORBA", 64, "0-33", "0-33"), estimate.valueMillis(), 1e-12);
        assertTrue(estimate.notes().stream().anyMatch(n -> n.contains("port state unknown")), estimate.notes().toString());
    }

    @Test
    void qos1RefusesUnknownCpuStatesAndUnprofiledSizesWithTheReason() {
        final Profile profile = ThesisAppendixA.tac4Corba();
        final EstimateRefusedException unknown = assertThrows(EstimateRefusedException.class, () ->
            ProfileAverageEstimator.estimate(profile, new ConnectionLoadState(
                new CpuStatePair(CpuState.UNKNOWN, CpuState.LOW), PortState.NORMAL), 256));
        assertTrue(unknown.getMessage().contains("CPU state unknown"), unknown.getMessage());
        final EstimateRefusedException size = assertThrows(EstimateRefusedException.class, () ->
            ProfileAverageEstimator.estimate(profile, load("0-33", "0-33", PortState.NORMAL), 300));
        assertTrue(size.getMessage().contains("300 B") && size.getMessage().contains(profile.name()), size.getMessage());
    }

    @Test
    void qos1WithoutAnyStandardDeviationIsRefusedNotInvented() {
        final Profile bare = new Profile("bare", "TAC-4", Layer.CORBA, new Provenance("test", null, null, null, null, null),
            null, ThesisQueuePortModel.INSTANCE, ThesisAppendixA.tac4Corba().cells());
        final EstimateRefusedException error = assertThrows(EstimateRefusedException.class, () ->
            ProfileAverageEstimator.estimate(bare, load("0-33", "0-33", PortState.NORMAL), 256));
        assertTrue(error.getMessage().contains("no standard deviation"), error.getMessage());
    }

    @Test
    void sizesBetweenAndBeyondTheProfiledOnesComeOffTheFittedLineLabelled() throws Exception {
        final Profile profile = ThesisAppendixA.tac4Corba();
        final ConnectionLoadState state = load("0-33", "0-33", PortState.NORMAL);
        final Estimate between = ProfileAverageEstimator.estimateForSize(profile, state, 3000);
        assertTrue(between.interpolated());
        assertTrue(between.notes().get(0).startsWith("interpolated"), between.notes().toString());
        assertTrue(between.valueMillis() > ThesisAppendixA.mean("TAC-4", "CORBA", 2048, "0-33", "0-33") - 1
            && between.valueMillis() < ThesisAppendixA.mean("TAC-4", "CORBA", 4096, "0-33", "0-33") + 1);
        assertTrue(between.interval().contains(between.valueMillis()));
        final Estimate beyond = ProfileAverageEstimator.estimateForSize(profile, state, 16_384);
        assertTrue(beyond.interpolated(), "from the line");
        assertTrue(beyond.notes().get(0).startsWith("extrapolated"), beyond.notes().toString());
        assertTrue(beyond.interval().halfWidth() > between.interval().halfWidth(), "less certain outside the data");
        final Estimate exact = ProfileAverageEstimator.estimateForSize(profile, state, 256);
        assertFalse(exact.interpolated());
        assertEquals(ThesisAppendixA.mean("TAC-4", "CORBA", 256, "0-33", "0-33"), exact.valueMillis(), 1e-12);
        final Estimate loaded = ProfileAverageEstimator.estimateForSize(profile, load("0-33", "0-33", PortState.loaded(95)), 3000);
        assertEquals(between.valueMillis() + 1.0 / (1.0 - 0.4), loaded.valueMillis(), 1e-9, "port added to the line too");
    }

    /** The shipped thesis profile, when the profiles module is beside this one: the same answers. */
    @Test
    void theShippedThesisProfileGivesTheAppendixAMeans() throws Exception {
        final Path shipped = Path.of("../profiles/thesis-tac4-corba.json");
        assumeTrue(Files.isRegularFile(shipped), "profiles module not beside latency-core");
        final Profile profile = ProfileJson.read(shipped);
        for (final ThesisAppendixA.Row row : ThesisAppendixA.rows()) {
            if (row.platform().equals("TAC-4") && row.layer().equals("CORBA")) {
                final Estimate estimate = ProfileAverageEstimator.estimate(profile,
                    load(row.sender(), row.receiver(), PortState.NORMAL), row.sizeBytes());
                assertEquals(row.avgMillis(), estimate.valueMillis(), 1e-12, row.toString());
            }
        }
    }
}
