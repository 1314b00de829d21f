package org.latencyserver.server.corba;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.LongSupplier;
import org.latencyserver.core.estimate.Measurement;
import org.latencyserver.core.histogram.LatencyHistogram;
import org.latencyserver.core.input.InputFault;
import org.latencyserver.core.profile.Profile;
import org.latencyserver.core.profile.ProfileJson;
import org.latencyserver.core.profile.ProfileValidationException;
import org.latencyserver.idl.LatservPackage.IdlBaselineMeasurements;
import org.latencyserver.idl.LatservPackage.IdlMibUpdates;
import org.latencyserver.idl.LatservPackage.IdlStatusToClient;
import org.latencyserver.idl.LatservPackage.TableRow;
import org.latencyserver.idl.latency.Calibration;
import org.latencyserver.idl.latency.ConnectionInfo;
import org.latencyserver.idl.latency.DeadlineMiss;
import org.latencyserver.idl.latency.Estimate;
import org.latencyserver.idl.latency.EstimateListener;
import org.latencyserver.idl.latency.EstimateUnavailable;
import org.latencyserver.idl.latency.HistogramBins;
import org.latencyserver.idl.latency.InvalidArgument;
import org.latencyserver.idl.latency.LatencyServiceOperations;
import org.latencyserver.idl.latency.MeasuredResult;
import org.latencyserver.idl.latency.MeasurementListener;
import org.latencyserver.idl.latency.MeasurementRequest;
import org.latencyserver.idl.latency.OperationDisabled;
import org.latencyserver.idl.latency.ProbeReport;
import org.latencyserver.idl.latency.ProfileCellDrift;
import org.latencyserver.idl.latency.ProfileRejected;
import org.latencyserver.idl.latency.ProfileSummary;
import org.latencyserver.idl.latency.ResultRefused;
import org.latencyserver.idl.latency.UnknownConnection;
import org.latencyserver.server.config.ProfileFit;
import org.latencyserver.server.engine.EngineCallException;
import org.latencyserver.server.engine.EngineListener;
import org.latencyserver.server.engine.EngineLoop;
import org.latencyserver.server.engine.EngineProxy;
import org.latencyserver.server.engine.EngineQuery;
import org.latencyserver.server.engine.EstimateQuestions;
import org.latencyserver.server.engine.ProfileInstaller;
import org.latencyserver.server.engine.SubmitOutcome;
import org.latencyserver.server.metrics.Operation;
import org.latencyserver.server.metrics.ServerMetrics;
import org.latencyserver.server.table.ConnectionRow;
import org.latencyserver.server.table.MibReading;
import org.omg.CORBA.BAD_PARAM;
import org.omg.CORBA.CompletionStatus;
import org.omg.CORBA.INTERNAL;
import org.omg.CORBA.NO_PERMISSION;
import org.omg.CORBA.SystemException;
import org.omg.CORBA.TRANSIENT;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The CORBA face of the server: the thesis's {@code Latserv} operations with their semantics,
 * and the extended {@code LatencyService}. It maps IDL to the domain and back, and nothing more:
 * commands go to the update thread through an {@link EngineProxy}, reads come from the published
 * state through an {@link EngineQuery} and {@link EstimateQuestions}, loaded profiles go through a
 * {@link ProfileInstaller}, and engine events reach subscribers through {@link Subscriptions}.
 *
 * <p>Reads ({@code RequestStatus}, {@code RequestTableStatus}, the extended getters) take the
 * published row: no locks, no waiting on the update thread. Writes ({@code PutMibUpdates},
 * results, profile loads) are answered when the update thread has applied them and the state file
 * holds them, so a caller that reads after writing sees its write, and a server killed after
 * answering still has it when restarted. A write the update thread did not take in time is
 * cancelled and answered with CORBA {@code TRANSIENT} (completed: no; it is not applied later),
 * so the caller may send it again.
 *
 * <p>Bad input is refused with a reason: IDL exceptions in the extended interface; in the thesis's
 * operations, which declare none, a CORBA {@code BAD_PARAM} (the reason is also logged, since
 * system exceptions carry no text to the client).
 *
 * <p>Thread-safe: called on the ORB's request threads.
 */
public final class LatencyServiceServant implements LatencyServiceOperations {

