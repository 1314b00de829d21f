package org.latencyserver.server.engine;

import java.util.List;
import java.util.Map;

/**
 * How hard a measurement may use its path, and how long it may run: what a measurement request
 * tells its client agent beyond the round trips. The agents' traffic — warm-up and the run — is
 * paced so that it takes at most {@code sharePercent} of the path's slowest link, so measuring does
 * not load the port it measures: the share is split among the measurements that may be open at once
 * (they may cross the same link), and each message is counted with its headers and the
 * acknowledgement it causes; and a run stops at {@code timeBudgetMillis}, submitting what it
 * has when that is at least {@code minRoundTrips}, so a slow path yields fewer round trips rather
 * than none.
 *
 * <p>Immutable and thread-safe.
 *
 * @param sharePercent     of a link's speed the agents' round trips may take, (0, 100]
 * @param linkSpeedMbps    the configured speed of each link by name, Mbit/s; a link without one (its
 *                         speed read from the agent) is not paced
 * @param timeBudgetMillis a run's time bound after its receipt, ms; 0 for none
 * @param minRoundTrips    the fewest recorded round trips a run stopped by its time bound submits, {@code >= 1}
 * @param concurrentMeasurements how many measurements may be open at once, {@code >= 1}: each gets that part of the share
 */
public record MeasurementPacing(double sharePercent, Map<String, Long> linkSpeedMbps, long timeBudgetMillis, int minRoundTrips,
                                int concurrentMeasurements) {

    /**
     * Bytes one round trip adds in a direction of the link beyond the message itself: Ethernet (18 B), IP (20 B)
     * and TCP with timestamps (32 B) headers, the GIOP request header with its object key and operation (about
     * 100 B), and the TCP acknowledgement of the other direction's message (about 70 B), rounded up. (At 100 B
     * the agents were measured at 5.2 % of a 20 Mbit/s port paced for 5 %.)
     */
    public static final int WIRE_OVERHEAD_BYTES = 250;

    /** No pacing and no time bound: every run as fast as the agent's own pacing, as long as its round trips. */
    public static final MeasurementPacing NONE = new MeasurementPacing(100.0, Map.of(), 0, 1, 1);

    /**
     * @throws IllegalArgumentException naming the bad value
     */
    public MeasurementPacing {
        if (!(sharePercent > 0 && sharePercent <= 100) || linkSpeedMbps == null || timeBudgetMillis < 0 || minRoundTrips < 1
            || concurrentMeasurements < 1) {
            throw new IllegalArgumentException("bad measurement pacing: share " + sharePercent + " %, budget " + timeBudgetMillis
                + " ms, min round trips " + minRoundTrips);
        }
        linkSpeedMbps = Map.copyOf(linkSpeedMbps);
    }

    /**
     * @param linkNames        the connection's links, in path order; empty for none
     * @param messageSizeBytes the connection's message size
     * @return the shortest start-to-start time between two round trips, ns, so that one message per round trip in
     *         each direction, with its overhead, takes at most the share of the path's slowest link with a configured
     *         speed, divided among the measurements that may be open at once; 0 when no link's speed is configured
     */
    public long minIntervalNanos(final List<String> linkNames, final int messageSizeBytes) {
        Long speedMbps = null;
        for (final String linkName : linkNames) {
            final Long speed = linkSpeedMbps.get(linkName);
            if (speed != null && speed > 0 && (speedMbps == null || speed < speedMbps)) {
                speedMbps = speed;
            }
        }
        if (speedMbps == null) {
            return 0;
        }
        final double bitsPerRoundTrip = (messageSizeBytes + (double) WIRE_OVERHEAD_BYTES) * 8.0;
        final double allowedBitsPerSecond = speedMbps * 1e6 * sharePercent / 100.0 / concurrentMeasurements;
        return (long) Math.ceil(bitsPerRoundTrip / allowedBitsPerSecond * 1e9);
    }
}
