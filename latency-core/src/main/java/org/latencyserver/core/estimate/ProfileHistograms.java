package org.latencyserver.core.estimate;

import java.util.List;
import org.latencyserver.core.histogram.LatencyHistogram;
import org.latencyserver.core.profile.Profile;
import org.latencyserver.core.profile.ProfileCell;
import org.latencyserver.core.state.ConnectionLoadState;
import org.latencyserver.core.state.PortState;

/**
 * Which of a profile's latency histograms describes a connection in a given load state, or why
 * none does. Everything that reads a profile's distribution — the QoS 2 bound, a percentile, a
 * deadline-miss probability — asks here, so a load state the profile does not cover is refused in
 * one place and never answered from a cell measured in another state.
 *
 * <p>A profile's CPU cells were measured with the switch port idle. A port above the loaded
 * threshold therefore lies outside every CPU cell: the answer is a refusal naming the port state,
 * never the idle port's histogram.
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
     */
    public record StateHistogram(LatencyHistogram histogram, String basis, List<String> notes) {

        /**
         * @throws NullPointerException when the histogram or basis is null
         */
        public StateHistogram {
            if (histogram == null || basis == null) {
                throw new NullPointerException("a state histogram needs a histogram and a basis");
            }
            notes = List.copyOf(notes);
        }
    }

    /**
     * @param profile          the profile
     * @param load             the connection's load state; both CPU states must be known
     * @param messageSizeBytes a size the profile holds
     * @return the histogram of that state and size
     * @throws EstimateRefusedException when a CPU state is unknown, the port is loaded (no CPU cell
     *                                  covers a loaded port), the cell is missing, or it has no histogram
     */
    public static StateHistogram forState(final Profile profile, final ConnectionLoadState load, final int messageSizeBytes)
        throws EstimateRefusedException {
        ProfileAverageEstimator.requireKnownCpu(load);
        requirePortCovered(profile, load);
        final ProfileCell cell = profile.cell(load.cpu(), messageSizeBytes).orElseThrow(() -> new EstimateRefusedException(
            "profile " + profile.name() + " has no cell for " + load.cpu().canonical().thesisLabel() + " at "
                + messageSizeBytes + " B; it holds sizes " + profile.messageSizesBytes()));
        if (!cell.hasHistogram()) {
            if (profile.cells().stream().noneMatch(ProfileCell::hasHistogram)) {
                throw new EstimateRefusedException("profile " + profile.name() + " has no latency histograms: a bound or "
                    + "percentile needs a profile measured with histograms (thesis Appendix A gives only averages and maxima)");
            }
            throw new EstimateRefusedException("profile " + profile.name() + " has no latency histogram for cell "
                + cell.label() + ": a bound or percentile needs the cell's histogram");
        }
        final List<String> notes = load.port().kind() == PortState.Kind.UNKNOWN
            ? List.of("switch port state unknown: the histogram assumes the port at or below its loaded threshold")
            : List.of();
        return new StateHistogram(cell.histogram(), "profile " + profile.name() + ", cell " + cell.label(), notes);
    }

    /**
     * Refuses a loaded port: the profile's cells describe an idle port only.
     *
     * @param profile the profile
     * @param load    the connection's load state
     * @throws EstimateRefusedException naming the port state, when the port is loaded
     */
    public static void requirePortCovered(final Profile profile, final ConnectionLoadState load)
        throws EstimateRefusedException {
        if (load.port().isLoaded()) {
            throw new EstimateRefusedException("profile " + profile.name() + " does not cover " + load.port()
                + ": its cells were measured with the switch port idle, and a loaded port's queue is not in them"
                + " (serve this connection at QoS 4, or measure the port's cells into the profile)");
        }
    }
}
