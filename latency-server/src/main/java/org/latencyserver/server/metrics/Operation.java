package org.latencyserver.server.metrics;

/**
 * The server's CORBA operations, each with the {@code operation} label its calls and refusals are
 * counted under ({@code latency_server_calls_total}, {@code latency_server_refusals_total}). The
 * label is the IDL operation's name, exactly as the client calls it; being an enum, a misspelt
 * operation cannot start a new series.
 */
public enum Operation {
    /** {@code Latserv::RequestStatus}, the thesis's hot read. */
    REQUEST_STATUS("RequestStatus"),
    /** {@code Latserv::UpdateResponse}, an agent's thesis-style result. */
    UPDATE_RESPONSE("UpdateResponse"),
    /** {@code Latserv::PutMibUpdates}, an operator's pushed reading. */
    PUT_MIB_UPDATES("PutMibUpdates"),
    /** {@code Latserv::RequestTableStatus}, an operator's read of a whole row. */
    REQUEST_TABLE_STATUS("RequestTableStatus"),
    /** {@code LatencyService::list_connections}. */
    LIST_CONNECTIONS("list_connections"),
    /** {@code LatencyService::current_estimate}. */
    CURRENT_ESTIMATE("current_estimate"),
    /** {@code LatencyService::estimate_at_percentile}. */
    ESTIMATE_AT_PERCENTILE("estimate_at_percentile"),
    /** {@code LatencyService::deadline_miss_probability}. */
    DEADLINE_MISS_PROBABILITY("deadline_miss_probability"),
    /** {@code LatencyService::estimate_for_size}. */
    ESTIMATE_FOR_SIZE("estimate_for_size"),
    /** {@code LatencyService::subscribe}. */
    SUBSCRIBE("subscribe"),
    /** {@code LatencyService::unsubscribe}. */
    UNSUBSCRIBE("unsubscribe"),
    /** {@code LatencyService::subscribe_measurements}. */
    SUBSCRIBE_MEASUREMENTS("subscribe_measurements"),
    /** {@code LatencyService::pending_measurements}. */
    PENDING_MEASUREMENTS("pending_measurements"),
    /** {@code LatencyService::submit_measurement}. */
    SUBMIT_MEASUREMENT("submit_measurement"),
    /** {@code LatencyService::submit_probe}. */
    SUBMIT_PROBE("submit_probe"),
    /** {@code LatencyService::load_profile}. */
    LOAD_PROFILE("load_profile"),
    /** {@code LatencyService::list_profiles}. */
    LIST_PROFILES("list_profiles"),
    /** {@code LatencyService::calibration}. */
    CALIBRATION("calibration"),
    /** {@code LatencyService::profile_drift}. */
    PROFILE_DRIFT("profile_drift"),
    /** {@code LatencyService::learned_profile}. */
    LEARNED_PROFILE("learned_profile"),
    /** {@code LatencyService::current_histogram}. */
    CURRENT_HISTOGRAM("current_histogram"),
    /** {@code LatencyService::pair_status}. */
    PAIR_STATUS("pair_status"),
    /** {@code LatencyService::estimate_for_traffic}. */
    ESTIMATE_FOR_TRAFFIC("estimate_for_traffic");

    private final String label;

    Operation(final String label) {
        this.label = label;
    }

    /** @return the IDL operation's name, the metric's {@code operation} label */
    public String label() {
        return label;
    }
}
