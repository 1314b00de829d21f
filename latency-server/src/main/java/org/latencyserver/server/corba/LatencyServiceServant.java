package org.latencyserver.server.corba;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.LongSupplier;
import org.latencyserver.core.calibration.LearnedCell;
import org.latencyserver.core.calibration.LearnedProfiles;
import org.latencyserver.core.estimate.DeadlineMissEstimator;
import org.latencyserver.core.estimate.EstimateRefusedException;
import org.latencyserver.core.estimate.Measurement;
import org.latencyserver.core.estimate.PercentileEstimator;
import org.latencyserver.core.estimate.ProfileAverageEstimator;
import org.latencyserver.core.histogram.LatencyHistogram;
import org.latencyserver.core.input.InputFault;
import org.latencyserver.core.profile.Profile;
import org.latencyserver.core.profile.ProfileCell;
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
import org.latencyserver.server.engine.EngineListener;
import org.latencyserver.server.engine.EngineLoop;
import org.latencyserver.server.engine.SubmitOutcome;
import org.latencyserver.server.metrics.ServerMetrics;
import org.latencyserver.server.table.ConnectionRow;
import org.latencyserver.server.table.ConnectionTable;
import org.latencyserver.server.table.MibReading;
import org.omg.CORBA.BAD_PARAM;
import org.omg.CORBA.CompletionStatus;
import org.omg.CORBA.NO_PERMISSION;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The CORBA face of the server: the thesis's {@code Latserv} operations with their semantics,
 * and the extended {@code LatencyService}.
 *
 * <p>Reads ({@code RequestStatus}, {@code RequestTableStatus}, the extended getters) take the
 * published row of the {@link ConnectionTable}: no locks, no waiting on the update thread.
 * Writes ({@code PutMibUpdates}, results, profile loads) are handed to the update thread and
 * answered when it has applied them and the state file holds them, so a caller that reads after
 * writing sees its write, and a server killed after answering still has it when restarted.
 *
 * <p>Bad input is refused with a reason: IDL exceptions in the extended interface; in the thesis's
 * operations, which declare none, a CORBA {@code BAD_PARAM} (the reason is also logged, since
 * system exceptions carry no text to the client).
 *
 * <p>Thread-safe: called on the ORB's request threads.
 */
public final class LatencyServiceServant implements LatencyServiceOperations, EngineListener {

    private static final Logger LOG = LoggerFactory.getLogger(LatencyServiceServant.class);
    /** Its own logger, so that the repeated-warning filter keeps this kind apart. */
    private static final Logger UNSAVED_LOG = LoggerFactory.getLogger(LatencyServiceServant.class.getName() + ".unsaved");
    private static final long UPDATE_TIMEOUT_MILLIS = 5_000;
    /**
     * The longest free-text name a caller may send (an agent's name, a profile's source name): it
     * goes into estimates' basis, every subscriber's push, the state file and the log.
     */
    static final int MAX_NAME_CHARS = 200;

    private final EngineLoop loop;
    private final ConnectionTable table;
    private final LongSupplier epochMillis;
    private final WriteGuard guard;
    /** Held while a loaded profile is swapped in and kept (see load_profile). */
    private final Object profileLoads = new Object();
    private final ServerMetrics metrics;
    private final Refusals refusals;
    private final ProfileKeeper profileKeeper;
    private final StateSaver stateSaver;
    private final SubscriptionHub<Estimate> estimateSubscribers = new SubscriptionHub<>();
    private final SubscriptionHub<MeasurementRequest> measurementSubscribers = new SubscriptionHub<>();