    private static final Logger LOG = LoggerFactory.getLogger(LatencyServiceServant.class);
    /** Its own logger, so that the repeated-warning filter keeps this kind apart. */
    private static final Logger UNSAVED_LOG = LoggerFactory.getLogger(LatencyServiceServant.class.getName() + ".unsaved");
    /**
     * Minor code of the {@code TRANSIENT} and {@code INTERNAL} a write is answered with when the
     * update thread gave no outcome. 0: the server has no registered vendor minor code set; the
     * completion status says whether the write may have taken effect, and the log says why.
     */
    static final int ENGINE_UNAVAILABLE_MINOR = 0;
    /**
     * The longest free-text name a caller may send (an agent's name, a profile's source name): it
     * goes into estimates' basis, every subscriber's push, the state file and the log.
     */
    static final int MAX_NAME_CHARS = 200;

    private final EngineProxy engine;
    private final EngineQuery query;
    private final EstimateQuestions questions;
    private final ProfileInstaller profiles;
    private final Subscriptions subscriptions;
    private final LongSupplier epochMillis;
    private final WriteGuard guard;
    private final ServerMetrics metrics;
    private final Refusals refusals;
    private final StateSaver stateSaver;

    /**
     * @param loop                 the update thread
     * @param epochMillis          wall clock for timestamps
     * @param guard                who may write what
     * @param metrics              where calls and refusals are counted
     * @param profileKeeper        keeps a profile loaded by {@code load_profile} for the next start
     * @param stateSaver           puts an applied write on disk before it is answered
     */
    public LatencyServiceServant(final EngineLoop loop, final LongSupplier epochMillis, final WriteGuard guard,
                                 final ServerMetrics metrics, final ProfileInstaller.ProfileKeeper profileKeeper,
                                 final StateSaver stateSaver) {
        this.stateSaver = Objects.requireNonNull(stateSaver, "stateSaver");
        this.metrics = metrics;
        this.refusals = new Refusals(metrics);
        this.guard = Objects.requireNonNull(guard, "guard");
        this.engine = new EngineProxy(loop);
        this.query = loop.query();
        this.questions = new EstimateQuestions(query);
        this.profiles = new ProfileInstaller(engine, profileKeeper);
        this.subscriptions = new Subscriptions(query, epochMillis);
        this.epochMillis = epochMillis;
    }

    /** Puts applied writes on disk before they are answered (see {@code persistence.StateStore#awaitSaved}). */
    @FunctionalInterface
    public interface StateSaver {
        /**
         * @param timeoutMillis how long to wait at most
         * @return false when saving failed (the saver logs why) or timed out; the write stays applied
         */
        boolean awaitSaved(long timeoutMillis);
    }

    /** @return what the update engine must tell of its changes (estimate and request subscribers) */
    public EngineListener engineListener() {
        return subscriptions;
    }

    /**
     * Every applied write ends here before it is answered: the state file must hold it (a refused
     * write may save others' changes; it changed nothing itself).
     */
    private void awaitSaved() {
        if (!stateSaver.awaitSaved(engine.timeoutMillis())) {
            // The write serves (it is applied) and the store keeps retrying; the caller is still
            // answered, since refusing a write that took effect would be worse. Said and counted.
            metrics.unsavedWrite();
            UNSAVED_LOG.error("a write was answered before the state file's journal held it (the append failed or took over {} ms);"
                + " kill -9 now could lose it", engine.timeoutMillis());
        }
    }

    /**
     * The update thread gave no outcome: {@code TRANSIENT} when the write was not applied (time-out,
     * stopping server; the caller may send it again), {@code INTERNAL} when it ran and failed.
     */
    private SystemException engineUnavailable(final Operation operation, final EngineCallException e) {
        LOG.warn("{} not answered: {}", operation.label(), e.getMessage());
        return e.mayHaveApplied()
            ? new INTERNAL(e.getMessage(), ENGINE_UNAVAILABLE_MINOR, CompletionStatus.COMPLETED_MAYBE)
            : new TRANSIENT(e.getMessage(), ENGINE_UNAVAILABLE_MINOR, CompletionStatus.COMPLETED_NO);
    }

    // ---- Latserv (thesis) ----------------------------------------------------------------------

    @Override
    public IdlStatusToClient RequestStatus(final short clientRef) {
        final long start = System.nanoTime();
        metrics.requestStatusCalled();
        final ConnectionRow row = query.row(clientRef);
        final IdlStatusToClient status = row == null ? IdlConversions.unknownStatus(clientRef) : IdlConversions.status(row);
        metrics.requestStatusAnswered(System.nanoTime() - start);
        return status;
    }

