package org.latencyserver.core.estimate;

import java.util.ArrayList;
import java.util.List;
import org.latencyserver.core.histogram.LatencyHistogram;
import org.latencyserver.core.port.ThesisQueuePortModel;
import org.latencyserver.core.profile.Layer;
import org.latencyserver.core.profile.PortCell;
import org.latencyserver.core.profile.Profile;
import org.latencyserver.core.profile.ProfileCell;
import org.latencyserver.core.profile.Provenance;
import org.latencyserver.core.state.CpuState;
import org.latencyserver.core.state.CpuStatePair;

/** A profile with port cells for tests of paths of several hops: every figure is stated, so a test can compute its expectations. */
public final class PathProfiles {

    /** The message size of every cell, bytes. */
    public static final int SIZE = 256;

    private PathProfiles() {
    }

    /**
     * @param fromMillis the lower edge of the first bin, ms
     * @return 100 round trips, one per 0.1 ms bin above {@code fromMillis}: the x % bound is {@code fromMillis + x / 10} ms
     */
    public static LatencyHistogram spread(final double fromMillis) {
        final long[] edges = new long[100];
        final long[] counts = new long[100];
        for (int i = 0; i < 100; i++) {
            edges[i] = Math.round(fromMillis * 1e6) + (i + 1) * 100_000L;
            counts[i] = 1;
        }
        return LatencyHistogram.of(edges, counts, 0);
    }

    /**
     * @return profile {@code paths}: CPU cells at {@value #SIZE} B, LOW/LOW mean 1.0 ms with its fastest round trip at
     *         0.9 ms, LOW/HIGH 1.5 ms, the others 2 ms; port cells 91–95 % from 10.1 to 20 ms (mean 15.05) and 96–98 %
     *         from 20.1 to 30 ms (mean 25.05)
     */
    public static Profile profile() {
        final CpuStatePair lowLow = new CpuStatePair(CpuState.LOW, CpuState.LOW);
        final CpuStatePair lowHigh = new CpuStatePair(CpuState.LOW, CpuState.HIGH);
        final LatencyHistogram cpu = LatencyHistogram.of(new long[] {900_000, 1_000_000, 1_100_000}, new long[] {0, 90, 10}, 0);
        final List<ProfileCell> cells = new ArrayList<>();
        for (final CpuStatePair pair : CpuStatePair.PROFILED_PAIRS) {
            final double mean = pair.equals(lowLow) ? 1.0 : pair.equals(lowHigh) ? 1.5 : 2.0;
            cells.add(new ProfileCell(pair, SIZE, 100, mean, 0.3, 2.0, cpu));
        }
        final List<PortCell> port = List.of(new PortCell(91, 95, SIZE, 100, 15.05, 2.9, 20.0, spread(10.0)),
            new PortCell(96, 98, SIZE, 100, 25.05, 2.9, 30.0, spread(20.0)));
        return new Profile("paths", "LOCAL", Layer.CORBA, new Provenance("test", null, null, null, null, null), null,
            ThesisQueuePortModel.INSTANCE, cells, port);
    }
}