    /**
     * @param loop                 the update thread
     * @param epochMillis          wall clock for timestamps
     * @param guard                who may write what
     * @param metrics              where calls and refusals are counted
     * @param profileKeeper        keeps a profile loaded by {@code load_profile} for the next start
     * @param stateSaver           puts an applied write on disk before it is answered
     */
    public LatencyServiceServant(final EngineLoop loop, final LongSupplier epochMillis, final WriteGuard guard,
                                 final ServerMetrics metrics, final ProfileKeeper profileKeeper, final StateSaver stateSaver) {
        this.stateSaver = Objects.requireNonNull(stateSaver, "stateSaver");
        this.metrics = metrics;
        this.refusals = new Refusals(metrics);
        this.guard = Objects.requireNonNull(guard, "guard");
        this.profileKeeper = profileKeeper;
        this.loop = loop;
        this.table = loop.engine().table();
        this.epochMillis = epochMillis;
    }

    /** Keeps a loaded profile across restarts (see {@code persistence.LoadedProfiles}). */
    @FunctionalInterface
    public interface ProfileKeeper {
        /**
         * @param profile a profile that was just swapped in
         * @throws java.io.IOException when it cannot be kept; it serves until the next restart regardless
         */
        void keep(Profile profile) throws java.io.IOException;
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

    /**
     * Every write goes through here: applied on the update thread, then saved before the caller is
     * answered (a refused write may save others' changes; it changed nothing itself).
     */
    private <T> T applyAndSave(final java.util.function.Function<Long, T> command, final long timeoutMillis) {
        final T result = loop.call(command, timeoutMillis);
        if (!stateSaver.awaitSaved(timeoutMillis)) {
            // The write serves (it is applied) and the store keeps retrying; the caller is still
            // answered, since refusing a write that took effect would be worse. Said and counted.
            metrics.unsavedWrite();
            UNSAVED_LOG.error("a write was answered before the state file's journal held it (the append failed or took over {} ms);"
                + " kill -9 now could lose it", timeoutMillis);
        }
        return result;
    }

    // ---- Latserv (thesis) ----------------------------------------------------------------------

    @Override
    public IdlStatusToClient RequestStatus(final short clientRef) {
        final long start = System.nanoTime();
        metrics.requestStatusCalled();
        final ConnectionRow row = table.row(clientRef);
        final IdlStatusToClient status = row == null ? IdlConversions.unknownStatus(clientRef) : IdlConversions.status(row);
        metrics.requestStatusAnswered(System.nanoTime() - start);
        return status;
    }

    @Override
    public void UpdateResponse(final IdlBaselineMeasurements baseline, final short clientRef) {
        metrics.called("UpdateResponse");
        if (baseline == null || baseline.index_ref != clientRef) {
            throw badParam("UpdateResponse", Refusal.BAD_VALUE, "UpdateResponse: baseline_status.index_ref "
                + (baseline == null ? "missing" : baseline.index_ref) + " does not match client_ref " + clientRef);
        }
        final ConnectionRow target = table.row(clientRef);
        if (target == null) {
            throw badParam("UpdateResponse", Refusal.UNKNOWN_CONNECTION, "UpdateResponse: no connection " + clientRef);
        }
        final WriteGuard.Denial denied = guard.agent("UpdateResponse", target.spec().clientNodeName());
        if (denied != null) {
            throw noPermission("UpdateResponse", denied);
        }
        final SubmitOutcome outcome = applyAndSave(now -> loop.engine().submitThesisResponse(clientRef, baseline.latency_avg,
            baseline.latency_bound, baseline.upper_bound_estimate, baseline.lower_bound_estimate,
            baseline.latency_data_provided, now), UPDATE_TIMEOUT_MILLIS);
        if (!outcome.accepted()) {
            throw badParam("UpdateResponse", label(outcome), "UpdateResponse for connection " + clientRef + " refused: "
                + outcome.reason());
        }
    }

