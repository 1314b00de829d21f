package org.latencyserver.core.calibration;

import org.latencyserver.core.estimate.BurstMeanSpread;
import org.latencyserver.core.estimate.Measurement;

/**
 * What the server has learned about one connection in one load state: its last measurement (so a
 * return to the state serves it at once, labelled with its age), and the calibration and
 * corrections learned from the round trips that followed served estimates in that state.
 *
 * <p>Immutable and thread-safe; every {@code with…}/{@code observe…} returns a new value.
 *
 * @param lastMeasurement        the state's last accepted measurement, or null
 * @param lastMeasuredEpochMillis when it was accepted, epoch ms; 0 when never
 * @param measurements           measurements of this state
 * @param level                  the adaptive level of a served bound; null for a mean
 * @param meanCorrection         the correction of a served mean
 * @param coverage               coverage of served bounds (probe windows and measurements)
 * @param meanErrors             errors of served means against the windows that followed
 * @param drift                  the sequential test of whether the served estimate still holds
 * @param driftAlarms            alarms acted on (re-measurements opened)
 * @param probeWindows           probe windows observed
 * @param burstWidth             the calibrated width of a served mean's prediction interval for the next burst
 */
public record StateKnowledge(Measurement lastMeasurement, long lastMeasuredEpochMillis, long measurements,
                             AdaptiveQuantileLevel level, MeanCorrection meanCorrection, CoverageTally coverage,
                             MeanErrorTally meanErrors, DriftDetector drift, long driftAlarms, long probeWindows,
                             NextBurstWidth burstWidth) {

    /** Knowledge whose next-burst width has learned nothing yet. */
    public StateKnowledge(final Measurement lastMeasurement, final long lastMeasuredEpochMillis, final long measurements,
                          final AdaptiveQuantileLevel level, final MeanCorrection meanCorrection, final CoverageTally coverage,
                          final MeanErrorTally meanErrors, final DriftDetector drift, final long driftAlarms,
                          final long probeWindows) {
        this(lastMeasurement, lastMeasuredEpochMillis, measurements, level, meanCorrection, coverage, meanErrors, drift,
            driftAlarms, probeWindows, NextBurstWidth.START);
    }

    /**
     * @throws IllegalArgumentException on a missing part or negative count
     */
    public StateKnowledge {
        if (meanCorrection == null || coverage == null || meanErrors == null || drift == null || burstWidth == null) {
            throw new IllegalArgumentException("state knowledge needs its mean correction, tallies and detector");
        }
        if (measurements < 0 || driftAlarms < 0 || probeWindows < 0) {
            throw new IllegalArgumentException("negative count in state knowledge");
        }
    }

    /**
     * @param boundPercent the connection's bound, in (0, 100], or 0 for a mean
     * @return nothing learned yet (a 100 % bound is the histogram's top and is not corrected)
     */
    public static StateKnowledge fresh(final double boundPercent) {
        final AdaptiveQuantileLevel level = boundPercent > 0 && boundPercent < 100 ? AdaptiveQuantileLevel.start(boundPercent) : null;
        return new StateKnowledge(null, 0, 0, level, MeanCorrection.NONE, CoverageTally.EMPTY, MeanErrorTally.EMPTY,
            DriftDetector.QUIET, 0, 0);
    }

    /**
     * @param measurement  a new measurement of this state
     * @param epochMillis  when it was accepted
     * @return the knowledge with it as the state's last; the drift test starts afresh against it
     */
    public StateKnowledge withMeasurement(final Measurement measurement, final long epochMillis) {
        return new StateKnowledge(measurement, epochMillis, measurements + 1, level, meanCorrection, coverage, meanErrors,
            DriftDetector.QUIET, driftAlarms, probeWindows, burstWidth);
    }

    /**
     * A block of round trips tested against the bound being served when they were sent.
     *
     * @param roundTrips round trips, {@code >= 1}
     * @param hits       of those, at or below the served bound
     * @param fromProbe  true for a probe window (counted in {@link #probeWindows}, fed to the drift test)
     * @param adapt      whether the level and the drift test learn from it; false when the bound served
     *                   came from elsewhere (e.g. a profile fallback) and says nothing of the level at which
     *                   this state's own histogram should be read: the block is only counted
     * @return the knowledge after it
     */
    public StateKnowledge observeBound(final long roundTrips, final long hits, final boolean fromProbe, final boolean adapt) {
        final AdaptiveQuantileLevel nextLevel = level == null || !adapt ? level : level.observe(roundTrips, roundTrips - hits);
        final DriftDetector nextDrift = fromProbe && adapt && level != null
            ? drift.observeMisses(roundTrips, roundTrips - hits, level.targetMissFraction()) : drift;
        return new StateKnowledge(lastMeasurement, lastMeasuredEpochMillis, measurements, nextLevel, meanCorrection,
            coverage.add(roundTrips, hits), meanErrors, nextDrift, driftAlarms, probeWindows + (fromProbe ? 1 : 0), burstWidth);
    }

    /**
     * A window of round trips compared with the mean being served when they were sent, its interval judged as one
     * for a window of the window's own length (the thesis's interval, or a caller without a burst model).
     *
     * @param thesisMeanMillis   the uncorrected mean behind what was served, ms
     * @param servedMeanMillis   the mean served, ms
     * @param servedLowerMillis  its interval's lower end, ms
     * @param servedUpperMillis  its interval's upper end, ms
     * @param windowMeanMillis   the window's mean, ms
     * @param windowRoundTrips   its round trips, {@code >= 1}
     * @param fromProbe          true for a probe window
     * @param adapt              whether the correction and the drift test learn from it; false: only counted
     * @return the knowledge after it
     */
    public StateKnowledge observeMean(final double thesisMeanMillis, final double servedMeanMillis, final double servedLowerMillis,
                                      final double servedUpperMillis, final double windowMeanMillis, final long windowRoundTrips,
                                      final boolean fromProbe, final boolean adapt) {
        return observeMean(thesisMeanMillis, servedMeanMillis, servedLowerMillis, servedUpperMillis, windowMeanMillis,
            windowRoundTrips, fromProbe, adapt, null, 0);
    }

    /**
     * A window of round trips compared with the mean being served when they were sent, whose interval was a prediction
     * interval for the mean of the next burst of {@code burstRoundTrips}: the window stands for such a burst through the
     * spread model (its log error scaled by {@code logSd(n) / logSd(m)}) both in the tally of errors' "inside" and
     * in the {@link NextBurstWidth} it teaches.
     *
     * @param spread          the model the served interval was built with ({@link #burstSpread()}), or null for none
     * @param burstRoundTrips the burst length the served interval was for, {@code >= 1} when {@code spread} is given
     * @return the knowledge after it
     * @see #observeMean(double, double, double, double, double, long, boolean, boolean)
     */
    public StateKnowledge observeMean(final double thesisMeanMillis, final double servedMeanMillis, final double servedLowerMillis,
                                      final double servedUpperMillis, final double windowMeanMillis, final long windowRoundTrips,
                                      final boolean fromProbe, final boolean adapt, final BurstMeanSpread spread,
                                      final int burstRoundTrips) {
        final double scale = robustLogScale();
        final DriftDetector nextDrift = fromProbe && adapt
            ? drift.observeMean(Math.log(windowMeanMillis / servedMeanMillis), scale) : drift;
        double judgedMeanMillis = windowMeanMillis;
        NextBurstWidth nextWidth = burstWidth;
        if (spread != null) {
            final double logError = Math.log(windowMeanMillis / servedMeanMillis);
            judgedMeanMillis = servedMeanMillis
                * Math.exp(logError * spread.logSd(burstRoundTrips) / spread.logSd(windowRoundTrips));
            if (adapt) {
                nextWidth = burstWidth.observe(servedMeanMillis, windowMeanMillis, windowRoundTrips, spread);
            }
        }
        final boolean inside = judgedMeanMillis >= servedLowerMillis && judgedMeanMillis <= servedUpperMillis;
        return new StateKnowledge(lastMeasurement, lastMeasuredEpochMillis, measurements, level,
            adapt ? meanCorrection.observe(thesisMeanMillis, servedMeanMillis, windowMeanMillis, windowRoundTrips) : meanCorrection,
            coverage, meanErrors.add(servedMeanMillis, inside, windowMeanMillis), nextDrift,
            driftAlarms, probeWindows + (fromProbe ? 1 : 0), nextWidth);
    }

    /**
     * @return the model of a burst mean's spread in this state: read from its last measurement, else
     *         {@link BurstMeanSpread#ASSUMED}, with the shared part raised to what the windows that followed showed
     *         ({@link NextBurstWidth#spread}); the same model serves and judges a served mean
     */
    public BurstMeanSpread burstSpread() {
        return burstWidth.spread(lastMeasurement == null ? BurstMeanSpread.ASSUMED : BurstMeanSpread.of(lastMeasurement));
    }

    /**
     * @param boundPercent the connection's bound, in (0, 100], or 0 for a mean
     * @return the knowledge with its corrections learned afresh — the adaptive level back at the nominal one, no
     *         mean factor, the drift test quiet — when the served estimate starts coming from another kind of
     *         source (a factor learned against one source says nothing of another); the tallies of what was
     *         served, the last measurement and the counts stay
     */
    public StateKnowledge withCorrectionsRestarted(final double boundPercent) {
        final AdaptiveQuantileLevel restarted = level == null ? null : AdaptiveQuantileLevel.start(boundPercent);
        return new StateKnowledge(lastMeasurement, lastMeasuredEpochMillis, measurements, restarted, MeanCorrection.NONE, coverage,
            meanErrors, DriftDetector.QUIET, driftAlarms, probeWindows, burstWidth);
    }

    /** @return the knowledge after its drift alarm was acted on: scores cleared, alarm counted */
    public StateKnowledge withDriftHandled() {
        return new StateKnowledge(lastMeasurement, lastMeasuredEpochMillis, measurements, level, meanCorrection, coverage,
            meanErrors, drift.reset(), driftAlarms + 1, probeWindows, burstWidth);
    }

    /** Robust standard deviation of recent log errors (MAD × 1.4826); NaN with fewer than 10. */
    private double robustLogScale() {
        final double[] residuals = meanCorrection.logResiduals().toArray();
        if (residuals.length < 10) {
            return Double.NaN;
        }
        for (int i = 0; i < residuals.length; i++) {
            residuals[i] = Math.abs(residuals[i]);
        }
        return RecentValues.of(residuals).median() * 1.4826;
    }
}
