package org.latencyserver.core.calibration;

/**
 * How far served means were from the means of the round trips that followed them: the relative
 * error of each window ({@code |served − window| / window}), kept for a median, and how often the
 * window mean fell inside the served interval.
 *
 * <p>Immutable and thread-safe.
 *
 * @param windows        windows compared
 * @param insideInterval of those, window means inside the served interval
 * @param relativeErrors the recent relative errors
 */
public record MeanErrorTally(long windows, long insideInterval, RecentValues relativeErrors) {

    /** Nothing compared. */
    public static final MeanErrorTally EMPTY = new MeanErrorTally(0, 0, RecentValues.EMPTY);

    /**
     * @param servedMeanMillis  the mean served, ms, {@code > 0}
     * @param intervalLowerMillis its interval's lower end, ms
     * @param intervalUpperMillis its upper end, ms
     * @param windowMeanMillis  the window's mean, ms, {@code > 0}
     * @return the tally with the window
     */
    public MeanErrorTally add(final double servedMeanMillis, final double intervalLowerMillis, final double intervalUpperMillis,
                              final double windowMeanMillis) {
        if (!(servedMeanMillis > 0) || !(windowMeanMillis > 0)) {
            throw new IllegalArgumentException("means must be > 0, were " + servedMeanMillis + " and " + windowMeanMillis);
        }
        return add(servedMeanMillis, windowMeanMillis >= intervalLowerMillis && windowMeanMillis <= intervalUpperMillis,
            windowMeanMillis);
    }

    /**
     * @param servedMeanMillis the mean served, ms, {@code > 0}
     * @param inside           whether the window counts as inside the served interval (e.g. judged as the burst it stands for)
     * @param windowMeanMillis the window's mean, ms, {@code > 0}
     * @return the tally with the window
     */
    public MeanErrorTally add(final double servedMeanMillis, final boolean inside, final double windowMeanMillis) {
        if (!(servedMeanMillis > 0) || !(windowMeanMillis > 0)) {
            throw new IllegalArgumentException("means must be > 0, were " + servedMeanMillis + " and " + windowMeanMillis);
        }
        return new MeanErrorTally(windows + 1, insideInterval + (inside ? 1 : 0),
            relativeErrors.add(Math.abs(servedMeanMillis - windowMeanMillis) / windowMeanMillis));
    }

    /** @return median recent relative error; NaN when none */
    public double medianRelativeError() {
        return relativeErrors.median();
    }

    /** @return share of window means inside the served interval; NaN when none */
    public double insideFraction() {
        return windows == 0 ? Double.NaN : (double) insideInterval / windows;
    }
}
