package org.latencyserver.core.estimate;

import java.util.ArrayList;
import java.util.List;
import org.latencyserver.core.profile.Profile;
import org.latencyserver.core.profile.ProfileCell;
import org.latencyserver.core.state.ConnectionLoadState;
import org.latencyserver.core.state.PortState;

/**
 * QoS 2: the x % latency bound from a profile's histogram (thesis section 4.2.4): the upper
 * edge of the first bin at which the cumulative count reaches ⌈x·n⌉, with the 95 % interval of
 * the share at or below it (Eq. 3), the Wilson interval, and a distribution-free interval of the
 * bound in ms.
 *
 * <p>The thesis's bound depends on the CPU state only: no profile measured a loaded port. When
 * the port is above 90 % the bound is still given, with a note that the profile does not cover
 * that state. A profile without histograms (the thesis's Appendix A) is refused with the reason;
 * so is a cell without one in a profile that has some.
 *
 * <p>Stateless and thread-safe.
 */
public final class ProfileBoundEstimator {

    private ProfileBoundEstimator() {
    }

    /**
     * @param profile          the profile
     * @param load             the connection's load state; both CPU states must be known
     * @param messageSizeBytes a size the profile holds
     * @param boundPercent     in (0, 100]
     * @return the estimate
     * @throws EstimateRefusedException when a CPU state is unknown, the cell is missing, it has no
     *                                  histogram, or the bound lies beyond the histogram
     * @throws IllegalArgumentException when {@code boundPercent} is NaN or outside (0, 100]
     */
    public static Estimate estimate(final Profile profile, final ConnectionLoadState load, final int messageSizeBytes,
                                    final double boundPercent) throws EstimateRefusedException {
        ProfileAverageEstimator.requireKnownCpu(load);
        final ProfileCell cell = profile.cell(load.cpu(), messageSizeBytes).orElseThrow(() -> new EstimateRefusedException(
            "profile " + profile.name() + " has no cell for " + load.cpu().canonical().thesisLabel() + " at "
                + messageSizeBytes + " B; it holds sizes " + profile.messageSizesBytes()));
        if (!cell.hasHistogram()) {
            if (profile.cells().stream().noneMatch(ProfileCell::hasHistogram)) {
                throw new EstimateRefusedException("profile " + profile.name() + " has no latency histograms: QoS 2 needs a "
                    + "profile measured with histograms (thesis Appendix A gives only averages and maxima)");
            }
            throw new EstimateRefusedException("profile " + profile.name() + " has no latency histogram for cell "
                + cell.label() + ": QoS 2 needs the cell's histogram");
        }
        final List<String> notes = new ArrayList<>();
        if (load.port().isLoaded()) {
            notes.add("port above 90 %: the profile does not cover this state (port " + load.port().utilisationPercent()
                + " %); the bound reflects CPU load only (thesis section 4.2.3, constraint 3)");
        } else if (load.port().kind() == PortState.Kind.UNKNOWN) {
            notes.add("switch port state unknown: the bound assumes the port at or below 90 %");
        }
        return HistogramBoundEstimate.of(2, cell.histogram(), boundPercent,
            "profile " + profile.name() + ", cell " + cell.label(), notes);
    }
}
