package org.latencyserver.server.engine;

import org.latencyserver.core.estimate.BurstMeanSpread;
import org.latencyserver.server.table.ConnectionSpec;

/**
 * The length of the application's burst that a QoS 3 connection's served interval predicts the mean of, in round
 * trips: the one place the engine asks it, both when it serves a mean and when it judges the windows that followed.
 * the declared traffic's burst length ({@code connections[].traffic.burst_round_trips}), or
 * {@value BurstMeanSpread#DEFAULT_BURST_ROUND_TRIPS} when the connection declares none.
 *
 * <p>Stateless and thread-safe.
 */
final class BurstLength {

    private BurstLength() {
    }

    /**
     * @param spec a connection
     * @return its burst length, round trips, {@code >= 1}
     */
    static int of(final ConnectionSpec spec) {
        return spec.traffic().map(org.latencyserver.core.traffic.TrafficShape::burstRoundTrips)
            .orElse(BurstMeanSpread.DEFAULT_BURST_ROUND_TRIPS);
    }
}
