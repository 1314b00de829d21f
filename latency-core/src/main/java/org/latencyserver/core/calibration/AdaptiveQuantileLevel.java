package org.latencyserver.core.calibration;

import org.latencyserver.core.histogram.LatencyHistogram;

/**
 * Adaptive conformal inference for a served x % bound (Gibbs &amp; Candès, NeurIPS 2021): the level
 * at which the bound is read from its histogram is corrected after every observed round trip by
 * {@code α ← α + γ (α_target − miss)}, so that the long-run share of round trips above the served
 * bound converges to {@code α_target = 1 − x / 100} however the path drifts.
 *
 * <p>Round trips arrive in blocks (a probe window, a measurement). A block of {@code n} round trips
 * with {@code k} misses moves {@code α} by {@code γ · min(n, maxBlockWeight) · (α_target − k / n)}: the
 * per-round-trip rule, with a measurement's thousand correlated round trips weighing no more than
 * {@code maxBlockWeight} probes (they are one look at the path, not a thousand independent ones).
 *
 * <p>When the path is stationary and the histogram right, misses average {@code α_target} and
 * {@code α} wanders around it: the served bound falls back to the thesis's. {@code α} is kept in
 * {@code [minMissFraction, maxMissFraction]} so a long outage cannot wind it up without limit.
 *
 * <p>Beside the level, the {@linkplain RatioScores ratios} of the round trips that followed to the thesis's bound they
 * followed ({@link #observeRatios}): where the histogram itself is far off, no level of it holds, and {@link
 * EstimateCorrection} rescales the thesis's bound by their quantile instead.
 *
 * <p>Immutable and thread-safe.
 *
 * @param targetMissFraction α_target, in (0, 1): 1 − bound percent / 100
 * @param missFraction       α now: the served level is {@code 1 − α}
 * @param stepPerRoundTrip   γ, {@code > 0}
 * @param maxBlockWeight     most round trips a block counts as, {@code >= 1}
 * @param ratios             recent round trips over the thesis's bound they followed, when it was read from the path's
 *                           own round trips (band probes, a measurement)
 * @param profileRatios      the same when the thesis's bound was read from a profile: kept apart, since a profile's
 *                           bound and the path's own are off by different factors
 */
