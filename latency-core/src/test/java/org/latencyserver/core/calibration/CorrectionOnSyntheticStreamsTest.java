package org.latencyserver.core.calibration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.latencyserver.core.estimate.Estimate;
import org.latencyserver.core.estimate.EstimateRefusedException;
import org.latencyserver.core.estimate.MeasuredAverageEstimator;
import org.latencyserver.core.estimate.MeasuredBoundEstimator;
import org.latencyserver.core.estimate.Measurement;

/**
 * The served bound and mean, corrected as the server corrects them, against synthetic paths: probe
 * windows of 8 round trips test what was served, a drift alarm opens a fresh measurement of 1000
 * round trips (as the server does for QoS 3/4), and the long-run coverage must come out at the
 * nominal percentage whether the path is stationary, steps, ramps or is bimodal.
 */
class CorrectionOnSyntheticStreamsTest {

    private static final double BOUND_PERCENT = 96.0;
    private static final int WINDOW = 8;
    private static final long PROBE_ROUND_TRIPS = 400_000;

    /** Outcome of a simulated run of a QoS 4 connection. */
    private record BoundRun(double coverage, double meanLevelPercent, double meanServedOverThesis, long remeasurements) {
    }

    private static BoundRun runBound(final SyntheticPath path) throws EstimateRefusedException {
        Measurement reference = path.measure(1000);
        Estimate thesis = MeasuredBoundEstimator.estimate(reference, BOUND_PERCENT, "synthetic");
        StateKnowledge knowledge = StateKnowledge.fresh(BOUND_PERCENT).withMeasurement(reference, 0);
        long hits = 0;
        long sent = 0;
        double levelSum = 0;
        double ratioSum = 0;
        long windows = 0;
        long remeasurements = 0;
        while (sent < PROBE_ROUND_TRIPS) {
            final Estimate served = EstimateCorrection.correct(thesis, reference.histogram(), knowledge).estimate();
            final long boundNanos = Math.round(served.valueMillis() * 1e6);
            long windowHits = 0;
            for (int i = 0; i < WINDOW; i++) {
                if (path.nextNanos() <= boundNanos) {
                    windowHits++;
                }
            }
            hits += windowHits;
            sent += WINDOW;
            levelSum += knowledge.level().servedPercent();
            ratioSum += served.valueMillis() / thesis.valueMillis();
            windows++;
            knowledge = knowledge.observeBound(WINDOW, windowHits, true, true);
            if (knowledge.drift().alarm() != null) {
                reference = path.measure(1000);
                final long measuredHits = reference.histogram().countAtOrBelow(boundNanos);
                knowledge = knowledge.withDriftHandled().observeBound(reference.sampleCount(), measuredHits, false, true)
                    .withMeasurement(reference, sent);
                thesis = MeasuredBoundEstimator.estimate(reference, BOUND_PERCENT, "synthetic");
                remeasurements++;
            }
        }
        return new BoundRun((double) hits / sent, levelSum / windows, ratioSum / windows, remeasurements);
    }

    @Test
    void aStationaryPathKeepsNominalCoverageAndTheBoundFallsBackToTheThesisOne() throws Exception {
        final BoundRun run = runBound(SyntheticPath.stationary(1));
        assertEquals(0.96, run.coverage(), 0.01, "long-run coverage");
        assertEquals(BOUND_PERCENT, run.meanLevelPercent(), 1.0, "the level wanders around the nominal one");
        assertEquals(1.0, run.meanServedOverThesis(), 0.05, "served bound / thesis bound");
    }

    @Test
    void aStepChangeIsCorrectedToNominalLongRunCoverage() throws Exception {
        final BoundRun run = runBound(SyntheticPath.step(PROBE_ROUND_TRIPS / 3, 2));
        assertEquals(0.96, run.coverage(), 0.01, "long-run coverage");
        assertTrue(run.remeasurements() >= 1, "the step raised a drift alarm and a re-measurement");
    }

    @Test
    void aSlowRampIsCorrectedToNominalLongRunCoverage() throws Exception {
        final BoundRun run = runBound(SyntheticPath.ramp(PROBE_ROUND_TRIPS, 3));
        assertEquals(0.96, run.coverage(), 0.01, "long-run coverage");
    }

    @Test
    void aBimodalPathKeepsNominalLongRunCoverage() throws Exception {
        final BoundRun run = runBound(SyntheticPath.bimodal(4));
        assertEquals(0.96, run.coverage(), 0.01, "long-run coverage");
    }

    @Test
    void theThesisBoundAloneMissesItsShareAfterAStep() throws Exception {
        // The reference for the tests above: without correction or re-measurement, the old bound
        // covers far less than 96 % once the path has slowed down.
        final SyntheticPath path = SyntheticPath.step(0, 5);
        final Measurement before = SyntheticPath.stationary(6).measure(1000);
        final long boundNanos = Math.round(MeasuredBoundEstimator.estimate(before, BOUND_PERCENT, "x").valueMillis() * 1e6);
        long hits = 0;
        for (int i = 0; i < 10_000; i++) {
            hits += path.nextNanos() <= boundNanos ? 1 : 0;
        }
        assertTrue(hits / 10_000.0 < 0.7, "the stale bound covered " + hits / 100.0 + " %");
    }