    @Override
    public void UpdateResponse(final IdlBaselineMeasurements baseline, final short clientRef) {
        final Operation operation = Operation.UPDATE_RESPONSE;
        metrics.called(operation);
        if (baseline == null || baseline.index_ref != clientRef) {
            throw badParam(operation, Refusal.BAD_VALUE, "UpdateResponse: baseline_status.index_ref "
                + (baseline == null ? "missing" : baseline.index_ref) + " does not match client_ref " + clientRef);
        }
        final ConnectionRow target = query.row(clientRef);
        if (target == null) {
            throw badParam(operation, Refusal.UNKNOWN_CONNECTION, "UpdateResponse: no connection " + clientRef);
        }
        final WriteGuard.Denial denied = guard.agent(operation, target.spec().clientNodeName());
        if (denied != null) {
            throw noPermission(operation, denied);
        }
        final SubmitOutcome outcome;
        try {
            outcome = engine.submitThesisResponse(clientRef, baseline.latency_avg, baseline.latency_bound,
                baseline.upper_bound_estimate, baseline.lower_bound_estimate, baseline.latency_data_provided);
        } catch (EngineCallException e) {
            throw engineUnavailable(operation, e);
        }
        awaitSaved();
        if (!outcome.accepted()) {
            throw badParam(operation, label(outcome), "UpdateResponse for connection " + clientRef + " refused: "
                + outcome.reason());
        }
    }

    @Override
    public void PutMibUpdates(final IdlMibUpdates updates, final short clientRef) {
        final Operation operation = Operation.PUT_MIB_UPDATES;
        metrics.called(operation);
        final WriteGuard.Denial denied = guard.operator(operation);
        if (denied != null) {
            throw noPermission(operation, denied);
        }
        if (updates == null || updates.index_ref != clientRef) {
            throw badParam(operation, Refusal.BAD_VALUE, "PutMibUpdates: mib_updates.index_ref "
                + (updates == null ? "missing" : updates.index_ref) + " does not match client_ref " + clientRef);
        }
        if (query.row(clientRef) == null) {
            throw badParam(operation, Refusal.UNKNOWN_CONNECTION, "PutMibUpdates: no connection " + clientRef);
        }
        final WriteGuard.Denial polled = guard.pushedReading(clientRef);
        if (polled != null) {
            throw badParam(operation, polled.why(), polled.reason());
        }
        if (updates.latest_mib_port > 100) {
            throw badParam(operation, Refusal.BAD_VALUE, "PutMibUpdates for connection " + clientRef
                + ": port utilisation must be 0..100 % (or -1 for unknown), was " + updates.latest_mib_port);
        }
        final MibReading pushed;
        try {
            pushed = new MibReading(updates.latest_client_mib_cpu, updates.latest_peer_mib_cpu, updates.latest_mib_port);
        } catch (IllegalArgumentException e) {
            throw badParam(operation, Refusal.BAD_VALUE, "PutMibUpdates for connection " + clientRef + ": " + e.getMessage());
        }
        // A connection with a polled end takes the push for its pushed ends only (the poll owns the
        // rest): merged on the update thread, against the latest reading there.
        final PolledSources partlyPolled = guard.polled(clientRef);
        final boolean known;
        try {
            known = engine.applyMib(clientRef, latest -> partlyPolled == null ? pushed : partlyPolled.keepPolled(pushed, latest));
        } catch (EngineCallException e) {
            throw engineUnavailable(operation, e);
        }
        awaitSaved();
        if (!known) {
            throw badParam(operation, Refusal.UNKNOWN_CONNECTION, "PutMibUpdates: no connection " + clientRef);
        }
    }

    @Override
    public TableRow RequestTableStatus(final short clientRef) {
        final Operation operation = Operation.REQUEST_TABLE_STATUS;
        metrics.called(operation);
        final WriteGuard.Denial denied = guard.operator(operation);
        if (denied != null) {
            throw noPermission(operation, denied);
        }
        final ConnectionRow row = query.row(clientRef);
        return row == null ? IdlConversions.unknownTableRow(clientRef) : IdlConversions.tableRow(row);
    }

    // ---- LatencyService (extended) -------------------------------------------------------------

