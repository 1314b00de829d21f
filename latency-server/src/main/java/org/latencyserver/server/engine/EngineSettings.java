package org.latencyserver.server.engine;

import org.latencyserver.core.state.CpuThresholds;
import org.latencyserver.core.state.PortBands;

/**
 * The update engine's tunables, from the configuration.
 *
 * <p>Immutable and thread-safe.
 *
 * @param cpuThresholds              CPU bands and hysteresis
 * @param portHysteresisBandPercent  band around the 90 % port threshold, points
 * @param roundTripsPerMeasurement   round trips a measurement request asks for, {@code >= 1}
 * @param measurementTimeoutNanos    after this a request is re-issued with a new ticket, {@code > 0}
 * @param minMeasurementIntervalNanos minimum time between two requests of one connection, {@code >= 0}
 * @param maxConcurrentMeasurements  open requests across all connections, {@code >= 1}; more wait
 * @param warmupRoundTrips           round trips an agent runs and discards before recording, {@code >= 0}
 * @param budgetRoundTripsPerSecond  round trips per second all requests together may ask for, {@code >= 1}
 *                                   (what the connections' probes take is already deducted)
 * @param dwellNanos                 how long a new state must hold before an adaptive QoS 3/4 connection
 *                                   opens its measurement, {@code >= 0}
 * @param portBands                  how a loaded port's utilisation is divided into states
 * @param settleNanos                a result whose load state changes this soon after it was accepted is taken
 *                                   back from that state, {@code >= 0}; 0 never
 * @param pacing                     how hard and how long a measurement may use its path
 * @param maxOpenPerClient           open requests of one client workstation's connections, {@code >= 1}; more wait
 */
public record EngineSettings(CpuThresholds cpuThresholds, double portHysteresisBandPercent, int roundTripsPerMeasurement,
                             long measurementTimeoutNanos, long minMeasurementIntervalNanos, int maxConcurrentMeasurements,
                             int warmupRoundTrips, long budgetRoundTripsPerSecond, long dwellNanos, PortBands portBands,
                             long settleNanos, MeasurementPacing pacing, int maxOpenPerClient) {



    /** Settings with the thesis's port states, one per loaded percent. */
    public EngineSettings(final CpuThresholds cpuThresholds, final double portHysteresisBandPercent,
                          final int roundTripsPerMeasurement, final long measurementTimeoutNanos,
                          final long minMeasurementIntervalNanos, final int maxConcurrentMeasurements,
                          final int warmupRoundTrips, final long budgetRoundTripsPerSecond, final long dwellNanos) {
        this(cpuThresholds, portHysteresisBandPercent, roundTripsPerMeasurement, measurementTimeoutNanos,
            minMeasurementIntervalNanos, maxConcurrentMeasurements, warmupRoundTrips, budgetRoundTripsPerSecond, dwellNanos,
            PortBands.THESIS, 0, MeasurementPacing.NONE, 1);
    }

    /** Settings without dwell. */
    public EngineSettings(final CpuThresholds cpuThresholds, final double portHysteresisBandPercent,
                          final int roundTripsPerMeasurement, final long measurementTimeoutNanos,
                          final long minMeasurementIntervalNanos, final int maxConcurrentMeasurements,
                          final int warmupRoundTrips, final long budgetRoundTripsPerSecond) {
        this(cpuThresholds, portHysteresisBandPercent, roundTripsPerMeasurement, measurementTimeoutNanos,
            minMeasurementIntervalNanos, maxConcurrentMeasurements, warmupRoundTrips, budgetRoundTripsPerSecond, 0);
    }

    /**
     * Thesis thresholds with default bands, 1000 round trips (20 warm-up), 30 s timeout, 5 s
     * interval, 2 at a time, 20,000 round trips/s.
     */
    public static final EngineSettings DEFAULT = new EngineSettings(CpuThresholds.DEFAULT, 1.0, 1000,
        30_000_000_000L, 5_000_000_000L, 2, 20, 20_000);

    /**
     * @throws IllegalArgumentException naming the bad value
     */
    public EngineSettings {
        if (roundTripsPerMeasurement < 1 || measurementTimeoutNanos <= 0 || minMeasurementIntervalNanos < 0
            || maxConcurrentMeasurements < 1 || warmupRoundTrips < 0 || budgetRoundTripsPerSecond < 1 || dwellNanos < 0
            || portBands == null || settleNanos < 0 || pacing == null || maxOpenPerClient < 1) {
            throw new IllegalArgumentException("bad engine settings: round trips " + roundTripsPerMeasurement
                + ", timeout " + measurementTimeoutNanos + " ns, interval " + minMeasurementIntervalNanos
                + " ns, concurrent " + maxConcurrentMeasurements + ", warm-up " + warmupRoundTrips + ", budget "
                + budgetRoundTripsPerSecond + " round trips/s, port bands " + portBands + ", settle " + settleNanos + " ns, open per client "
                + maxOpenPerClient);
        }
    }
}