    @Override
    public void PutMibUpdates(final IdlMibUpdates updates, final short clientRef) {
        metrics.called("PutMibUpdates");
        final WriteGuard.Denial denied = guard.operator("PutMibUpdates");
        if (denied != null) {
            throw noPermission("PutMibUpdates", denied);
        }
        if (updates == null || updates.index_ref != clientRef) {
            throw badParam("PutMibUpdates", Refusal.BAD_VALUE, "PutMibUpdates: mib_updates.index_ref "
                + (updates == null ? "missing" : updates.index_ref) + " does not match client_ref " + clientRef);
        }
        if (table.row(clientRef) == null) {
            throw badParam("PutMibUpdates", Refusal.UNKNOWN_CONNECTION, "PutMibUpdates: no connection " + clientRef);
        }
        final WriteGuard.Denial polled = guard.pushedReading(clientRef);
        if (polled != null) {
            throw badParam("PutMibUpdates", polled.why(), polled.reason());
        }
        final MibReading pushed;
        try {
            pushed = new MibReading(updates.latest_client_mib_cpu, updates.latest_peer_mib_cpu, updates.latest_mib_port);
        } catch (IllegalArgumentException e) {
            throw badParam("PutMibUpdates", Refusal.BAD_VALUE, "PutMibUpdates for connection " + clientRef + ": " + e.getMessage());
        }
        // A connection with a polled end takes the push for its pushed ends only (the poll owns the
        // rest): merged on the update thread, against the latest reading there.
        final PolledSources partlyPolled = guard.polled(clientRef);
        final boolean known = applyAndSave(now -> loop.engine().applyMib(clientRef, partlyPolled == null ? pushed
            : partlyPolled.keepPolled(pushed, loop.engine().table().row(clientRef).latest()), now), UPDATE_TIMEOUT_MILLIS);
        if (!known) {
            throw badParam("PutMibUpdates", Refusal.UNKNOWN_CONNECTION, "PutMibUpdates: no connection " + clientRef);
        }
    }

    @Override
    public TableRow RequestTableStatus(final short clientRef) {
        metrics.called("RequestTableStatus");
        final WriteGuard.Denial denied = guard.operator("RequestTableStatus");
        if (denied != null) {
            throw noPermission("RequestTableStatus", denied);
        }
        final ConnectionRow row = table.row(clientRef);
        return row == null ? IdlConversions.unknownTableRow(clientRef) : IdlConversions.tableRow(row);
    }

    // ---- LatencyService (extended) -------------------------------------------------------------

    @Override
    public ConnectionInfo[] list_connections() {
        metrics.called("list_connections");
        final List<ConnectionRow> rows = table.rows();
        final ConnectionInfo[] infos = new ConnectionInfo[rows.size()];
        for (int i = 0; i < infos.length; i++) {
            infos[i] = IdlConversions.connectionInfo(rows.get(i));
        }
        return infos;
    }

    @Override
    public Estimate current_estimate(final short indexRef) throws UnknownConnection, EstimateUnavailable {
        metrics.called("current_estimate");
        final ConnectionRow row = row("current_estimate", indexRef);
        if (row.estimate() == null) {
            throw new EstimateUnavailable(indexRef, Objects.requireNonNullElse(row.unavailableReason(), "no estimate yet"));
        }
        return IdlConversions.estimate(row, row.estimate(), row.changedEpochMillis());
    }

    @Override
    public Estimate estimate_at_percentile(final short indexRef, final double percentile)
        throws UnknownConnection, InvalidArgument, EstimateUnavailable {
        metrics.called("estimate_at_percentile");
        final ConnectionRow row = row("estimate_at_percentile", indexRef);
        if (!(percentile > 0 && percentile <= 100)) {
            throw new InvalidArgument(refusals.record("estimate_at_percentile", Refusal.BAD_VALUE,
                "percentile must be in (0, 100], was " + percentile));
        }
        final Source source = histogramOf(row);
        try {
            return IdlConversions.estimate(row, PercentileEstimator.atPercentile(row.spec().qos(), source.histogram,
                percentile, source.basis), epochMillis.getAsLong());
        } catch (EstimateRefusedException e) {
            throw new EstimateUnavailable(indexRef, e.getMessage());
        }
    }

