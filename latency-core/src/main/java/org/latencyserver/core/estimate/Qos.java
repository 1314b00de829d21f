package org.latencyserver.core.estimate;

import org.latencyserver.core.path.BoundMethod;
import org.latencyserver.core.profile.Profile;
import org.latencyserver.core.state.ConnectionLoadState;

/**
 * A connection's QoS level: which estimate the latency server serves for it and where that estimate
 * comes from. Fixed per connection by the configuration (the thesis: "the QoS … can not be altered
 * during run-time").
 *
 * <ul>
 *   <li>{@link #PROFILE_AVERAGE} (1): the mean round trip, from an a-priori profile;</li>
 *   <li>{@link #PROFILE_BOUND} (2): the bound that x % of the round trips stay within, from a profile's histograms;</li>
 *   <li>{@link #MEASURED_AVERAGE} (3): the mean round trip, measured by the client agent when the load state changes;</li>
 *   <li>{@link #MEASURED_BOUND} (4): the x % bound, measured by the client agent when the load state changes.</li>
 * </ul>
 *
 * <p>File formats and the IDL carry the {@link #level() integer}; this type is what the code
 * between them reasons with.
 *
 * <p>Immutable and thread-safe.
 */
public enum Qos {
    /** QoS 1: the mean round trip from an a-priori profile. */
    PROFILE_AVERAGE(1, false, EstimateKind.AVERAGE),
    /** QoS 2: the x % latency bound from an a-priori profile (its cells' histograms). */
    PROFILE_BOUND(2, false, EstimateKind.BOUND),
    /** QoS 3: the measured mean round trip. */
    MEASURED_AVERAGE(3, true, EstimateKind.AVERAGE),
    /** QoS 4: the measured x % latency bound. */
    MEASURED_BOUND(4, true, EstimateKind.BOUND);

    private static final Qos[] BY_LEVEL = values();

    private final int level;
    private final boolean measured;
    private final EstimateKind kind;

    Qos(final int level, final boolean measured, final EstimateKind kind) {
        this.level = level;
        this.measured = measured;
        this.kind = kind;
    }

    /**
     * @param level the thesis's QoS number, as the configuration, the state file and the IDL carry it
     * @return the QoS of that number
     * @throws IllegalArgumentException when {@code level} is not 1..4
     */
    public static Qos ofLevel(final int level) {
        if (level < 1 || level > BY_LEVEL.length) {
            throw new IllegalArgumentException("QoS must be 1..4, was " + level);
        }
        return BY_LEVEL[level - 1];
    }

    /** @return the thesis's QoS number, 1..4 */
    public int level() {
        return level;
    }

    /** @return true for QoS 3 and 4, measured by the client agent on load-state changes */
    public boolean measured() {
        return measured;
    }

    /** @return true for QoS 2 and 4, which serve a bound at a percentage rather than a mean */
    public boolean bound() {
        return kind == EstimateKind.BOUND;
    }

    /** @return the kind of estimate served: {@link EstimateKind#AVERAGE} for QoS 1 and 3, {@link EstimateKind#BOUND} for 2 and 4 */
    public EstimateKind kind() {
        return kind;
    }

    /**
     * @return true for QoS 1 and 2, served from a profile and so unable to serve without one (QoS 3
     *         and 4 may name a profile as the fallback of a load state never measured)
     */
    public boolean needsProfile() {
        return !measured;
    }

    /** @return true for QoS 2 and 4, whose connection must say the share of messages the bound covers */
    public boolean needsBoundPercent() {
        return bound();
    }

    /** @return true for QoS 2 only, whose bound is read from the profile cells' histograms */
    public boolean needsProfileHistograms() {
        return needsProfile() && bound();
    }

    /** @return the QoS from the same source that serves a bound: 2 for 1 and 2, 4 for 3 and 4 */
    public Qos withBound() {
        return measured ? MEASURED_BOUND : PROFILE_BOUND;
    }

    /**
     * The estimate this QoS serves from a profile: the profile's bound at {@code boundPercent} for a
     * bound (QoS 2, and 4's fallback for a state never measured), its mean for an average (QoS 1, and
     * 3's fallback).
     *
     * @param profile          the connection's profile
     * @param load             the connection's load state
     * @param messageSizeBytes the connection's message size
     * @param boundPercent     the share of messages the bound covers; ignored for an average
     * @return the profile's estimate
     * @throws EstimateRefusedException when the profile has no cell (or, for a bound, no histogram) for it
     */
    public Estimate fromProfile(final Profile profile, final ConnectionLoadState load, final int messageSizeBytes,
                                final double boundPercent) throws EstimateRefusedException {
        return fromProfile(profile, load, messageSizeBytes, boundPercent, BoundMethod.UNION);
    }

    /**
     * As {@link #fromProfile(Profile, ConnectionLoadState, int, double)}, with the method by which a path with two or
     * more loaded hops has its bound composed.
     *
     * @param method how a composed path's bound is had (see {@link ProfilePath})
     * @return the profile's estimate
     * @throws EstimateRefusedException as the four-argument form
     */
    public Estimate fromProfile(final Profile profile, final ConnectionLoadState load, final int messageSizeBytes,
                                final double boundPercent, final BoundMethod method) throws EstimateRefusedException {
        return bound() ? ProfileBoundEstimator.estimate(profile, load, messageSizeBytes, boundPercent, method)
            : ProfileAverageEstimator.estimate(profile, load, messageSizeBytes);
    }

    /**
     * The estimate this QoS serves from a measurement: its bound at {@code boundPercent} for a bound,
     * its mean for an average.
     *
     * @param measurement  the client agent's round trips
     * @param boundPercent the share of messages the bound covers; ignored for an average
     * @param basis        where the measurement came from, for the estimate's basis text
     * @return the measured estimate
     * @throws EstimateRefusedException when the measurement cannot support it (too few round trips for the bound)
     */
    public Estimate fromMeasurement(final Measurement measurement, final double boundPercent, final String basis)
        throws EstimateRefusedException {
        return bound() ? MeasuredBoundEstimator.estimate(measurement, boundPercent, basis)
            : MeasuredAverageEstimator.estimate(measurement, basis);
    }
}
