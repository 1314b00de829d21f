package org.latencyserver.core.calibration;

import org.latencyserver.core.histogram.LatencyHistogram;

/**
 * Adaptive conformal inference for a served x % bound (Gibbs &amp; Candès, NeurIPS 2021): the level
 * at which the bound is read from its histogram is corrected after every observed round trip by
 * {@code α ← α + γ (α_target − miss)}, so that the long-run share of round trips above the served
 * bound converges to {@code α_target = 1 − x / 100} however the path drifts.
 *
 * <p>Round trips arrive in blocks (a probe window, a measurement). A block of {@code n} round trips
 * with {@code k} misses, arriving when the level has already learned from {@code b} blocks, moves {@code α} by
 * <pre>
 *   Δα = γ_b · min(n, maxBlockWeight) · (α_target − k / n)        γ_b = γ · max(1, {@value #YOUNG_BLOCKS} / (b + 1))
 * </pre>
 * then keeps it in {@code [minMissFraction, maxMissFraction]}, {@code minMissFraction = −γ · maxBlockWeight · α_target}
 * (−0.01 at the defaults). Units: α and k / n are fractions of round trips, γ is per round trip, so
 * {@code γ · min(n, cap)} is dimensionless. Why each part:
 * <ul>
 * <li><b>The block weight</b> {@code min(n, maxBlockWeight)}: the per-round-trip rule, with a measurement's thousand
 *     correlated round trips weighing no more than {@code maxBlockWeight} probes (they are one look at the path, not a
 *     thousand independent ones).</li>
 * <li><b>The floor, one clean block below 0 (anti-windup)</b>: every α ≤ 0 asks for the histogram's top and serves
 *     the same bound, so below 0 the integrator only stores misses as delay. With the old floor of −0.2, a state whose
 *     first block of 32 round trips mostly missed (Δα ≈ −0.005 · 32 · 0.9 = −0.144, to α ≈ −0.104) needed 11 clean
 *     blocks of 50 (each +0.005 · 50 · 0.04 = +0.01) to serve below the top again and 15 to be back at the nominal
 *     level; a level wound down to −0.2 needed 21 and 24. The floor {@code −γ · cap · α_target} is what one clean
 *     full block gives back: after a burst, two blocks are served at the top, the clean one that brings α from the
 *     floor to 0 and the next (α = 0 still asks for the top), then the level is below it. It is not 0 because
 *     what it clips is that debt: where the reference is so low that even its top misses often, clipping at 0 lets
 *     the long-run miss rate exceed α_target (simulated, a reference 2 times too low: 6.7 % at 0, 5.2 % here, 4.0 %
 *     at −0.2; 1.5 times too low: 4.3 %, 4.07 %, 4.0 %).</li>
 * <li><b>The step</b> {@code γ_b}: {@code YOUNG_BLOCKS / (b + 1)} times γ while above 1 — with {@value #YOUNG_BLOCKS}
 *     block, γ for every block. A young step (4, 2, 1.33 times γ for a level's first three blocks) was measured and
 *     set aside: on the loopback demo it made the shape-model QoS 4 bounds over-cover every shape (97.8–98.3 % at
 *     1.5–2.4 times the true p96, against 92.7–97.7 % at 0.7–1.9 times with γ throughout), most likely as every young state
 *     then swings between the histogram's top and the nominal level and the shape model learns that swing as spread;
 *     in simulation it also doubled the idle pattern's bound where references were near right. The floor alone brings a
 *     level hit by one fully missed block of 50 back to the nominal level after five clean blocks of 50 (24 from −0.2).
 *     The block count {@code b} is still passed (and kept per level) so that the step can depend on it.</li>
 * </ul>
 *
 * <p>Long run: this is Gibbs &amp; Candès's rule with a clipped α. Summing the
 * steps over {@code T} later blocks, {@code |mean weighted miss − α_target| ≤ (α_max − α_min + γ · cap) / (γ · W_T)}
 * ({@code W_T} the summed weights) plus the clipped amount over {@code γ · W_T}: the floor clips only blocks that miss
 * while α is within a block of 0 (the histogram's top or next to it is served), so where some level below the top holds, misses average α_target under
 * drift as before; where only the top or nothing in the histogram holds, the {@linkplain RatioScores ratios} rescale
 * the bound instead ({@link EstimateCorrection}): with a reference two times too low, probes of a heavy-tailed path miss
 * 5.2 % in the long run at the level alone and 4.3 % with the rescale, which serves only where the level's bound lies
 * 1.3 times off its own.
 *
 * <p>When the path is stationary and the histogram right, misses average {@code α_target} and
 * {@code α} wanders around it: the served bound falls back to the thesis's. An α read back from an older record below
 * the floor (e.g. −0.2) is brought up to it on construction.
 *
 * <p>Beside the level, the {@linkplain RatioScores ratios} of the round trips that followed to the thesis's bound they
 * followed ({@link #observeRatios}): where the histogram itself is far off, no level of it holds, and {@link
 * EstimateCorrection} rescales the thesis's bound by their quantile instead.
 *
 * <p>Immutable and thread-safe.
 *
 * @param targetMissFraction α_target, in (0, 1): 1 − bound percent / 100
 * @param missFraction       α now: the served level is {@code 1 − α}; below {@link #minMissFraction()} it is raised to it
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

    /** Default γ: one fully missed window of 8 probes raises a mature 96 % level by about 3.8 points. */
    public static final double DEFAULT_STEP_PER_ROUND_TRIP = 0.005;
    /** Default cap: a measurement counts as 50 probes. */
    public static final int DEFAULT_MAX_BLOCK_WEIGHT = 50;
    /**
     * Blocks over which a young level's step decays to γ: its b-th block (b from 0) moves it by {@code
     * YOUNG_BLOCKS / (b + 1)} times γ while that is above 1. 1: no young step (see the class's Javadoc for why).
     */
    public static final int YOUNG_BLOCKS = 1;
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
        missFraction = Math.max(-stepPerRoundTrip * maxBlockWeight * targetMissFraction, missFraction);
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
     * The mature step (γ): for a level that has learned from at least {@value #YOUNG_BLOCKS} blocks, or whose count is
     * not known.
     *
     * @param roundTrips round trips of the block, {@code >= 0} (0 changes nothing)
     * @param misses     of those, how many were above the bound served when they were sent
     * @return the level after the block
     */
    public AdaptiveQuantileLevel observe(final long roundTrips, final long misses) {
        return observe(roundTrips, misses, YOUNG_BLOCKS);
    }

    /**
     * @param roundTrips   round trips of the block, {@code >= 0} (0 changes nothing)
     * @param misses       of those, how many were above the bound served when they were sent
     * @param blocksBefore blocks this level learned from before this one, {@code >= 0}: below {@value #YOUNG_BLOCKS}
     *                     the step is {@link #stepFactor larger}
     * @return the level after the block
     */
    public AdaptiveQuantileLevel observe(final long roundTrips, final long misses, final long blocksBefore) {
        if (roundTrips < 0 || misses < 0 || misses > roundTrips) {
            throw new IllegalArgumentException("need 0 <= misses <= round trips, was " + misses + " of " + roundTrips);
        }
        if (blocksBefore < 0) {
            throw new IllegalArgumentException("blocks before must be >= 0, was " + blocksBefore);
        }
        if (roundTrips == 0) {
            return this;
        }
        final double weight = Math.min(roundTrips, maxBlockWeight);
        final double next = missFraction
            + stepFactor(blocksBefore) * stepPerRoundTrip * weight * (targetMissFraction - (double) misses / roundTrips);
        return new AdaptiveQuantileLevel(targetMissFraction, Math.max(minMissFraction(), Math.min(maxMissFraction(), next)),
            stepPerRoundTrip, maxBlockWeight, ratios, profileRatios);
    }

    /**
     * @param blocksBefore blocks the level learned from before the block, {@code >= 0}
     * @return γ_b / γ: {@code max(1, YOUNG_BLOCKS / (blocksBefore + 1))}
     */
    public static double stepFactor(final long blocksBefore) {
        return Math.max(1.0, (double) YOUNG_BLOCKS / (blocksBefore + 1.0));
    }

    /**
     * @return the lowest α, {@code −γ · maxBlockWeight · α_target}: any α ≤ 0 serves the histogram's top, so winding
     *         further than one clean full block can give back would only delay the way down (anti-windup); older
     *         records with α down to −0.2 are raised to it
     */
    public double minMissFraction() {
        return -stepPerRoundTrip * maxBlockWeight * targetMissFraction;
    }

    /** @return the highest α a block may bring the level to: the lower of 2 α_target + 0.05 and the median's */
    public double maxMissFraction() {
        return Math.min(1.0 - MIN_LEVEL_PERCENT / 100.0, 2.0 * targetMissFraction + 0.05);
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

    /** @return whether the correction asks for the histogram's top (α at most 0) */
    public boolean atHistogramTop() {
        return missFraction <= 0;
    }
}