    @Override
    public DeadlineMiss deadline_miss_probability(final short indexRef, final double deadlineMillis)
        throws UnknownConnection, InvalidArgument, EstimateUnavailable {
        metrics.called("deadline_miss_probability");
        final ConnectionRow row = row("deadline_miss_probability", indexRef);
        if (!(deadlineMillis > 0) || Double.isInfinite(deadlineMillis)) {
            throw new InvalidArgument(refusals.record("deadline_miss_probability", Refusal.BAD_VALUE,
                "deadline must be finite and > 0 ms, was " + deadlineMillis));
        }
        final Source source = histogramOf(row);
        try {
            final org.latencyserver.core.estimate.DeadlineMiss miss = DeadlineMissEstimator.estimate(source.histogram, deadlineMillis);
            final List<String> notes = new ArrayList<>(miss.notes());
            notes.add("from " + source.basis);
            return new DeadlineMiss(indexRef, deadlineMillis, miss.missProbability(),
                IdlConversions.interval(miss.interval(), "probability", 1.0), notes.toArray(new String[0]));
        } catch (EstimateRefusedException e) {
            throw new EstimateUnavailable(indexRef, e.getMessage());
        }
    }

    @Override
    public Estimate estimate_for_size(final short indexRef, final int messageSizeBytes)
        throws UnknownConnection, InvalidArgument, EstimateUnavailable {
        metrics.called("estimate_for_size");
        final ConnectionRow row = row("estimate_for_size", indexRef);
        if (messageSizeBytes < 1) {
            throw new InvalidArgument(refusals.record("estimate_for_size", Refusal.BAD_VALUE,
                "message size must be >= 1 byte, was " + messageSizeBytes));
        }
        final Profile profile = profileOf(row);
        try {
            return IdlConversions.estimate(row, ProfileAverageEstimator.estimateForSize(profile, row.load(), messageSizeBytes),
                epochMillis.getAsLong());
        } catch (EstimateRefusedException e) {
            throw new EstimateUnavailable(indexRef, e.getMessage());
        }
    }

    @Override
    public long subscribe(final EstimateListener listener, final short[] indexRefs) throws UnknownConnection, InvalidArgument {
        metrics.called("subscribe");
        return subscribeTo(estimateSubscribers, "subscribe", "estimate", listener, indexRefs,
            listener == null ? null : listener::estimate_changed);
    }

    @Override
    public void unsubscribe(final long subscriptionId) {
        metrics.called("unsubscribe");
        if (!estimateSubscribers.unsubscribe(subscriptionId)) {
            measurementSubscribers.unsubscribe(subscriptionId);
        }
    }

    @Override
    public long subscribe_measurements(final MeasurementListener listener, final short[] indexRefs)
        throws UnknownConnection, InvalidArgument, OperationDisabled {
        metrics.called("subscribe_measurements");
        // Only agents measure: anyone else would only hold one of the hub's bounded places.
        final WriteGuard.Denial denied = guard.anyAgent("subscribe_measurements");
        if (denied != null) {
            throw new OperationDisabled("subscribe_measurements", refusals.record("subscribe_measurements", denied.why(),
                denied.reason()));
        }
        // A subscription outlives the call: whether it sees tickets is decided by who subscribed.
        final org.latencyserver.server.security.Caller subscriber = guard.caller();
        return subscribeTo(measurementSubscribers, "subscribe_measurements", "measurement", listener, indexRefs, listener == null ? null
            : request -> listener.measurement_requested(guard.policy().maySeeTicket(subscriber, request.client_node_name)
                ? request : IdlConversions.withoutTicket(request)));
    }

