package org.latencyserver.console;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.latencyserver.console.ConsoleSnapshot.CalibrationView;
import org.latencyserver.console.ConsoleSnapshot.ConnectionView;
import org.latencyserver.console.ConsoleSnapshot.EstimateView;
import org.latencyserver.console.ConsoleSnapshot.HistogramView;
import org.latencyserver.console.ConsoleSnapshot.Mib;
import org.latencyserver.console.ConsoleSnapshot.Pending;
import org.latencyserver.console.ConsoleSnapshot.ProfileCellView;
import org.latencyserver.console.ConsoleSnapshot.TimelinePoint;
import org.latencyserver.idl.LatservPackage.TableRow;
import org.latencyserver.idl.latency.ConfidenceInterval;
import org.latencyserver.idl.latency.ConnectionInfo;
import org.latencyserver.idl.latency.Estimate;
import org.latencyserver.idl.latency.EstimateKind;
import org.latencyserver.idl.latency.EstimateListener;
import org.latencyserver.idl.latency.EstimateUnavailable;
import org.latencyserver.idl.latency.HistogramBins;
import org.latencyserver.idl.latency.LatencyService;
import org.latencyserver.idl.latency.MeasurementRequest;
import org.latencyserver.idl.latency.PathHop;
import org.latencyserver.idl.latency.ProfileCellDrift;
import org.latencyserver.idl.latency.UnknownConnection;
import org.latencyserver.launch.agent.Agent;
import org.latencyserver.launch.agent.AgentRunner;
import org.latencyserver.launch.agent.DistinctErrorLog;
import org.latencyserver.launch.agent.NoIdleStrategy;
import org.latencyserver.orb.Backoff;
import org.latencyserver.orb.References;
import org.omg.CORBA.SystemException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the console's picture of the server current: reads the whole table every refresh period,
 * and at once when the server pushes an estimate change (the subscription wakes the refresh), so
 * the page follows a state change within milliseconds while pending ages and MIB values stay
 * current.
 *
 * <p>Threads: one refresh thread (an {@link Agent}) does every CORBA call and owns the timelines; readers take the
 * latest {@link ConsoleSnapshot} from an atomic reference. If the server stops answering, the last
 * good connections stay on show with "unreachable since", and the feed looks the server up again
 * with back-off and re-subscribes.
 */