    @Override
    public ConnectionInfo[] list_connections() {
        metrics.called(Operation.LIST_CONNECTIONS);
        return query.rows().stream().map(IdlConversions::connectionInfo).toArray(ConnectionInfo[]::new);
    }

    @Override
    public Estimate current_estimate(final short indexRef) throws UnknownConnection, EstimateUnavailable {
        final ConnectionRow row = askedRow(Operation.CURRENT_ESTIMATE, indexRef);
        if (row.estimate() == null) {
            throw new EstimateUnavailable(indexRef, Objects.requireNonNullElse(row.unavailableReason(), "no estimate yet"));
        }
        return IdlConversions.estimate(row, row.estimate(), row.changedEpochMillis());
    }

    @Override
    public Estimate estimate_at_percentile(final short indexRef, final double percentile)
        throws UnknownConnection, InvalidArgument, EstimateUnavailable {
        final ConnectionRow row = askedRow(Operation.ESTIMATE_AT_PERCENTILE, indexRef);
        if (!(percentile > 0 && percentile <= 100)) {
            throw badArgument(Operation.ESTIMATE_AT_PERCENTILE, "percentile must be in (0, 100], was " + percentile);
        }
        return IdlConversions.estimate(row, questions.atPercentile(row, percentile).orElseThrow(unavailable(indexRef)),
            epochMillis.getAsLong());
    }

    @Override
    public DeadlineMiss deadline_miss_probability(final short indexRef, final double deadlineMillis)
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

    @Override
    public Estimate estimate_for_size(final short indexRef, final int messageSizeBytes)
        throws UnknownConnection, InvalidArgument, EstimateUnavailable {
        final ConnectionRow row = askedRow(Operation.ESTIMATE_FOR_SIZE, indexRef);
        if (messageSizeBytes < 1) {
            throw badArgument(Operation.ESTIMATE_FOR_SIZE, "message size must be >= 1 byte, was " + messageSizeBytes);
        }
        return IdlConversions.estimate(row, questions.forSize(row, messageSizeBytes).orElseThrow(unavailable(indexRef)),
            epochMillis.getAsLong());
    }

    @Override
    public long subscribe(final EstimateListener listener, final short[] indexRefs) throws UnknownConnection, InvalidArgument {
        final Operation operation = Operation.SUBSCRIBE;
        metrics.called(operation);
        return subscribeTo(operation, "estimate", listener, indexRefs, refs ->
            subscriptions.subscribeEstimates(refs, listener::estimate_changed));
    }

    @Override
    public void unsubscribe(final long subscriptionId) {
        metrics.called(Operation.UNSUBSCRIBE);
        subscriptions.unsubscribe(subscriptionId);
    }

    @Override
    public long subscribe_measurements(final MeasurementListener listener, final short[] indexRefs)
        throws UnknownConnection, InvalidArgument, OperationDisabled {
        final Operation operation = Operation.SUBSCRIBE_MEASUREMENTS;
        metrics.called(operation);
        // Only agents measure: anyone else would only hold one of the hub's bounded places.
        final WriteGuard.Denial denied = guard.anyAgent(operation);
        if (denied != null) {
            throw new OperationDisabled(operation.label(), refusals.record(operation, denied.why(), denied.reason()));
        }
        // A subscription outlives the call: whether it sees tickets is decided by who subscribed.
        final org.latencyserver.server.security.Caller subscriber = guard.caller();
        return subscribeTo(operation, "measurement", listener, indexRefs, refs -> subscriptions.subscribeMeasurements(refs,
            request -> listener.measurement_requested(guard.policy().maySeeTicket(subscriber, request.client_node_name)
                ? request : IdlConversions.withoutTicket(request))));
    }

    /** A subscribe call's id from {@code subscribe}, which is given the known connections and may throw when the hub is full. */
    @FunctionalInterface
    private interface Subscribe {
        long to(Set<Short> indexRefs);
    }

    private long subscribeTo(final Operation operation, final String kind, final Object listener, final short[] indexRefs,
                             final Subscribe subscribe) throws UnknownConnection, InvalidArgument {
        if (listener == null) {
            throw badArgument(operation, kind + " listener is nil");
        }
        final Set<Short> refs = known(operation, indexRefs);
        final long id;
        try {
            id = subscribe.to(refs);
        } catch (IllegalStateException e) {
            throw new InvalidArgument(refusals.record(operation, Refusal.TOO_LARGE, e.getMessage()));
        }
        LOG.info("{} subscriber {} for connections {}", kind, id, refs.isEmpty() ? "all" : refs);
        return id;
    }

