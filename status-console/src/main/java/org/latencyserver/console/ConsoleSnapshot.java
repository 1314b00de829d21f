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
 * @param profileCells          every profile cell live probes have reached, with its drift test
 *                              ({@code profile_drift()}), in the server's order; kept like the connections
 * @param profileCellsUnavailable why the server gives none (a server that does not learn profiles);
 *                              empty when it answered, even with no cell
 * @param pair                  the server's place in a hot-standby pair and whether its writes are protected;
 *                              null when unknown (not read yet, or a server without {@code pair_status}); kept
 *                              from the last good snapshot while the server is unreachable
 */
public record ConsoleSnapshot(String server, boolean reachable, String problem, long unreachableSinceEpochMillis,
                              long updatedEpochMillis, List<ConnectionView> connections, List<ProfileCellView> profileCells,
                              String profileCellsUnavailable, PairView pair) {

    /** A snapshot without the server's pair status (a server that does not give it, or none read yet). */
    public ConsoleSnapshot(final String server, final boolean reachable, final String problem,
                           final long unreachableSinceEpochMillis, final long updatedEpochMillis,
                           final List<ConnectionView> connections, final List<ProfileCellView> profileCells,
                           final String profileCellsUnavailable) {
        this(server, reachable, problem, unreachableSinceEpochMillis, updatedEpochMillis, connections, profileCells,
            profileCellsUnavailable, null);
    }

    /**
     * The server's place in a hot-standby pair, from {@code pair_status()}.
     *
     * @param role              "primary", "standby" or "alone" (see the IDL's {@code PairStatus})
     * @param writesProtected   whether a standby holds every write the server acknowledges; false: "unprotected",
     *                          its writes are on its own disk only
     * @param members           servers in the pair's view (2 a pair, 1 alone, 0 without {@code server.standby})
     * @param unprotectedWrites writes it answered while no standby held them, since it started
     * @param text              the header's words, e.g. "primary, protected" or "alone, UNPROTECTED: writes on this
     *                          server's disk only"
     */
    public record PairView(String role, boolean writesProtected, int members, long unprotectedWrites, String text) {

        /** @return the view of the IDL's answer, with its header words */
        static PairView of(final String role, final boolean writesProtected, final int members, final long unprotectedWrites) {
            final String text = "standby".equals(role) ? "standby (acknowledges no writes: it copies the primary's table, or waits"
                + " out a takeover's fence)"
                : writesProtected ? role + ", protected (a standby holds every acknowledged write)"
                : role + ", UNPROTECTED: writes answered from this server's disk alone"
                    + (members == 0 ? " (no standby configured)" : members == 1 ? " (no standby in the pair)"
                    : " (the standby is not answering, or still being sent the table)");
            return new PairView(role, writesProtected, members, unprotectedWrites, text);
        }
    }

    /** @return the snapshot before the first answer */
    static ConsoleSnapshot empty(final String server) {
        return new ConsoleSnapshot(server, false, "connecting", 0, 0, List.of(), List.of(), "");
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
     * @param profile           QoS 1/2 profile name (for QoS 3/4 the fallback in a load state never
     *                          measured); empty when none
     * @param probeRatePerSecond light continuous probing of the path by its client agent, round trips/s; 0 = off
     * @param calibrationMode   "adaptive" (served values corrected from calibration) or "thesis" (served unchanged)
     * @param cpuState          the IDL's cpu_state code (10 × client + peer; 0 unknown)
     * @param cpuStateText      e.g. "LOW/HIGH"
     * @param portState         the IDL's port_state code (0 NORMAL, 91..100 LOADED, 101 SATURATED, −1 unknown)
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
     * @param calibration       how the served estimates held, pooled and per load state; null when unavailable
     * @param histogram         the histogram behind the estimate; null when unavailable
     * @param histogramUnavailable why there is none
     * @param timeline          the estimate over time, oldest first
     * @param hops              the path's switch ports in order with their states; the port state above is the worst
     *                          of them; empty for a connection without a link
     * @param pathBound         how a QoS 2 bound is composed when two or more hops are loaded: "union" or "independent"
     */
    public record ConnectionView(int indexRef, String client, String peer, int clientType, int peerType, String clientTypeName,
                                 String peerTypeName, int messageSizeBytes,
                                 int qos, String qosText, double boundPercent, String profile, double probeRatePerSecond,
                                 String calibrationMode, int cpuState, String cpuStateText,
                                 int portState, String portStateText, Mib mib, String hysteresis, int acknowledged,
                                 int updateRequired, int dataProvided, double latencyAvgMillis, double latencyBoundMillis,
                                 EstimateView estimate, String estimateUnavailable, Pending pending, boolean stale,
                                 String staleReason, CalibrationView calibration, HistogramView histogram,
                                 String histogramUnavailable, List<TimelinePoint> timeline, List<HopView> hops,
                                 String pathBound) {

        /** @return whether the connection serves a bound (QoS 2 and 4) rather than a mean */
        public boolean servesBound() {
            return qos == 2 || qos == 4;
        }
    }

    /**
     * One switch port of a connection's path.
     *
     * @param link          the link's configured name
     * @param portState     the IDL's port_state code of this hop
     * @param portStateText e.g. "LOADED 95 %"
     * @param percent       its latest utilisation, percent; −1 unknown, 101 carrying its rate and dropping
     */
    public record HopView(String link, int portState, String portStateText, int percent) {
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
     * @param thesisValueMillis the thesis's own, uncorrected value; equal to valueMillis when not corrected
     * @param correction      how valueMillis was corrected from it; empty when served unchanged
     * @param source          the server's word for where the data come from ("measurement", "remembered
     *                        measurement", "band probes", "profile", "profile fallback", "previous state's measurement")
     * @param dataEpochMillis when the data were measured; 0 for a profile
     * @param sourceLabel     what the operator is told about the source, e.g. "remembered, 3 min old";
     *                        empty when the value is the current state's own fresh one
     * @param sourceExplanation what the label means, for a tooltip; empty with the label
     * @param sourceElsewhere the data do not belong to the connection's current load state (a profile
     *                        fallback, the previous state's measurement): marked as a warning
     * @param pathBoundMethod for a bound composed from two or more loaded hops, the method of the thesis value
     *                        ("union bound" or "independent hops"); empty otherwise
     * @param unionBoundMillis the composed union bound, ms; 0 when nothing was composed
     * @param independentBoundMillis the composed bound assuming independent hops, ms; 0 when none
     */
    public record EstimateView(String kind, double valueMillis, double boundPercent, double lower, double upper, String unit,
                               String method, List<String> alternatives, String basis, List<String> notes,
                               boolean updatePending, boolean interpolated, long computedEpochMillis,
                               double thesisValueMillis, String correction, String source, long dataEpochMillis,
                               String sourceLabel, String sourceExplanation, boolean sourceElsewhere,
                               String pathBoundMethod, double unionBoundMillis, double independentBoundMillis) {
    }

    /**
     * An open measurement request and how long it has been open.
     *
     * @param reason why the server opened it, e.g. "load state changed to LOW/MEDIUM NORMAL" or "drift: …";
     *               empty from a server that does not say
     */
    public record Pending(long ticket, long issuedEpochMillis, long ageMillis, int roundTrips, String reason) {
    }

    /**
     * How the connection's served estimates held for the round trips that followed them.
     *
     * @param mode   "adaptive" or "thesis"
     * @param pooled over all load states
     * @param states one per load state the connection was measured or checked in, in the server's order
     */
    public record CalibrationView(String mode, StateCalibrationView pooled, List<StateCalibrationView> states) {
    }

    /**
     * Calibration in one load state (or pooled over them), as the IDL's {@code StateCalibration},
     * with the console's verdict on a bound.
     *
     * @param cpuState              the IDL's cpu_state code; −1 pooled
     * @param portState             the IDL's port_state code; −1 pooled
     * @param loadState             e.g. "LOW/MEDIUM NORMAL", or "all states"
     * @param current               whether this is the connection's load state now
     * @param roundTripsChecked     BOUND: round trips tested against the bound served when they were sent
     * @param coverage              the share of them at or below it, 0..1
     * @param coverageLower         its 95 % interval over blocks (probe windows, measurements), 0..1
     * @param coverageUpper         the interval's upper end
     * @param coverageIntervalKnown false before two blocks were seen: then the ends mean nothing
     * @param coverageMethod        how the interval was computed
     * @param nominal               bound_percent / 100; 0 for a mean
     * @param servedLevelPercent    the level the adaptive correction now reads the histogram at
     * @param windowsChecked        AVERAGE: windows of round trips compared with the served mean
     * @param medianRelativeError   median |served − window mean| / window mean
     * @param insideIntervalFraction share of window means inside the served interval
     * @param meanCorrectionFactor  served mean / thesis mean; 1 when uncorrected
     * @param measurements          measurements of this state
     * @param lastMeasuredEpochMillis when the last was accepted; 0 when never
     * @param driftAlarms           re-measurements opened because estimates stopped holding
     * @param boundNotHolding       BOUND: the coverage interval lies wholly below nominal −
     *                              {@link Calibrations#NOT_HOLDING_MARGIN_POINTS} points
     * @param belowNominal          BOUND: the server flags the state under-covering — its coverage interval lies wholly
     *                              below nominal after at least 20 blocks (for the pooled row: some state is)
     */
    public record StateCalibrationView(int cpuState, int portState, String loadState, boolean current, long roundTripsChecked,
                                       double coverage, double coverageLower, double coverageUpper,
                                       boolean coverageIntervalKnown, String coverageMethod, double nominal,
                                       double servedLevelPercent, long windowsChecked, double medianRelativeError,
                                       double insideIntervalFraction, double meanCorrectionFactor, long measurements,
                                       long lastMeasuredEpochMillis, long driftAlarms, boolean boundNotHolding,
                                       boolean belowNominal) {
    }

    /** Histogram bins in ms: bin i covers (upperEdgesMillis[i−1], upperEdgesMillis[i]]. */
    public record HistogramView(double[] upperEdgesMillis, long[] counts, long overflow, long total) {
    }

    /** One point of the estimate timeline. */
    public record TimelinePoint(long epochMillis, double valueMillis, double lower, double upper, String unit) {
    }

    /**
     * One profile cell as live probes of QoS 1/2 connections have learned it, and whether it still
     * agrees with the profile (the IDL's {@code ProfileCellDrift}).
     *
     * @param profile           the profile's name
     * @param cpuState          the cell's pair, the IDL's cpu_state code (10 × client + peer)
     * @param cpuStateText      e.g. "LOW/MEDIUM"
     * @param messageSizeBytes  the cell's message size
     * @param liveRoundTrips    probe round trips seen in all
     * @param liveWeight        their decayed count, which the test rests on
     * @param weightToFlag      the decayed count from which the server may flag the cell drifting
     * @param liveMeanMillis    the decayed mean of the live round trips
     * @param profileMeanMillis the profile cell's mean
     * @param statistic         the test's statistic
     * @param criticalValue     the cell is drifting above it
     * @param drifting          the server's verdict
     * @param verdict           it in words: "DRIFTING", "consistent", or "too few round trips" (the
     *                          statistic is above the critical value but the server has not enough
     *                          round trips yet to flag the cell)
     * @param test              which test
     * @param lastEpochMillis   the last probe window
     */
    public record ProfileCellView(String profile, int cpuState, String cpuStateText, int messageSizeBytes, long liveRoundTrips,
                                  double liveWeight, double weightToFlag, double liveMeanMillis, double profileMeanMillis, double statistic,
                                  double criticalValue, boolean drifting, String verdict, String test, long lastEpochMillis) {

        /** The verdict of a drifting cell. */
        static final String DRIFTING = "DRIFTING";
        /** The verdict of a cell the test finds consistent with the profile. */
        static final String CONSISTENT = "consistent";
        /** The verdict of a cell whose statistic is above the critical value, below the server's minimum of round trips. */
        static final String TOO_FEW = "too few round trips";

        /** @return the verdict in words, from the server's figures */
        static String verdict(final boolean drifting, final double statistic, final double criticalValue) {
            return drifting ? DRIFTING : statistic > criticalValue ? TOO_FEW : CONSISTENT;
        }

        /** @return the verdict, and for too few round trips how far the weight is from what the server needs, e.g. "too few round trips: weight 123 of 200" */
        String verdictWithWeight() {
            return TOO_FEW.equals(verdict) ? String.format(java.util.Locale.ROOT, "%s: weight %.0f of %.0f", verdict, liveWeight,
                weightToFlag) : verdict;
        }
    }
}
