package org.latencyserver.core.estimate;

import org.latencyserver.core.path.BoundMethod;
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
 * is refused with the reason; so is a cell without one in a profile that has some. A path with two or
 * more loaded hops is composed ({@link ProfilePath}): by the union bound unless another method is asked.
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
        return estimate(profile, load, messageSizeBytes, boundPercent, BoundMethod.UNION);
    }

    /**
     * As {@link #estimate(Profile, ConnectionLoadState, int, double)}; a path with two or more loaded hops is composed
     * from its parts ({@link ProfilePath}) by {@code method}, said in the estimate.
     *
     * @param method how a composed path's bound is had; a path with at most one loaded hop has no use for it
     * @return the estimate
     * @throws EstimateRefusedException as the four-argument form, or naming the hop whose band has no port cell
     */
    public static Estimate estimate(final Profile profile, final ConnectionLoadState load, final int messageSizeBytes,
                                    final double boundPercent, final BoundMethod method) throws EstimateRefusedException {
        if (ProfilePath.isComposed(load)) {
            if (!(boundPercent > 0 && boundPercent <= 100)) {
                throw new IllegalArgumentException("bound percentage must be in (0, 100], was " + boundPercent);
            }
            return ProfilePath.boundEstimate(ProfilePath.bounds(profile, load, messageSizeBytes, boundPercent), method);
        }
        final ProfileHistograms.StateHistogram state = ProfileHistograms.forState(profile, load, messageSizeBytes);
        return HistogramBoundEstimate.of(2, state.histogram(), boundPercent, state.basis(), state.notes());
    }
}