    private <E> long subscribeTo(final SubscriptionHub<E> hub, final String operation, final String kind, final Object listener,
                                 final short[] indexRefs, final java.util.function.Consumer<E> delivery)
        throws UnknownConnection, InvalidArgument {
        if (listener == null) {
            throw new InvalidArgument(refusals.record(operation, Refusal.BAD_VALUE, kind + " listener is nil"));
        }
        final Set<Short> refs = known(operation, indexRefs);
        final long id;
        try {
            id = hub.subscribe(refs, delivery);
        } catch (IllegalStateException e) {
            throw new InvalidArgument(refusals.record(operation, Refusal.TOO_LARGE, e.getMessage()));
        }
        LOG.info("{} subscriber {} for connections {}", kind, id, refs.isEmpty() ? "all" : refs);
        return id;
    }

    @Override
    public MeasurementRequest[] pending_measurements() {
        metrics.called("pending_measurements");
        final List<MeasurementRequest> requests = new ArrayList<>();
        for (final ConnectionRow row : table.rows()) {
            if (row.pending() != null) {
                final MeasurementRequest request = IdlConversions.request(row, row.spec().peerNodeName(),
                    loop.engine().settings().warmupRoundTrips(), epochMillis.getAsLong());
                requests.add(guard.maySeeTicket(row.spec().clientNodeName()) ? request : IdlConversions.withoutTicket(request));
            }
        }
        return requests.toArray(new MeasurementRequest[0]);
    }

    @Override
    public void submit_measurement(final MeasuredResult result) throws UnknownConnection, ResultRefused, OperationDisabled {
        metrics.called("submit_measurement");
        if (result == null) {
            throw new ResultRefused((short) 0, 0, refusals.record("submit_measurement", Refusal.BAD_VALUE, "result is missing"));
        }
        agentMayWrite("submit_measurement", result.index_ref);
        final String tooLarge = IdlConversions.tooLarge(result.histogram, result.batch_means_ms, loop.engine().limits());
        if (tooLarge != null) {
            throw new ResultRefused(result.index_ref, result.ticket, refusals.record("submit_measurement", Refusal.TOO_LARGE,
                "result for connection " + result.index_ref + " refused: " + tooLarge));
        }
        final Measurement measurement;
        try {
            measurement = new Measurement(IdlConversions.histogram(result.histogram), result.sample_count, result.mean_ms,
                result.std_dev_ms, result.max_ms, IdlConversions.doubles(result.batch_means_ms));
        } catch (IllegalArgumentException e) {
            throw new ResultRefused(result.index_ref, result.ticket, refusals.record("submit_measurement", Refusal.BAD_VALUE,
                "bad measurement for connection " + result.index_ref + ": " + e.getMessage()));
        }
        if (result.agent != null && result.agent.length() > MAX_NAME_CHARS) {
            throw new ResultRefused(result.index_ref, result.ticket, refusals.record("submit_measurement", Refusal.TOO_LARGE,
                "the agent's name has " + result.agent.length() + " characters, more than " + MAX_NAME_CHARS));
        }
        final String agent = result.agent == null || result.agent.isBlank() ? "unnamed agent" : result.agent;
        final SubmitOutcome outcome = applyAndSave(now -> loop.engine().submitMeasurement(result.index_ref, result.ticket,
            measurement, agent, now), UPDATE_TIMEOUT_MILLIS);
        switch (outcome.kind()) {
            case ACCEPTED:
                metrics.roundTrips(result.index_ref, measurement.histogram());
                return;
            case UNKNOWN_CONNECTION:
                throw new UnknownConnection(result.index_ref, refusals.record("submit_measurement", Refusal.UNKNOWN_CONNECTION,
                    outcome.reason()));
            default:
                throw new ResultRefused(result.index_ref, result.ticket, refusals.record("submit_measurement", label(outcome),
                    "result for connection " + result.index_ref + " refused: " + outcome.reason()));
        }
    }

