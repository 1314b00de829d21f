package org.latencyserver.core.estimate;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.latencyserver.core.histogram.LatencyHistogram;
import org.latencyserver.core.profile.PortCell;
import org.latencyserver.core.profile.Profile;
import org.latencyserver.core.profile.ProfileCell;
import org.latencyserver.core.state.ConnectionLoadState;
import org.latencyserver.core.state.CpuState;
import org.latencyserver.core.state.CpuStatePair;
import org.latencyserver.core.state.PortState;

/**
 * Which of a profile's latency histograms describes a connection in a given load state, or why
 * none does. Everything that reads a profile's distribution — the QoS 2 bound, a percentile, a
 * deadline-miss probability — asks here, so a load state the profile does not cover is refused in
 * one place and never answered from a cell measured in another state.
 *
 * <p>A profile's CPU cells were measured with the switch port idle. A port above the loaded
 * threshold therefore lies outside every CPU cell: it is answered from the profile's measured port
 * cell for its band (measured with both CPUs LOW), shifted by what the connection's CPU pair adds
 * over LOW/LOW at the mean — the assumption that CPU and port delays add, said in the notes — or,
 * when the profile has no such cell, refused with the port state named; never with the idle port's
 * histogram. A path with two or more loaded hops is answered with the convolution of its parts
 * ({@link ProfilePath}), which assumes the hops' queues independent and says so.
 *
 * <p>Stateless and thread-safe.
 */
public final class ProfileHistograms {

    private ProfileHistograms() {
    }

    /**
     * The histogram of a load state, with what it rests on.
     *
     * @param histogram the distribution, ns
     * @param basis     where it comes from, e.g. {@code "profile p, cell LOW/HIGH 256 B"}
     * @param notes     what it assumes; unmodifiable, may be empty
     * @param effectiveSampleCount the samples its intervals rest on: the histogram's own count for a cell; for a
     *                  composed path (whose convolution's counts are a scale, not samples) the fewest samples behind
     *                  any of its parts; {@code >= 1}, at most the histogram's count
     */
    public record StateHistogram(LatencyHistogram histogram, String basis, List<String> notes, long effectiveSampleCount) {

        /**
         * @throws NullPointerException     when the histogram or basis is null
         * @throws IllegalArgumentException when the effective count is below 1 or above the histogram's
         */
        public StateHistogram {
            if (histogram == null || basis == null) {
                throw new NullPointerException("a state histogram needs a histogram and a basis");
            }
            if (effectiveSampleCount < 1 || effectiveSampleCount > Math.max(1, histogram.totalCount())) {
                throw new IllegalArgumentException("effective sample count must be 1.." + histogram.totalCount() + ", was "
                    + effectiveSampleCount);
            }
            notes = List.copyOf(notes);
        }

        /** A histogram of real samples: its intervals rest on its own count. */
        public StateHistogram(final LatencyHistogram histogram, final String basis, final List<String> notes) {
            this(histogram, basis, notes, Math.max(1, histogram == null ? 1 : histogram.totalCount()));
        }

        /** @return true when its intervals rest on fewer samples than its counts hold (a composed path) */
        public boolean scaled() {
            return effectiveSampleCount < histogram.totalCount();
        }
    }

    /**
     * @param profile          the profile
     * @param load             the connection's load state; both CPU states must be known
     * @param messageSizeBytes a size the profile holds
     * @return the histogram of that state and size
     * @throws EstimateRefusedException when a CPU state is unknown, the port is loaded and the profile has no
     *                                  port cell for it, a cell is missing, or a CPU cell has no histogram
     */
    public static StateHistogram forState(final Profile profile, final ConnectionLoadState load, final int messageSizeBytes)
        throws EstimateRefusedException {
        ProfileAverageEstimator.requireKnownCpu(load);
        if (ProfilePath.isComposed(load)) {
            return withNote(ProfilePath.independentHistogram(profile, load, messageSizeBytes), ProfilePath.unknownHopsNote(load));
        }
        if (load.isMultiHop()) {
            return withNote(forState(profile, ProfilePath.asOnePort(load), messageSizeBytes), ProfilePath.unknownHopsNote(load));
        }
        if (load.port().isLoaded()) {
            return loadedPort(profile, load, messageSizeBytes);
        }
        final ProfileCell cell = cpuCellWithHistogram(profile, load.cpu(), messageSizeBytes);
        final List<String> notes = load.port().kind() == PortState.Kind.UNKNOWN
            ? List.of("switch port state unknown: the histogram assumes the port at or below its loaded threshold")
            : List.of();
        return new StateHistogram(cell.histogram(), "profile " + profile.name() + ", cell " + cell.label(), notes);
    }

