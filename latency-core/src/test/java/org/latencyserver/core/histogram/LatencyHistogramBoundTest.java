package org.latencyserver.core.histogram;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.math.RoundingMode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.latencyserver.core.stats.ConfidenceInterval;
import org.latencyserver.core.stats.ProportionConfidence;

/** The thesis's x % bound (section 4.2.4): the worked example, exactness, and the edge cases. */
class LatencyHistogramBoundTest {

    private static final long MS = 1_000_000L;

    static LatencyHistogram thesisFigure322() {
        return ThesisExample.figure322();
    }

    @Test
    void thesisWorkedExampleGivesSevenMillisecondsForNinetyThreePercent() {
        final LatencyHistogram histogram = thesisFigure322();
        assertEquals(100_000, histogram.totalCount());
        assertTrue(histogram.countAtOrBelow(6 * MS) < 93_000, "premise: 6 ms does not reach 93 %");
        assertEquals(93_679, histogram.countAtOrBelow(7 * MS), "premise: 93.679 % at or below 7 ms");

        final BoundResult bound = histogram.boundAt(93.0);
        assertEquals(7 * MS, bound.boundNanos());
        assertEquals(7.0, bound.boundMillis());
        assertEquals(93_679, bound.countAtOrBelow());
        assertEquals(100_000, bound.totalCount());
        assertEquals(0.93679, bound.proportionAtOrBelow(), 1e-15);
    }

    @Test
    void thesisWorkedExampleConfidenceIsNinetyThreePointFiftyTwoToNinetyThreePointEightyTwoPercent() {
        final ConfidenceInterval ci = ProportionConfidence.wald(93_679, 100_000, 0.95);
        // Eq. 3 computed here with the thesis's own z = 1.96: 93.5282 % .. 93.8298 %.
        final double p = 0.93679;
        final double thesisHalfWidth = 1.96 * Math.sqrt(p * (1 - p) / 100_000);
        assertEquals(p - thesisHalfWidth, ci.lower(), 1e-6);
        assertEquals(p + thesisHalfWidth, ci.upper(), 1e-6);
        // The thesis reports "93.52 - 93.82 %": its two decimals are cut, not rounded half-up
        // (which would read 93.53 - 93.83 %).
        assertEquals("93.52", twoDecimalsAsTheThesisDid(ci.lower() * 100));
        assertEquals("93.82", twoDecimalsAsTheThesisDid(ci.upper() * 100));
        assertTrue(ci.contains(0.93679));
    }

    private static String twoDecimalsAsTheThesisDid(final double percent) {
        return BigDecimal.valueOf(percent).setScale(2, RoundingMode.DOWN).toPlainString();
    }

    @Test
    void ninetyThreePercentOfOneHundredThousandRequiresExactlyNinetyThreeThousand() {
        // The cumulative count is exactly 93,000 at 4 ms and 93,001 at 5 ms.
        final LatencyHistogram histogram = LatencyHistogram.uniform(MS, new long[] {50_000, 40_000, 0, 3_000, 1, 6_999}, 0);
        assertEquals(93_000, histogram.requiredCount(93.0));
        final BoundResult bound = histogram.boundAt(93.0);
        assertEquals(4 * MS, bound.boundNanos());
        assertEquals(93_000, bound.countAtOrBelow());
        assertEquals(0.93, bound.proportionAtOrBelow());
    }

    @Test
    void boundIsExactWhereBinaryFloatingPointOvershootsTheRequiredCount() {
        // 7 % of 100,000: the cumulative count is exactly 7,000 at 1 ms.
        assertEquals(7_001.0, Math.ceil(7.0 / 100 * 100_000), "premise: the naive ceiling demands 7,001");
        final LatencyHistogram seven = LatencyHistogram.uniform(MS, new long[] {7_000, 1, 92_999}, 0);
        assertEquals(7_000, seven.requiredCount(7.0));
        assertEquals(1 * MS, seven.boundAt(7.0).boundNanos());

        // 99.9 % of 1,000: the cumulative count is exactly 999 at 2 ms.
        assertEquals(1_000.0, Math.ceil(99.9 / 100 * 1_000), "premise: the naive ceiling demands all 1,000");
        final LatencyHistogram thousand = LatencyHistogram.uniform(MS, new long[] {900, 99, 1}, 0);
        assertEquals(999, thousand.requiredCount(99.9));
        assertEquals(2 * MS, thousand.boundAt(99.9).boundNanos());
        assertEquals(3 * MS, thousand.boundAt(99.90001).boundNanos());
    }

    @ParameterizedTest(name = "{0} % -> {1} ms")
    @CsvSource({"30.0, 1", "30.0001, 3", "100.0, 3"})
    void boundIsTheUpperEdgeOfTheFirstBinReachingTheRequiredCount(final double percent, final long boundMillis) {
        // 10 samples: 3 in (0,1], 0 in (1,2], 7 in (2,3] ms.
        final LatencyHistogram histogram = LatencyHistogram.uniform(MS, new long[] {3, 0, 7}, 0);
        assertEquals(boundMillis * MS, histogram.boundAt(percent).boundNanos());
    }