    @Override
    public void submit_probe(final ProbeReport report) throws UnknownConnection, ResultRefused, OperationDisabled {
        metrics.called("submit_probe");
        if (report == null) {
            throw refusedProbe((short) 0, Refusal.BAD_VALUE, "probe report is missing");
        }
        agentMayWrite("submit_probe", report.index_ref);
        final String tooLarge = IdlConversions.tooLarge(report.histogram, null, loop.engine().limits());
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
        final SubmitOutcome outcome = applyAndSave(now -> loop.engine().submitProbe(report.index_ref, node, roundTrips, report.mean_ms,
            report.window_millis, now), UPDATE_TIMEOUT_MILLIS);
        switch (outcome.kind()) {
            case ACCEPTED:
                metrics.roundTrips(report.index_ref, roundTrips);
                return;
            case UNKNOWN_CONNECTION:
                throw new UnknownConnection(report.index_ref, refusals.record("submit_probe", Refusal.UNKNOWN_CONNECTION,
                    outcome.reason()));
            default:
                throw refusedProbe(report.index_ref, label(outcome), outcome.reason());
        }
    }

    private ResultRefused refusedProbe(final short indexRef, final Refusal why, final String reason) {
        return new ResultRefused(indexRef, 0, refusals.record("submit_probe", why, "probe report for connection " + indexRef
            + " refused: " + reason));
    }