    /**
     * A loaded port: the measured port cell of its band (both CPUs idle), shifted by what the CPU
     * pair adds over idle CPUs at the mean — CPU and port delays assumed to add.
     */
    private static StateHistogram loadedPort(final Profile profile, final ConnectionLoadState load, final int messageSizeBytes)
        throws EstimateRefusedException {
        final PortCell portCell = portCell(profile, load, messageSizeBytes);
        final double cpuExcessMillis = cpuExcessMillis(profile, load.cpu(), messageSizeBytes);
        final List<String> notes = new ArrayList<>();
        LatencyHistogram histogram = portCell.histogram();
        if (cpuExcessMillis > 0) {
            histogram = shifted(histogram, Math.round(cpuExcessMillis * 1e6));
            notes.add(String.format(Locale.ROOT, "%s: the port cell (measured with both CPUs LOW) shifted by %.3f ms, what the"
                + " CPU pair's mean adds over LOW/LOW at %d B", ADDITIVE, cpuExcessMillis, messageSizeBytes));
        } else {
            notes.add("port cell measured with both CPUs LOW; the CPU pair adds nothing over it at the mean");
        }
        return new StateHistogram(histogram, "profile " + profile.name() + ", " + portCell.label() + " for " + load.port(),
            notes);
    }

    private static StateHistogram withNote(final StateHistogram state, final String note) {
        if (note == null) {
            return state;
        }
        final List<String> notes = new ArrayList<>(state.notes());
        notes.add(note);
        return new StateHistogram(state.histogram(), state.basis(), notes, state.effectiveSampleCount());
    }

    /** How a loaded port's cell and a CPU pair are combined, said in every such estimate. */
    public static final String ADDITIVE = "CPU and port delays assumed to add";

    /**
     * @param profile          the profile
     * @param load             a load state whose port is loaded (LOADED or SATURATED)
     * @param messageSizeBytes the message size
     * @return the measured port cell for a loaded port's state and the size
     * @throws EstimateRefusedException naming the port state, when the profile has none
     */
    public static PortCell portCell(final Profile profile, final ConnectionLoadState load, final int messageSizeBytes)
        throws EstimateRefusedException {
        final PortCell cell = profile.portCell(load.port().utilisationPercent(), messageSizeBytes).orElse(null);
        if (cell != null) {
            return cell;
        }
        if (load.port().kind() == PortState.Kind.SATURATED) {
            throw new EstimateRefusedException("profile " + profile.name() + " does not cover SATURATED: a port offered more than"
                + " its rate (dropping) is in no profile's cells; only a measurement of the path (QoS 3/4) covers it");
        }
        throw new EstimateRefusedException("profile " + profile.name() + " does not cover " + load.port() + " at "
            + messageSizeBytes + " B: " + (profile.portCells().isEmpty()
                ? "its cells were measured with the switch port idle, and a loaded port's queue is not in them"
                : "no measured port cell holds " + load.port().utilisationPercent() + " % at that size")
            + " (a profile with the port's cells covers it: profile measure --port-loads)");
    }

    /**
     * @return what the CPU pair's cell adds over the LOW/LOW cell at the mean, ms, never below 0
     * @throws EstimateRefusedException when either cell is missing
     */
    static double cpuExcessMillis(final Profile profile, final CpuStatePair pair, final int messageSizeBytes)
        throws EstimateRefusedException {
        final ProfileCell cell = cpuCell(profile, pair, messageSizeBytes);
        final ProfileCell idle = cpuCell(profile, new CpuStatePair(CpuState.LOW, CpuState.LOW), messageSizeBytes);
        return Math.max(0.0, cell.meanMillis() - idle.meanMillis());
    }

    private static ProfileCell cpuCell(final Profile profile, final CpuStatePair pair, final int messageSizeBytes)
        throws EstimateRefusedException {
        return profile.cell(pair, messageSizeBytes).orElseThrow(() -> new EstimateRefusedException(
            "profile " + profile.name() + " has no cell for " + pair.canonical().thesisLabel() + " at "
                + messageSizeBytes + " B; it holds sizes " + profile.messageSizesBytes()));
    }

    private static ProfileCell cpuCellWithHistogram(final Profile profile, final CpuStatePair pair, final int messageSizeBytes)
        throws EstimateRefusedException {
        final ProfileCell cell = cpuCell(profile, pair, messageSizeBytes);
        if (!cell.hasHistogram()) {
            if (profile.cells().stream().noneMatch(ProfileCell::hasHistogram)) {
                throw new EstimateRefusedException("profile " + profile.name() + " has no latency histograms: a bound or "
                    + "percentile needs a profile measured with histograms (thesis Appendix A gives only averages and maxima)");
            }
            throw new EstimateRefusedException("profile " + profile.name() + " has no latency histogram for cell "
                + cell.label() + ": a bound or percentile needs the cell's histogram");
        }
        return cell;
    }

    private static LatencyHistogram shifted(final LatencyHistogram histogram, final long byNanos) {
        final long[] edges = histogram.upperEdgesNanos();
        for (int i = 0; i < edges.length; i++) {
            edges[i] += byNanos;
        }
        return LatencyHistogram.of(edges, histogram.counts(), histogram.overflowCount());
    }
}
