package org.latencyserver.core.stats;

import java.util.List;
import org.apache.commons.math3.distribution.TDistribution;

/**
 * Confidence intervals for a mean latency.
 *
 * <p>{@link #normal} is the thesis's Equation 1, {@code x̄ ± z·s/√n}, used for QoS 1 and 3 (with n
 * = 10,000 and 1,000 samples the normal approximation is sound). {@link #studentT} is offered for
 * small samples, where Student's t widens the interval honestly. {@code z} is the exact normal
 * quantile (1.959964 at 95 %), not the thesis's rounded 1.96.
 *
 * <p>Units: the interval has the unit of {@code mean} and {@code stdDev} (the thesis: ms).
 *
 * <p>Stateless and thread-safe.
 */
public final class MeanConfidence {

    /** The {@link ConfidenceInterval#method()} of {@link #normal}. */
    public static final String NORMAL_METHOD = "normal (thesis Eq. 1)";
    /** The {@link ConfidenceInterval#method()} of {@link #studentT}. */
    public static final String STUDENT_T_METHOD = "Student's t";
    /** The start of the {@link ConfidenceInterval#method()} of {@link #batchMeans}; the batch count follows. */
    public static final String BATCH_MEANS_METHOD = "batch means";

    private MeanConfidence() {
    }

    /**
     * Thesis Equation 1.
     *
     * @param mean            sample mean, finite
     * @param stdDev          sample standard deviation, finite and {@code >= 0}, same unit as the mean
     * @param n               number of samples, {@code >= 1}
     * @param confidenceLevel in (0, 1), e.g. 0.95
     * @return {@code [mean - z·s/√n, mean + z·s/√n]}, method {@value #NORMAL_METHOD}
     * @throws IllegalArgumentException when an argument is out of range
     */
    public static ConfidenceInterval normal(final double mean, final double stdDev, final long n, final double confidenceLevel) {
        requireArguments(mean, stdDev, n, 1);
        final double halfWidth = NormalQuantile.zTwoSided(confidenceLevel) * stdDev / Math.sqrt(n);
        return new ConfidenceInterval(mean - halfWidth, mean + halfWidth, confidenceLevel, NORMAL_METHOD);
    }

    /**
     * Thesis Equation 1 from sample moments.
     *
     * @param moments         at least 2 samples (one sample has no standard deviation)
     * @param confidenceLevel in (0, 1)
     * @return as {@link #normal(double, double, long, double)}
     * @throws IllegalArgumentException when there are fewer than 2 samples or the level is out of range
     */
    public static ConfidenceInterval normal(final SampleMoments moments, final double confidenceLevel) {
        requireTwo(moments);
        return normal(moments.mean(), moments.sampleStdDev(), moments.count(), confidenceLevel);
    }

    /**
     * Student's t interval, {@code x̄ ± t(n-1)·s/√n}.
     *
     * @param mean            sample mean, finite
     * @param stdDev          sample standard deviation, finite and {@code >= 0}, same unit as the mean
     * @param n               number of samples, {@code >= 2}
     * @param confidenceLevel in (0, 1)
     * @return the interval, method {@value #STUDENT_T_METHOD}
     * @throws IllegalArgumentException when an argument is out of range
     */
    public static ConfidenceInterval studentT(final double mean, final double stdDev, final long n, final double confidenceLevel) {
        requireArguments(mean, stdDev, n, 2);
        NormalQuantile.requireLevel(confidenceLevel);
        final double t = new TDistribution(null, n - 1.0).inverseCumulativeProbability(0.5 + confidenceLevel / 2.0);
        final double halfWidth = t * stdDev / Math.sqrt(n);
        return new ConfidenceInterval(mean - halfWidth, mean + halfWidth, confidenceLevel, STUDENT_T_METHOD);
    }

    /**
     * Student's t interval from sample moments.
     *
     * @param moments         at least 2 samples
     * @param confidenceLevel in (0, 1)
     * @return as {@link #studentT(double, double, long, double)}
     * @throws IllegalArgumentException when there are fewer than 2 samples or the level is out of range
     */
    public static ConfidenceInterval studentT(final SampleMoments moments, final double confidenceLevel) {
        requireTwo(moments);
        return studentT(moments.mean(), moments.sampleStdDev(), moments.count(), confidenceLevel);
    }

    /**
     * The method of batch means: an interval that allows for round trips that are correlated in
     * time (a busy spell of the machine slows many consecutive round trips), which Equation 1,
     * assuming independent samples, does not. The run is cut into k consecutive batches of equal
     * size; if the batches are long enough to be nearly independent of each other, their means are
     * about normal, and the interval is {@code x̄ ± t(k-1)·s_b/√k} with {@code s_b} the standard
     * deviation of the batch means. Where round trips are correlated it is wider than Eq. 1 — by
     * 2–3 times for paced round trips on a shared 2-core machine (docs/benchmarks.md).
     *
     * <p>Centred on {@code mean}, the exact mean of the whole run (a round trip left over after the
     * last full batch counts in the mean but not in a batch).
     *
     * @param mean            the run's mean, finite
     * @param batchMeans      means of k &ge; 2 consecutive equal batches, in the unit of {@code mean}
     * @param confidenceLevel in (0, 1)
     * @return the interval, method {@code "batch means (k batches of consecutive round trips)"}
     * @throws IllegalArgumentException when there are fewer than 2 batches or a value is not finite
     */
    public static ConfidenceInterval batchMeans(final double mean, final List<Double> batchMeans, final double confidenceLevel) {
        if (batchMeans.size() < 2) {
            throw new IllegalArgumentException("need at least 2 batch means, had " + batchMeans.size());
        }
        final double[] values = new double[batchMeans.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = batchMeans.get(i);
            if (!Double.isFinite(values[i])) {
                throw new IllegalArgumentException("a batch mean must be finite, was " + values[i]);
            }
        }
        final SampleMoments moments = SampleMoments.of(values);
        final ConfidenceInterval t = studentT(mean, moments.sampleStdDev(), moments.count(), confidenceLevel);
        return new ConfidenceInterval(t.lower(), t.upper(), confidenceLevel,
            BATCH_MEANS_METHOD + " (" + batchMeans.size() + " batches of consecutive round trips)");
    }

    private static void requireTwo(final SampleMoments moments) {
        if (moments.count() < 2) {
            throw new IllegalArgumentException("need at least 2 samples for a standard deviation, had " + moments.count());
        }
    }

    private static void requireArguments(final double mean, final double stdDev, final long n, final long minimumN) {
        if (!Double.isFinite(mean)) {
            throw new IllegalArgumentException("mean must be finite, was " + mean);
        }
        if (!Double.isFinite(stdDev) || stdDev < 0) {
            throw new IllegalArgumentException("standard deviation must be finite and >= 0, was " + stdDev);
        }
        if (n < minimumN) {
            throw new IllegalArgumentException("need at least " + minimumN + " sample(s), had " + n);
        }
    }
}
