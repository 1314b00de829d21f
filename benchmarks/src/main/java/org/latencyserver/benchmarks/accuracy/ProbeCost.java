package org.latencyserver.benchmarks.accuracy;

import java.util.Map;
import java.util.OptionalDouble;

/**
 * What measuring cost over the recorded run: the client agent's probe round trips per second as the
 * server counted them, and the client agent process's CPU time as a share of one core (all of its
 * work: probes and measurements).
 *
 * @param seconds                the window
 * @param roundTripsPerSecond    by index_ref, or {@link ProbeCounter#ALL_CONNECTIONS}; empty when the server does
 *                               not count probes
 * @param clientAgentCpuPercent  percent of one core; NaN when it could not be read
 */
public record ProbeCost(double seconds, Map<Integer, Double> roundTripsPerSecond, double clientAgentCpuPercent) {

    /**
     * @param indexRef a connection
     * @return its probe rate, or all connections' when the counter is not per connection; empty when unknown
     */
    public OptionalDouble roundTripsPerSecondOf(final int indexRef) {
        final Double own = roundTripsPerSecond.get(indexRef);
        if (own != null) {
            return OptionalDouble.of(own);
        }
        final Double all = roundTripsPerSecond.get(ProbeCounter.ALL_CONNECTIONS);
        return all == null ? OptionalDouble.empty() : OptionalDouble.of(all);
    }

    /** @return whether the rate is per connection (else: all connections together, or unknown) */
    public boolean perConnection() {
        return roundTripsPerSecond.keySet().stream().anyMatch(key -> key != ProbeCounter.ALL_CONNECTIONS);
    }
}
