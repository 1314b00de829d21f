package org.latencyserver.server.corba;

import java.util.HashSet;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import java.util.function.LongSupplier;
import org.latencyserver.idl.latency.Calibration;
import org.latencyserver.idl.latency.DeadlineMiss;
import org.latencyserver.idl.latency.Estimate;
import org.latencyserver.idl.latency.EstimateUnavailable;
import org.latencyserver.idl.latency.HistogramBins;
import org.latencyserver.idl.latency.InvalidArgument;
import org.latencyserver.idl.latency.TrafficShape;
import org.latencyserver.idl.latency.UnknownConnection;
import org.latencyserver.server.engine.EngineQuery;
import org.latencyserver.server.engine.EstimateQuestions;
import org.latencyserver.server.engine.Refusal;
import org.latencyserver.server.engine.ShapedEstimate;
import org.latencyserver.server.metrics.Operation;
import org.latencyserver.server.metrics.ServerMetrics;
import org.latencyserver.server.table.ConnectionRow;

/**
 * The extended interface's questions about one connection ({@code current_estimate}, {@code estimate_at_percentile},
 * {@code deadline_miss_probability}, {@code estimate_for_size}, {@code estimate_for_traffic},
 * {@code current_histogram}, {@code calibration}): each counts its call, finds the published row, checks its argument
 * and answers in IDL. An unknown connection or a bad value is refused through {@link Refusals}.
 *
 * <p>Thread-safe: stateless beyond its collaborators; called on the ORB's request threads, reads the published state
 * and counts calls and refusals (thread-safe counters).
 */
final class ConnectionReads {

    private final EngineQuery query;
    private final EstimateQuestions questions;
    private final LongSupplier epochMillis;
    private final ServerMetrics metrics;
    private final Refusals refusals;

    ConnectionReads(final EngineQuery query, final LongSupplier epochMillis, final ServerMetrics metrics,
                    final Refusals refusals) {
        this.query = query;
        this.questions = new EstimateQuestions(query);
        this.epochMillis = epochMillis;
        this.metrics = metrics;
        this.refusals = refusals;
    }

    Estimate currentEstimate(final short indexRef) throws UnknownConnection, EstimateUnavailable {
        final ConnectionRow row = askedRow(Operation.CURRENT_ESTIMATE, indexRef);
        if (row.estimate() == null) {
            throw new EstimateUnavailable(indexRef, Objects.requireNonNullElse(row.unavailableReason(), "no estimate yet"));
        }
        return IdlConversions.estimate(row, row.estimate(), row.changedEpochMillis());
    }

    Estimate atPercentile(final short indexRef, final double percentile)
        throws UnknownConnection, InvalidArgument, EstimateUnavailable {
        final ConnectionRow row = askedRow(Operation.ESTIMATE_AT_PERCENTILE, indexRef);
        if (!(percentile > 0 && percentile <= 100)) {
            throw badArgument(Operation.ESTIMATE_AT_PERCENTILE, "percentile must be in (0, 100], was " + percentile);
        }
        return IdlConversions.estimate(row, questions.atPercentile(row, percentile).orElseThrow(unavailable(indexRef)),
            epochMillis.getAsLong());
    }

    DeadlineMiss deadlineMiss(final short indexRef, final double deadlineMillis)
        throws UnknownConnection, InvalidArgument, EstimateUnavailable {
        final ConnectionRow row = askedRow(Operation.DEADLINE_MISS_PROBABILITY, indexRef);
        if (!(deadlineMillis > 0) || Double.isInfinite(deadlineMillis)) {
            throw badArgument(Operation.DEADLINE_MISS_PROBABILITY, "deadline must be finite and > 0 ms, was " + deadlineMillis);
        }
        final org.latencyserver.core.estimate.DeadlineMiss miss = questions.deadlineMiss(row, deadlineMillis)
            .orElseThrow(unavailable(indexRef));
        return new DeadlineMiss(indexRef, deadlineMillis, miss.missProbability(),
            IdlConversions.interval(miss.interval(), "probability", 1.0), miss.notes().toArray(new String[0]));
    }

    Estimate forSize(final short indexRef, final int messageSizeBytes)
        throws UnknownConnection, InvalidArgument, EstimateUnavailable {
        final ConnectionRow row = askedRow(Operation.ESTIMATE_FOR_SIZE, indexRef);
        if (messageSizeBytes < 1) {
            throw badArgument(Operation.ESTIMATE_FOR_SIZE, "message size must be >= 1 byte, was " + messageSizeBytes);
        }
        return IdlConversions.estimate(row, questions.forSize(row, messageSizeBytes).orElseThrow(unavailable(indexRef)),
            epochMillis.getAsLong());
    }

    Calibration calibration(final short indexRef) throws UnknownConnection {
        return IdlConversions.calibration(askedRow(Operation.CALIBRATION, indexRef));
    }

    HistogramBins histogram(final short indexRef) throws UnknownConnection, EstimateUnavailable {
        final ConnectionRow row = askedRow(Operation.CURRENT_HISTOGRAM, indexRef);
        return IdlConversions.bins(questions.histogramBehind(row).orElseThrow(unavailable(indexRef)).histogram());
    }

    Estimate forTraffic(final short indexRef, final TrafficShape traffic)
        throws UnknownConnection, InvalidArgument, EstimateUnavailable {
        final Operation operation = Operation.ESTIMATE_FOR_TRAFFIC;
        final ConnectionRow row = askedRow(operation, indexRef);
        final Checked<org.latencyserver.core.traffic.TrafficShape> shape = IdlConversions.shape(traffic, "traffic");
        if (shape.isRefused()) {
            throw new InvalidArgument(refusals.record(operation, shape.refusal()).message());
        }
        final ShapedEstimate.ForShape answer = ShapedEstimate.of(row, shape.value()).orElseThrow(unavailable(indexRef));
        final Estimate estimate = IdlConversions.estimate(row, answer.estimate(), epochMillis.getAsLong());
        estimate.thesis_value_ms = answer.thesisMillis();
        estimate.correction = answer.correction();
        estimate.traffic = answer.traffic();
        return estimate;
    }

    /**
     * @return the connections named, each checked to exist (in order; the first unknown one is refused); empty for none
     *         or {@code null}
     */
    Set<Short> known(final Operation operation, final short[] indexRefs) throws UnknownConnection {
        final Set<Short> refs = new HashSet<>();
        for (final short indexRef : indexRefs == null ? new short[0] : indexRefs) {
            row(operation, indexRef);
            refs.add(indexRef);
        }
        return refs;
    }

    /** A bad value in the extended interface, counted and recorded as refused. */
    InvalidArgument badArgument(final Operation operation, final String reason) {
        return new InvalidArgument(refusals.record(operation, Refusal.of(Refusal.Kind.BAD_VALUE, reason)).message());
    }

    private ConnectionRow row(final Operation operation, final short indexRef) throws UnknownConnection {
        final ConnectionRow row = query.row(indexRef);
        if (row == null) {
            throw new UnknownConnection(indexRef, refusals.record(operation, CallChecks.unknownConnection(indexRef)).message());
        }
        return row;
    }

    /** A read of one connection: the call is counted, then the connection must exist. */
    private ConnectionRow askedRow(final Operation operation, final short indexRef) throws UnknownConnection {
        metrics.called(operation);
        return row(operation, indexRef);
    }

    private static Function<String, EstimateUnavailable> unavailable(final short indexRef) {
        return reason -> new EstimateUnavailable(indexRef, reason);
    }
}
