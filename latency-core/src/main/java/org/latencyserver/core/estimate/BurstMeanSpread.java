package org.latencyserver.core.estimate;

import java.util.List;
import org.apache.commons.math3.distribution.TDistribution;
import org.latencyserver.core.stats.NormalQuantile;

/**
 * How far the mean of the application's next burst of {@code n} consecutive round trips may lie from
 * a measured mean: a two-part model of a burst mean's spread, read from a measurement, in relative
 * units (variances of a mean divided by the squared measured mean, so that the model carries over to
 * a served mean of another size, e.g. a corrected one).
 *
 * <pre>
 *   Var(burst mean of n) / x̄²  =  B  +  V / n          (the next burst)
 *   Var(x̄) / x̄²                =  M                     (the measured mean itself)
 *   relative sd of (burst mean − x̄)  =  √(B + V/n + M)
 * </pre>
 *
 * <ul>
 * <li>{@code V} (within): the round trips' own scatter, {@code s² / x̄²}; what averages away in a
 *     longer burst.</li>
 * <li>{@code B} (between): what a burst shares with its neighbours and no burst length averages away —
 *     a busy spell of the machine slows a whole burst. Read from the measurement's batch means (k
 *     consecutive batches of b = N/k round trips): {@code B = max(0, s_b² / x̄² − V / b)}, the batch means'
 *     variance beyond what independent round trips would give. 0 without batch means.</li>
 * <li>{@code M}: the measured mean's own variance, {@code s_b² / (k x̄²)} with batch means, else
 *     {@code V / N}.</li>
 * </ul>
 *
 * The width of a prediction interval of the next burst's mean therefore shrinks as {@code n} grows,
 * towards {@code √(B + M)}, never to 0. Intervals are multiplicative, in the log of the mean: {@link #logSd} is
 * the standard deviation of {@code ln(burst mean / x̄)} for a log-normal mean of that relative variance. Its quantile is Student's t with {@code k − 1} degrees of
 * freedom (batch means) or {@code N − 1}.
 *
 * <p>Immutable and thread-safe.
 *
 * @param withinRelVariance  V, {@code >= 0}
 * @param betweenRelVariance B, {@code >= 0}
 * @param meanRelVariance    M, {@code >= 0}
 * @param degreesOfFreedom   of the t quantile, {@code >= 1}; infinite for the normal quantile
 * @param basis              where the model came from, for notes, e.g. "1000 round trips in 20 batches"
 */
public record BurstMeanSpread(double withinRelVariance, double betweenRelVariance, double meanRelVariance,
                              double degreesOfFreedom, String basis) {

    /** The burst length a prediction is made for when the application declared none, round trips. */
    public static final int DEFAULT_BURST_ROUND_TRIPS = 50;

    /**
     * The model when nothing in the load state says more: round trips with a coefficient of variation
     * of 0.5 (V = 0.25), independent; the calibration learns the true scale from the windows that follow.
     */
    public static final BurstMeanSpread ASSUMED = new BurstMeanSpread(0.25, 0.0, 0.0, Double.POSITIVE_INFINITY,
        "assumed (coefficient of variation 0.5, independent round trips): no measurement of this state yet");

    /**
     * @throws IllegalArgumentException when a variance is negative or not finite, or the degrees of freedom are below 1
     */
    public BurstMeanSpread {
        if (!(withinRelVariance >= 0) || !(betweenRelVariance >= 0) || !(meanRelVariance >= 0)
            || Double.isInfinite(withinRelVariance) || Double.isInfinite(betweenRelVariance) || Double.isInfinite(meanRelVariance)) {
            throw new IllegalArgumentException("burst spread variances must be finite and >= 0, were V " + withinRelVariance
                + ", B " + betweenRelVariance + ", M " + meanRelVariance);
        }
        if (!(degreesOfFreedom >= 1)) {
            throw new IllegalArgumentException("degrees of freedom must be >= 1, were " + degreesOfFreedom);
        }
        if (basis == null) {
            throw new IllegalArgumentException("a burst spread needs its basis");
        }
    }

    /**
     * @param measurement a measurement of the load state
     * @return the model read from it (see above)
     */
    public static BurstMeanSpread of(final Measurement measurement) {
        final double mean = measurement.meanMillis();
        final long n = measurement.sampleCount();
        final double within = square(measurement.stdDevMillis() / mean);
        final List<Double> batches = measurement.batchMeansMillis();
        if (batches.size() < 2) {
            return new BurstMeanSpread(within, 0.0, within / n, Math.max(1, n - 1),
                n + " round trips, no batch means (round trips taken as independent)");
        }
        final int k = batches.size();
        double sum = 0;
        for (final double batch : batches) {
            sum += batch;
        }
        final double batchMean = sum / k;
        double squares = 0;
        for (final double batch : batches) {
            squares += square(batch - batchMean);
        }
        final double batchRelVariance = squares / (k - 1) / (mean * mean);
        final double batchRoundTrips = (double) n / k;
        final double between = Math.max(0.0, batchRelVariance - within / batchRoundTrips);
        return new BurstMeanSpread(within, between, batchRelVariance / k, k - 1.0,
            n + " round trips in " + k + " batch means");
    }

    /**
     * @param learnedBetweenRelVariance a shared part learned elsewhere (e.g. from the windows that followed served
     *                                  means: what a served mean's own error and the path's slow spells add), {@code >= 0}
     * @param what                      how it was learned, appended to the basis
     * @return this model with {@code B} the larger of its own and the learned one
     */
    public BurstMeanSpread withSharedAtLeast(final double learnedBetweenRelVariance, final String what) {
        if (!(learnedBetweenRelVariance > betweenRelVariance) || Double.isInfinite(learnedBetweenRelVariance)) {
            return this;
        }
        return new BurstMeanSpread(withinRelVariance, learnedBetweenRelVariance, meanRelVariance, degreesOfFreedom,
            basis + ", " + what);
    }

    /**
     * @param roundTrips the burst's round trips, {@code >= 1}
     * @return the relative standard deviation of (that burst's mean − the measured mean): {@code √(B + V/n + M)}
     */
    public double relativeSd(final long roundTrips) {
        if (roundTrips < 1) {
            throw new IllegalArgumentException("a burst has at least 1 round trip, was " + roundTrips);
        }
        return Math.sqrt(betweenRelVariance + withinRelVariance / roundTrips + meanRelVariance);
    }

    /**
     * @param level two-sided level in (0, 1)
     * @return the model's own quantile: Student's t with {@link #degreesOfFreedom()}, or the normal one
     */
    public double quantile(final double level) {
        final double z = NormalQuantile.zTwoSided(level); // checks the level
        if (Double.isInfinite(degreesOfFreedom)) {
            return z;
        }
        return new TDistribution(null, degreesOfFreedom).inverseCumulativeProbability(0.5 + level / 2.0);
    }

    /**
     * The standard deviation of ln(burst mean / measured mean) that the model's relative variance gives when a mean is
     * taken as log-normal: {@code √ln(1 + B + V/n + M)}. For a small relative variance it is {@link #relativeSd}; for a
     * heavy-tailed path (V of several) it stays as much smaller as the log of a skewed mean is less spread than the mean.
     *
     * @param roundTrips the burst's round trips, {@code >= 1}
     * @return that standard deviation
     */
    public double logSd(final long roundTrips) {
        final double relativeSd = relativeSd(roundTrips);
        return Math.sqrt(Math.log1p(relativeSd * relativeSd));
    }

    private static double square(final double value) {
        return value * value;
    }
}
