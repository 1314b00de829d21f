package org.latencyserver.core.calibration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.latencyserver.core.estimate.BurstMeanSpread;
import org.latencyserver.core.estimate.Estimate;
import org.latencyserver.core.estimate.MeasuredAverageEstimator;
import org.latencyserver.core.estimate.Measurement;
import org.latencyserver.core.stats.ConfidenceInterval;

/**
 * A QoS 3 connection's served interval against the means of the application's next bursts on synthetic paths
 * whose round trips are correlated in time: after a warm-up, at least 95 % of the next bursts' means must fall
 * inside, on a stationary and on a drifting path, while the thesis's confidence interval of the mean holds far
 * fewer; and the interval narrows as the burst grows.
 */
class NextBurstPredictionTest {

    private static final int PROBE_WINDOW = 19;
    private static final int GAP_ROUND_TRIPS = 200;
    private static final int CYCLES = 3000;
    private static final int WARM_UP_CYCLES = 300;

    /**
     * What one simulated connection saw after the warm-up.
     *
     * @param inside        share of burst means inside the served interval
     * @param insideThesis  share inside the thesis's Eq. 1 interval of the same estimates
     * @param meanError     |mean of served means − mean of burst means| / mean of burst means
     */
    private record Run(double inside, double insideThesis, double meanError) {
    }

    /**
     * Each cycle: the estimate is served, the application sends its burst of {@code burst} round trips (tested, never
     * learned from), a pause, a probe window of {@value #PROBE_WINDOW} (learned from), a pause; a drift alarm opens a
     * fresh measurement of 1000 round trips in 20 batches, as the server does for QoS 3.
     */
    private static Run run(final BurstyPath path, final int burst) {
        Measurement measurement = path.measure(1000, 20);
        Estimate thesis = MeasuredAverageEstimator.estimate(measurement, "synthetic");
        StateKnowledge knowledge = StateKnowledge.fresh(0).withMeasurement(measurement, 0);
        long tested = 0;
        long inside = 0;
        long insideThesis = 0;
        double servedSum = 0;
        double burstSum = 0;
        for (int cycle = 0; cycle < CYCLES; cycle++) {
            final Estimate served = EstimateCorrection.correct(thesis, null, knowledge, RecentValues.EMPTY, burst).estimate();
            final double burstMean = path.windowMeanMillis(burst);
            if (cycle >= WARM_UP_CYCLES) {
                tested++;
                inside += served.interval().contains(burstMean) ? 1 : 0;
                insideThesis += thesis.interval().contains(burstMean) ? 1 : 0;
                servedSum += served.valueMillis();
                burstSum += burstMean;
            }
            path.windowMeanMillis(GAP_ROUND_TRIPS);
            final double probeMean = path.windowMeanMillis(PROBE_WINDOW);
            knowledge = knowledge.observeMean(thesis.valueMillis(), served.valueMillis(), served.interval().lower(),
                served.interval().upper(), probeMean, PROBE_WINDOW, true, true, knowledge.burstSpread(), burst);
            if (knowledge.drift().alarm() != null) {
                measurement = path.measure(1000, 20);
                knowledge = knowledge.withDriftHandled().observeMean(thesis.valueMillis(), served.valueMillis(),
                    served.interval().lower(), served.interval().upper(), measurement.meanMillis(), measurement.sampleCount(),
                    false, true, knowledge.burstSpread(), burst).withMeasurement(measurement, cycle);
                thesis = MeasuredAverageEstimator.estimate(measurement, "synthetic");
            }
            path.windowMeanMillis(GAP_ROUND_TRIPS);
        }
        return new Run((double) inside / tested, (double) insideThesis / tested, Math.abs(servedSum - burstSum) / burstSum);
    }

    @Test
    void onAStationaryPathAtLeastNinetyFivePercentOfNextBurstMeansFallInside() {
        final Run run = run(BurstyPath.stationary(21), 50);
        assertTrue(run.inside() >= 0.95, "next-burst means inside the served interval: " + run.inside());
        assertTrue(run.insideThesis() < 0.8, "the thesis's confidence interval of the mean held " + run.insideThesis());
        assertTrue(run.meanError() < 0.10, "served mean vs the pooled mean of the bursts: " + run.meanError());
    }

    @Test
    void onADriftingPathAtLeastNinetyFivePercentOfNextBurstMeansFallInside() {
        final Run run = run(BurstyPath.drifting(CYCLES * (50 + PROBE_WINDOW + 2L * GAP_ROUND_TRIPS) / 2, 22), 50);
        assertTrue(run.inside() >= 0.95, "next-burst means inside the served interval: " + run.inside());
        assertTrue(run.meanError() < 0.10, "served mean vs the pooled mean of the bursts: " + run.meanError());
    }

