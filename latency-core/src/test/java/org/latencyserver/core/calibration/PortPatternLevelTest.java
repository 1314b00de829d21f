package org.latencyserver.core.calibration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.latencyserver.core.estimate.Estimate;
import org.latencyserver.core.estimate.MeasuredBoundEstimator;
import org.latencyserver.core.estimate.Measurement;
import org.latencyserver.core.state.ConnectionLoadState;
import org.latencyserver.core.state.CpuState;
import org.latencyserver.core.state.CpuStatePair;
import org.latencyserver.core.state.PortState;

/**
 * The port pattern between the pooled level and a state's own: a young state borrows its pattern's level, shrunk towards
 * the pooled one by the pattern's blocks; a state with many blocks serves its own; a pattern with no block borrows the
 * pooled level unchanged.
 */
class PortPatternLevelTest {

    private static final double BOUND_PERCENT = 96.0;
    private static final int BLOCK = 25;

    /** A perfectly calibrated histogram: a bound read at p % misses (100 − p) % of a block. */
    private static long calibratedMisses(final double levelPercent) {
        return Math.round(BLOCK * (100.0 - levelPercent) / 100.0);
    }

    /** The pooled level of a connection whose other patterns' references were right: at the nominal level. */
    private static AdaptiveQuantileLevel calibratedPooledLevel() {
        AdaptiveQuantileLevel pooled = AdaptiveQuantileLevel.start(BOUND_PERCENT);
        for (int i = 0; i < 40; i++) {
            pooled = pooled.observe(BLOCK, calibratedMisses(pooled.servedPercent()));
        }
        return pooled;
    }

    /** A pattern whose states' reference was too low: 6 of 25 round trips missed its bound in each of 12 blocks. */
    private static PortPatternLevel tooLowPattern() {
        PortPatternLevel pattern = PortPatternLevel.start(BOUND_PERCENT);
        for (int i = 0; i < 12; i++) {
            pattern = pattern.observe(BLOCK, 6);
        }
        return pattern;
    }

    private static StateKnowledge stateWithCalibratedBlocks(final int blocks) {
        StateKnowledge state = StateKnowledge.fresh(BOUND_PERCENT);
        for (int i = 0; i < blocks; i++) {
            state = state.observeBound(BLOCK, BLOCK - 1, true, true, null, PortPatternLevelTest::calibratedMisses);
        }
        return state;
    }

    @Test
    void aYoungStateInAPatternThatLearnedATooLowReferenceServesALowerMissFractionThanThePooledLevelWouldGive() {
        final AdaptiveQuantileLevel pooled = calibratedPooledLevel();
        final PortPatternLevel pattern = tooLowPattern();
        assertEquals(12, pattern.blocks());
        assertTrue(pattern.level().missFraction() < pooled.missFraction() - 0.04, "the pattern's level rose: α "
            + pattern.level().missFraction());
        final StateKnowledge young = stateWithCalibratedBlocks(2);

        final BorrowedLevel.Served withPooled = BorrowedLevel.of(young, pooled, null);
        final BorrowedLevel.Prior prior = BorrowedLevel.Prior.of(pooled, pattern);
        final BorrowedLevel.Served withPattern = BorrowedLevel.of(young, prior, null, ClassExcess.EMPTY);

        assertTrue(withPattern.missFraction() < withPooled.missFraction() - 0.01, "pattern " + withPattern.missFraction()
            + " against pooled " + withPooled.missFraction());
        final double wp = 12 / 32.0;
        final double patternAlpha = wp * pattern.level().missFraction() + (1 - wp) * pooled.missFraction();
        assertEquals(wp, prior.patternWeight(), 1e-12);
        assertEquals(patternAlpha, prior.level().missFraction(), 1e-12);
        final double ws = 2 / 22.0;
        assertEquals(ws * young.level().missFraction() + (1 - ws) * patternAlpha, withPattern.missFraction(), 1e-12);
        assertEquals(pattern, withPattern.pattern());
    }

