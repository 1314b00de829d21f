package org.latencyserver.core.path;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Random;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.latencyserver.core.histogram.BoundResult;
import org.latencyserver.core.histogram.LatencyHistogram;

/** With one hop there is nothing to compose: both methods give exactly that hop's thesis bound. */
class PathCompositionSingleHopTest {

    private static final long MS = 1_000_000L;
    private static final double[] PERCENTS = {0.5, 50, 93, 95, 96, 99, 99.9, 99.99, 33.333333, 100};

    @Test
    void bothMethodsGiveTheHopsOwnBoundOnThesisBins() {
        final long[] counts = new long[100];
        for (int i = 0; i < counts.length; i++) {
            counts[i] = 100 - i;
        }
        assertBothMethodsEqualTheHopsBound(LatencyHistogram.uniform(MS, counts, 0));
    }

    @Test
    void bothMethodsGiveTheHopsOwnBoundOnFineHdrBinsAndOnRandomHistograms() {
        final Random random = new Random(20261127L);
        final Histogram hdr = new Histogram(3_600_000_000_000L, 3);
        for (int i = 0; i < 100_000; i++) {
            hdr.recordValue(MS + (long) (-2.0 * MS * Math.log1p(-random.nextDouble())));
        }
        assertBothMethodsEqualTheHopsBound(LatencyHistogram.fromHdr(hdr));
        for (int trial = 0; trial < 50; trial++) {
            final long[] counts = new long[1 + random.nextInt(300)];
            for (int i = 0; i < counts.length; i++) {
                counts[i] = random.nextInt(4) == 0 ? 0 : random.nextInt(1000);
            }
            counts[random.nextInt(counts.length)] += 1;
            assertBothMethodsEqualTheHopsBound(LatencyHistogram.uniform(1 + random.nextInt(50_000), counts, 0));
        }
    }

    @Test
    void theUnionBoundOfOneHopReadsTheHopAtTheAskedPercentage() {
        final LatencyHistogram histogram = LatencyHistogram.uniform(MS, new long[] {50, 30, 15, 5}, 0);
        final PathBound union = PathComposition.of(List.of(new PathHop("sw1-p3", histogram))).unionBound(80.1);
        assertEquals(1, union.hopQuantiles().size());
        final HopQuantile only = union.hopQuantiles().get(0);
        assertEquals("sw1-p3", only.hopName());
        assertEquals(80.1, only.hopPercent());
        assertEquals(3 * MS, only.bound().boundNanos(), "81 samples needed");
        assertEquals(95, only.bound().countAtOrBelow(), "all samples up to the 3 ms edge");
        assertEquals(3 * MS, union.boundNanos());
        assertEquals(MS, union.slackNanos(), "the bound bin's width");
    }

    private static void assertBothMethodsEqualTheHopsBound(final LatencyHistogram histogram) {
        final PathComposition path = PathComposition.of(List.of(new PathHop("only", histogram)));
        for (final double percent : PERCENTS) {
            final BoundResult own = histogram.boundAt(percent);
            final PathBound union = path.unionBound(percent);
            final PathBound independent = path.independentBound(percent);
            assertEquals(own.boundNanos(), union.boundNanos(), "union at " + percent + " % of " + histogram);
            assertEquals(own.boundNanos(), independent.boundNanos(), "independent at " + percent + " % of " + histogram);
            assertEquals(BoundMethod.UNION, union.method());
            assertEquals(BoundMethod.INDEPENDENT, independent.method());
            assertEquals(own.countAtOrBelow(), union.hopQuantiles().get(0).bound().countAtOrBelow());
        }
    }
}