    @Test
    void shortBurstsAndLongBurstsAreBothCoveredAfterTheWarmUp() {
        assertTrue(run(BurstyPath.stationary(23), 5).inside() >= 0.95, "bursts of 5");
        assertTrue(run(BurstyPath.stationary(24), 400).inside() >= 0.95, "bursts of 400");
    }

    @Test
    void theIntervalNarrowsAsTheBurstGrowsAndSaysWhatItIs() {
        final BurstyPath path = BurstyPath.stationary(25);
        final Measurement measurement = path.measure(1000, 20);
        final Estimate thesis = MeasuredAverageEstimator.estimate(measurement, "synthetic");
        StateKnowledge knowledge = StateKnowledge.fresh(0).withMeasurement(measurement, 0);
        for (int w = 0; w < 100; w++) {
            knowledge = knowledge.observeMean(thesis.valueMillis(), thesis.valueMillis(), 0, 1, path.windowMeanMillis(PROBE_WINDOW),
                PROBE_WINDOW, true, true, knowledge.burstSpread(), 50);
        }
        double previous = Double.POSITIVE_INFINITY;
        for (final int burst : new int[] {1, 5, 20, 50, 200, 1000}) {
            final Estimate served = EstimateCorrection.correct(thesis, null, knowledge, RecentValues.EMPTY, burst).estimate();
            final ConfidenceInterval interval = served.interval();
            assertTrue(interval.halfWidth() < previous, "bursts of " + burst + ": half-width " + interval.halfWidth()
                + " ms, not below " + previous);
            previous = interval.halfWidth();
            assertTrue(interval.method().startsWith(NextBurstPrediction.METHOD + burst + " round trips"), interval.method());
            assertTrue(served.alternatives().get(0).method().contains(NextBurstPrediction.THESIS_LABEL),
                served.alternatives().get(0).method());
            assertEquals(thesis.interval().lower(), served.alternatives().get(0).lower(), 0.0);
        }
    }

    @Test
    void theSpreadModelSeparatesWhatBurstsShareFromWhatAveragesAway() {
        final Measurement measurement = BurstyPath.stationary(26).measure(1000, 20);
        final BurstMeanSpread spread = BurstMeanSpread.of(measurement);
        assertTrue(spread.betweenRelVariance() > 0, "the spells show as a share bursts have in common: " + spread);
        assertEquals(19.0, spread.degreesOfFreedom(), 0.0);
        assertTrue(spread.relativeSd(1) > spread.relativeSd(50) && spread.relativeSd(50) > spread.relativeSd(100_000));
        assertTrue(spread.relativeSd(100_000) >= Math.sqrt(spread.betweenRelVariance()), "never shrinks below the shared part");
        final BurstMeanSpread independent = BurstMeanSpread.of(new Measurement(measurement.histogram(), measurement.sampleCount(),
            measurement.meanMillis(), measurement.stdDevMillis(), measurement.maxMillis()));
        assertEquals(0.0, independent.betweenRelVariance(), 0.0);
    }

    @Test
    void aYoungStateTakesItsWidthFromTheConnectionsOtherStatesScores() {
        final BurstyPath path = BurstyPath.stationary(27);
        final Measurement measurement = path.measure(1000, 20);
        final Estimate thesis = MeasuredAverageEstimator.estimate(measurement, "synthetic");
        final StateKnowledge young = StateKnowledge.fresh(0).withMeasurement(measurement, 0);
        final double[] wide = new double[40];
        java.util.Arrays.fill(wide, 6.0);
        final Estimate alone = EstimateCorrection.correct(thesis, null, young, RecentValues.EMPTY, RecentValues.EMPTY, 50)
            .estimate();
        final Estimate pooled = EstimateCorrection.correct(thesis, null, young, RecentValues.EMPTY, RecentValues.of(wide), 50)
            .estimate();
        assertTrue(alone.interval().method().contains("Student's t; 0 of 20 windows"), alone.interval().method());
        assertTrue(pooled.interval().method().contains("width from the 40 recent windows of all load states"),
            pooled.interval().method());
        assertTrue(pooled.interval().halfWidth() > 1.5 * alone.interval().halfWidth(),
            "other states' scores of 6 model sds widen the young state's interval beyond its model's t quantile");
        final double[] narrow = new double[40];
        final Estimate floored = EstimateCorrection.correct(thesis, null, young, RecentValues.EMPTY, RecentValues.of(narrow), 50)
            .estimate();
        assertEquals(alone.interval().halfWidth(), floored.interval().halfWidth(), 1e-12, "never below the model's own quantile");
    }
}