    @Test
    void aStateWithManyBlocksServesItsOwnLevelWhateverItsPatternLearned() {
        final AdaptiveQuantileLevel pooled = calibratedPooledLevel();
        final PortPatternLevel pattern = tooLowPattern();
        final StateKnowledge mature = stateWithCalibratedBlocks(400);
        final double own = mature.level().missFraction();

        final BorrowedLevel.Served served = BorrowedLevel.of(mature, BorrowedLevel.Prior.of(pooled, pattern), null,
            ClassExcess.EMPTY);

        final double patternAlpha = BorrowedLevel.Prior.of(pooled, pattern).level().missFraction();
        assertTrue(Math.abs(served.missFraction() - own) < 0.1 * Math.abs(patternAlpha - own), "served " + served.missFraction()
            + ", own " + own + ", pattern " + patternAlpha);
        assertEquals(400 / 420.0, served.stateWeight(), 1e-12);
    }

    @Test
    void anEmptyPatternBorrowsThePooledLevel() {
        final AdaptiveQuantileLevel pooled = calibratedPooledLevel().observe(BLOCK, 5);
        final StateKnowledge young = stateWithCalibratedBlocks(3);

        final BorrowedLevel.Prior prior = BorrowedLevel.Prior.of(pooled, PortPatternLevel.start(BOUND_PERCENT));

        assertEquals(0.0, prior.patternWeight());
        assertEquals(pooled.missFraction(), prior.level().missFraction(), 1e-15);
        assertEquals(BorrowedLevel.of(young, pooled, null).missFraction(),
            BorrowedLevel.of(young, prior, null, ClassExcess.EMPTY).missFraction(), 1e-15);
    }

    @Test
    void aPriorWithoutPooledLevelBorrowsNothingAndKeepsNoPattern() {
        final BorrowedLevel.Prior prior = BorrowedLevel.Prior.of(null, tooLowPattern());
        assertNull(prior.level());
        assertNull(prior.pattern());
        final StateKnowledge young = stateWithCalibratedBlocks(1);
        final BorrowedLevel.Served served = BorrowedLevel.of(young, prior, null, ClassExcess.EMPTY);
        assertEquals(young.level().missFraction(), served.missFraction(), 1e-15, "the state's own level stands alone");
        assertEquals(1.0, served.stateWeight());
    }

    @Test
    void thePatternsPriorKeepsThePooledLevelsRatiosAndStep() {
        final AdaptiveQuantileLevel pooled = calibratedPooledLevel().withRatios(RatioScores.of(new double[] {1.1, 1.2, 1.3}));
        final AdaptiveQuantileLevel prior = BorrowedLevel.Prior.of(pooled, tooLowPattern()).level();
        assertEquals(pooled.ratios(), prior.ratios());
        assertEquals(pooled.stepPerRoundTrip(), prior.stepPerRoundTrip());
        assertEquals(pooled.targetMissFraction(), prior.targetMissFraction());
    }

    @Test
    void theDescriptionSaysTheStateBorrowedFromItsPortPattern() {
        final AdaptiveQuantileLevel pooled = calibratedPooledLevel();
        final StateKnowledge young = stateWithCalibratedBlocks(2);

        final String withPattern = BorrowedLevel.of(young, BorrowedLevel.Prior.of(pooled, tooLowPattern()), null,
            ClassExcess.EMPTY).description();
        final String withPooled = BorrowedLevel.of(young, pooled, null).description();

        assertTrue(withPattern.contains("port pattern's level") && withPattern.contains("(12 blocks)"), withPattern);
        assertTrue(withPattern.contains("itself weighted 0.38"), withPattern);
        assertFalse(withPooled.contains("port pattern"), withPooled);
        assertTrue(withPooled.contains("against the connection's pooled level"), withPooled);
    }

    @Test
    void aShapeAskedForIsServedWithThePatternToo() {
        final AdaptiveQuantileLevel pooled = calibratedPooledLevel();
        final StateKnowledge young = stateWithCalibratedBlocks(2);
        final org.latencyserver.core.traffic.ShapeClass asked =
            new org.latencyserver.core.traffic.ShapeClass(0, 0, org.latencyserver.core.traffic.CallKind.OCTETS);

        final BorrowedLevel.Served served = BorrowedLevel.forShape(young, BorrowedLevel.Prior.of(pooled, tooLowPattern()),
            ClassExcess.EMPTY, asked);

        assertTrue(served.missFraction() < BorrowedLevel.forShape(young, pooled, ClassExcess.EMPTY, asked).missFraction());
        assertEquals(tooLowPattern(), served.pattern());
    }

