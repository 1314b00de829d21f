package org.latencyserver.agent.profiler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.IntToDoubleFunction;
import org.junit.jupiter.api.Test;

/** The load drivers' correction: it converges where a full step of the miss swings around the target. */
class DriveCorrectionTest {

    /** A core as read in a CI run: 24 % at a duty cycle of 9, and 1.9 points of reading per point of duty cycle. */
    private static final IntToDoubleFunction STEEP_CORE = drive -> Math.min(100, 24 + 1.9 * (drive - 9));

    @Test
    void aSteepCoreReachesItsMediumBandByTheThirdTry() {
        final DriveCorrection correction = new DriveCorrection(50);
        int drive = 9;
        final double[] readings = new double[3];
        for (int attempt = 0; attempt < 3; attempt++) {
            readings[attempt] = STEEP_CORE.applyAsDouble(drive);
            drive = correction.next(drive, readings[attempt]);
        }
        assertEquals(24, readings[0], 1e-9);
        assertEquals(73.4, readings[1], 1e-9, "the first correction is a full step: it overshoots");
        assertTrue(readings[2] >= 34 && readings[2] < 66, "the secant lands in MEDIUM (34..66 %), read " + readings[2]);
        assertEquals(50, readings[2], 2, "close to the target");
    }

    @Test
    void aFlatPairOfReadingsFallsBackToAFullStepAndTheDutyCycleStaysWithin0And100() {
        final DriveCorrection correction = new DriveCorrection(85);
        assertEquals(40, correction.next(20, 65), "first: 20 + (85 - 65)");
        assertEquals(60, correction.next(40, 65), "no change in reading: slope taken as one, 40 + 20");
        assertEquals(0, new DriveCorrection(15).next(10, 40), "never below 0");
        assertEquals(100, new DriveCorrection(85).next(95, 40), "never above 100");
    }

    @Test
    void aShallowSecantNeverStepsFurtherThanTheMiss() {
        // Read in a CI run: duty cycle 0 -> 27 %, 23 -> 33 %: secant 0.26, taken as 1: 23 + (50 - 33).
        final DriveCorrection correction = new DriveCorrection(50);
        assertEquals(23, correction.next(0, 27));
        assertEquals(40, correction.next(23, 33));
    }

    @Test
    void aSteeperSlopeThanThreeIsTakenAsThree() {
        final DriveCorrection correction = new DriveCorrection(50);
        assertEquals(15, correction.next(10, 45));
        // 5 points of duty cycle moved the reading by 20: slope 4, kept at 3: 15 + (50 - 65) / 3.
        assertEquals(10, correction.next(15, 65));
    }
}