    @Test
    void aCorrectedMeanFollowsAStepAndFallsBackOnAStationaryPath() {
        final MeasuredMean start = MeasuredMean.on(SyntheticPath.stationary(7), 1000);
        StateKnowledge knowledge = start.feed(start.knowledge(), 2000);
        assertEquals(1.0, knowledge.meanCorrection().factor(), 0.03, "factor on a stationary path");

        final SyntheticPath slower = SyntheticPath.step(0, 8); // twice the median from now on
        knowledge = feedMeans(slower, start.thesis(), knowledge, 2000);
        assertEquals(2.0, knowledge.meanCorrection().factor(), 0.1, "factor after the path doubled");
        final MeanErrorTally errors = knowledge.meanErrors();
        assertTrue(errors.medianRelativeError() < 0.10, "median relative error of the recent served means: "
            + errors.medianRelativeError());
    }

    @Test
    void thePredictiveIntervalHoldsTheNextWindowsMeanAboutNinetyFivePercentOfTheTime() {
        final MeasuredMean start = MeasuredMean.on(SyntheticPath.stationary(9), 1000);
        final Estimate thesis = start.thesis();
        StateKnowledge knowledge = start.feed(start.knowledge(), 200);
        final long before = knowledge.meanErrors().windows();
        final long insideBefore = knowledge.meanErrors().insideInterval();
        knowledge = start.feed(knowledge, 5000);
        final double inside = (double) (knowledge.meanErrors().insideInterval() - insideBefore)
            / (knowledge.meanErrors().windows() - before);
        assertEquals(0.95, inside, 0.02, "share of window means inside the predictive interval");
        // The thesis's Eq. 1 interval of a 1000-round-trip mean is far narrower than a window's spread.
        assertTrue(thesis.interval().halfWidth() < 0.1 * thesis.valueMillis());
    }

    /** A QoS 3 connection just measured on a path: the path, the thesis's mean and the state's knowledge. */
    private record MeasuredMean(SyntheticPath path, Estimate thesis, StateKnowledge knowledge) {

        static MeasuredMean on(final SyntheticPath path, final int roundTrips) {
            final Measurement measurement = path.measure(roundTrips);
            return new MeasuredMean(path, MeasuredAverageEstimator.estimate(measurement, "synthetic"),
                StateKnowledge.fresh(0).withMeasurement(measurement, 0));
        }

        /** @return {@code from} after {@code windows} more probe windows on this path, served this thesis */
        StateKnowledge feed(final StateKnowledge from, final int windows) {
            return feedMeans(path, thesis, from, windows);
        }
    }

    private static StateKnowledge feedMeans(final SyntheticPath path, final Estimate thesis, final StateKnowledge start,
                                            final int windows) {
        StateKnowledge knowledge = start;
        for (int w = 0; w < windows; w++) {
            final Estimate served = EstimateCorrection.correct(thesis, null, knowledge).estimate();
            double sumNanos = 0;
            for (int i = 0; i < WINDOW; i++) {
                sumNanos += path.nextNanos();
            }
            final double windowMeanMillis = sumNanos / WINDOW / 1e6;
            knowledge = knowledge.observeMean(thesis.valueMillis(), served.valueMillis(), served.interval().lower(),
                served.interval().upper(), windowMeanMillis, WINDOW, true, true);
        }
        return knowledge;
    }

    @Test
    void aStateWithTooFewWindowsTakesItsPredictiveIntervalWidthFromTheConnectionsOtherStates() {
        final MeasuredMean start = MeasuredMean.on(SyntheticPath.stationary(11), 1000);
        final Estimate thesis = start.thesis();
        final StateKnowledge seasoned = start.feed(start.knowledge(), 100);
        final StateKnowledge young = start.feed(start.knowledge(), 5);
        final Estimate alone = EstimateCorrection.correct(thesis, null, young).estimate();
        final Estimate pooled = EstimateCorrection.correct(thesis, null, young, seasoned.meanCorrection().logResiduals()).estimate();
        assertTrue(alone.interval().method().contains("scaled by the correction"), alone.interval().method());
        assertTrue(pooled.interval().method().contains("width from all load states"), pooled.interval().method());
        assertTrue(pooled.interval().halfWidth() > 3 * alone.interval().halfWidth(),
            "a window's mean scatters far more than Eq. 1 says of a 1000-round-trip mean");
    }

    @Test
    void onAStationaryPathWhoseThesisMeanIsRightTheThesisMeanIsServedAsItIs() {
        final MeasuredMean start = MeasuredMean.on(SyntheticPath.stationary(13), 5000);
        final Estimate thesis = start.thesis();
        StateKnowledge knowledge = start.knowledge();
        int servedAsThesis = 0;
        for (int w = 0; w < 1000; w++) {
            knowledge = start.feed(knowledge, 1);
            if (EstimateCorrection.correct(thesis, null, knowledge).estimate().valueMillis() == thesis.valueMillis()) {
                servedAsThesis++;
            }
        }
        // Two standard errors: the scatter of a few windows pushes the mean about in about 5 % of windows at most.
        assertTrue(servedAsThesis >= 900, "served the thesis mean in " + servedAsThesis + " of 1000 windows");
    }
}
