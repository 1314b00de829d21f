package org.latencyserver.core.stats;

/**
 * A two-sided confidence interval {@code [lower, upper]} around an estimate.
 *
 * <p>The interval has no unit of its own: the caller says it (milliseconds for a mean, a
 * proportion in 0..1 for a bound's coverage). {@code method} names how it was computed, so a
 * reader can tell the thesis's normal approximation from a Wilson or an order-statistic
 * interval.
 *
 * <p>Immutable and thread-safe.
 *
 * @param lower           lower end, {@code lower <= upper}
 * @param upper           upper end
 * @param confidenceLevel nominal confidence in (0, 1), e.g. 0.95
 * @param method          how it was computed, e.g. {@code "normal (thesis Eq. 1)"}
 */
public record ConfidenceInterval(double lower, double upper, double confidenceLevel, String method) {

    /**
     * @throws IllegalArgumentException when an end is NaN, {@code lower > upper}, or the level
     *                                  is outside (0, 1)
     */
    public ConfidenceInterval {
        if (Double.isNaN(lower) || Double.isNaN(upper)) {
            throw new IllegalArgumentException("confidence interval end is NaN: [" + lower + ", " + upper + "]");
        }
        if (lower > upper) {
            throw new IllegalArgumentException("confidence interval lower " + lower + " > upper " + upper);
        }
        if (!(confidenceLevel > 0.0 && confidenceLevel < 1.0)) {
            throw new IllegalArgumentException("confidence level must be in (0, 1), was " + confidenceLevel);
        }
    }

    /** @return {@code (upper - lower) / 2} */
    public double halfWidth() {
        return (upper - lower) / 2.0;
    }

    /**
     * @param value a value in the interval's unit
     * @return true when {@code lower <= value <= upper}
     */
    public boolean contains(final double value) {
        return value >= lower && value <= upper;
    }
}
