package org.latencyserver.core.calibration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.latencyserver.core.estimate.Estimate;
import org.latencyserver.core.estimate.MeasuredBoundEstimator;
import org.latencyserver.core.estimate.Measurement;
import org.latencyserver.core.traffic.CallKind;
import org.latencyserver.core.traffic.ShapeClass;

/**
 * Group-conditional levels: a young load state borrows the connection's pooled level and comes to its
 * own as its blocks accumulate; within a state the worst shape class seen decides the level; a state
 * whose coverage interval lies below nominal is flagged, and only then.
 */
class BorrowedLevelTest {

    private static final double BOUND_PERCENT = 96.0;
    private static final int BLOCK = 25;
    private static final ShapeClass FAST_OCTETS = new ShapeClass(0, 0, CallKind.OCTETS);
    private static final ShapeClass LONG_BURSTS = new ShapeClass(1, 3, CallKind.OCTETS);

    /** A perfectly calibrated histogram: a bound read at p % misses (100 − p) % of a block. */
    private static long calibratedMisses(final double levelPercent) {
        return Math.round(BLOCK * (100.0 - levelPercent) / 100.0);
    }

    private static AdaptiveQuantileLevel raisedPooledLevel() {
        AdaptiveQuantileLevel pooled = AdaptiveQuantileLevel.start(BOUND_PERCENT);
        for (int i = 0; i < 30; i++) {
            pooled = pooled.observe(8, 2); // 25 % misses in the connection's other states
        }
        return pooled;
    }

    @Test
    void aYoungStateIsServedAboveTheNominalOnceThePooledLevelRoseAndComesToItsOwnLevelLater() {
        final AdaptiveQuantileLevel pooled = raisedPooledLevel();
        assertTrue(pooled.servedPercent() > 99.0, "pooled level " + pooled.servedPercent());
        StateKnowledge young = StateKnowledge.fresh(BOUND_PERCENT);
        final BorrowedLevel.Served atFirst = BorrowedLevel.of(young, pooled, null);
        assertEquals(pooled.servedPercent(), atFirst.servedPercent(), 1e-9, "a state never seen is served at the pooled level");
        assertEquals(BOUND_PERCENT, young.level().servedPercent(), 1e-9, "its own level is still nominal");

        for (int i = 0; i < 5; i++) {
            young = young.observeBound(BLOCK, BLOCK - 1, true, true, null, BorrowedLevelTest::calibratedMisses);
        }
        final double afterFive = BorrowedLevel.of(young, pooled, null).servedPercent();
        assertTrue(afterFive > BOUND_PERCENT + 2.0, "5 blocks: still mostly borrowed, served " + afterFive);

        for (int i = 0; i < 400; i++) {
            young = young.observeBound(BLOCK, BLOCK - 1, true, true, null, BorrowedLevelTest::calibratedMisses);
        }
        assertEquals(BOUND_PERCENT, young.level().servedPercent(), 1e-9, "its own level learned its calibrated histogram");
        final BorrowedLevel.Served later = BorrowedLevel.of(young, pooled, null);
        assertEquals(405, later.stateBlocks());
        assertTrue(later.servedPercent() < afterFive, "the weight moves to the state's own level");
        final double w = 405 / 425.0;
        assertEquals(w, later.stateWeight(), 1e-12);
        assertEquals(w * young.level().missFraction() + (1 - w) * pooled.missFraction(), later.missFraction(), 1e-12);
        assertTrue(later.servedPercent() < BOUND_PERCENT + 1.5, "405 blocks: w = 0.95, close to its own level: "
            + later.servedPercent());
    }

    @Test
    void theCorrectedBoundOfAStateNeverSeenIsReadAtThePooledLevel() throws Exception {
        final Measurement measurement = SyntheticPath.stationary(7).measure(1000);
        final Estimate thesis = MeasuredBoundEstimator.estimate(measurement, BOUND_PERCENT, "synthetic");
        final StateKnowledge fresh = StateKnowledge.fresh(BOUND_PERCENT).withMeasurement(measurement, 0);

        final EstimateCorrection.Corrected alone = EstimateCorrection.correct(thesis, measurement.histogram(), fresh);
        assertEquals(thesis, alone.estimate(), "without a pooled level a fresh state is not corrected");

        final EstimateCorrection.Corrected borrowed = EstimateCorrection.correct(thesis, measurement.histogram(), fresh,
            RecentValues.EMPTY, raisedPooledLevel(), null);
        assertTrue(borrowed.estimate().valueMillis() > thesis.valueMillis(), "served " + borrowed.estimate().valueMillis()
            + " ms, thesis " + thesis.valueMillis() + " ms");
        assertTrue(borrowed.description().contains("against the connection's pooled level"), borrowed.description());
    }

