package org.latencyserver.server.config;

/**
 * The {@code measurement:} section: how the QoS 3 and 4 connections are measured by the client
 * agents, and the cost limits (thesis section 4.1, third consideration).
 *
 * <p>Immutable and thread-safe.
 *
 * @param roundTrips                round trips one measurement asks for, 1..10,000,000;
 *                                  {@code round_trips}, default 1000 (the thesis's)
 * @param warmupRoundTrips          round trips run first and discarded, 0..1,000,000 (the thesis saw
 *                                  its first two samples at 200 ms); {@code warmup_round_trips}, default 20
 * @param timeoutMillis             a request with no result after this is re-issued with a new
 *                                  ticket, 1..86,400,000 ms; {@code timeout_millis}, default 30000
 * @param minIntervalMillis         minimum time between two measurements of one connection; one due
 *                                  sooner is coalesced, never dropped; 0..86,400,000 ms;
 *                                  {@code min_interval_millis}, default 5000
 * @param budgetRoundTripsPerSecond round trips per second all measurements together may spend,
 *                                  1..10,000,000; {@code budget_round_trips_per_second}, default 20000
 * @param maxConcurrentMeasurements measurements open at once across all connections, 1..10,000;
 *                                  {@code max_concurrent_measurements}, default 2
 * @param dwellMillis               how long a new load state must hold before a QoS 3/4 connection with
 *                                  {@code calibration: adaptive} opens its measurement, so that a transient
 *                                  state (one poll of a mixed state while both CPUs change) spends none;
 *                                  0..86,400,000 ms; {@code dwell_millis}, default {@link #DWELL_FROM_POLL_INTERVAL}:
 *                                  twice the poll interval (one poll past the rate window of one poll)
 */
public record MeasurementSettings(int roundTrips, int warmupRoundTrips, long timeoutMillis, long minIntervalMillis,
                                  int budgetRoundTripsPerSecond, int maxConcurrentMeasurements, long dwellMillis) {

    /** Dwell not configured: twice the poll interval. */
    public static final long DWELL_FROM_POLL_INTERVAL = -1;

    /** The defaults listed above. */
    public static final MeasurementSettings DEFAULT = new MeasurementSettings(1000, 20, 30_000, 5_000, 20_000, 2,
        DWELL_FROM_POLL_INTERVAL);

    /** Settings with the default dwell. */
    public MeasurementSettings(final int roundTrips, final int warmupRoundTrips, final long timeoutMillis,
                               final long minIntervalMillis, final int budgetRoundTripsPerSecond,
                               final int maxConcurrentMeasurements) {
        this(roundTrips, warmupRoundTrips, timeoutMillis, minIntervalMillis, budgetRoundTripsPerSecond,
            maxConcurrentMeasurements, DWELL_FROM_POLL_INTERVAL);
    }

    /**
     * @throws IllegalArgumentException when a value is outside its documented range
     */
    public MeasurementSettings {
        check("round_trips", roundTrips, 1, 10_000_000);
        check("warmup_round_trips", warmupRoundTrips, 0, 1_000_000);
        check("timeout_millis", timeoutMillis, 1, 86_400_000);
        check("min_interval_millis", minIntervalMillis, 0, 86_400_000);
        check("budget_round_trips_per_second", budgetRoundTripsPerSecond, 1, 10_000_000);
        check("max_concurrent_measurements", maxConcurrentMeasurements, 1, 10_000);
        if (dwellMillis != DWELL_FROM_POLL_INTERVAL) {
            check("dwell_millis", dwellMillis, 0, 86_400_000);
        }
    }

    /**
     * @param pollIntervalMillis the server's poll interval
     * @return the dwell in ms: the configured one, or twice the poll interval
     */
    public long dwellMillis(final long pollIntervalMillis) {
        return dwellMillis == DWELL_FROM_POLL_INTERVAL ? 2 * pollIntervalMillis : dwellMillis;
    }

    private static void check(final String key, final long value, final long minimum, final long maximum) {
        if (value < minimum || value > maximum) {
            throw new IllegalArgumentException(key + " must be " + minimum + ".." + maximum + ", was " + value);
        }
    }
}
