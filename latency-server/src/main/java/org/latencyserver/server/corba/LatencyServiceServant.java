package org.latencyserver.server.corba;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.LongSupplier;
import org.latencyserver.core.calibration.LearnedCell;
import org.latencyserver.core.profile.Profile;
import org.latencyserver.core.profile.ProfileJson;
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
import org.latencyserver.idl.latency.PairStatus;
import org.latencyserver.idl.latency.ProbeReport;
import org.latencyserver.idl.latency.ProfileCellDrift;
import org.latencyserver.idl.latency.ProfileRejected;
import org.latencyserver.idl.latency.ProfileSummary;
import org.latencyserver.idl.latency.ResultRefused;
import org.latencyserver.idl.latency.TrafficShape;
import org.latencyserver.idl.latency.UnknownConnection;
import org.latencyserver.server.engine.EngineListener;
import org.latencyserver.server.engine.EngineLoop;
import org.latencyserver.server.engine.EngineProxy;
import org.latencyserver.server.engine.EngineQuery;
import org.latencyserver.server.engine.ProfileInstaller;
import org.latencyserver.server.engine.Refusal;
import org.latencyserver.server.engine.SubmitOutcome;
import org.latencyserver.server.metrics.Operation;
import org.latencyserver.server.metrics.ServerMetrics;
import org.latencyserver.server.metrics.SubscriberCounts;
import org.latencyserver.server.table.ConnectionRow;

/**
 * The CORBA face of the server: the thesis's {@code Latserv} operations with their semantics,
 * and the extended {@code LatencyService}. It maps IDL to the domain and back, and nothing more:
 * reads come from the published state through an {@link EngineQuery} (a connection's estimates through
 * {@link ConnectionReads}), engine events reach subscribers through {@link Subscriptions} (opened by
 * {@link SubscribeCalls}), and every write takes one path,
 * {@link WriteCalls}, with its checks and its command from {@link ThesisWrites}, {@link AgentWrites}
 * or {@link ProfileLoads}.
 *
 * <p>Reads ({@code RequestStatus}, {@code RequestTableStatus}, the extended getters) take the
 * published row: no locks, no waiting on the update thread. Writes ({@code PutMibUpdates},
 * results, profile loads) are answered when the update thread has applied them and the state file
 * holds them, so a caller that reads after writing sees its write, and a server killed after
 * answering still has it when restarted. A write the update thread did not take in time is
 * cancelled and answered with CORBA {@code TRANSIENT} (completed: no; it is not applied later),
 * so the caller may send it again.
 *
 * <p>Bad input is refused with a reason, a {@link Refusal} counted by its kind: IDL exceptions in the
 * extended interface; in the thesis's operations, which declare none, a CORBA {@code BAD_PARAM} or
 * {@code NO_PERMISSION} (the reason is also logged, since system exceptions carry no text to the
 * client); see {@link IdlRefusals}.
 *
 * <p>Thread-safe: called on the ORB's request threads.
 */
public final class LatencyServiceServant implements LatencyServiceOperations {

