package org.latencyserver.core.calibration;

import java.util.function.DoubleToLongFunction;
import org.latencyserver.core.estimate.BurstMeanSpread;
import org.latencyserver.core.estimate.Measurement;
import org.latencyserver.core.traffic.CallKind;
import org.latencyserver.core.traffic.ShapeClass;

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
 * @param groups                 the blocks behind {@code level} and the level of each traffic shape class seen in
 *                               the state ({@link BorrowedLevel} serves from them)
 * @param burstWidth             the calibrated width of a served mean's prediction interval for the next burst
 */
public record StateKnowledge(Measurement lastMeasurement, long lastMeasuredEpochMillis, long measurements,
                             AdaptiveQuantileLevel level, MeanCorrection meanCorrection, CoverageTally coverage,
                             MeanErrorTally meanErrors, DriftDetector drift, long driftAlarms, long probeWindows,
                             GroupLevels groups, NextBurstWidth burstWidth) {

    /**
     * The class of the client agent's classic probes, which blocks of unknown traffic are counted under: trains of
     * 20 round trips back to back (spacing below 0.5 ms), with the thesis's {@code fm1} arrays.
     */
    public static final ShapeClass CLASSIC_PROBES = new ShapeClass(0, 2, CallKind.ARRAYS);

    /** Blocks before a state's coverage interval may say it under-covers ({@link #coverageBelowNominal}). */
    public static final long MIN_BLOCKS_FOR_COVERAGE_ALARM = EstimateCorrection.MIN_BLOCKS_FOR_OBSERVED_INTERVAL;

    /** Knowledge with group levels whose next-burst width has learned nothing yet. */
    public StateKnowledge(final Measurement lastMeasurement, final long lastMeasuredEpochMillis, final long measurements,
                          final AdaptiveQuantileLevel level, final MeanCorrection meanCorrection, final CoverageTally coverage,
                          final MeanErrorTally meanErrors, final DriftDetector drift, final long driftAlarms,
                          final long probeWindows, final GroupLevels groups) {
        this(lastMeasurement, lastMeasuredEpochMillis, measurements, level, meanCorrection, coverage, meanErrors, drift,
            driftAlarms, probeWindows, groups, NextBurstWidth.START);
    }

    /** Knowledge with a next-burst width and no group levels learned yet. */
    public StateKnowledge(final Measurement lastMeasurement, final long lastMeasuredEpochMillis, final long measurements,
                          final AdaptiveQuantileLevel level, final MeanCorrection meanCorrection, final CoverageTally coverage,
                          final MeanErrorTally meanErrors, final DriftDetector drift, final long driftAlarms,
                          final long probeWindows, final NextBurstWidth burstWidth) {
        this(lastMeasurement, lastMeasuredEpochMillis, measurements, level, meanCorrection, coverage, meanErrors, drift,
            driftAlarms, probeWindows, GroupLevels.EMPTY, burstWidth);
    }

    /**
     * @throws IllegalArgumentException on a missing part or negative count
     */
    public StateKnowledge {
        if (meanCorrection == null || coverage == null || meanErrors == null || drift == null || groups == null
            || burstWidth == null) {
            throw new IllegalArgumentException("state knowledge needs its mean correction, tallies, detector, group levels and"
                + " next-burst width");
        }
        if (measurements < 0 || driftAlarms < 0 || probeWindows < 0) {
            throw new IllegalArgumentException("negative count in state knowledge");
        }
    }

    /** Knowledge with no group levels learned yet ({@link GroupLevels#EMPTY}). */
    public StateKnowledge(final Measurement lastMeasurement, final long lastMeasuredEpochMillis, final long measurements,
                          final AdaptiveQuantileLevel level, final MeanCorrection meanCorrection, final CoverageTally coverage,
                          final MeanErrorTally meanErrors, final DriftDetector drift, final long driftAlarms,
                          final long probeWindows) {
        this(lastMeasurement, lastMeasuredEpochMillis, measurements, level, meanCorrection, coverage, meanErrors, drift, driftAlarms,
            probeWindows, GroupLevels.EMPTY);
    }

    /**
     * @param nextGroups group levels, e.g. as read back from a file
     * @return the knowledge with them
     */
    public StateKnowledge withGroups(final GroupLevels nextGroups) {
        return new StateKnowledge(lastMeasurement, lastMeasuredEpochMillis, measurements, level, meanCorrection, coverage, meanErrors,
            drift, driftAlarms, probeWindows, nextGroups, burstWidth);
    }

    /**
     * @param nextLevel a level to correct with instead of this state's (e.g. without its ratios)
     * @return the knowledge with it
     */
    public StateKnowledge withLevel(final AdaptiveQuantileLevel nextLevel) {
        return new StateKnowledge(lastMeasurement, lastMeasuredEpochMillis, measurements, nextLevel, meanCorrection, coverage,
            meanErrors, drift, driftAlarms, probeWindows, groups, burstWidth);
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
            DriftDetector.QUIET, driftAlarms, probeWindows, groups, burstWidth);
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
        final long misses = roundTrips - hits;
        return observeBound(roundTrips, hits, fromProbe, adapt, CLASSIC_PROBES, levelPercent -> misses);
    }

    /**
     * A block of round trips of one traffic shape class tested against the bound being served when they were sent
     * (coverage, drift test), and, when {@code adapt}, teaching the state's own level and the class's level: each
     * from the misses of the bound read at its own level (so each converges to its group's quantile, whatever
     * level was served).
     *
     * @param roundTrips      round trips, {@code >= 1}
     * @param hits            of those, at or below the served bound
     * @param fromProbe       true for a probe window
     * @param adapt           whether the levels and the drift test learn from it
     * @param shape           the class of the block's traffic, or null for unknown (counted as {@link #CLASSIC_PROBES})
     * @param missesAtPercent round trips of the block above the bound read at a level, percent; in [0, roundTrips]
     * @return the knowledge after it
     */
    public StateKnowledge observeBound(final long roundTrips, final long hits, final boolean fromProbe, final boolean adapt,
                                       final ShapeClass shape, final DoubleToLongFunction missesAtPercent) {
        return observeBound(roundTrips, hits, fromProbe, adapt, shape, missesAtPercent, null, 0);
    }

    /**
     * As {@link #observeBound(long, long, boolean, boolean, ShapeClass, DoubleToLongFunction)}, the state's level also
     * learning the block's {@linkplain RatioScores ratios} to the thesis's bound behind the served one (when {@code
     * adapt}), which {@link EstimateCorrection} rescales the thesis's bound by where no level of its histogram holds.
     *
     * @param block        the block's round trips, ns; null to learn no ratios
     * @param thesisMillis the thesis's (uncorrected) bound behind the served one, ms; {@code > 0} when {@code block}
     *                     is given
     * @return the knowledge after it
     */
    public StateKnowledge observeBound(final long roundTrips, final long hits, final boolean fromProbe, final boolean adapt,
                                       final ShapeClass shape, final DoubleToLongFunction missesAtPercent,
                                       final org.latencyserver.core.histogram.LatencyHistogram block, final double thesisMillis) {
        return observeBound(roundTrips, hits, fromProbe, adapt, shape, missesAtPercent, block, thesisMillis, false);
    }

    /**
     * As {@link #observeBound(long, long, boolean, boolean, ShapeClass, DoubleToLongFunction,
     * org.latencyserver.core.histogram.LatencyHistogram, double)}, the ratios learned into the level's {@link
     * AdaptiveQuantileLevel#profileRatios} when the thesis's bound was read from a profile.
     *
     * @param profileThesis whether the thesis's bound behind the served one was read from a profile
     * @return the knowledge after it
     */
    public StateKnowledge observeBound(final long roundTrips, final long hits, final boolean fromProbe, final boolean adapt,
                                       final ShapeClass shape, final DoubleToLongFunction missesAtPercent,
                                       final org.latencyserver.core.histogram.LatencyHistogram block, final double thesisMillis,
                                       final boolean profileThesis) {
        AdaptiveQuantileLevel nextLevel = level;
        GroupLevels nextGroups = groups;
        if (level != null && adapt) {
            nextLevel = level.observe(roundTrips, missesAtPercent.applyAsLong(level.servedPercent()), groups.stateBlocks());
            if (block != null) {
                nextLevel = profileThesis ? nextLevel.observeProfileRatios(block, thesisMillis)
                    : nextLevel.observeRatios(block, thesisMillis);
            }
            final ShapeClass group = shape == null ? CLASSIC_PROBES : shape;
            final AdaptiveQuantileLevel fresh = new AdaptiveQuantileLevel(level.targetMissFraction(), level.targetMissFraction(),
                level.stepPerRoundTrip(), level.maxBlockWeight());
            final GroupLevels.ClassLevel known = groups.byClass().get(group);
            final AdaptiveQuantileLevel classLevel = known == null ? fresh : known.level();
            nextGroups = groups.observe(group, fresh, roundTrips, missesAtPercent.applyAsLong(classLevel.servedPercent()));
        }
        final DriftDetector nextDrift = fromProbe && adapt && level != null
            ? drift.observeMisses(roundTrips, roundTrips - hits, level.targetMissFraction()) : drift;
        return new StateKnowledge(lastMeasurement, lastMeasuredEpochMillis, measurements, nextLevel, meanCorrection,
            coverage.add(roundTrips, hits), meanErrors, nextDrift, driftAlarms, probeWindows + (fromProbe ? 1 : 0), nextGroups,
            burstWidth);
    }

    /**
     * @return whether the served bounds under-cover here: the state's coverage 95 % interval (over blocks, {@link
     *         CoverageTally#interval}) lies wholly below the nominal share, after at least {@value
     *         #MIN_BLOCKS_FOR_COVERAGE_ALARM} blocks; false for a mean or a 100 % bound (no level)
     */
    public boolean coverageBelowNominal() {
        if (level == null || coverage.blocks() < MIN_BLOCKS_FOR_COVERAGE_ALARM) {
            return false;
        }
        final org.latencyserver.core.stats.ConfidenceInterval interval = coverage.interval(0.95);
        return interval != null && interval.upper() < 1.0 - level.targetMissFraction();
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
            driftAlarms, probeWindows + (fromProbe ? 1 : 0), groups, nextWidth);
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
     *         mean factor, no next-burst width learned, the drift test quiet, no group levels (the state borrows from
     *         the pooled level again) — when the served estimate starts coming from another kind of source (a factor learned against one source says nothing of another); the tallies of what was
     *         served, the last measurement and the counts stay
     */
    public StateKnowledge withCorrectionsRestarted(final double boundPercent) {
        final AdaptiveQuantileLevel restarted = level == null ? null : AdaptiveQuantileLevel.start(boundPercent);
        return new StateKnowledge(lastMeasurement, lastMeasuredEpochMillis, measurements, restarted, MeanCorrection.NONE, coverage,
            meanErrors, DriftDetector.QUIET, driftAlarms, probeWindows, GroupLevels.EMPTY, NextBurstWidth.START);
    }

    /** @return the knowledge after its drift alarm was acted on: scores cleared, alarm counted */
    public StateKnowledge withDriftHandled() {
        return new StateKnowledge(lastMeasurement, lastMeasuredEpochMillis, measurements, level, meanCorrection, coverage,
            meanErrors, drift.reset(), driftAlarms + 1, probeWindows, groups, burstWidth);
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
