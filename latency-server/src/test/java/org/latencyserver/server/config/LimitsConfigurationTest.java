package org.latencyserver.server.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.latencyserver.server.config.ConfigFixture.BASE;
import static org.latencyserver.server.config.ConfigFixture.edit;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.latencyserver.core.histogram.LatencyHistogram;
import org.latencyserver.core.input.InputFault;
import org.latencyserver.core.port.ThesisQueuePortModel;
import org.latencyserver.core.profile.Layer;
import org.latencyserver.core.profile.Profile;
import org.latencyserver.core.profile.ProfileCell;
import org.latencyserver.core.profile.ProfileJson;
import org.latencyserver.core.profile.Provenance;
import org.latencyserver.core.state.CpuStatePair;
import org.latencyserver.server.engine.InputLimits;

/** The {@code limits:} section: defaults, checks that name key and line, and profiles read within the limits. */
class LimitsConfigurationTest {

    @TempDir
    Path directory;

    private ServerConfiguration load(final String yaml) throws Exception {
        return ConfigurationLoader.load(ConfigFixture.write(directory, "server.yaml", yaml));
    }

    private List<InputFault> refused(final String yaml) throws Exception {
        return ConfigFixture.faultsOf(directory, "server.yaml", yaml);
    }

    @Test
    void withoutTheSectionTheDefaultsApply() throws Exception {
        final InputLimits limits = load(BASE).limits();
        assertEquals(InputLimits.DEFAULT, limits);
        assertEquals(60_000, limits.maxResultMillis());
        assertEquals(1000, limits.plausibilityFactor());
        assertEquals(20_000, limits.maxHistogramBins());
        assertEquals(64L * 1024 * 1024, limits.maxProfileBytes());
    }

    @Test
    void everyKeyIsRead() throws Exception {
        final InputLimits limits = load(BASE + "limits:\n  max_result_millis: 10000\n  plausibility_factor: 250.5\n"
            + "  max_histogram_bins: 5000\n  max_profile_bytes: 2097152\n").limits();
        assertEquals(new InputLimits(10_000, 250.5, 5000, 2_097_152), limits);
        assertEquals(2_097_152, limits.profileLimits().maxBytes());
        assertEquals(5000, limits.profileLimits().maxHistogramBins());
    }

    @Test
    void aValueOutOfRangeIsNamedWithItsKeyLineAndValue() throws Exception {
        final String yaml = BASE + "limits:\n  plausibility_factor: 1 # <-\n";
        final List<InputFault> faults = refused(yaml);
        assertEquals(1, faults.size(), faults::toString);
        assertEquals("limits.plausibility_factor", faults.get(0).path());
        assertEquals(ConfigFixture.markedLine(yaml), faults.get(0).line());
        assertEquals("must be in (1, 1000000000000], was 1", faults.get(0).reason());
    }

    @Test
    void everyBadLimitIsReportedAtOnce() throws Exception {
        final List<InputFault> faults = refused(BASE + "limits:\n  max_result_millis: 0\n  max_histogram_bins: 99\n"
            + "  max_profile_bytes: 1.5\n");
        assertEquals(List.of(
                "limits.max_result_millis: must be 1..86400000, was 0",
                "limits.max_histogram_bins: must be 100..10000000, was 99",
                "limits.max_profile_bytes: expected a whole number, was '1.5'"),
            faults.stream().map(f -> f.path() + ": " + f.reason()).toList());
    }

    @Test
    void anUnknownKeyIsAFaultWithTheClosestKeySuggested() throws Exception {
        final List<InputFault> faults = refused(BASE + "limits:\n  max_histogram_bin: 5000\n");
        assertEquals(1, faults.size(), faults::toString);
        assertTrue(faults.get(0).reason().contains("did you mean 'max_histogram_bins'"), faults.get(0)::toString);
    }

    @Test
    void aLimitWrittenAtTheTopLevelSaysWhereItBelongs() throws Exception {
        final List<InputFault> faults = refused(BASE + "max_histogram_bins: 5000\n");
        assertEquals(1, faults.size(), faults::toString);
        assertTrue(faults.get(0).reason().contains("it belongs under limits:"), faults.get(0)::toString);
    }

    @Test
    void aProfileFileLargerThanMaxProfileBytesIsRefusedWithItsSize() throws Exception {
        final Path profile = Files.copy(Path.of("../profiles/thesis-tac4-corba.json"), directory.resolve("tac4.json"));
        final long bytes = Files.size(profile);
        final String yaml = "limits:\n  max_profile_bytes: 4096\nprofiles:\n  - tac4.json # <-\n" + BASE;
        final List<InputFault> faults = refused(yaml);
        assertEquals(1, faults.size(), faults::toString);
        assertEquals("profiles[0]", faults.get(0).path());
        assertEquals(ConfigFixture.markedLine(yaml), faults.get(0).line());
        assertEquals("profile refused: " + profile + ":0:0: file: is " + bytes + " bytes, more than the limit of 4096 bytes for a"
            + " profile", faults.get(0).reason());
    }

    @Test
    void aProfileHistogramWithMoreBinsThanMaxHistogramBinsIsRefused() throws Exception {
        ProfileJson.write(profileWithBins(150), directory.resolve("wide.json"));
        final String yaml = "limits:\n  max_histogram_bins: 149\nprofiles:\n  - wide.json\n" + BASE;
        final List<InputFault> faults = refused(yaml);
        assertEquals(6, faults.size(), "one per cell: " + faults);
        // The profile's own fault points at the first histogram's edges in wide.json.
        final String written = Files.readString(directory.resolve("wide.json"));
        final String before = written.substring(0, written.indexOf('[', written.indexOf("\"upper_edges_ns\"")));
        final String place = (before.lines().count()) + ":" + (before.length() - before.lastIndexOf('\n'));
        assertEquals("profile refused: " + directory.resolve("wide.json") + ":" + place
            + ": cells[0] (0-33/0-33, 256 B).histogram.upper_edges_ns: has 150 bins, more than the limit of 149 bins per histogram",
            faults.get(0).reason());
        assertEquals(150, load(edit(yaml, "max_histogram_bins: 149", "max_histogram_bins: 150")).profiles().get("wide")
            .cells().get(0).histogram().binCount(), "at the limit it is read");
    }

    /** One size, all six pairs, each with a histogram of {@code bins} bins of 1 sample. */
    private static Profile profileWithBins(final int bins) {
        final List<ProfileCell> cells = new ArrayList<>();
        for (final CpuStatePair pair : CpuStatePair.PROFILED_PAIRS) {
            final long[] edges = new long[bins];
            final long[] counts = new long[bins];
            for (int i = 0; i < bins; i++) {
                edges[i] = (i + 1) * 10_000L;
                counts[i] = 1;
            }
            cells.add(new ProfileCell(pair, 256, bins, 0.75, 0.4, 1.5, LatencyHistogram.of(edges, counts, 0)));
        }
        return new Profile("wide", "TAC-4", Layer.CORBA, new Provenance("test fixture", null, null, null, null, null),
            null, ThesisQueuePortModel.INSTANCE, cells);
    }
}
