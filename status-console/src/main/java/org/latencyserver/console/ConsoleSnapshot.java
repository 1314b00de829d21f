package org.latencyserver.console;

import java.util.List;

/**
 * Everything the console shows at one moment, as the web page receives it (JSON) and the terminal
 * prints it. Immutable: the feed builds a new one on every change and swaps it in atomically, so
 * the HTTP threads and the terminal read without locks.
 *
 * @param server                what was asked for with {@code --server}
 * @param reachable             whether the last call to the server succeeded
 * @param problem               why it is not, or why the table is partial; empty when all is well
 * @param unreachableSinceEpochMillis when the server stopped answering; 0 while reachable
 * @param updatedEpochMillis    when this snapshot was taken
 * @param connections           one per connection, in index order; kept from the last good
 *                              snapshot while the server is unreachable
 */
public record ConsoleSnapshot(String server, boolean reachable, String problem, long unreachableSinceEpochMillis,
                              long updatedEpochMillis, List<ConnectionView> connections) {

    /** @return the snapshot before the first answer */
    static ConsoleSnapshot empty(final String server) {
        return new ConsoleSnapshot(server, false, "connecting", 0, 0, List.of());
    }

    /**
     * One connection as the operator sees it: the thesis's {@code TableRow} in words, the extended
     * estimate with its interval, and what the server is waiting for.
     *
     * @param indexRef          the connection's {@code index_ref}
     * @param client            client node name
     * @param peer              peer node name
     * @param clientType        client workstation type code (3 TAC-3, 4 TAC-4, 5+ configured)
     * @param peerType          peer workstation type code
     * @param clientTypeName    client workstation type, e.g. "TAC-4" or a configured type's name
     * @param peerTypeName      peer workstation type
     * @param messageSizeBytes  message size
     * @param qos               1..4
     * @param qosText           what the QoS level serves, in words
     * @param boundPercent      QoS 2/4 bound percentage; 0 otherwise
     * @param profile           QoS 1/2 profile name; empty otherwise
     * @param cpuState          the IDL's cpu_state code (10 × client + peer; 0 unknown)
     * @param cpuStateText      e.g. "LOW/HIGH"
     * @param portState         the IDL's port_state code (0 NORMAL, 91..100 LOADED, −1 unknown)
     * @param portStateText     e.g. "LOADED 95 %"
     * @param mib               the latest and previous MIB values, percent (−1 unknown)
     * @param hysteresis        a note when a value sits in another band than its state (held by
     *                          hysteresis); empty otherwise
     * @param acknowledged      the thesis's server_acknowledges_client
     * @param updateRequired    the thesis's update_required_flag
     * @param dataProvided      the thesis's latency_data_provided
     * @param latencyAvgMillis  last measured average (QoS 3), 0 when none
     * @param latencyBoundMillis last measured bound (QoS 4), 0 when none
     * @param estimate          the served estimate; null when none can be given
     * @param estimateUnavailable why there is none; empty when there is
     * @param pending           the open measurement request; null when none
     * @param stale             whether an input stopped answering
     * @param staleReason       which, in words
     * @param calibration       how the served estimates held; null when unavailable
     * @param histogram         the histogram behind the estimate; null when unavailable
     * @param histogramUnavailable why there is none
     * @param timeline          the estimate over time, oldest first
     */
    public record ConnectionView(int indexRef, String client, String peer, int clientType, int peerType, String clientTypeName,
                                 String peerTypeName, int messageSizeBytes,
                                 int qos, String qosText, double boundPercent, String profile, int cpuState, String cpuStateText,
                                 int portState, String portStateText, Mib mib, String hysteresis, int acknowledged,
                                 int updateRequired, int dataProvided, double latencyAvgMillis, double latencyBoundMillis,
                                 EstimateView estimate, String estimateUnavailable, Pending pending, boolean stale,
                                 String staleReason, CalibrationView calibration, HistogramView histogram,
                                 String histogramUnavailable, List<TimelinePoint> timeline) {
    }

    /** The thesis's latest and previous MIB values, percent; −1 unknown. */
    public record Mib(int clientCpu, int peerCpu, int port, int previousClientCpu, int previousPeerCpu, int previousPort) {
    }

    /**
     * The served estimate.
     *
     * @param kind            AVERAGE or BOUND
     * @param valueMillis     the mean or the bound, ms
     * @param boundPercent    the bound's percentage (BOUND)
     * @param lower           the CI's lower end, in {@code unit}
     * @param upper           the CI's upper end
     * @param unit            "ms" or "percent"
     * @param method          how the CI was computed
     * @param alternatives    the other intervals offered, in words
     * @param basis           where the estimate came from
     * @param notes           what it rests on
     * @param updatePending   a measurement is awaited
     * @param interpolated    from the size model
     * @param computedEpochMillis when the server computed it
     */
    public record EstimateView(String kind, double valueMillis, double boundPercent, double lower, double upper, String unit,
                               String method, List<String> alternatives, String basis, List<String> notes,
                               boolean updatePending, boolean interpolated, long computedEpochMillis) {
    }

    /** An open measurement request and how long it has been open. */
    public record Pending(long ticket, long issuedEpochMillis, long ageMillis, int roundTrips) {
    }

    /** The connection's calibration (BRIEF §6.5). */
    public record CalibrationView(long measurementsChecked, long boundHeldCount, double boundHeldFraction,
                                  double meanAbsErrorMillis, double meanSignedErrorMillis, double lastErrorMillis) {
    }

    /** Histogram bins in ms: bin i covers (upperEdgesMillis[i−1], upperEdgesMillis[i]]. */
    public record HistogramView(double[] upperEdgesMillis, long[] counts, long overflow, long total) {
    }

    /** One point of the estimate timeline. */
    public record TimelinePoint(long epochMillis, double valueMillis, double lower, double upper, String unit) {
    }
}