    @Override
    public MeasurementRequest[] pending_measurements() {
        metrics.called(Operation.PENDING_MEASUREMENTS);
        final List<MeasurementRequest> requests = new ArrayList<>();
        for (final ConnectionRow row : query.rows()) {
            if (row.pending() != null) {
                final MeasurementRequest request = IdlConversions.request(row, row.spec().peerNodeName(),
                    query.settings().warmupRoundTrips(), query.settings().pacing(), epochMillis.getAsLong());
                requests.add(guard.maySeeTicket(row.spec().clientNodeName()) ? request : IdlConversions.withoutTicket(request));
            }
        }
        return requests.toArray(new MeasurementRequest[0]);
    }

    @Override
    public void submit_measurement(final MeasuredResult result) throws UnknownConnection, ResultRefused, OperationDisabled {
        final Operation operation = Operation.SUBMIT_MEASUREMENT;
        metrics.called(operation);
        if (result == null) {
            throw new ResultRefused((short) 0, 0, refusals.record(operation, Refusal.BAD_VALUE, "result is missing"));
        }
        agentMayWrite(operation, result.index_ref);
        final String tooLarge = IdlConversions.tooLarge(result.histogram, result.batch_means_ms, query.limits());
        if (tooLarge != null) {
            throw new ResultRefused(result.index_ref, result.ticket, refusals.record(operation, Refusal.TOO_LARGE,
                "result for connection " + result.index_ref + " refused: " + tooLarge));
        }
        final Measurement measurement;
        try {
            measurement = new Measurement(IdlConversions.histogram(result.histogram), result.sample_count, result.mean_ms,
                result.std_dev_ms, result.max_ms, IdlConversions.doubles(result.batch_means_ms));
        } catch (IllegalArgumentException e) {
            throw new ResultRefused(result.index_ref, result.ticket, refusals.record(operation, Refusal.BAD_VALUE,
                "bad measurement for connection " + result.index_ref + ": " + e.getMessage()));
        }
        if (result.agent != null && result.agent.length() > MAX_NAME_CHARS) {
            throw new ResultRefused(result.index_ref, result.ticket, refusals.record(operation, Refusal.TOO_LARGE,
                "the agent's name has " + result.agent.length() + " characters, more than " + MAX_NAME_CHARS));
        }
        final String agent = result.agent == null || result.agent.isBlank() ? "unnamed agent" : result.agent;
        final SubmitOutcome outcome;
        try {
            outcome = engine.submitMeasurement(result.index_ref, result.ticket, measurement, agent);
        } catch (EngineCallException e) {
            throw engineUnavailable(operation, e);
        }
        awaitSaved();
        switch (outcome.kind()) {
            case ACCEPTED:
                metrics.roundTrips(result.index_ref, measurement.histogram());
                return;
            case UNKNOWN_CONNECTION:
                throw new UnknownConnection(result.index_ref, refusals.record(operation, Refusal.UNKNOWN_CONNECTION,
                    outcome.reason()));
            default:
                throw new ResultRefused(result.index_ref, result.ticket, refusals.record(operation, label(outcome),
                    "result for connection " + result.index_ref + " refused: " + outcome.reason()));
        }
    }

