package org.latencyserver.core.estimate;

import org.latencyserver.core.profile.Profile;
import org.latencyserver.core.state.ConnectionLoadState;

/**
 * QoS 2: the x % latency bound from a profile's histogram (thesis section 4.2.4): the upper
 * edge of the first bin at which the cumulative count reaches ⌈x·n⌉, with the 95 % interval of
 * the share at or below it (Eq. 3), the Wilson interval, and a distribution-free interval of the
 * bound in ms.
 *
 * <p>The histogram is the one {@link ProfileHistograms#forState} gives for the load state: a
 * port above its loaded threshold, which no CPU cell covers, is refused with the port state named,
 * never answered with the idle port's bound. A profile without histograms (the thesis's Appendix A)
 * is refused with the reason; so is a cell without one in a profile that has some.
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
     * @throws EstimateRefusedException when a CPU state is unknown, the port is loaded, the cell is
     *                                  missing, it has no histogram, or the bound lies beyond the histogram
     * @throws IllegalArgumentException when {@code boundPercent} is NaN or outside (0, 100]
     */
    public static Estimate estimate(final Profile profile, final ConnectionLoadState load, final int messageSizeBytes,
                                    final double boundPercent) throws EstimateRefusedException {
        final ProfileHistograms.StateHistogram state = ProfileHistograms.forState(profile, load, messageSizeBytes);
        return HistogramBoundEstimate.of(2, state.histogram(), boundPercent, state.basis(), state.notes());
    }
}
