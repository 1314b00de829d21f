package org.latencyserver.agent.probe;

/**
 * How the prober reports and how often it reads the connection list.
 *
 * <p>Immutable and thread-safe.
 *
 * @param agentName             who probed, as each report names it
 * @param reportIntervalMillis  a connection's report window closes at the end of the first train that ends
 *                              at least this long after it opened (or sooner, at a change of shape), ms
 *                              ({@code >= }{@value #MIN_REPORT_INTERVAL_MILLIS})
 * @param refreshIntervalMillis the connection list (added and removed connections, rates, traffic shapes) is
 *                              read this often, ms ({@code >= 100})
 */
public record ProbeSettings(String agentName, long reportIntervalMillis, long refreshIntervalMillis) {

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
        if (refreshIntervalMillis < 100) {
            throw new IllegalArgumentException("the connection refresh interval must be >= 100 ms, was " + refreshIntervalMillis);
        }
    }
}
