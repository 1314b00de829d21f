package org.latencyserver.client;

/**
 * How much room to leave above a served latency when it becomes a deadline: the served value is
 * first multiplied by {@code factor}, then {@code extraNanos} are added.
 *
 * <pre>
 *   deadlineNanos = ceil(servedMillis × 1 000 000 × factor) + extraNanos
 * </pre>
 *
 * <p>A factor covers what grows with the latency (a slower host, a longer queue), the extra nanos
 * what does not (the application's own time between reading the estimate and sending, a GC pause
 * of the caller). {@link #NONE} takes the served value as it is.
 *
 * @param factor     the multiplier, finite and {@code >= 1}
 * @param extraNanos nanoseconds added after multiplying, {@code >= 0}
 */
public record DeadlineMargin(double factor, long extraNanos) {

    /** The served value as it is: factor 1, nothing added. */
    public static final DeadlineMargin NONE = new DeadlineMargin(1.0, 0);

    /**
     * @throws IllegalArgumentException when {@code factor} is not finite or below 1, or
     *                                  {@code extraNanos} is negative
     */
    public DeadlineMargin {
        if (!Double.isFinite(factor) || factor < 1.0) {
            throw new IllegalArgumentException("a deadline margin's factor must be a finite number >= 1 "
                + "(a deadline below the served latency is no margin), was " + factor);
        }
        if (extraNanos < 0) {
            throw new IllegalArgumentException("a deadline margin's extra nanoseconds must be >= 0, was " + extraNanos);
        }
    }

    /**
     * @param factor the multiplier, finite and {@code >= 1}
     * @return a margin that only multiplies
     */
    public static DeadlineMargin ofFactor(final double factor) {
        return new DeadlineMargin(factor, 0);
    }

    /**
     * @param extraNanos nanoseconds to add, {@code >= 0}
     * @return a margin that only adds
     */
    public static DeadlineMargin ofExtraNanos(final long extraNanos) {
        return new DeadlineMargin(1.0, extraNanos);
    }

    /**
     * @param servedMillis a served latency in milliseconds, finite and {@code > 0}
     * @return {@code ceil(servedMillis × 1e6 × factor) + extraNanos}, at least 1
     * @throws IllegalArgumentException when {@code servedMillis} is not finite or not positive, or
     *                                  the deadline does not fit in a {@code long} of nanoseconds
     */
    public long applyToMillis(final double servedMillis) {
        if (!Double.isFinite(servedMillis) || servedMillis <= 0.0) {
            throw new IllegalArgumentException("a deadline needs a finite served latency > 0 ms, was " + servedMillis + " ms");
        }
        final double scaledNanos = Math.ceil(servedMillis * 1_000_000.0 * factor);
        if (scaledNanos >= Long.MAX_VALUE - (double) extraNanos) {
            throw new IllegalArgumentException("a deadline of " + servedMillis + " ms × " + factor + " + " + extraNanos
                + " ns does not fit in a long of nanoseconds");
        }
        return Math.max(1L, (long) scaledNanos + extraNanos);
    }
}
