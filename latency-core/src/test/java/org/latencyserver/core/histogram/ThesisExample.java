package org.latencyserver.core.histogram;

/** Test fixtures from the thesis, shared by the tests of several packages. */
public final class ThesisExample {

    private static final long MS = 1_000_000L;

    private ThesisExample() {
    }

    /**
     * A distribution shaped like the thesis's Figure 3.2.2-2 as far as section 4.2.4 describes it:
     * 100,000 samples in 100 bins of 1 ms, 93,679 at or below 7 ms, fewer than 93,000 at or below 6 ms.
     *
     * @return the histogram
     */
    public static LatencyHistogram figure322() {
        final long[] counts = new long[100];
        counts[0] = 20_000;
        counts[1] = 30_000;
        counts[2] = 20_000;
        counts[3] = 10_000;
        counts[4] = 8_000;
        counts[5] = 4_500;   // 92,500 at or below 6 ms
        counts[6] = 1_179;   // 93,679 at or below 7 ms
        counts[7] = 3_000;
        counts[10] = 2_321;
        counts[40] = 1_000;  // 100,000
        return LatencyHistogram.uniform(MS, counts, 0);
    }
}
