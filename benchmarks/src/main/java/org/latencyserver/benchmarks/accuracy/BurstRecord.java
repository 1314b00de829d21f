package org.latencyserver.benchmarks.accuracy;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One play of the application on one connection: the load state read, the estimate read just
 * after it, the burst of round trips sent right after that, and the load state read once the burst
 * was over. The {@link ApplicationPlayer} writes one per line (JSON Lines, file
 * {@code bursts.jsonl}), in the order played; the harness reads them back.
 *
 * <p>Layout of a line (keys snake_case; times epoch ms; latencies ms, round trips ns):
 * <pre>
 * {"epoch_millis":1763940000123, "index_ref":2, "quality":2, "client_node":"lab1", "peer_node":"lab2", "message_size_bytes":256,
 *  "cpu_state":12, "port_state":0, "cpu_state_after":12, "port_state_after":0,
 *  "estimate_available":true, "unavailable_reason":"",
 *  "kind":"BOUND", "value_ms":0.412, "thesis_value_ms":0.371, "bound_percent":96.0,
 *  "interval_lower":95.1, "interval_upper":97.0, "interval_unit":"percent",
 *  "source":"measurement", "correction":"", "update_pending":false, "stale":false, "data_epoch_millis":1763939990000,
 *  "rtt_nanos":[183211, 170934, …],
 *  "basis":"measurement ticket 7 by demo-agent-ws1, LOW/LOW LOADED 98 %", "estimate_cpu_state":11, "estimate_port_state":98,
 *  "hop_port_states":[95, 0], "hop_port_states_after":[95, 0],
 *  "path_bound_method":"", "union_bound_ms":0.0, "independent_bound_ms":0.0,
 *  "shape":"mixed", "spacing_micros":2000, "call":"arrays"}
 * </pre>
 * The last three name the application shape the burst played ({@link ApplicationShape}: its name, the spacing of this
 * burst's round trips in µs and its call, {@code octets} or {@code arrays}); the burst's length is {@code rtt_nanos}'s.
 * Records written before shapes were played have none: their shape reads as {@value #UNNAMED_SHAPE}.
 * The last five describe a path of several switch ports: each hop's port state (path order) read before the
 * estimate and after the burst, from {@code ConnectionInfo.hops}, and the served estimate's composed bounds
 * ({@code Estimate.path_bound_method}, {@code union_bound_ms}, {@code independent_bound_ms}: 0 when nothing
 * was composed). Records written before they were recorded have none ({@code hop_port_states} empty).
 * States are encoded as in {@code Latserv.idl} ({@code cpu_state} 10·client + peer, 1 LOW … 3 HIGH,
 * 0 unknown; {@code port_state} 0 NORMAL, 91..100 LOADED, 101 SATURATED, -1 unknown). When no estimate was
 * available the estimate's fields are 0 or empty and {@code unavailable_reason} says why. A
 * connection that cannot be checked (no agents on its nodes) has an empty {@code rtt_nanos}: its
 * line records only the read. {@code thesis_value_ms} is as served: a server that does not fill it
 * yet sends 0.
 *
 * @param epochMillis       when the estimate was read
 * @param indexRef          the connection
 * @param quality           its QoS level, 1..4
 * @param clientNode        its client node's name
 * @param peerNode          its peer node's name
 * @param messageSizeBytes  its message size, the size of each round trip's payload
 * @param cpuState          the connection's CPU state read before the estimate
 * @param portState         its port state read before the estimate
 * @param cpuStateAfter     the CPU state read after the burst
 * @param portStateAfter    the port state read after the burst
 * @param estimateAvailable false when {@code current_estimate} raised EstimateUnavailable
 * @param unavailableReason its reason; empty otherwise
 * @param kind              AVERAGE or BOUND; empty when unavailable
 * @param valueMs           the served value
 * @param thesisValueMs     the thesis's uncorrected value, as served
 * @param boundPercent      the bound's percentage; 0 for AVERAGE
 * @param intervalLower     the estimate's interval: ms for AVERAGE, percent for BOUND
 * @param intervalUpper     its upper end
 * @param intervalUnit      "ms" or "percent"
 * @param source            where the data behind the value come from
 * @param correction        how the value was corrected; empty for thesis semantics
 * @param updatePending     a measurement was awaited
 * @param stale             an input had stopped answering
 * @param dataEpochMillis   when the data behind the value were measured; 0 for a profile
 * @param rttNanos          the burst's round trips in the order sent, ns
 * @param basis             the estimate's basis (where its value came from: profile cell, port cell, measurement and
 *                          the state it was made in); empty when unavailable or not recorded
 * @param estimateCpuState  the CPU state the server served the estimate in; {@link #UNRECORDED_STATE} when none
 * @param estimatePortState the port state the server served the estimate in; {@link #UNRECORDED_STATE} when none
 * @param hopPortStates      each hop's port state read before the estimate, path order; empty when not recorded
 * @param hopPortStatesAfter each hop's port state read after the burst
 * @param pathBoundMethod    the served estimate's composition method, "" when nothing was composed
 * @param unionBoundMs       the union bound of the composed path, ms; 0 when nothing was composed
 * @param independentBoundMs the independent-hops bound, ms; 0 when nothing was composed or it could not be had
 * @param shape              the application shape the burst played; {@value #UNNAMED_SHAPE} when not recorded
 * @param spacingMicros      start-to-start spacing of the burst's round trips, µs; 0 when not recorded
 * @param call               the burst's call, {@code octets} or {@code arrays}; empty when not recorded
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record BurstRecord(
    @JsonProperty("epoch_millis") long epochMillis,
    @JsonProperty("index_ref") int indexRef,
    @JsonProperty("quality") int quality,
    @JsonProperty("client_node") String clientNode,
    @JsonProperty("peer_node") String peerNode,
    @JsonProperty("message_size_bytes") int messageSizeBytes,
    @JsonProperty("cpu_state") int cpuState,
    @JsonProperty("port_state") int portState,
    @JsonProperty("cpu_state_after") int cpuStateAfter,
    @JsonProperty("port_state_after") int portStateAfter,
    @JsonProperty("estimate_available") boolean estimateAvailable,
    @JsonProperty("unavailable_reason") String unavailableReason,
    @JsonProperty("kind") String kind,
    @JsonProperty("value_ms") double valueMs,
    @JsonProperty("thesis_value_ms") double thesisValueMs,
    @JsonProperty("bound_percent") double boundPercent,
    @JsonProperty("interval_lower") double intervalLower,
    @JsonProperty("interval_upper") double intervalUpper,
    @JsonProperty("interval_unit") String intervalUnit,
    @JsonProperty("source") String source,
    @JsonProperty("correction") String correction,
    @JsonProperty("update_pending") boolean updatePending,
    @JsonProperty("stale") boolean stale,
    @JsonProperty("data_epoch_millis") long dataEpochMillis,
    @JsonProperty("rtt_nanos") long[] rttNanos,
    @JsonProperty("basis") String basis,
    @JsonProperty("estimate_cpu_state") int estimateCpuState,
    @JsonProperty("estimate_port_state") int estimatePortState,
    @JsonProperty("hop_port_states") int[] hopPortStates,
    @JsonProperty("hop_port_states_after") int[] hopPortStatesAfter,
    @JsonProperty("path_bound_method") String pathBoundMethod,
    @JsonProperty("union_bound_ms") double unionBoundMs,
    @JsonProperty("independent_bound_ms") double independentBoundMs,
    @JsonProperty("shape") String shape,
    @JsonProperty("spacing_micros") long spacingMicros,
    @JsonProperty("call") String call) {

    /** Hops missing from an older file are none; its shape is {@value #UNNAMED_SHAPE}. */
    public BurstRecord {
        hopPortStates = hopPortStates == null ? new int[0] : hopPortStates;
        hopPortStatesAfter = hopPortStatesAfter == null ? new int[0] : hopPortStatesAfter;
        pathBoundMethod = pathBoundMethod == null ? "" : pathBoundMethod;
        shape = shape == null || shape.isEmpty() ? UNNAMED_SHAPE : shape;
        call = call == null ? "" : call;
    }

    /** The shape of a record that names none (written before shapes were played): the one shape of its run. */
    public static final String UNNAMED_SHAPE = "unnamed";

    /**
     * A record without its application shape (as written before shapes were recorded).
     */
    public BurstRecord(final long epochMillis, final int indexRef, final int quality, final String clientNode, final String peerNode,
                       final int messageSizeBytes, final int cpuState, final int portState, final int cpuStateAfter,
                       final int portStateAfter, final boolean estimateAvailable, final String unavailableReason, final String kind,
                       final double valueMs, final double thesisValueMs, final double boundPercent, final double intervalLower,
                       final double intervalUpper, final String intervalUnit, final String source, final String correction,
                       final boolean updatePending, final boolean stale, final long dataEpochMillis, final long[] rttNanos,
                       final String basis, final int estimateCpuState, final int estimatePortState, final int[] hopPortStates,
                       final int[] hopPortStatesAfter, final String pathBoundMethod, final double unionBoundMs,
                       final double independentBoundMs) {
        this(epochMillis, indexRef, quality, clientNode, peerNode, messageSizeBytes, cpuState, portState, cpuStateAfter, portStateAfter,
            estimateAvailable, unavailableReason, kind, valueMs, thesisValueMs, boundPercent, intervalLower, intervalUpper, intervalUnit,
            source, correction, updatePending, stale, dataEpochMillis, rttNanos, basis, estimateCpuState, estimatePortState,
            hopPortStates, hopPortStatesAfter, pathBoundMethod, unionBoundMs, independentBoundMs, UNNAMED_SHAPE, 0, "");
    }

    /**
     * @param shapeName         the application shape played
     * @param burstSpacingMicros the burst's spacing, µs
     * @param burstCall         its call's word
     * @return this record, naming the shape its burst played
     */
    public BurstRecord withShape(final String shapeName, final long burstSpacingMicros, final String burstCall) {
        return new BurstRecord(epochMillis, indexRef, quality, clientNode, peerNode, messageSizeBytes, cpuState, portState, cpuStateAfter,
            portStateAfter, estimateAvailable, unavailableReason, kind, valueMs, thesisValueMs, boundPercent, intervalLower,
            intervalUpper, intervalUnit, source, correction, updatePending, stale, dataEpochMillis, rttNanos, basis, estimateCpuState,
            estimatePortState, hopPortStates, hopPortStatesAfter, pathBoundMethod, unionBoundMs, independentBoundMs, shapeName,
            burstSpacingMicros, burstCall);
    }

    /**
     * A record without a path's hops and composed bounds (a connection of one port, or written before they were recorded).
     */
    public BurstRecord(final long epochMillis, final int indexRef, final int quality, final String clientNode, final String peerNode,
                       final int messageSizeBytes, final int cpuState, final int portState, final int cpuStateAfter,
                       final int portStateAfter, final boolean estimateAvailable, final String unavailableReason, final String kind,
                       final double valueMs, final double thesisValueMs, final double boundPercent, final double intervalLower,
                       final double intervalUpper, final String intervalUnit, final String source, final String correction,
                       final boolean updatePending, final boolean stale, final long dataEpochMillis, final long[] rttNanos,
                       final String basis, final int estimateCpuState, final int estimatePortState) {
        this(epochMillis, indexRef, quality, clientNode, peerNode, messageSizeBytes, cpuState, portState, cpuStateAfter, portStateAfter,
            estimateAvailable, unavailableReason, kind, valueMs, thesisValueMs, boundPercent, intervalLower, intervalUpper, intervalUnit,
            source, correction, updatePending, stale, dataEpochMillis, rttNanos, basis, estimateCpuState, estimatePortState,
            new int[0], new int[0], "", 0, 0);
    }

    /**
     * A record without the estimate's basis and own load state (as written before they were recorded).
     */
    public BurstRecord(final long epochMillis, final int indexRef, final int quality, final String clientNode, final String peerNode,
                       final int messageSizeBytes, final int cpuState, final int portState, final int cpuStateAfter,
                       final int portStateAfter, final boolean estimateAvailable, final String unavailableReason, final String kind,
                       final double valueMs, final double thesisValueMs, final double boundPercent, final double intervalLower,
                       final double intervalUpper, final String intervalUnit, final String source, final String correction,
                       final boolean updatePending, final boolean stale, final long dataEpochMillis, final long[] rttNanos) {
        this(epochMillis, indexRef, quality, clientNode, peerNode, messageSizeBytes, cpuState, portState, cpuStateAfter, portStateAfter,
            estimateAvailable, unavailableReason, kind, valueMs, thesisValueMs, boundPercent, intervalLower, intervalUpper, intervalUnit,
            source, correction, updatePending, stale, dataEpochMillis, rttNanos, "", UNRECORDED_STATE, UNRECORDED_STATE);
    }

    /** {@code estimate_cpu_state}/{@code estimate_port_state} of a record that has none (unavailable, or an older file). */
    public static final int UNRECORDED_STATE = -9;

    /** The file name the player writes and the harness reads. */
    public static final String FILE_NAME = "bursts.jsonl";

    /** @return the load state read before the estimate */
    public LoadState stateBefore() {
        return new LoadState(cpuState, portState);
    }

    /** @return whether the load state was the same before the estimate and after the burst, every hop's included */
    public boolean stateHeld() {
        return cpuState == cpuStateAfter && portState == portStateAfter && java.util.Arrays.equals(hopPortStates, hopPortStatesAfter);
    }

    /** @return whether the estimate served was no estimate for the current state (unavailable, or the previous state's) */
    public boolean withoutEstimateForState() {
        return !estimateAvailable || (source != null && source.startsWith("previous state"));
    }

    /**
     * The thesis's value. A server that does not fill {@code thesis_value_ms} yet sends 0 with an
     * empty correction, which by the contract means the thesis value is the served one.
     *
     * @return the thesis's value in ms
     */
    public double thesisValueOrServedMs() {
        return thesisValueMs == 0 && (correction == null || correction.isEmpty()) ? valueMs : thesisValueMs;
    }

    /** @return whether the estimate is a bound (QoS 2, 4) */
    @JsonIgnore // derived, not part of the layout
    public boolean isBound() {
        return "BOUND".equals(kind);
    }

    /**
     * @param file a file of records, one per line
     * @return the records in file order
     * @throws IOException when it cannot be read or a line is not a record
     */
    public static List<BurstRecord> readAll(final Path file) throws IOException {
        final ObjectMapper mapper = new ObjectMapper();
        final List<BurstRecord> records = new ArrayList<>();
        try (BufferedReader reader = Files.newBufferedReader(file)) {
            String line;
            while ((line = reader.readLine()) != null) {
                if (!line.isBlank()) {
                    records.add(mapper.readValue(line, BurstRecord.class));
                }
            }
        }
        return records;
    }
}