    private final EngineQuery query;
    private final Subscriptions subscriptions;
    private final LongSupplier epochMillis;
    private final WriteGuard guard;
    private final ServerMetrics metrics;
    private final Refusals refusals;
    private final WriteCalls writes;
    private final ThesisWrites thesisWrites;
    private final AgentWrites agentWrites;
    private final ProfileLoads profileLoads;
    private final ConnectionReads reads;
    private final SubscribeCalls subscribeCalls;
    /** The pair's counters, read at each {@code pair_status}; set once at launch, before the servant is activated. */
    private volatile java.util.function.Supplier<org.latencyserver.server.standby.StandbyCounters> pairCounters =
        () -> org.latencyserver.server.standby.StandbyCounters.WITHOUT_STANDBY;

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
        this(loop, epochMillis, guard, metrics, profileKeeper, stateSaver, Subscriptions.DEFAULT_CHECK_INTERVAL_MILLIS);
    }

    /**
     * @param loop                          the update thread
     * @param epochMillis                   wall clock for timestamps
     * @param guard                         who may write what
     * @param metrics                       where calls and refusals are counted
     * @param profileKeeper                 keeps a profile loaded by {@code load_profile} for the next start
     * @param stateSaver                    puts an applied write on disk before it is answered
     * @param subscriberCheckIntervalMillis how often each subscriber's listener is asked whether it still exists, ms
     */
    public LatencyServiceServant(final EngineLoop loop, final LongSupplier epochMillis, final WriteGuard guard,
                                 final ServerMetrics metrics, final ProfileInstaller.ProfileKeeper profileKeeper,
                                 final StateSaver stateSaver, final long subscriberCheckIntervalMillis) {
        this.metrics = metrics;
        this.refusals = new Refusals(metrics);
        this.guard = Objects.requireNonNull(guard, "guard");
        final EngineProxy engine = new EngineProxy(loop);
        this.query = loop.query();
        this.subscriptions = new Subscriptions(query, epochMillis, query.limits().maxSubscriptionsPerCaller(),
            subscriberCheckIntervalMillis);
        this.epochMillis = epochMillis;
        this.writes = new WriteCalls(engine, metrics, refusals, Objects.requireNonNull(stateSaver, "stateSaver"));
        this.thesisWrites = new ThesisWrites(query, guard);
        this.agentWrites = new AgentWrites(query, guard);
        this.profileLoads = new ProfileLoads(query, guard, new ProfileInstaller(engine, profileKeeper));
        this.reads = new ConnectionReads(query, epochMillis, metrics, refusals);
        this.subscribeCalls = new SubscribeCalls(subscriptions, reads, this.guard, metrics, refusals);
    }

    /** Puts applied writes on disk before they are answered (see {@code persistence.StateStore#awaitSaved}). */
    @FunctionalInterface
    public interface StateSaver {
        /**
         * @param timeoutMillis how long to wait at most
         * @return false when saving failed (the saver logs why) or timed out; the write stays applied
         */
        boolean awaitSaved(long timeoutMillis);

        /**
         * Called before a write is applied: refuses it, unapplied, when this server may not acknowledge writes now (a
         * pair's server that waits out its takeover's fence, or whose lease ran out).
         *
         * @throws org.omg.CORBA.TRANSIENT {@code COMPLETED_NO}: not applied, send it again to the primary
         */
        default void admitWrite() {
        }
    }

    /** @return what the update engine must tell of its changes (estimate and request subscribers) */
    public EngineListener engineListener() {
        return subscriptions;
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
        final Refusal refusal = writes.run(thesisWrites.updateResponse(baseline, clientRef)).refusal();
        if (refusal != null) {
            throw IdlRefusals.thesis(refusal);
        }
    }

    @Override
    public void PutMibUpdates(final IdlMibUpdates updates, final short clientRef) {
        final Refusal refusal = writes.run(thesisWrites.mibUpdates(updates, clientRef)).refusal();
        if (refusal != null) {
            throw IdlRefusals.thesis(refusal);
        }
    }

    @Override
    public TableRow RequestTableStatus(final short clientRef) {
        final Operation operation = Operation.REQUEST_TABLE_STATUS;
        metrics.called(operation);
        final Optional<Refusal> denied = guard.operator(operation);
        if (denied.isPresent()) {
            throw IdlRefusals.thesis(refusals.record(operation, denied.get()));
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
        return reads.currentEstimate(indexRef);
    }

    @Override
    public Estimate estimate_at_percentile(final short indexRef, final double percentile)
        throws UnknownConnection, InvalidArgument, EstimateUnavailable {
        return reads.atPercentile(indexRef, percentile);
    }

    @Override
    public DeadlineMiss deadline_miss_probability(final short indexRef, final double deadlineMillis)
        throws UnknownConnection, InvalidArgument, EstimateUnavailable {
        return reads.deadlineMiss(indexRef, deadlineMillis);
    }

    @Override
    public Estimate estimate_for_size(final short indexRef, final int messageSizeBytes)
        throws UnknownConnection, InvalidArgument, EstimateUnavailable {
        return reads.forSize(indexRef, messageSizeBytes);
    }

    @Override
    public long subscribe(final EstimateListener listener, final short[] indexRefs) throws UnknownConnection, InvalidArgument {
        return subscribeCalls.subscribe(listener, indexRefs);
    }

    @Override
    public void unsubscribe(final long subscriptionId) {
        subscribeCalls.unsubscribe(subscriptionId);
    }

    @Override
    public long subscribe_measurements(final MeasurementListener listener, final short[] indexRefs)
        throws UnknownConnection, InvalidArgument, OperationDisabled {
        return subscribeCalls.subscribeMeasurements(listener, indexRefs);
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
        final WriteCalls.Written<AgentWrites.CheckedResult, SubmitOutcome> written = writes.run(agentWrites.measurement(result));
        if (written.isRefused()) {
            IdlRefusals.throwForResult(Operation.SUBMIT_MEASUREMENT, written.refusal(), result == null ? 0 : result.index_ref,
                result == null ? 0 : result.ticket);
        }
        metrics.roundTrips(result.index_ref, written.input().measurement().histogram());
    }

    @Override
    public void submit_probe(final ProbeReport report) throws UnknownConnection, ResultRefused, OperationDisabled {
        final WriteCalls.Written<AgentWrites.CheckedProbe, SubmitOutcome> written = writes.run(agentWrites.probe(report));
        if (written.isRefused()) {
            IdlRefusals.throwForResult(Operation.SUBMIT_PROBE, written.refusal(), report == null ? 0 : report.index_ref, 0);
        }
        metrics.roundTrips(report.index_ref, written.input().roundTrips());
    }

    @Override
    public ProfileSummary load_profile(final String profileJson, final String sourceName)
        throws ProfileRejected, OperationDisabled {
        final WriteCalls.Written<ProfileLoads.CheckedProfile, ProfileInstaller.Installed> written =
            writes.run(profileLoads.load(profileJson, sourceName));
        if (written.isRefused()) {
            IdlRefusals.throwForProfile(written.refusal());
        }
        return IdlConversions.profileSummary(written.input().profile());
    }

    @Override
    public ProfileSummary[] list_profiles() {
        metrics.called(Operation.LIST_PROFILES);
        return query.profiles().values().stream().sorted((a, b) -> a.name().compareTo(b.name()))
            .map(IdlConversions::profileSummary).toArray(ProfileSummary[]::new);
    }

    @Override
    public Calibration calibration(final short indexRef) throws UnknownConnection {
        return reads.calibration(indexRef);
    }

    @Override
    public ProfileCellDrift[] profile_drift() {
        metrics.called(Operation.PROFILE_DRIFT);
        return query.profileDrifts().stream().map(d -> new ProfileCellDrift(d.profileName(), (short) d.key().cpuStates().code(),
            d.key().messageSizeBytes(), d.live().roundTrips(), d.live().decayedRoundTrips(), d.live().meanMillis(),
            d.cell().meanMillis(), d.verdict().statistic(),
            Double.isFinite(d.verdict().criticalValue()) ? d.verdict().criticalValue() : 0.0, LearnedCell.MIN_ROUND_TRIPS_FOR_TEST,
            d.verdict().drifting(),
            d.verdict().test(), d.live().lastEpochMillis())).toArray(ProfileCellDrift[]::new);
    }

    @Override
    public String learned_profile(final String profileName) throws InvalidArgument {
        final Operation operation = Operation.LEARNED_PROFILE;
        metrics.called(operation);
        final Profile learned = query.learnedProfile(profileName)
            .orElseThrow(reason -> reads.badArgument(operation, reason));
        return ProfileJson.toJson(learned);
    }

    @Override
    public HistogramBins current_histogram(final short indexRef) throws UnknownConnection, EstimateUnavailable {
        return reads.histogram(indexRef);
    }

    @Override
    public PairStatus pair_status() {
        metrics.called(Operation.PAIR_STATUS);
        return PairStatusView.of(pairCounters.get());
    }

    @Override
    public Estimate estimate_for_traffic(final short indexRef, final TrafficShape traffic)
        throws UnknownConnection, InvalidArgument, EstimateUnavailable {
        return reads.forTraffic(indexRef, traffic);
    }

    /**
     * @param counters the hot standby's counters, read at each {@code pair_status} (any thread); without a call, the
     *                 server answers as one without {@code server.standby}
     */
    public void pairCounters(final java.util.function.Supplier<org.latencyserver.server.standby.StandbyCounters> counters) {
        this.pairCounters = Objects.requireNonNull(counters, "counters");
    }

    /** @return the subscribers now and those the server dropped since start (for {@link ServerMetrics#registerSubscribers}) */
    public SubscriberCounts subscriberCounts() {
        return subscriptions.counts();
    }

    /** Stops delivery to every subscriber. */
    public void close() {
        subscriptions.closeAll();
    }
}
