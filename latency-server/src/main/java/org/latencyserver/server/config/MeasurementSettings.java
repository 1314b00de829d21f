package org.latencyserver.server.config;

/**
 * The {@code measurement:} section: how the QoS 3 and 4 connections are measured by the client
 * agents, and the cost limits (thesis section 4.1, third consideration).
 *
 * <p>The keys' defaults, ranges and meaning are {@link ServerOption}'s ({@code MEASUREMENT_*}), the one
 * table the loader, these records and the operator guide share.
 *
 * <p>Immutable and thread-safe.
 *
 * @param roundTrips                {@code measurement.round_trips}
 * @param warmupRoundTrips          {@code measurement.warmup_round_trips}
 * @param timeoutMillis             {@code measurement.timeout_millis}, ms
 * @param minIntervalMillis         {@code measurement.min_interval_millis}, ms
 * @param budgetRoundTripsPerSecond {@code measurement.budget_round_trips_per_second}
 * @param maxConcurrentMeasurements {@code measurement.max_concurrent_measurements}
 * @param dwellMillis               {@code measurement.dwell_millis}, ms, so that a transient state (one poll of
 *                                  a mixed state while both CPUs change) spends no measurement; when not configured
 *                                  {@link #DWELL_FROM_POLL_INTERVAL}: twice the poll interval (one poll past the
 *                                  rate window of one poll)
 * @param settleMillis              {@code measurement.settle_millis}, ms: a result whose load state changes this
 *                                  soon after it arrived is taken back; when not configured
 *                                  {@link #SETTLE_FROM_POLL_INTERVAL}: twice the poll interval
 * @param pathSharePercent          {@code measurement.path_share_percent}
 * @param timeBudgetMillis          {@code measurement.time_budget_millis}, ms; 0 for none
 * @param maxOpenPerClient          {@code measurement.max_open_per_client}
 */
public record MeasurementSettings(int roundTrips, int warmupRoundTrips, long timeoutMillis, long minIntervalMillis,
                                  int budgetRoundTripsPerSecond, int maxConcurrentMeasurements, long dwellMillis,
                                  long settleMillis, double pathSharePercent, long timeBudgetMillis, int maxOpenPerClient) {

    /** The fewest recorded round trips a run stopped by its time budget submits (fewer: abandoned, re-issued). */
    public static final int MIN_ROUND_TRIPS_AT_TIME_BUDGET = 100;


    /** Settle window not configured: twice the poll interval. */
    public static final long SETTLE_FROM_POLL_INTERVAL = -1;

    /** Settings with the default settle window. */
    public MeasurementSettings(final int roundTrips, final int warmupRoundTrips, final long timeoutMillis,
                               final long minIntervalMillis, final int budgetRoundTripsPerSecond,
                               final int maxConcurrentMeasurements, final long dwellMillis) {
        this(roundTrips, warmupRoundTrips, timeoutMillis, minIntervalMillis, budgetRoundTripsPerSecond,
            maxConcurrentMeasurements, dwellMillis, SETTLE_FROM_POLL_INTERVAL,
            ServerOption.MEASUREMENT_PATH_SHARE_PERCENT.defaultDecimal(), ServerOption.MEASUREMENT_TIME_BUDGET_MILLIS.defaultWhole(),
            (int) ServerOption.MEASUREMENT_MAX_OPEN_PER_CLIENT.defaultWhole());
    }

    /** Dwell not configured: twice the poll interval. */
    public static final long DWELL_FROM_POLL_INTERVAL = -1;

    /** The defaults listed above: the options table's. */
    public static final MeasurementSettings DEFAULT = new MeasurementSettings(
        (int) ServerOption.MEASUREMENT_ROUND_TRIPS.defaultWhole(), (int) ServerOption.MEASUREMENT_WARMUP_ROUND_TRIPS.defaultWhole(),
        ServerOption.MEASUREMENT_TIMEOUT_MILLIS.defaultWhole(), ServerOption.MEASUREMENT_MIN_INTERVAL_MILLIS.defaultWhole(),
        (int) ServerOption.MEASUREMENT_BUDGET_ROUND_TRIPS_PER_SECOND.defaultWhole(),
        (int) ServerOption.MEASUREMENT_MAX_CONCURRENT_MEASUREMENTS.defaultWhole(), DWELL_FROM_POLL_INTERVAL,
        SETTLE_FROM_POLL_INTERVAL, ServerOption.MEASUREMENT_PATH_SHARE_PERCENT.defaultDecimal(),
        ServerOption.MEASUREMENT_TIME_BUDGET_MILLIS.defaultWhole(), (int) ServerOption.MEASUREMENT_MAX_OPEN_PER_CLIENT.defaultWhole());

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
        ServerOption.MEASUREMENT_ROUND_TRIPS.checked(roundTrips);
        ServerOption.MEASUREMENT_WARMUP_ROUND_TRIPS.checked(warmupRoundTrips);
        ServerOption.MEASUREMENT_TIMEOUT_MILLIS.checked(timeoutMillis);
        ServerOption.MEASUREMENT_MIN_INTERVAL_MILLIS.checked(minIntervalMillis);
        ServerOption.MEASUREMENT_BUDGET_ROUND_TRIPS_PER_SECOND.checked(budgetRoundTripsPerSecond);
        ServerOption.MEASUREMENT_MAX_CONCURRENT_MEASUREMENTS.checked(maxConcurrentMeasurements);
        if (dwellMillis != DWELL_FROM_POLL_INTERVAL) {
            ServerOption.MEASUREMENT_DWELL_MILLIS.checked(dwellMillis);
        }
        if (settleMillis != SETTLE_FROM_POLL_INTERVAL) {
            ServerOption.MEASUREMENT_SETTLE_MILLIS.checked(settleMillis);
        }
        ServerOption.MEASUREMENT_PATH_SHARE_PERCENT.checkedDecimal(pathSharePercent);
        ServerOption.MEASUREMENT_TIME_BUDGET_MILLIS.checked(timeBudgetMillis);
        ServerOption.MEASUREMENT_MAX_OPEN_PER_CLIENT.checked(maxOpenPerClient);
    }

    /**
     * @return the time bound a run is given, ms: the configured one, at most three quarters of the request's
     *         time-out (so that the result can still arrive in time); 0 for none
     */
    public long effectiveTimeBudgetMillis() {
        return timeBudgetMillis == 0 ? 0 : Math.min(timeBudgetMillis, timeoutMillis * 3 / 4);
    }

    /**
     * @param pollIntervalMillis the server's poll interval
     * @return the settle window in ms: the configured one, or twice the poll interval
     */
    public long settleMillis(final long pollIntervalMillis) {
        return settleMillis == SETTLE_FROM_POLL_INTERVAL ? 2 * pollIntervalMillis : settleMillis;
    }

    /**
     * @param pollIntervalMillis the server's poll interval
     * @return the dwell in ms: the configured one, or twice the poll interval
     */
    public long dwellMillis(final long pollIntervalMillis) {
        return dwellMillis == DWELL_FROM_POLL_INTERVAL ? 2 * pollIntervalMillis : dwellMillis;
    }
}