    @Test
    void theCorrectedBoundOfAYoungStateIsHigherAndNamesThePatternWhenItsPatternLearnedATooLowReference() throws Exception {
        final Measurement measurement = SyntheticPath.stationary(7).measure(1000);
        final Estimate thesis = MeasuredBoundEstimator.estimate(measurement, BOUND_PERCENT, "synthetic");
        final StateKnowledge young = stateWithCalibratedBlocks(2).withMeasurement(measurement, 0);
        final AdaptiveQuantileLevel pooled = calibratedPooledLevel();

        final EstimateCorrection.Corrected byPooled = EstimateCorrection.correct(thesis, measurement.histogram(), young,
            RecentValues.EMPTY, pooled, null, RecentValues.EMPTY, 0, ClassExcess.EMPTY);
        final EstimateCorrection.Corrected byPattern = EstimateCorrection.correct(thesis, measurement.histogram(), young,
            RecentValues.EMPTY, BorrowedLevel.Prior.of(pooled, tooLowPattern()), null, RecentValues.EMPTY, 0, ClassExcess.EMPTY);

        assertTrue(byPattern.estimate().valueMillis() > byPooled.estimate().valueMillis(), byPattern.estimate().valueMillis()
            + " ms against " + byPooled.estimate().valueMillis() + " ms");
        assertTrue(byPattern.description().contains("port pattern"), byPattern.description());
    }

    @Test
    void aPatternLevelLearnsFromItsOwnMissesAndCountsItsBlocks() {
        final PortPatternLevel start = PortPatternLevel.start(BOUND_PERCENT);
        final PortPatternLevel missed = start.observe(BLOCK, 5);
        final PortPatternLevel clean = start.observe(BLOCK, 0);
        assertEquals(1, missed.blocks());
        assertTrue(missed.level().missFraction() < start.level().missFraction());
        assertTrue(clean.level().missFraction() > start.level().missFraction());
        assertEquals(start.level().observe(BLOCK, 5, 0), missed.level());
        assertThrows(IllegalArgumentException.class, () -> new PortPatternLevel(start.level(), -1));
        assertThrows(IllegalArgumentException.class, () -> new PortPatternLevel(null, 0));
    }

    @Test
    void statesWithTheSameHopsShareAPatternWhateverTheirCpuStates() {
        final List<PortState> bothLoaded = List.of(PortState.loaded(95), PortState.loaded(98));
        final ConnectionLoadState low = ConnectionLoadState.ofHops(new CpuStatePair(CpuState.LOW, CpuState.LOW), bothLoaded);
        final ConnectionLoadState high = ConnectionLoadState.ofHops(new CpuStatePair(CpuState.HIGH, CpuState.MEDIUM), bothLoaded);
        final ConnectionLoadState oneLoaded = ConnectionLoadState.ofHops(new CpuStatePair(CpuState.LOW, CpuState.LOW),
            List.of(PortState.NORMAL, PortState.loaded(98)));

        assertEquals(PortPatternLevel.patternOf(low), PortPatternLevel.patternOf(high));
        assertNotEquals(PortPatternLevel.patternOf(low), PortPatternLevel.patternOf(oneLoaded));
    }

    @Test
    void loadedPortsAtDifferentPercentsShareAPatternOfTheirKinds() {
        final CpuStatePair cpu = new CpuStatePair(CpuState.LOW, CpuState.LOW);
        final ConnectionLoadState at95And98 = ConnectionLoadState.ofHops(cpu, List.of(PortState.loaded(95), PortState.loaded(98)));
        final ConnectionLoadState at98And98 = ConnectionLoadState.ofHops(cpu, List.of(PortState.loaded(98), PortState.loaded(98)));
        final ConnectionLoadState saturated = ConnectionLoadState.ofHops(cpu, List.of(PortState.loaded(98), PortState.SATURATED));

        assertEquals(List.of(PortState.Kind.LOADED, PortState.Kind.LOADED), PortPatternLevel.patternOf(at95And98));
        assertEquals(PortPatternLevel.patternOf(at95And98), PortPatternLevel.patternOf(at98And98));
        assertNotEquals(PortPatternLevel.patternOf(at98And98), PortPatternLevel.patternOf(saturated),
            "a saturated port is another kind than a loaded one");
    }
}