    @Test
    void hundredPercentIsTheLastNonEmptyBinAndATinyShareIsTheFirstNonEmptyBin() {
        final LatencyHistogram histogram = LatencyHistogram.uniform(MS, new long[] {0, 0, 5, 0, 2, 0, 0}, 0);
        assertEquals(5 * MS, histogram.boundAt(100.0).boundNanos());
        assertEquals(7, histogram.boundAt(100.0).countAtOrBelow());
        assertEquals(3 * MS, histogram.boundAt(1e-9).boundNanos());
        assertEquals(3 * MS, histogram.boundAt(Double.MIN_VALUE).boundNanos());
        assertEquals(1, histogram.requiredCount(1e-9));
    }

    @Test
    void singleSampleHasEveryBoundAtItsBin() {
        final LatencyHistogram histogram = LatencyHistogram.uniform(MS, new long[] {0, 0, 0, 1}, 0);
        for (final double percent : new double[] {1e-6, 0.1, 50, 96, 100}) {
            final BoundResult bound = histogram.boundAt(percent);
            assertEquals(4 * MS, bound.boundNanos());
            assertEquals(1, bound.countAtOrBelow());
            assertEquals(1.0, bound.proportionAtOrBelow());
        }
    }

    @ParameterizedTest
    @ValueSource(doubles = {0.05, 99.99, 100})
    void allSamplesInOneBinGiveThatBinForEveryPercentage(final double percent) {
        final LatencyHistogram histogram = LatencyHistogram.uniform(MS, new long[] {0, 1000, 0}, 0);
        assertEquals(2 * MS, histogram.boundAt(percent).boundNanos());
    }

    @Test
    void everySampleAtOrBelowTheBoundCollapsesWaldToOneButNotWilson() {
        final BoundResult bound = LatencyHistogram.uniform(MS, new long[] {0, 1000, 0}, 0).boundAt(96);
        assertEquals(1.0, bound.proportionAtOrBelow());
        final ConfidenceInterval wald = ProportionConfidence.wald(bound.countAtOrBelow(), bound.totalCount(), 0.95);
        assertEquals(1.0, wald.lower());
        assertEquals(1.0, wald.upper());
        final ConfidenceInterval wilson = ProportionConfidence.wilson(bound.countAtOrBelow(), bound.totalCount(), 0.95);
        assertTrue(wilson.lower() < 1.0, "Wilson lower end " + wilson.lower());
        assertEquals(1.0, wilson.upper(), 1e-12);
    }

    @Test
    void emptyHistogramHasNoBound() {
        final LatencyHistogram empty = LatencyHistogram.uniform(MS, new long[100], 0);
        assertTrue(empty.isEmpty());
        final EmptyHistogramException error = assertThrows(EmptyHistogramException.class, () -> empty.boundAt(93));
        assertTrue(error.getMessage().contains("empty"), error.getMessage());
        assertThrows(EmptyHistogramException.class, empty::meanNanosFromBinMidpoints);
    }

    @Test
    void boundReachableOnlyInTheOverflowIsRefusedNamingTheLastEdgeAndTheOverflow() {
        final LatencyHistogram histogram = LatencyHistogram.uniform(MS, new long[] {90, 5}, 5);
        assertEquals(100, histogram.totalCount());
        assertEquals(2 * MS, histogram.boundAt(95).boundNanos());
        final BoundBeyondHistogramException error =
            assertThrows(BoundBeyondHistogramException.class, () -> histogram.boundAt(95.5));
        assertTrue(error.getMessage().contains("2.000 ms"), error.getMessage());
        assertTrue(error.getMessage().contains("5 are above"), error.getMessage());
        assertThrows(BoundBeyondHistogramException.class, () -> histogram.boundAt(100));
    }

    @Test
    void histogramWithOnlyOverflowSamplesIsNotEmptyButHasNoBound() {
        final LatencyHistogram histogram = LatencyHistogram.uniform(MS, new long[] {0, 0}, 3);
        assertTrue(!histogram.isEmpty());
        assertThrows(BoundBeyondHistogramException.class, () -> histogram.boundAt(1));
    }

    @ParameterizedTest
    @ValueSource(doubles = {0.0, -0.0, -1.0, 100.0001, Double.NaN, Double.POSITIVE_INFINITY})
    void boundPercentOutsideZeroToHundredIsRefused(final double percent) {
        final LatencyHistogram histogram = LatencyHistogram.uniform(MS, new long[] {1}, 0);
        final IllegalArgumentException error = assertThrows(IllegalArgumentException.class, () -> histogram.boundAt(percent));
        assertTrue(error.getMessage().contains(String.valueOf(percent)), error.getMessage());
    }

    @Test
    void requiredCountHandlesHugeSampleCountsWithoutOverflow() {
        final long n = Long.MAX_VALUE / 2;
        final LatencyHistogram histogram = LatencyHistogram.of(new long[] {MS}, new long[] {n}, 0);
        for (final double percent : new double[] {93, 99.999999, 0.000001, 100, 33.333333}) {
            final long expected = BigDecimal.valueOf(percent).multiply(BigDecimal.valueOf(n))
                .divide(BigDecimal.valueOf(100)).setScale(0, RoundingMode.CEILING).longValueExact();
            assertEquals(expected, histogram.requiredCount(percent), percent + " %");
        }
        assertNotEquals(n, histogram.requiredCount(99.999999));
    }
}