final class ServerFeed implements SnapshotSource<ConsoleSnapshot>, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ServerFeed.class);
    private static final int TIMELINE_POINTS = 600;

    private final String serverName;
    private final Supplier<LatencyService> resolver;
    private final EstimateListener listener;
    private final long refreshMillis;
    private final LongSupplier epochMillis;
    private final AtomicReference<ConsoleSnapshot> latest;
    private final List<Consumer<ConsoleSnapshot>> observers = new CopyOnWriteArrayList<>();
    private final Semaphore wake = new Semaphore(0);
    private final Map<Integer, Deque<TimelinePoint>> timelines = new HashMap<>();
    private final AgentRunner thread;
    private LatencyService service;
    private boolean subscribed;
    /** Delays between tries while the server cannot be reached; the refreshing thread only. */
    private final Backoff backoff = new Backoff(500, 10_000);
    /** The wait after a refresh that failed, ms: the last back-off delay; the refreshing thread only. */
    private long retryDelayMillis = 500;

    /**
     * @param serverName    as the user gave it, for display
     * @param resolver      resolves and narrows the server (again after a failure)
     * @param listener      the console's own callback object, its servant calls {@link #poke()}; null for a feed only read
     *                      with {@link #refreshOnce()}, which never subscribes
     * @param refreshMillis the refresh period
     * @param epochMillis   the wall clock
     */
    ServerFeed(final String serverName, final Supplier<LatencyService> resolver, final EstimateListener listener,
               final long refreshMillis, final LongSupplier epochMillis) {
        this.serverName = serverName;
        this.resolver = resolver;
        this.listener = listener;
        this.refreshMillis = refreshMillis;
        this.epochMillis = epochMillis;
        this.latest = new AtomicReference<>(ConsoleSnapshot.empty(serverName));
        this.thread = new AgentRunner(new RefreshAgent(), NoIdleStrategy.INSTANCE, new DistinctErrorLog("console-refresh"),
            System::nanoTime, Duration.ofSeconds(5));
    }

    void start() {
        if (listener == null) {
            throw new IllegalStateException("a feed without a callback object is only read once (refreshOnce)");
        }
        thread.start();
    }

    /** @return the latest snapshot; never null */
    @Override
    public ConsoleSnapshot snapshot() {
        return latest.get();
    }

    /** Each new snapshot is handed to the observer, on the refresh thread; it must not block. */
    @Override
    public void observe(final Consumer<ConsoleSnapshot> observer) {
        observers.add(observer);
    }

    /** Refresh now: the server pushed a change. Thread-safe; called on ORB threads. */
    void poke() {
        wake.release();
    }

    /**
     * Refreshes once on the caller's thread (for {@code --once}).
     *
     * @return the snapshot
     */
    ConsoleSnapshot refreshOnce() {
        refresh(false);
        return latest.get();
    }

    /** The refresh thread's duty cycle: each round refreshes once, then waits its period or for a push's poke. */
    private final class RefreshAgent implements Agent {

        @Override
        public int doWork(final long nowNanos) throws InterruptedException {
            final boolean ok = refresh(true);
            final long waitMillis = ok ? refreshMillis : retryDelayMillis;
            if (wake.tryAcquire(waitMillis, TimeUnit.MILLISECONDS)) {
                wake.drainPermits(); // several pushes at once: one refresh serves them all
            }
            return 1;
        }

        @Override
        public String roleName() {
            return "console-refresh";
        }

        @Override
        public boolean wakesByInterrupt() {
            return true; // ends the wait between refreshes
        }
    }

    private boolean refresh(final boolean subscribe) {
        final long nowMillis = epochMillis.getAsLong();
        final ConsoleSnapshot previous = latest.get();
        try {
            if (service == null) {
                service = resolver.get();
            }
            if (subscribe && !subscribed) {
                service.subscribe(listener, new short[0]);
                subscribed = true;
            }
            final Rows rows = rows(nowMillis);
            List<ProfileCellView> profileCells = List.of();
            String profileCellsUnavailable = "";
            try {
                profileCells = profileCells(service.profile_drift());
            } catch (org.omg.CORBA.BAD_OPERATION | org.omg.CORBA.NO_IMPLEMENT e) {
                profileCellsUnavailable = "this server does not learn profiles from live probes (no profile_drift)";
            }
            if (!previous.reachable() && previous.updatedEpochMillis() > 0) {
                LOG.info("the server {} answers again", serverName);
            }
            final ConsoleSnapshot.PairView pair = pair();
            backoff.reset();
            publish(new ConsoleSnapshot(serverName, true, rows.problem(), 0, nowMillis, rows.views(), profileCells,
                profileCellsUnavailable, pair));
            return true;
        } catch (SystemException | References.ReferenceException e) {
            service = null;
            subscribed = false;
            final long since = previous.reachable() || previous.unreachableSinceEpochMillis() == 0 ? nowMillis
                : previous.unreachableSinceEpochMillis();
            if (previous.reachable() || previous.updatedEpochMillis() == 0) {
                LOG.warn("the server {} cannot be reached: {}; retrying with back-off", serverName, describe(e));
            }
            retryDelayMillis = backoff.nextDelayMillis();
            publish(new ConsoleSnapshot(serverName, false, "server unreachable: " + describe(e), since, nowMillis,
                previous.connections(), previous.profileCells(), previous.profileCellsUnavailable(), previous.pair()));
            return false;
        } catch (org.latencyserver.idl.latency.InvalidArgument e) {
            LOG.error("the server refused the subscription: {}", e.reason);
            return false;
        } catch (UnknownConnection e) {
            LOG.error("the server refused the subscription: {}", e.reason);
            return false;
        }
    }

    /** @return the server's pair status; null from a server without {@code pair_status} */
    private ConsoleSnapshot.PairView pair() {
        try {
            final org.latencyserver.idl.latency.PairStatus status = service.pair_status();
            return ConsoleSnapshot.PairView.of(status.role, status.writes_protected, status.members, status.unprotected_writes);
        } catch (org.omg.CORBA.BAD_OPERATION | org.omg.CORBA.NO_IMPLEMENT e) {
            return null;
        }
    }

    /** The connections' rows of one refresh, and what could not be shown of them ("" when nothing). */
    private record Rows(List<ConnectionView> views, String problem) {
    }

    /** Reads every connection, its open request and (when the console may) its MIB values. */
    private Rows rows(final long nowMillis) {
        final Map<Integer, MeasurementRequest> pending = new HashMap<>();
        for (final MeasurementRequest request : service.pending_measurements()) {
            pending.put((int) request.index_ref, request);
        }
        final List<ConnectionView> views = new ArrayList<>();
        String problem = "";
        boolean tableAllowed = true;
        for (final ConnectionInfo info : service.list_connections()) {
            TableRow row = null;
            try {
                row = tableAllowed ? service.RequestTableStatus(info.index_ref) : null;
            } catch (org.omg.CORBA.BAD_PARAM | org.omg.CORBA.NO_PERMISSION e) {
                // Refused once, refused for every row: ask no more in this refresh.
                tableAllowed = false;
                problem = "RequestTableStatus is refused (it is an operator call: switched off, or the console has no operator"
                    + " certificate, --tls-keystore): MIB values not shown";
            }
            views.add(view(info, row, pending.get((int) info.index_ref), nowMillis));
        }
        return new Rows(List.copyOf(views), problem);
    }

    private void publish(final ConsoleSnapshot snapshot) {
        latest.set(snapshot);
        for (final Consumer<ConsoleSnapshot> observer : observers) {
            observer.accept(snapshot);
        }
    }

    private ConnectionView view(final ConnectionInfo info, final TableRow row, final MeasurementRequest request,
                                final long nowMillis) {
        final short indexRef = info.index_ref;
        EstimateView estimate = null;
        String unavailable = "";
        try {
            estimate = estimate(service.current_estimate(indexRef), nowMillis);
        } catch (EstimateUnavailable e) {
            unavailable = e.reason;
        } catch (UnknownConnection e) {
            unavailable = e.reason;
        }
        CalibrationView calibration = null;
        try {
            calibration = Calibrations.view(service.calibration(indexRef), info.cpu_state, info.port_state);
        } catch (UnknownConnection | org.omg.CORBA.BAD_PARAM | org.omg.CORBA.NO_PERMISSION e) {
            calibration = null;
        }
        HistogramView histogram = null;
        String histogramUnavailable = "";
        try {
            histogram = histogram(service.current_histogram(indexRef));
        } catch (EstimateUnavailable e) {
            histogramUnavailable = e.reason;
        } catch (UnknownConnection e) {
            histogramUnavailable = e.reason;
        }
        final Mib mib = row == null ? new Mib(-1, -1, -1, -1, -1, -1) : new Mib(row.latest_client_mib_cpu,
            row.latest_peer_mib_cpu, row.latest_mib_port, row.previous_client_mib_cpu, row.previous_peer_mib_cpu,
            row.previous_mib_port);
        final Pending pending = request == null ? null : new Pending(request.ticket, request.issued_epoch_millis,
            Math.max(0, nowMillis - request.issued_epoch_millis), request.round_trips,
            request.reason == null ? "" : request.reason);
        return new ConnectionView(indexRef, info.client_node_name, info.peer_node_name, info.client_workstation_type,
            info.peer_workstation_type, info.client_workstation_type_name,
            info.peer_workstation_type_name, info.message_size_bytes, info.quality, Words.qos(info.quality, info.bound_percent),
            info.bound_percent, info.profile_name, info.probe_rate_per_second, info.calibration_mode, info.cpu_state,
            Words.cpuState(info.cpu_state), info.port_state, Words.portState(info.port_state), mib,
            Words.hysteresis(info.cpu_state, mib.clientCpu(), mib.peerCpu(), info.port_state, mib.port()),
            row == null ? -1 : row.server_acknowledges_client, row == null ? -1 : row.update_required_flag,
            row == null ? -1 : row.latency_data_provided, row == null ? 0 : row.latency_avg, row == null ? 0 : row.latency_bound,
            estimate, unavailable, pending, info.stale, info.stale_reason, calibration, histogram, histogramUnavailable,
            timeline(indexRef, estimate), hops(info.hops), info.path_bound);
    }

    private static List<ConsoleSnapshot.HopView> hops(final PathHop[] hops) {
        final List<ConsoleSnapshot.HopView> views = new ArrayList<>(hops.length);
        for (final PathHop hop : hops) {
            views.add(new ConsoleSnapshot.HopView(hop.link_name, hop.port_state, Words.portState(hop.port_state), hop.port_percent));
        }
        return List.copyOf(views);
    }

    private List<TimelinePoint> timeline(final int indexRef, final EstimateView estimate) {
        final Deque<TimelinePoint> points = timelines.computeIfAbsent(indexRef, k -> new ArrayDeque<>());
        if (estimate != null) {
            final TimelinePoint last = points.peekLast();
            if (last == null || last.epochMillis() != estimate.computedEpochMillis() || last.valueMillis() != estimate.valueMillis()) {
                points.addLast(new TimelinePoint(estimate.computedEpochMillis(), estimate.valueMillis(), estimate.lower(),
                    estimate.upper(), estimate.unit()));
                if (points.size() > TIMELINE_POINTS) {
                    points.removeFirst();
                }
            }
        }
        return List.copyOf(points);
    }

    private static EstimateView estimate(final Estimate e, final long nowMillis) {
        final List<String> alternatives = new ArrayList<>();
        for (final ConfidenceInterval alternative : e.alternatives) {
            alternatives.add(String.format(java.util.Locale.ROOT, "%s: %.4f–%.4f %s", alternative.method, alternative.lower,
                alternative.upper, alternative.unit));
        }
        return new EstimateView(e.kind == EstimateKind.BOUND ? "BOUND" : "AVERAGE", e.value_ms, e.bound_percent,
            e.interval.lower, e.interval.upper, e.interval.unit, e.interval.method, List.copyOf(alternatives), e.basis,
            List.of(e.notes), e.update_pending, e.interpolated, e.computed_epoch_millis, e.thesis_value_ms, e.correction,
            e.source, e.data_epoch_millis, Words.source(e.source, e.data_epoch_millis, nowMillis),
            Words.sourceExplanation(e.source), Words.sourceElsewhere(e.source), e.path_bound_method, e.union_bound_ms,
            e.independent_bound_ms);
    }

    private static List<ProfileCellView> profileCells(final ProfileCellDrift[] drifts) {
        final List<ProfileCellView> cells = new ArrayList<>(drifts.length);
        for (final ProfileCellDrift d : drifts) {
            cells.add(new ProfileCellView(d.profile_name, d.cpu_state, Words.cpuState(d.cpu_state), d.message_size_bytes,
                d.live_round_trips, d.live_weight, d.weight_to_flag, d.live_mean_ms, d.profile_mean_ms, d.statistic, d.critical_value,
                d.drifting, ProfileCellView.verdict(d.drifting, d.statistic, d.critical_value), d.test, d.last_epoch_millis));
        }
        return List.copyOf(cells);
    }

    private static HistogramView histogram(final HistogramBins bins) {
        final double[] edges = new double[bins.upper_edges_ns.length];
        long total = bins.overflow;
        for (int i = 0; i < edges.length; i++) {
            edges[i] = bins.upper_edges_ns[i] / 1e6;
            total += bins.counts[i];
        }
        return new HistogramView(edges, bins.counts.clone(), bins.overflow, total);
    }

    private static String describe(final Exception e) {
        if (e instanceof SystemException) {
            return e.getClass().getSimpleName();
        }
        return e.getMessage();
    }

    @Override
    public void close() {
        thread.close();
    }
}