    @Test
    void theWorstShapeClassSeenDecidesTheLevelAndADeclaredShapeOnlyItsOwn() throws Exception {
        StateKnowledge state = StateKnowledge.fresh(BOUND_PERCENT);
        final int roundTrips = 400;
        for (int i = 0; i < 60; i++) {
            // At a level p, fast octets miss half the nominal share (100 - p) %, long bursts twice it: their own levels
            // settle near 92 % and 98 %, the state's (both) near 96.8 %.
            state = state.observeBound(roundTrips, roundTrips - 8, true, true, FAST_OCTETS,
                p -> Math.round(roundTrips * 0.5 * (100 - p) / 100));
            state = state.observeBound(roundTrips, roundTrips - 32, true, true, LONG_BURSTS,
                p -> Math.round(roundTrips * 2.0 * (100 - p) / 100));
        }
        assertEquals(2, state.groups().byClass().size());
        assertEquals(60, state.groups().byClass().get(LONG_BURSTS).blocks());
        final AdaptiveQuantileLevel pooled = AdaptiveQuantileLevel.start(BOUND_PERCENT);

        final BorrowedLevel.Served worst = BorrowedLevel.of(state, pooled, null);
        assertEquals(LONG_BURSTS, worst.shape());
        assertFalse(worst.declared());
        final BorrowedLevel.Served ownState = BorrowedLevel.of(state, pooled, new ShapeClass(5, 4, CallKind.ARRAYS));
        assertTrue(worst.servedPercent() > ownState.servedPercent(), "worst " + worst.servedPercent() + " % above the state's "
            + ownState.servedPercent() + " %");
        final BorrowedLevel.Served declaredFast = BorrowedLevel.of(state, pooled, FAST_OCTETS);
        assertTrue(declaredFast.declared());
        assertTrue(declaredFast.servedPercent() < ownState.servedPercent(), "the fast shape alone needs less: "
            + declaredFast.servedPercent());

        final Measurement measurement = SyntheticPath.stationary(3).measure(1000);
        final Estimate thesis = MeasuredBoundEstimator.estimate(measurement, BOUND_PERCENT, "synthetic");
        final EstimateCorrection.Corrected corrected = EstimateCorrection.correct(thesis, measurement.histogram(),
            state.withMeasurement(measurement, 0), RecentValues.EMPTY, pooled, null);
        assertTrue(corrected.description().contains("level for the worst shape seen: " + LONG_BURSTS.label()),
            corrected.description());
        assertTrue(corrected.estimate().notes().stream().anyMatch(n -> n.contains("level for the worst shape seen: ")));
    }

    @Test
    void aClassWithTooFewBlocksDoesNotDecide() {
        StateKnowledge state = StateKnowledge.fresh(BOUND_PERCENT);
        for (int i = 0; i < BorrowedLevel.MIN_CLASS_BLOCKS - 1; i++) {
            state = state.observeBound(BLOCK, 0, true, true, LONG_BURSTS, levelPercent -> BLOCK);
        }
        assertNull(BorrowedLevel.of(state, AdaptiveQuantileLevel.start(BOUND_PERCENT), null).shape());
        state = state.observeBound(BLOCK, 0, true, true, LONG_BURSTS, levelPercent -> BLOCK);
        assertEquals(LONG_BURSTS, BorrowedLevel.of(state, AdaptiveQuantileLevel.start(BOUND_PERCENT), null).shape());
    }

    @Test
    void atMostThirtyTwoClassesAreKeptWhileEveryBlockTeachesTheState() {
        StateKnowledge state = StateKnowledge.fresh(BOUND_PERCENT);
        int blocks = 0;
        for (int spacing = 0; spacing < ShapeClass.SPACING_RANGES; spacing++) {
            for (int burst = 0; burst < ShapeClass.BURST_RANGES; burst++) {
                for (final CallKind call : CallKind.values()) {
                    state = state.observeBound(BLOCK, BLOCK, true, true, new ShapeClass(spacing, burst, call), p -> 0);
                    blocks++;
                }
            }
        }
        assertEquals(60, blocks);
        assertEquals(GroupLevels.MAX_CLASSES, state.groups().byClass().size());
        assertEquals(60, state.groups().stateBlocks());
        assertEquals(0, state.withCorrectionsRestarted(BOUND_PERCENT).groups().stateBlocks(), "a restart borrows afresh");
    }

    @Test
    void aStateIsFlaggedWhenItsCoverageIntervalLiesBelowTheNominalAndNotOtherwise() {
        StateKnowledge low = StateKnowledge.fresh(BOUND_PERCENT);
        StateKnowledge fine = StateKnowledge.fresh(BOUND_PERCENT);
        for (int i = 0; i < 30; i++) {
            low = low.observeBound(BLOCK, i % 2 == 0 ? 22 : 23, true, false); // 90 %
            fine = fine.observeBound(BLOCK, i % 2 == 0 ? 23 : 25, true, false); // 96 %
            if (i == 10) {
                assertFalse(low.coverageBelowNominal(), "11 blocks are too few to judge");
            }
        }
        assertTrue(low.coverage().interval(0.95).upper() < 0.96);
        assertTrue(low.coverageBelowNominal());
        assertFalse(fine.coverageBelowNominal(), "interval " + fine.coverage().interval(0.95));
        StateKnowledge mean = StateKnowledge.fresh(0);
        for (int i = 0; i < 30; i++) {
            mean = mean.observeBound(BLOCK, 1, true, false);
        }
        assertFalse(mean.coverageBelowNominal(), "a mean has no nominal coverage");
    }
}
