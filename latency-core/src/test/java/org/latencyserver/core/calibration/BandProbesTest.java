package org.latencyserver.core.calibration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.latencyserver.core.estimate.Measurement;
import org.latencyserver.core.histogram.LatencyHistogram;

class BandProbesTest {

    private static final long MS = 1_000_000L;

    /** A window of {@code count} round trips at {@code millis} ms (HdrHistogram-export style: one bin, edge at the value). */
    private static BandProbes.Window window(final long count, final long millis, final long atSeconds) {
        return new BandProbes.Window(LatencyHistogram.of(new long[] {millis * MS}, new long[] {count}, 0), millis - 0.25,
            atSeconds * 1_000_000_000L, atSeconds * 1_000L);
    }

    @Test
    void belowTheMinimumRoundTripsTheProbesAreNoMeasurement() {
        BandProbes probes = BandProbes.EMPTY;
        for (int i = 0; i < 4; i++) {
            probes = probes.add(window(20, 10, i));
        }
        assertEquals(80, probes.roundTrips(4_000));
        assertNull(probes.measurement(4_000));
        assertNotNull(probes.add(window(20, 10, 5)).measurement(5_000));
    }

    @Test
    void theWindowsMergeExactlyOnTheUnionOfTheirEdgesWithTheirMeansAsBatchMeans() {
        final BandProbes probes = BandProbes.EMPTY.add(window(60, 10, 1)).add(window(40, 20, 2));
        final Measurement merged = probes.measurement(2_000);
        assertEquals(100, merged.sampleCount());
        assertEquals(60, merged.histogram().countAtOrBelow(10 * MS));
        assertEquals(100, merged.histogram().countAtOrBelow(20 * MS));
        assertEquals((60 * 9.75 + 40 * 19.75) / 100, merged.meanMillis(), 1e-9);
        assertEquals(java.util.List.of(9.75, 19.75), merged.batchMeansMillis());
        assertEquals(20.0, merged.maxMillis(), 1e-9);
    }

    @Test
    void theOldestWindowsGoOnceTheRestHoldTheMaximum() {
        BandProbes probes = BandProbes.EMPTY;
        for (int i = 0; i < 60; i++) {
            probes = probes.add(window(20, i < 10 ? 5 : 30, i));
        }
        assertEquals(BandProbes.MAX_ROUND_TRIPS, probes.roundTrips(60_000));
        assertEquals(0, probes.measurement(60_000).histogram().countAtOrBelow(5 * MS), "the first ten windows are gone");
    }

    @Test
    void windowsAgeOutAndLateSeenChangesTakeTheNewestBack() {
        BandProbes probes = BandProbes.EMPTY;
        for (int i = 0; i < 6; i++) {
            probes = probes.add(window(20, 10, i));
        }
        assertEquals(0, probes.roundTrips(5_000 + BandProbes.MAX_AGE_MILLIS + 1));
        assertEquals(100, probes.withoutWindowsAfter(4_000_000_000L).roundTrips(5_000));
        assertEquals(0, probes.firstEpochMillis(5_000 + BandProbes.MAX_AGE_MILLIS + 1));
    }

    @Test
    void aWindowWithoutRoundTripsIsRefused() {
        assertThrows(IllegalArgumentException.class,
            () -> new BandProbes.Window(LatencyHistogram.of(new long[] {MS}, new long[] {0}, 0), 1.0, 0, 0));
    }
}