    @Override
    public void submit_probe(final ProbeReport report) throws UnknownConnection, ResultRefused, OperationDisabled {
        final Operation operation = Operation.SUBMIT_PROBE;
        metrics.called(operation);
        if (report == null) {
            throw refusedProbe((short) 0, Refusal.BAD_VALUE, "probe report is missing");
        }
        agentMayWrite(operation, report.index_ref);
        final String tooLarge = IdlConversions.tooLarge(report.histogram, null, query.limits());
        if (tooLarge != null) {
            throw refusedProbe(report.index_ref, Refusal.TOO_LARGE, tooLarge);
        }
        final LatencyHistogram roundTrips;
        try {
            roundTrips = IdlConversions.histogram(report.histogram);
        } catch (IllegalArgumentException e) {
            throw refusedProbe(report.index_ref, Refusal.BAD_VALUE, "bad probe histogram: " + e.getMessage());
        }
        if (report.sample_count != roundTrips.totalCount() || report.sample_count < 0) {
            throw refusedProbe(report.index_ref, Refusal.BAD_VALUE, "probe report says " + report.sample_count + " round trips, its histogram holds "
                + roundTrips.totalCount());
        }
        if (report.sample_count > 0 && (!(report.mean_ms > 0) || Double.isInfinite(report.mean_ms))) {
            throw refusedProbe(report.index_ref, Refusal.BAD_VALUE, "probe mean must be finite and > 0 ms, was " + report.mean_ms);
        }
        if (report.window_millis < 0 || report.window_millis > 3_600_000) {
            throw refusedProbe(report.index_ref, Refusal.BAD_VALUE, "probe window must be 0..3600000 ms, was " + report.window_millis);
        }
        final String node = report.client_node_name == null ? "" : report.client_node_name;
        final SubmitOutcome outcome;
        try {
            outcome = engine.submitProbe(report.index_ref, node, roundTrips, report.mean_ms, report.window_millis);
        } catch (EngineCallException e) {
            throw engineUnavailable(operation, e);
        }
        awaitSaved();
        switch (outcome.kind()) {
            case ACCEPTED:
                metrics.roundTrips(report.index_ref, roundTrips);
                return;
            case UNKNOWN_CONNECTION:
                throw new UnknownConnection(report.index_ref, refusals.record(operation, Refusal.UNKNOWN_CONNECTION,
                    outcome.reason()));
            default:
                throw refusedProbe(report.index_ref, label(outcome), outcome.reason());
        }
    }

    private ResultRefused refusedProbe(final short indexRef, final Refusal why, final String reason) {
        return new ResultRefused(indexRef, 0, refusals.record(Operation.SUBMIT_PROBE, why, "probe report for connection " + indexRef
            + " refused: " + reason));
    }

    /** An agent's write: the connection must exist and be the calling agent's own. */
    private void agentMayWrite(final Operation operation, final short indexRef) throws UnknownConnection, OperationDisabled {
        final ConnectionRow target = query.row(indexRef);
        if (target == null) {
            throw new UnknownConnection(indexRef, refusals.record(operation, Refusal.UNKNOWN_CONNECTION,
                "no connection " + indexRef + " is configured"));
        }
        final WriteGuard.Denial denied = guard.agent(operation, target.spec().clientNodeName());
        if (denied != null) {
            throw new OperationDisabled(operation.label(), refusals.record(operation, denied.why(), denied.reason()));
        }
    }

    private static Refusal label(final SubmitOutcome outcome) {
        switch (outcome.kind()) {
            case UNKNOWN_CONNECTION:
                return Refusal.UNKNOWN_CONNECTION;
            case IMPLAUSIBLE:
                return Refusal.IMPLAUSIBLE;
            default:
                return Refusal.BAD_TICKET;
        }
    }

    @Override
    public ProfileSummary load_profile(final String profileJson, final String sourceName)
        throws ProfileRejected, OperationDisabled {
        final Operation operation = Operation.LOAD_PROFILE;
        metrics.called(operation);
        final WriteGuard.Denial denied = guard.planner();
        if (denied != null) {
            throw new OperationDisabled(operation.label(), refusals.record(operation, denied.why(), denied.reason()));
        }
        if (sourceName != null && sourceName.length() > MAX_NAME_CHARS) {
            throw new ProfileRejected(refusals.record(operation, Refusal.TOO_LARGE, "the source name has " + sourceName.length()
                + " characters, more than " + MAX_NAME_CHARS), new String[0]);
        }
        final String source = sourceName == null || sourceName.isBlank() ? "profile from load_profile" : sourceName;
        final Profile profile;
        try {
            // Within the configured size and bins, then against the configured connections: what start-up checks.
            profile = ProfileJson.parse(profileJson == null ? "" : profileJson, source, query.limits().profileLimits());
        } catch (ProfileValidationException e) {
            throw profileRejected(source, e.faults());
        }
        final List<InputFault> misfits = ProfileFit.faults(profile, source, query.rows().stream().map(ConnectionRow::spec).toList());
        if (!misfits.isEmpty()) {
            throw profileRejected(source, misfits);
        }
        try {
            profiles.install(profile, source);
        } catch (EngineCallException e) {
            throw engineUnavailable(operation, e);
        }
        awaitSaved();
        return IdlConversions.profileSummary(profile);
    }