    /** An agent's write: the connection must exist and be the calling agent's own. */
    private void agentMayWrite(final String operation, final short indexRef) throws UnknownConnection, OperationDisabled {
        final ConnectionRow target = table.row(indexRef);
        if (target == null) {
            throw new UnknownConnection(indexRef, refusals.record(operation, Refusal.UNKNOWN_CONNECTION,
                "no connection " + indexRef + " is configured"));
        }
        final WriteGuard.Denial denied = guard.agent(operation, target.spec().clientNodeName());
        if (denied != null) {
            throw new OperationDisabled(operation, refusals.record(operation, denied.why(), denied.reason()));
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
        metrics.called("load_profile");
        final WriteGuard.Denial denied = guard.planner();
        if (denied != null) {
            throw new OperationDisabled("load_profile", refusals.record("load_profile", denied.why(), denied.reason()));
        }
        if (sourceName != null && sourceName.length() > MAX_NAME_CHARS) {
            throw new ProfileRejected(refusals.record("load_profile", Refusal.TOO_LARGE, "the source name has " + sourceName.length()
                + " characters, more than " + MAX_NAME_CHARS), new String[0]);
        }
        final String source = sourceName == null || sourceName.isBlank() ? "profile from load_profile" : sourceName;
        final Profile profile;
        try {
            // Within the configured size and bins, then against the configured connections: what start-up checks.
            profile = ProfileJson.parse(profileJson == null ? "" : profileJson, source, loop.engine().limits().profileLimits());
        } catch (ProfileValidationException e) {
            throw profileRejected(source, e.faults());
        }
        final List<InputFault> misfits = ProfileFit.faults(profile, source, table.rows().stream().map(ConnectionRow::spec).toList());
        if (!misfits.isEmpty()) {
            throw profileRejected(source, misfits);
        }
        // Swap and keep in one step: two planners loading the same name at once must not leave one
        // profile serving and the other kept for the restart. Planner calls are rare; reads never wait here.
        synchronized (profileLoads) {
            final int recomputed = applyAndSave(now -> loop.engine().swapProfile(profile), UPDATE_TIMEOUT_MILLIS);
            LOG.info("profile {} loaded from {}; {} connections recomputed", profile.name(), source, recomputed);
            try {
                profileKeeper.keep(profile);
            } catch (java.io.IOException e) {
                LOG.error("profile {} serves now but could not be kept for a restart: {}", profile.name(), e.getMessage());
            }
        }
        return IdlConversions.profileSummary(profile);
    }

    private ProfileRejected profileRejected(final String source, final List<InputFault> faults) {
        // A size limit is the whole story only when every fault is one (the size is checked before anything else).
        final Refusal why = faults.stream().allMatch(f -> f.reason().contains(" more than the limit of ")) ? Refusal.TOO_LARGE
            : Refusal.BAD_PROFILE;
        final String reason = source + " refused; the server keeps the profile it had";
        refusals.record("load_profile", why, reason + ": " + faults.get(0) + (faults.size() > 1 ? " (and " + (faults.size() - 1)
            + " more)" : ""));
        return new ProfileRejected(reason, faults.stream().map(InputFault::toString).toArray(String[]::new));
    }

    @Override
    public ProfileSummary[] list_profiles() {
        metrics.called("list_profiles");
        return loop.engine().profiles().values().stream().sorted((a, b) -> a.name().compareTo(b.name()))
            .map(IdlConversions::profileSummary).toArray(ProfileSummary[]::new);
    }

    @Override
    public Calibration calibration(final short indexRef) throws UnknownConnection {
        metrics.called("calibration");
        return IdlConversions.calibration(row("calibration", indexRef));
    }

    @Override
    public ProfileCellDrift[] profile_drift() {
        metrics.called("profile_drift");
        final List<ProfileCellDrift> drifts = new ArrayList<>();
        loop.engine().learnedCells().forEach((name, cells) -> {
            final Profile profile = loop.engine().profiles().get(name);
            if (profile == null) {
                return;
            }
            cells.forEach((key, live) -> profile.cell(key.cpuStates(), key.messageSizeBytes()).ifPresent(cell -> {
                final LearnedCell.Verdict verdict = live.compareWith(cell);
                drifts.add(new ProfileCellDrift(name, (short) key.cpuStates().code(), key.messageSizeBytes(), live.roundTrips(),
                    live.decayedRoundTrips(), live.meanMillis(), cell.meanMillis(), verdict.statistic(),
                    Double.isFinite(verdict.criticalValue()) ? verdict.criticalValue() : 0.0, verdict.drifting(), verdict.test(),
                    live.lastEpochMillis()));
            }));
        });
        drifts.sort(java.util.Comparator.comparing((ProfileCellDrift d) -> d.profile_name).thenComparing(d -> d.cpu_state)
            .thenComparing(d -> d.message_size_bytes));
        return drifts.toArray(new ProfileCellDrift[0]);
    }

    @Override
    public String learned_profile(final String profileName) throws InvalidArgument {
        metrics.called("learned_profile");
        final Profile base = profileName == null ? null : loop.engine().profiles().get(profileName);
        if (base == null) {
            throw new InvalidArgument(refusals.record("learned_profile", Refusal.BAD_VALUE,
                "no profile '" + profileName + "' is loaded; the loaded profiles are "
                + String.join(", ", new java.util.TreeSet<>(loop.engine().profiles().keySet()))));
        }
        try {
            return ProfileJson.toJson(LearnedProfiles.of(base, loop.engine().learnedCells().getOrDefault(profileName, java.util.Map.of())));
        } catch (IllegalArgumentException | IllegalStateException e) {
            throw new InvalidArgument(refusals.record("learned_profile", Refusal.BAD_VALUE,
                e.getMessage()));
        }
    }

    @Override
    public HistogramBins current_histogram(final short indexRef) throws UnknownConnection, EstimateUnavailable {
        metrics.called("current_histogram");
        return IdlConversions.bins(histogramOf(row("current_histogram", indexRef)).histogram());
    }

    // ---- engine events (update thread; must not block) -----------------------------------------

    @Override
    public void rowChanged(final ConnectionRow before, final ConnectionRow after) {
        if (after.estimate() != null && (!Objects.equals(before.estimate(), after.estimate())
            || before.updateRequired() != after.updateRequired()
            || !Objects.equals(before.staleReason(), after.staleReason())
            || !Objects.equals(before.load(), after.load()))) {
            estimateSubscribers.publish(after.spec().indexRef(),
                IdlConversions.estimate(after, after.estimate(), after.changedEpochMillis()));
        }
    }

    @Override
    public void measurementRequested(final ConnectionRow row) {
        measurementSubscribers.publish(row.spec().indexRef(), IdlConversions.request(row, row.spec().peerNodeName(), loop.engine().settings().warmupRoundTrips(),
            epochMillis.getAsLong()));
    }

    /** Stops delivery to every subscriber. */
    public void close() {
        estimateSubscribers.closeAll();
        measurementSubscribers.closeAll();
    }

    // ---- helpers -------------------------------------------------------------------------------

    private ConnectionRow row(final String operation, final short indexRef) throws UnknownConnection {
        final ConnectionRow row = table.row(indexRef);
        if (row == null) {
            throw new UnknownConnection(indexRef, refusals.record(operation, Refusal.UNKNOWN_CONNECTION,
                "no connection " + indexRef + " is configured"));
        }
        return row;
    }

    private Set<Short> known(final String operation, final short[] indexRefs) throws UnknownConnection {
        final Set<Short> refs = new HashSet<>();
        for (final short indexRef : indexRefs == null ? new short[0] : indexRefs) {
            row(operation, indexRef);
            refs.add(indexRef);
        }
        return refs;
    }

    private Profile profileOf(final ConnectionRow row) throws EstimateUnavailable {
        if (row.spec().profileName() == null) {
            throw new EstimateUnavailable(row.spec().indexRef(), "connection " + row.spec().indexRef() + " (QoS "
                + row.spec().qos() + ") has no profile configured");
        }
        final Profile profile = loop.engine().profiles().get(row.spec().profileName());
        if (profile == null) {
            throw new EstimateUnavailable(row.spec().indexRef(), "profile '" + row.spec().profileName() + "' is not loaded");
        }
        return profile;
    }

    private record Source(LatencyHistogram histogram, String basis) {
    }

    /** The histogram behind the connection's estimate: the measurement's (QoS 3/4) or the profile cell's. */
    private Source histogramOf(final ConnectionRow row) throws EstimateUnavailable {
        final short indexRef = row.spec().indexRef();
        if (row.spec().isMeasured()) {
            if (row.spec().isAdaptive()) {
                // The current load state's own last measurement; in a state never measured, the profile as for QoS 1/2.
                final Measurement own = row.currentKnowledge().lastMeasurement();
                if (own != null) {
                    return new Source(own.histogram(), "the last measurement of connection " + indexRef + " in its current load state");
                }
                if (row.spec().profileName() == null) {
                    throw new EstimateUnavailable(indexRef, "connection " + indexRef + " has not been measured in its current load"
                        + " state yet, and has no profile to fall back on");
                }
            } else if (row.measurement() == null) {
                throw new EstimateUnavailable(indexRef, "connection " + indexRef + " has not been measured yet");
            } else {
                return new Source(row.measurement().histogram(), "the last measurement of connection " + indexRef);
            }
        }
        if (!row.load().isKnown()) {
            throw new EstimateUnavailable(indexRef, "CPU state unknown: no profile cell applies");
        }
        final Profile profile = profileOf(row);
        final ProfileCell cell = profile.cell(row.load().cpu(), row.spec().messageSizeBytes()).orElseThrow(() ->
            new EstimateUnavailable(indexRef, "profile " + profile.name() + " has no cell for " + row.load().cpu().thesisLabel()
                + " at " + row.spec().messageSizeBytes() + " B"));
        if (!cell.hasHistogram()) {
            throw new EstimateUnavailable(indexRef, "profile " + profile.name()
                + " has no latency histograms (thesis Appendix A gives only averages and maxima)");
        }
        return new Source(cell.histogram(), "profile " + profile.name() + ", cell " + cell.label());
    }

    private BAD_PARAM badParam(final String operation, final Refusal why, final String reason) {
        return new BAD_PARAM(refusals.record(operation, why, reason), 0, CompletionStatus.COMPLETED_NO);
    }

    private NO_PERMISSION noPermission(final String operation, final WriteGuard.Denial denied) {
        return new NO_PERMISSION(refusals.record(operation, denied.why(), denied.reason()), 0, CompletionStatus.COMPLETED_NO);
    }
}
