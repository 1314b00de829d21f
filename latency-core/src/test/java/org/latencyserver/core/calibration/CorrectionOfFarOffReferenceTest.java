package org.latencyserver.core.calibration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.latencyserver.core.estimate.Estimate;
import org.latencyserver.core.estimate.MeasuredBoundEstimator;
import org.latencyserver.core.estimate.Measurement;
import org.latencyserver.core.histogram.LatencyHistogram;

/**
 * The served bound, corrected as the server corrects it, when the histogram it is read from is far off the path — a
 * profile cell measured under other cross-traffic: probe windows of 8 round trips of a seeded synthetic path test what
 * was served, teaching the adaptive level (from the misses of the bound read at it) and the ratios of the round trips
 * to the thesis's bound. No level of a histogram four times too high lies near the path's 96th percentile; the
 * rescaled bound must cover 96 ± 2 % within {@value #LEARNING_WINDOWS} windows, and one four times too low must still
 * rise.
 */
class CorrectionOfFarOffReferenceTest {

    private static final double BOUND_PERCENT = 96.0;
    private static final int WINDOW = 8;
    /** Windows before coverage is judged: 160 round trips, above {@link RatioScores#MIN_SCORES}. */
    private static final int LEARNING_WINDOWS = 20;
    private static final int JUDGED_WINDOWS = 5_000;

    /** Outcome: coverage of the judged windows, and the median served bound over the path's true 96th percentile. */
    private record Run(double coverage, double medianServedOverTrueP96, String lastCorrection) {
    }

    private static Run run(final double referenceScale, final boolean learnRatios, final long seed) throws Exception {
        final Measurement reference = SyntheticPath.scaled(referenceScale, seed).measure(1000);
        final Estimate thesis = MeasuredBoundEstimator.estimate(reference, BOUND_PERCENT, "synthetic, " + referenceScale + " x");
        final SyntheticPath path = SyntheticPath.stationary(seed + 1);
        final double trueP96Nanos = trueP96Nanos(seed + 2);
        StateKnowledge knowledge = StateKnowledge.fresh(BOUND_PERCENT);
        long hits = 0;
        long sent = 0;
        final double[] ratios = new double[JUDGED_WINDOWS];
        String correction = "";
        for (int w = 0; w < LEARNING_WINDOWS + JUDGED_WINDOWS; w++) {
            final EstimateCorrection.Corrected corrected = EstimateCorrection.correct(thesis, reference.histogram(), knowledge);
            final long boundNanos = Math.round(corrected.estimate().valueMillis() * 1e6);
            final long[] window = new long[WINDOW];
            long windowHits = 0;
            for (int i = 0; i < WINDOW; i++) {
                window[i] = path.nextNanos();
                windowHits += window[i] <= boundNanos ? 1 : 0;
            }
            if (w >= LEARNING_WINDOWS) {
                hits += windowHits;
                sent += WINDOW;
                ratios[w - LEARNING_WINDOWS] = boundNanos / trueP96Nanos;
                correction = corrected.description();
            }
            final LatencyHistogram block = ReferenceFixtures.histogramOf(window);
            knowledge = knowledge.observeBound(WINDOW, windowHits, true, true, null, ReferenceFixtures.missesAt(reference.histogram(), block),
                learnRatios ? block : null, thesis.valueMillis());
        }
        Arrays.sort(ratios);
        return new Run((double) hits / sent, ratios[ratios.length / 2], correction);
    }

    /** The 96th percentile of the stationary path, from 200,000 of its round trips. */
    private static double trueP96Nanos(final long seed) {
        final SyntheticPath path = SyntheticPath.stationary(seed);
        final long[] sample = new long[200_000];
        for (int i = 0; i < sample.length; i++) {
            sample[i] = path.nextNanos();
        }
        Arrays.sort(sample);
        return sample[(int) (0.96 * sample.length)];
    }


    @Test
    void aReferenceFourTimesTooHighIsRescaledToCoverNinetySixPercent() throws Exception {
        final Run run = run(4.0, true, 21);
        assertEquals(0.96, run.coverage(), 0.02, "coverage after " + LEARNING_WINDOWS + " windows");
        assertEquals(1.0, run.medianServedOverTrueP96(), 0.15, "served bound / the path's p96");
        assertTrue(run.lastCorrection().contains("rescaled: ") && run.lastCorrection().contains("thesis bound ×"), run.lastCorrection());
    }

    @Test
    void withoutRatiosTheLevelAloneCannotComeDownFromAReferenceFourTimesTooHigh() throws Exception {
        // The reference for the test above: the level is floored (87 % at most α 0.13) and every level of the
        // reference near it lies far above the path's 96th percentile.
        final Run run = run(4.0, false, 21);
        assertTrue(run.coverage() > 0.999, "coverage " + run.coverage());
        assertTrue(run.medianServedOverTrueP96() > 2.5, "served / p96 " + run.medianServedOverTrueP96());
    }

    @Test
    void aReferenceFourTimesTooLowStillRisesToCoverNinetySixPercent() throws Exception {
        final Run run = run(0.25, true, 31);
        assertEquals(0.96, run.coverage(), 0.02, "coverage after " + LEARNING_WINDOWS + " windows");
        assertEquals(1.0, run.medianServedOverTrueP96(), 0.15, "served bound / the path's p96");
    }

    @Test
    void aReferenceThatIsRightIsServedAtTheLevelAsBefore() throws Exception {
        final Run run = run(1.0, true, 41);
        assertEquals(0.96, run.coverage(), 0.01, "coverage");
        assertTrue(!run.lastCorrection().contains("rescaled"), run.lastCorrection());
    }
}
