package org.latencyserver.server.persistence;

import org.latencyserver.core.estimate.Measurement;
import org.latencyserver.core.histogram.LatencyHistogram;

/** Measurements the persistence tests save and read back. */
final class TestMeasurements {

    private TestMeasurements() {
    }

    /** @return a measurement of {@code bins} round trips, one in each 10 µs bin from 10 µs up */
    static Measurement oneRoundTripPerBin(final int bins) {
        final long[] edges = new long[bins];
        final long[] counts = new long[bins];
        for (int i = 0; i < bins; i++) {
            edges[i] = (i + 1) * 10_000L;
            counts[i] = 1;
        }
        return new Measurement(LatencyHistogram.of(edges, counts, 0), bins, 0.75, 0.43, 1.5);
    }
}
