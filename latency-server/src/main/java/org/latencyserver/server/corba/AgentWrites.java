package org.latencyserver.server.corba;

import java.util.Objects;
import java.util.Optional;
import org.latencyserver.core.estimate.Measurement;
import org.latencyserver.core.histogram.LatencyHistogram;
import org.latencyserver.core.traffic.TrafficShape;
import org.latencyserver.idl.latency.MeasuredResult;
import org.latencyserver.idl.latency.ProbeReport;
import org.latencyserver.server.engine.EngineQuery;
import org.latencyserver.server.engine.Refusal;
import org.latencyserver.server.engine.SubmitOutcome;
import org.latencyserver.server.metrics.Operation;
import org.latencyserver.server.table.ConnectionRow;

/**
 * The client agents' writes, {@code submit_measurement} and {@code submit_probe}, as {@link WriteCall}s:
 * the connection must exist and be the calling agent's own; a histogram within
 * {@code limits.max_histogram_bins} is checked before anything is built from it; then its values (a probe report's
 * by {@link ProbeReportChecks}, and its traffic shape's fields each within their ranges).
 * Every refusal but an unknown connection or a refused caller names the connection first
 * ({@code "result for connection 3 refused: ..."}).
 *
 * <p>Immutable and thread-safe; the calls it makes run on the ORB's request threads.
 */
final class AgentWrites {

    private final EngineQuery query;
    private final WriteGuard guard;

    /**
     * @param query the published state: connections and limits
     * @param guard who may write what
     */
    AgentWrites(final EngineQuery query, final WriteGuard guard) {
        this.query = Objects.requireNonNull(query, "query");
        this.guard = Objects.requireNonNull(guard, "guard");
    }

    /** A measured result that passed the checks, as the update thread takes it. */
    record CheckedResult(short indexRef, long ticket, Measurement measurement, String agent) {
    }

    /** A probe window that passed the checks, as the update thread takes it. */
    record CheckedProbe(short indexRef, String clientNode, LatencyHistogram roundTrips, double meanMillis, long windowMillis,
                        TrafficShape shape) {
    }

    /**
     * @param result the submitted result, possibly null
     * @return the {@code submit_measurement} write
     */
    WriteCall<CheckedResult, SubmitOutcome> measurement(final MeasuredResult result) {
        return WriteCall.of(Operation.SUBMIT_MEASUREMENT, () -> admitResult(result),
            (engine, in) -> engine.submitMeasurement(in.indexRef(), in.ticket(), in.measurement(), in.agent()),
            (in, outcome) -> verdict(outcome, resultRefused(in.indexRef())));
    }

    /**
     * @param report the submitted probe window, possibly null
     * @return the {@code submit_probe} write
     */
    WriteCall<CheckedProbe, SubmitOutcome> probe(final ProbeReport report) {
        return WriteCall.of(Operation.SUBMIT_PROBE, () -> admitProbe(report),
            (engine, in) -> engine.submitProbe(in.indexRef(), in.clientNode(), in.roundTrips(), in.meanMillis(), in.windowMillis(),
                in.shape()),
            (in, outcome) -> verdict(outcome, probeRefused(in.indexRef())));
    }

    private static String resultRefused(final short indexRef) {
        return "result for connection " + indexRef + " refused: ";
    }

    private static String probeRefused(final short indexRef) {
        return "probe report for connection " + indexRef + " refused: ";
    }

    /** An unknown connection is told as the engine says it; any other refusal after the connection's name. */
    private static Optional<Refusal> verdict(final SubmitOutcome outcome, final String refusedPrefix) {
        if (outcome.accepted()) {
            return Optional.empty();
        }
        return Optional.of(outcome.kind() == Refusal.Kind.UNKNOWN_CONNECTION ? outcome.refusal()
            : outcome.refusal().prefixed(refusedPrefix));
    }

    private Checked<CheckedResult> admitResult(final MeasuredResult result) {
        if (result == null) {
            return Checked.refused(Refusal.of(Refusal.Kind.BAD_VALUE, "result", "missing", "", "result is missing"));
        }
        final String refused = resultRefused(result.index_ref);
        return ownConnection(Operation.SUBMIT_MEASUREMENT, result.index_ref)
            .check(row -> IdlConversions.tooLarge(result.histogram, result.batch_means_ms, query.limits())
                .map(tooLarge -> tooLarge.prefixed(refused)))
            .then(row -> measurementOf(result))
            .check(measurement -> CallChecks.nameLength("agent", "the agent's name", result.agent))
            .map(measurement -> new CheckedResult(result.index_ref, result.ticket, measurement,
                result.agent == null || result.agent.isBlank() ? "unnamed agent" : result.agent));
    }

    private static Checked<Measurement> measurementOf(final MeasuredResult result) {
        try {
            return Checked.passed(new Measurement(IdlConversions.histogram(result.histogram), result.sample_count, result.mean_ms,
                result.std_dev_ms, result.max_ms, IdlConversions.doubles(result.batch_means_ms)));
        } catch (IllegalArgumentException e) {
            return Checked.refused(Refusal.of(Refusal.Kind.BAD_VALUE, "measurement", "", "",
                "bad measurement for connection " + result.index_ref + ": " + e.getMessage()));
        }
    }

    private Checked<CheckedProbe> admitProbe(final ProbeReport report) {
        if (report == null) {
            return Checked.refused(Refusal.of(Refusal.Kind.BAD_VALUE, "probe report", "missing", "", "probe report is missing")
                .prefixed(probeRefused((short) 0)));
        }
        final Checked<ConnectionRow> own = ownConnection(Operation.SUBMIT_PROBE, report.index_ref);
        if (own.isRefused()) {
            return Checked.refused(own.refusal());
        }
        return Checked.unless(IdlConversions.tooLarge(report.histogram, null, query.limits()), report)
            .then(AgentWrites::probeHistogram)
            .check(roundTrips -> ProbeReportChecks.check(report, roundTrips))
            .then(roundTrips -> IdlConversions.shape(report.shape, "shape")
                .map(shape -> new CheckedProbe(report.index_ref, report.client_node_name == null ? "" : report.client_node_name,
                    roundTrips, report.mean_ms, report.window_millis, shape)))
            .refusalPrefixed(probeRefused(report.index_ref));
    }

    private static Checked<LatencyHistogram> probeHistogram(final ProbeReport report) {
        try {
            return Checked.passed(IdlConversions.histogram(report.histogram));
        } catch (IllegalArgumentException e) {
            return Checked.refused(Refusal.of(Refusal.Kind.BAD_VALUE, "histogram", "", "", "bad probe histogram: " + e.getMessage()));
        }
    }

    /**
     * An agent's write: the connection must exist and be the calling agent's own.
     *
     * @return the connection's row, or why the caller may not write it
     */
    private Checked<ConnectionRow> ownConnection(final Operation operation, final short indexRef) {
        final ConnectionRow target = query.row(indexRef);
        if (target == null) {
            return Checked.refused(CallChecks.unknownConnection(indexRef));
        }
        return Checked.unless(guard.agent(operation, target.spec().clientNodeName()), target);
    }
}