    private ProfileRejected profileRejected(final String source, final List<InputFault> faults) {
        // A size limit is the whole story only when every fault is one (the size is checked before anything else).
        final Refusal why = faults.stream().allMatch(f -> f.reason().contains(" more than the limit of ")) ? Refusal.TOO_LARGE
            : Refusal.BAD_PROFILE;
        final String reason = source + " refused; the server keeps the profile it had";
        refusals.record(Operation.LOAD_PROFILE, why, reason + ": " + faults.get(0) + (faults.size() > 1 ? " (and "
            + (faults.size() - 1) + " more)" : ""));
        return new ProfileRejected(reason, faults.stream().map(InputFault::toString).toArray(String[]::new));
    }

    @Override
    public ProfileSummary[] list_profiles() {
        metrics.called(Operation.LIST_PROFILES);
        return query.profiles().values().stream().sorted((a, b) -> a.name().compareTo(b.name()))
            .map(IdlConversions::profileSummary).toArray(ProfileSummary[]::new);
    }

    @Override
    public Calibration calibration(final short indexRef) throws UnknownConnection {
        return IdlConversions.calibration(askedRow(Operation.CALIBRATION, indexRef));
    }

    @Override
    public ProfileCellDrift[] profile_drift() {
        metrics.called(Operation.PROFILE_DRIFT);
        return query.profileDrifts().stream().map(d -> new ProfileCellDrift(d.profileName(), (short) d.key().cpuStates().code(),
            d.key().messageSizeBytes(), d.live().roundTrips(), d.live().decayedRoundTrips(), d.live().meanMillis(),
            d.cell().meanMillis(), d.verdict().statistic(),
            Double.isFinite(d.verdict().criticalValue()) ? d.verdict().criticalValue() : 0.0, d.verdict().drifting(),
            d.verdict().test(), d.live().lastEpochMillis())).toArray(ProfileCellDrift[]::new);
    }

    @Override
    public String learned_profile(final String profileName) throws InvalidArgument {
        final Operation operation = Operation.LEARNED_PROFILE;
        metrics.called(operation);
        final Profile learned = query.learnedProfile(profileName)
            .orElseThrow(reason -> badArgument(operation, reason));
        return ProfileJson.toJson(learned);
    }

    @Override
    public HistogramBins current_histogram(final short indexRef) throws UnknownConnection, EstimateUnavailable {
        final ConnectionRow row = askedRow(Operation.CURRENT_HISTOGRAM, indexRef);
        return IdlConversions.bins(questions.histogramBehind(row).orElseThrow(unavailable(indexRef)).histogram());
    }

    /** Stops delivery to every subscriber. */
    public void close() {
        subscriptions.closeAll();
    }

    // ---- helpers -------------------------------------------------------------------------------

    private ConnectionRow row(final Operation operation, final short indexRef) throws UnknownConnection {
        final ConnectionRow row = query.row(indexRef);
        if (row == null) {
            throw new UnknownConnection(indexRef, refusals.record(operation, Refusal.UNKNOWN_CONNECTION,
                "no connection " + indexRef + " is configured"));
        }
        return row;
    }

    /** A read of one connection: the call is counted, then the connection must exist. */
    private ConnectionRow askedRow(final Operation operation, final short indexRef) throws UnknownConnection {
        metrics.called(operation);
        return row(operation, indexRef);
    }

    private Set<Short> known(final Operation operation, final short[] indexRefs) throws UnknownConnection {
        final Set<Short> refs = new HashSet<>();
        for (final short indexRef : indexRefs == null ? new short[0] : indexRefs) {
            row(operation, indexRef);
            refs.add(indexRef);
        }
        return refs;
    }

    private static java.util.function.Function<String, EstimateUnavailable> unavailable(final short indexRef) {
        return reason -> new EstimateUnavailable(indexRef, reason);
    }

    /** A bad value in the extended interface, counted and recorded as refused. */
    private InvalidArgument badArgument(final Operation operation, final String reason) {
        return new InvalidArgument(refusals.record(operation, Refusal.BAD_VALUE, reason));
    }

    private BAD_PARAM badParam(final Operation operation, final Refusal why, final String reason) {
        return new BAD_PARAM(refusals.record(operation, why, reason), 0, CompletionStatus.COMPLETED_NO);
    }

    private NO_PERMISSION noPermission(final Operation operation, final WriteGuard.Denial denied) {
        return new NO_PERMISSION(refusals.record(operation, denied.why(), denied.reason()), 0, CompletionStatus.COMPLETED_NO);
    }
}
