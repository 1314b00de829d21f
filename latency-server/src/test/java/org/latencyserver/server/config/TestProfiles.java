package org.latencyserver.server.config;

import java.util.ArrayList;
import java.util.List;
import org.latencyserver.core.histogram.LatencyHistogram;
import org.latencyserver.core.port.ThesisQueuePortModel;
import org.latencyserver.core.profile.Layer;
import org.latencyserver.core.profile.Profile;
import org.latencyserver.core.profile.ProfileCell;
import org.latencyserver.core.profile.Provenance;
import org.latencyserver.core.state.CpuStatePair;

/** Small measured-style profiles for the tests that load, check and replace profiles. */
public final class TestProfiles {

    private TestProfiles() {
    }

    /**
     * A CORBA profile with one size (256 B) and all six CPU-state pairs, each cell of 100 samples
     * spread evenly over 10 bins of the given width: mean 5.5, standard deviation 2.9 and maximum 10
     * bin widths.
     *
     * @param binWidthNanos the width of each bin
     * @param histograms    whether the cells carry their histogram (false: the summary only)
     */
    public static Profile tenBins(final String name, final String workstationType, final long binWidthNanos,
                                  final boolean histograms) {
        final List<ProfileCell> cells = new ArrayList<>();
        for (final CpuStatePair pair : CpuStatePair.PROFILED_PAIRS) {
            final long[] edges = new long[10];
            final long[] counts = new long[10];
            for (int i = 0; i < 10; i++) {
                edges[i] = (i + 1) * binWidthNanos;
                counts[i] = 10;
            }
            cells.add(new ProfileCell(pair, 256, 100, 5.5 * binWidthNanos / 1_000_000.0, 2.9 * binWidthNanos / 1_000_000.0,
                10.0 * binWidthNanos / 1_000_000.0, histograms ? LatencyHistogram.of(edges, counts, 0) : null));
        }
        return new Profile(name, workstationType, Layer.CORBA, new Provenance("test fixture", null, null, null, null, null),
            null, ThesisQueuePortModel.INSTANCE, cells);
    }
}