public record AdaptiveQuantileLevel(double targetMissFraction, double missFraction, double stepPerRoundTrip,
                                    int maxBlockWeight, RatioScores ratios, RatioScores profileRatios) {

    /** A level with no ratios learned yet. */
    public AdaptiveQuantileLevel(final double targetMissFraction, final double missFraction, final double stepPerRoundTrip,
                                 final int maxBlockWeight) {
        this(targetMissFraction, missFraction, stepPerRoundTrip, maxBlockWeight, RatioScores.EMPTY, RatioScores.EMPTY);
    }

    /** A level with no ratios to a profile's bound learned yet. */
    public AdaptiveQuantileLevel(final double targetMissFraction, final double missFraction, final double stepPerRoundTrip,
                                 final int maxBlockWeight, final RatioScores ratios) {
        this(targetMissFraction, missFraction, stepPerRoundTrip, maxBlockWeight, ratios, RatioScores.EMPTY);
    }

    /** Default γ: one fully missed window of 8 probes raises a 96 % level by about 3.8 points. */
    public static final double DEFAULT_STEP_PER_ROUND_TRIP = 0.005;
    /** Default cap: a measurement counts as 50 probes. */
    public static final int DEFAULT_MAX_BLOCK_WEIGHT = 50;
    /** Lowest α: the level may be asked above 100 % (then the histogram's top is served) by this much. */
    public static final double MIN_MISS_FRACTION = -0.2;
    /** Lowest level ever served, percent: below it the correction would serve a median, not a bound. */
    public static final double MIN_LEVEL_PERCENT = 50.0;

    /**
     * @throws IllegalArgumentException on a value outside the ranges above
     */
    public AdaptiveQuantileLevel {
        if (!(targetMissFraction > 0 && targetMissFraction < 1)) {
            throw new IllegalArgumentException("target miss fraction must be in (0, 1), was " + targetMissFraction);
        }
        if (!(stepPerRoundTrip > 0) || Double.isInfinite(stepPerRoundTrip)) {
            throw new IllegalArgumentException("step must be finite and > 0, was " + stepPerRoundTrip);
        }
        if (maxBlockWeight < 1) {
            throw new IllegalArgumentException("block weight must be >= 1, was " + maxBlockWeight);
        }
        if (Double.isNaN(missFraction)) {
            throw new IllegalArgumentException("miss fraction is NaN");
        }
        if (ratios == null || profileRatios == null) {
            throw new IllegalArgumentException("ratios must not be null (RatioScores.EMPTY for none)");
        }
    }

    /**
     * @param boundPercent the configured percentage, in (0, 100)
     * @return a level that starts at the thesis's (α = α_target), with the default step and cap
     */
    public static AdaptiveQuantileLevel start(final double boundPercent) {
        return new AdaptiveQuantileLevel(1.0 - boundPercent / 100.0, 1.0 - boundPercent / 100.0, DEFAULT_STEP_PER_ROUND_TRIP,
            DEFAULT_MAX_BLOCK_WEIGHT);
    }

    /**
     * @param roundTrips round trips of the block, {@code >= 0} (0 changes nothing)
     * @param misses     of those, how many were above the bound served when they were sent
     * @return the level after the block
     */
    public AdaptiveQuantileLevel observe(final long roundTrips, final long misses) {
        if (roundTrips < 0 || misses < 0 || misses > roundTrips) {
            throw new IllegalArgumentException("need 0 <= misses <= round trips, was " + misses + " of " + roundTrips);
        }
        if (roundTrips == 0) {
            return this;
        }
        final double weight = Math.min(roundTrips, maxBlockWeight);
        final double next = missFraction + stepPerRoundTrip * weight * (targetMissFraction - (double) misses / roundTrips);
        final double maxMissFraction = Math.min(1.0 - MIN_LEVEL_PERCENT / 100.0, 2.0 * targetMissFraction + 0.05);
        return new AdaptiveQuantileLevel(targetMissFraction, Math.max(MIN_MISS_FRACTION, Math.min(maxMissFraction, next)),
            stepPerRoundTrip, maxBlockWeight, ratios, profileRatios);
    }

    /**
     * @param roundTrips   a block of round trips that followed a served bound, ns
     * @param thesisMillis the thesis's (uncorrected) bound served behind it, ms, {@code > 0}
     * @return the level with the block's ratios learned into {@link #ratios} (the level itself unchanged)
     */
    public AdaptiveQuantileLevel observeRatios(final LatencyHistogram roundTrips, final double thesisMillis) {
        return new AdaptiveQuantileLevel(targetMissFraction, missFraction, stepPerRoundTrip, maxBlockWeight,
            ratios.add(roundTrips, thesisMillis), profileRatios);
    }

    /**
     * @param roundTrips   a block of round trips that followed a served bound read from a profile, ns
     * @param thesisMillis that bound before correction, ms, {@code > 0}
     * @return the level with the block's ratios learned into {@link #profileRatios} (the level itself unchanged)
     */
    public AdaptiveQuantileLevel observeProfileRatios(final LatencyHistogram roundTrips, final double thesisMillis) {
        return new AdaptiveQuantileLevel(targetMissFraction, missFraction, stepPerRoundTrip, maxBlockWeight, ratios,
            profileRatios.add(roundTrips, thesisMillis));
    }

    /**
     * @param other the ratios to carry instead of {@link #ratios} (e.g. the profile's, to correct a profile's bound)
     * @return the level with them (the level itself and its profile ratios unchanged)
     */
    public AdaptiveQuantileLevel withRatios(final RatioScores other) {
        return new AdaptiveQuantileLevel(targetMissFraction, missFraction, stepPerRoundTrip, maxBlockWeight, other, profileRatios);
    }

    /**
     * @param other the ratios to carry instead of {@link #profileRatios}
     * @return the level with them
     */
    public AdaptiveQuantileLevel withProfileRatios(final RatioScores other) {
        return new AdaptiveQuantileLevel(targetMissFraction, missFraction, stepPerRoundTrip, maxBlockWeight, ratios, other);
    }

    /** @return the level to read the bound at, percent, in [{@value #MIN_LEVEL_PERCENT}, 100] */
    public double servedPercent() {
        return Math.max(MIN_LEVEL_PERCENT, Math.min(100.0, 100.0 * (1.0 - missFraction)));
    }

    /** @return whether the correction asks for more than the histogram holds (α below 0: its top is served) */
    public boolean beyondHistogram() {
        return missFraction < 0;
    }
}
