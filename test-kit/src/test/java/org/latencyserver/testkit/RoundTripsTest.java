package org.latencyserver.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class RoundTripsTest {

    @Test
    void theRoundTripsSpanTheRangeEvenlyInNanoseconds() {
        final Histogram hdr = RoundTrips.evenlySpread(101, 100, 200);
        assertEquals(101, hdr.getTotalCount());
        assertEquals(100_000, hdr.getMinValue(), 100);
        assertEquals(200_000, hdr.getMaxValue(), 200);
        assertEquals(150_000, hdr.getValueAtPercentile(50), 150);
    }

    @Test
    void oneRoundTripOrAnEmptyRangeIsAllAlike() {
        assertEquals(1, RoundTrips.evenlySpread(1, 300, 900).getTotalCount());
        assertEquals(hdrEquivalent(500_000), RoundTrips.evenlySpread(5, 500, 500).getMaxValue());
    }

    @Test
    void noRoundTripsOrAReversedRangeIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> RoundTrips.evenlySpread(0, 1, 2));
        assertThrows(IllegalArgumentException.class, () -> RoundTrips.evenlySpread(3, 5, 4));
    }

    private static long hdrEquivalent(final long nanos) {
        final Histogram one = new Histogram(1, RoundTrips.HIGHEST_TRACKABLE_NANOS, 3);
        one.recordValue(nanos);
        return one.getMaxValue();
    }
}
