package org.latencyserver.core.calibration;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.latencyserver.core.profile.Profile;
import org.latencyserver.core.profile.ProfileCell;
import org.latencyserver.core.profile.Provenance;

/**
 * Writes what live probes taught about a profile's cells as a profile of its own, for planners to
 * diff against the original and load. Stateless and thread-safe.
 */
public final class LearnedProfiles {

    private LearnedProfiles() {
    }

    /**
     * The key of a cell: its pair (canonical) and size.
     *
     * @param cpuStates        the pair, canonical
     * @param messageSizeBytes the size
     */
    public record CellKey(org.latencyserver.core.state.CpuStatePair cpuStates, int messageSizeBytes) {

        /** Keeps the pair canonical. */
        public CellKey {
            cpuStates = cpuStates.canonical();
        }
    }

    /**
     * @param base    the profile the cells were learned against
     * @param learned the learned cells of {@code base}, by key
     * @return a valid profile named {@code <base>-learned}: learned cells where live data exist,
     *         the base's cells elsewhere, with a provenance saying which and from how many round trips
     * @throws IllegalArgumentException when nothing was learned for {@code base}
     */
    public static Profile of(final Profile base, final Map<CellKey, LearnedCell> learned) {
        final List<ProfileCell> cells = new ArrayList<>();
        long roundTrips = 0;
        long first = Long.MAX_VALUE;
        long last = 0;
        final List<String> learnedLabels = new ArrayList<>();
        for (final ProfileCell cell : base.cells()) {
            final LearnedCell live = learned.get(new CellKey(cell.cpuStates(), cell.messageSizeBytes()));
            if (live != null && live.roundTrips() > 0 && live.decayedRoundTrips() >= 0.5) {
                cells.add(live.toProfileCell());
                roundTrips += live.roundTrips();
                first = Math.min(first, live.firstEpochMillis());
                last = Math.max(last, live.lastEpochMillis());
                learnedLabels.add(cell.label());
            } else {
                cells.add(cell);
            }
        }
        if (learnedLabels.isEmpty()) {
            throw new IllegalArgumentException("nothing was learned for profile '" + base.name()
                + "': no QoS 1/2 connection on it has received probe round trips yet");
        }
        final String method = String.format(Locale.ROOT,
            "learned by the Latency Server from %d live probe round trips between %s and %s (Poisson probes of the client"
                + " agents, decayed online histograms with a half-life of %d min) for the cells %s; every other cell is"
                + " profile '%s' (%s) unchanged", roundTrips, Instant.ofEpochMilli(first), Instant.ofEpochMilli(last),
            LearnedCell.HALF_LIFE_MILLIS / 60_000, String.join(", ", learnedLabels), base.name(), base.provenance().source());
        final Provenance provenance = new Provenance("learned from live probes (Latency Server)", base.provenance().hardware(),
            base.provenance().orb(), base.provenance().operatingSystem(), Instant.ofEpochMilli(last).toString().substring(0, 10),
            method);
        return new Profile(base.name() + "-learned", base.workstationType(), base.layer(), provenance, base.assumptions(),
            base.portModel(), cells, base.portCells());
    }
}
