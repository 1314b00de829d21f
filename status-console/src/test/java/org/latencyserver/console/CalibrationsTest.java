package org.latencyserver.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.latencyserver.console.ConsoleSnapshot.CalibrationView;
import org.latencyserver.console.ConsoleSnapshot.StateCalibrationView;
import org.latencyserver.idl.latency.Calibration;
import org.latencyserver.idl.latency.ConfidenceInterval;
import org.latencyserver.idl.latency.StateCalibration;

/** The console's reading of {@code calibration(index_ref)} and of an estimate's source, without a server. */
class CalibrationsTest {

    private static final String BLOCKS = "observed coverage, blocks of round trips (cluster-robust t)";

    @Test
    void aBoundIsNotHoldingOnlyWhenItsIntervalLiesWhollyBelowNominalLessOneAndAHalfPoints() {
        assertTrue(view(0.90, 0.80, 0.944, BLOCKS).boundNotHolding());
        assertFalse(view(0.93, 0.90, 0.946, BLOCKS).boundNotHolding(), "reaches into the 1.5 points below nominal");
        assertFalse(view(0.80, 0.0, 1.0, BLOCKS).boundNotHolding(), "too few blocks to tell");
    }

    @Test
    void beforeTwoBlocksThereIsNoIntervalAndNoVerdict() {
        final StateCalibrationView one = view(0.0, 0.0, 0.0, "none yet (fewer than 2 blocks)");
        assertFalse(one.coverageIntervalKnown());
        assertFalse(one.boundNotHolding(), "a single block of misses is no verdict");
    }

    @Test
    void aStateTheServerFlagsUnderCoveringIsShownFlaggedAndTheOthersAreNot() {
        final StateCalibration low = state(11, 0, 0.90, 0.88, 0.93, BLOCKS);
        low.coverage_below_nominal = true;
        final StateCalibration pooled = state(-1, -1, 0.95, 0.93, 0.97, BLOCKS);
        pooled.coverage_below_nominal = true;
        final CalibrationView view = Calibrations.view(new Calibration((short) 7, "adaptive", pooled,
            new StateCalibration[] {low, state(31, 0, 0.96, 0.95, 0.97, BLOCKS)}), 31, 0);
        assertTrue(view.states().get(0).belowNominal());
        assertFalse(view.states().get(1).belowNominal());
        assertTrue(view.pooled().belowNominal(), "the pooled row says some state is");
    }

    @Test
    void theCurrentLoadStateIsMarked() {
        final Calibration calibration = new Calibration((short) 7, "adaptive", state(-1, -1, 0.5, 0, 1, BLOCKS),
            new StateCalibration[] {state(11, 0, 0.5, 0, 1, BLOCKS), state(31, 0, 0.5, 0, 1, BLOCKS)});
        final CalibrationView view = Calibrations.view(calibration, 31, 0);
        assertFalse(view.states().get(0).current());
        assertTrue(view.states().get(1).current());
        assertFalse(view.pooled().current());
    }

    @Test
    void sourcesThatAreNotTheCurrentStatesOwnAreLabelled() {
        assertEquals("", Words.source("measurement", 1_000, 5_000));
        assertEquals("", Words.source("profile", 0, 5_000));
        assertEquals("remembered, 3 min old", Words.source("remembered measurement", 1_000, 1_000 + 200_000));
        assertEquals("remembered, 42 s old", Words.source("remembered measurement", 1_000, 43_000));
        assertEquals("profile fallback", Words.source("profile fallback", 0, 5_000));
        assertEquals("probes of this port state", Words.source("band probes", 4_000, 5_000));
        assertEquals("previous state's value", Words.source("previous state's measurement", 1_000, 5_000));
        assertTrue(Words.sourceExplanation("previous state's measurement").contains("does not belong to the current state"));
    }

    private static StateCalibrationView view(final double coverage, final double lower, final double upper, final String method) {
        return Calibrations.view(new Calibration((short) 7, "adaptive", state(-1, -1, coverage, lower, upper, method),
            new StateCalibration[0]), 11, 0).pooled();
    }

    private static StateCalibration state(final int cpuState, final int portState, final double coverage, final double lower,
                                          final double upper, final String method) {
        return new StateCalibration((short) cpuState, (short) portState, cpuState < 0 ? "all states" : "state " + cpuState,
            2000, coverage, new ConfidenceInterval(lower, upper, 0.95, "ratio", method), 0.96, 96.0, 0, 0, 0, 1.0, 2, 0, 0, false);
    }
}
