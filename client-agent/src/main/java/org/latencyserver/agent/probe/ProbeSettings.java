package org.latencyserver.agent.probe;

/**
 * How the prober reports and how often it reads the connection list.
 *
 * <p>Immutable and thread-safe.
 *
 * @param agentName             who probed, as each report names it
 * @param reportIntervalMillis  each connection's round trips are reported this often, ms
 *                              ({@code >= }{@value #MIN_REPORT_INTERVAL_MILLIS})
 * @param refreshIntervalMillis the connection list (added and removed connections, rates) is read
 *                              this often, ms ({@code >= 100})
 * @param trainRoundTrips       round trips per probe: a train of them, back to back at {@code trainSpacingNanos},
 *                              the first run unrecorded (the train's warm-up, as a measurement's), {@code >= 1};
 *                              1 = single round trips, all recorded
 * @param trainSpacingNanos     start-to-start spacing of a train's round trips, ns, {@code >= 0}
 */
public record ProbeSettings(String agentName, long reportIntervalMillis, long refreshIntervalMillis, int trainRoundTrips,
                            long trainSpacingNanos) {

    /** The default train: twenty round trips, the first unrecorded. */
    public static final int DEFAULT_TRAIN_ROUND_TRIPS = 20;

    /** Single round trips, each recorded. */
    public ProbeSettings(final String agentName, final long reportIntervalMillis, final long refreshIntervalMillis) {
        this(agentName, reportIntervalMillis, refreshIntervalMillis, 1, 0);
    }

    /** Shortest report interval, ms: below it the server would spend more on reports than on the probes' worth. */
    public static final long MIN_REPORT_INTERVAL_MILLIS = 200;
    /** The default report interval, ms. */
    public static final long DEFAULT_REPORT_INTERVAL_MILLIS = 2_000;
    /** The default interval between reads of the connection list, ms. */
    public static final long DEFAULT_REFRESH_INTERVAL_MILLIS = 10_000;

    /**
     * @throws IllegalArgumentException on a missing name or an interval out of range
     */
    public ProbeSettings {
        if (agentName == null || agentName.isBlank()) {
            throw new IllegalArgumentException("the agent's name must not be blank");
        }
        if (reportIntervalMillis < MIN_REPORT_INTERVAL_MILLIS) {
            throw new IllegalArgumentException("the probe report interval must be >= " + MIN_REPORT_INTERVAL_MILLIS + " ms, was "
                + reportIntervalMillis);
        }
        if (trainRoundTrips < 1 || trainRoundTrips > 10_000 || trainSpacingNanos < 0 || trainSpacingNanos > 1_000_000_000L) {
            throw new IllegalArgumentException("a probe train must be 1..10000 round trips spaced 0..1 s, was " + trainRoundTrips
                + " spaced " + trainSpacingNanos + " ns");
        }
        if (refreshIntervalMillis < 100) {
            throw new IllegalArgumentException("the connection refresh interval must be >= 100 ms, was " + refreshIntervalMillis);
        }
    }
}
