package org.latencyserver.server.engine;

import org.latencyserver.core.estimate.BurstMeanSpread;
import org.latencyserver.server.table.ConnectionSpec;

/**
 * The length of the application's burst that a QoS 3 connection's served interval predicts the mean of, in round
 * trips: the one place the engine asks it, both when it serves a mean and when it judges the windows that followed.
 * A connection that declares its traffic (a {@code TrafficShape}'s {@code burstRoundTrips}) is to be answered from
 * that declaration here; until one is declared, {@value BurstMeanSpread#DEFAULT_BURST_ROUND_TRIPS}.
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
        return BurstMeanSpread.DEFAULT_BURST_ROUND_TRIPS;
    }
}
