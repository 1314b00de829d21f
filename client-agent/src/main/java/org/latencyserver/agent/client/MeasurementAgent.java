package org.latencyserver.agent.client;

import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.latencyserver.agent.measure.DeadlineExceededException;
import org.latencyserver.agent.measure.RoundTripRunner;
import org.latencyserver.agent.measure.RunResult;
import org.latencyserver.idl.latency.LatencyService;
import org.latencyserver.idl.latency.MeasurementListener;
import org.latencyserver.idl.latency.MeasurementRequest;
import org.latencyserver.idl.latency.OperationDisabled;
import org.latencyserver.idl.latency.UnknownConnection;
import org.latencyserver.launch.agent.Agent;
import org.latencyserver.launch.agent.AgentRunner;
import org.latencyserver.launch.agent.DistinctErrorLog;
import org.latencyserver.launch.agent.NoIdleStrategy;
import org.latencyserver.launch.agent.SleepingIdleStrategy;
import org.latencyserver.orb.Backoff;
import org.latencyserver.orb.References;
import org.latencyserver.orb.TlsPinning;
import org.omg.CORBA.SystemException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The client agent's work: learn of measurement requests (pushed by the server, and polled every
 * few seconds as the thesis's agents did, in case a push was lost), run each request's round trips
 * against its peer agent, and submit the histogram with the request's ticket.
 *
 * <p>Failures are survived, never half-reported: a peer that fails is retried with back-off until
 * the request's deadline (then the server re-issues it with a new ticket); a server that goes away
 * is looked up again with back-off and re-subscribed; a result is one {@code submit_measurement}
 * call, so the server has all of it or none.
 *
 * <p>Threads: a control thread (subscribe, poll) and one measuring thread, so that two
 * measurements of this agent never disturb each other; each is an {@link Agent} on its own
 * {@link AgentRunner} (one round: one contact with the server and its wait; one request taken and
 * measured, or half a second without one). Requests pass between them through a
 * queue; a ticket is taken once ({@link RequestIntake}). {@link #measuringNow()} tells the prober
 * (another thread) when a measurement runs, so that probes keep off it.
 *
 * <p>Deadlines are local: a request's receipt time on this JVM's monotonic clock plus its
 * {@code remaining_millis}. The server's epoch times are never compared with this workstation's
 * wall clock, which need not agree with the server's.
 *
 * <p>The decisions are made by classes without calls, threads or clocks of their own, each unit
 * tested with made-up instants: {@link RequestIntake} (which request to take, and its deadline),
 * {@link ServerContact} (subscribe, poll, back off, what to say) and {@link WarmupBudget} (how
 * long to warm a path before a deadline). This class makes the calls and waits; a result's submission, with its
 * retries, is {@link ResultSubmission}'s.
 */
public final class MeasurementAgent implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(MeasurementAgent.class);

    /** Nodes already warned about: requests without a ticket are reported once per node. */
    private final java.util.Set<String> ticketlessWarned = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private final ServerConnection server;
    private final PeerDirectory peers;
    private final AgentSettings settings;
    private final MeasurementListener listener;
    private final RequestIntake intake;
    /** Measurements refused because a peer was not the pinned one (--pin-peers); measuring thread writes. */
    private final PinRefusals pinRefusals = new PinRefusals();
    /** Kept free before a request's deadline for submitting a run its time budget ended, ns. */
    static final long SUBMIT_MARGIN_NANOS = 1_000_000_000L;
    /** What each path is warmed before it is measured; measuring thread only. */
    private final WarmupBudget warmup;
    /** The monotonic clock, ns, that request deadlines and warm-ups are on. */
    private final LongSupplier nanoTime;
    /** How long close waits for each thread. */
    private static final Duration CLOSE_WAIT = Duration.ofSeconds(5);
    /** After a control round that failed unexpectedly, the pause before the next. */
    private static final Duration CONTROL_FAILURE_PAUSE = Duration.ofMillis(500);
    private final AgentRunner control;
    /** Submits a run's result; measuring thread only. */
    private final ResultSubmission submission;
    private final AgentRunner measuring;
    /** False once {@link #close} began: the loops of a measurement and a submit end at their next look. */
    private volatile boolean running = true;
    /** Set by the measuring thread for the whole of a request (warm-up, run, submit); read by the prober. */
    private volatile boolean measuringNow;

    /**
     * @param server      the Latency Server
     * @param peers       where peer agents are found
     * @param settings    what to measure
     * @param listener    this agent's callback object, already activated in its POA; its servant
     *                    hands requests to {@link #offer}
     * @param nanoTime    the monotonic clock, ns ({@code System::nanoTime}; the round-trip runner
     *                    compares deadlines with {@link System#nanoTime()}): request deadlines are
     *                    the receipt time on it plus the request's remaining time
     */
    MeasurementAgent(final ServerConnection server, final PeerDirectory peers, final AgentSettings settings,
                     final MeasurementListener listener, final LongSupplier nanoTime) {
        this.server = server;
        this.peers = peers;
        this.settings = settings;
        this.listener = listener;
        this.intake = new RequestIntake(settings::measuresFor, nanoTime);
        this.warmup = new WarmupBudget(settings.jitWarmupNanos());
        this.nanoTime = nanoTime;
        this.submission = new ResultSubmission(server, intake, settings.agentName(), () -> running, this::sleep);
        this.control = new AgentRunner(new ControlAgent(), new SleepingIdleStrategy(CONTROL_FAILURE_PAUSE),
            new DistinctErrorLog("agent-control"), System::nanoTime, CLOSE_WAIT);
        this.measuring = new AgentRunner(new MeasuringAgent(), NoIdleStrategy.INSTANCE,
            new DistinctErrorLog("agent-measuring"), System::nanoTime, CLOSE_WAIT);
    }

    void start() {
        control.start();
        measuring.start();
    }

    /**
     * Takes a request (pushed or polled). Ignored when it is for another node's agent, already
     * taken, or past its deadline. Thread-safe; called from ORB threads.
     *
     * @param request the request
     */
    void offer(final MeasurementRequest request) {
        // A server that authenticates writers shows the ticket only to the node's own agent
        // (by its certificate): this agent is not it, so the request is not its to measure.
        if (intake.offer(request) == RequestIntake.Decision.NO_TICKET && ticketlessWarned.add(request.client_node_name)) {
            LOG.warn("requests for node {} come without a ticket: this agent's certificate (--tls-keystore) is not that"
                + " node's agent on the server; it leaves them alone", request.client_node_name);
        }
    }

    /** The control thread: each round one contact with the server (subscribe when needed, poll), then its wait. */
    private final class ControlAgent implements Agent {

        private final ServerContact contact = new ServerContact(settings.pollIntervalMillis(), new Backoff(500, 10_000));

        @Override
        public int doWork(final long nowNanos) {
            contactServer(contact);
            return 1;
        }

        @Override
        public String roleName() {
            return "agent-control";
        }

        @Override
        public boolean wakesByInterrupt() {
            return true; // ends the wait between contacts
        }
    }

    private void contactServer(final ServerContact contact) {
        try {
            final LatencyService service = server.get();
            if (contact.needsSubscribing()) {
                try {
                    final long earlier = contact.subscribed(service.subscribe_measurements(listener, new short[0]));
                    if (earlier != 0) {
                        cancel(service, earlier);
                    }
                    LOG.info("subscribed to measurement requests");
                } catch (org.latencyserver.idl.latency.UnknownConnection | org.latencyserver.idl.latency.InvalidArgument
                         | OperationDisabled e) {
                    if (contact.subscriptionRefused()) {
                        LOG.error("the server refused the subscription ({}); polling its open requests every {} ms instead",
                            e, settings.pollIntervalMillis());
                    }
                }
            }
            for (final MeasurementRequest request : service.pending_measurements()) {
                offer(request);
            }
            final ServerContact.Next next = contact.answered();
            if (next.answersAgain()) {
                LOG.info("the server answers again");
            }
            intake.forgetExpiredTickets();
            sleep(next.waitMillis());
        } catch (SystemException | References.ReferenceException e) {
            server.invalidate();
            final ServerContact.Next next = contact.unreachable();
            if (next.outageBegins()) {
                LOG.warn("the server cannot be reached ({}); retrying with back-off", describe(e));
            } else {
                LOG.debug("server still unreachable ({}); next try in {} ms", describe(e), next.waitMillis());
            }
            sleep(next.waitMillis());
        }
    }

    private static void cancel(final LatencyService service, final long subscriptionId) {
        try {
            service.unsubscribe(subscriptionId);
        } catch (SystemException e) {
            LOG.debug("the old subscription {} could not be cancelled: {}", subscriptionId, describe(e));
        }
    }

    /** The measuring thread: each round takes the next request (waiting half a second at most) and measures it. */
    private final class MeasuringAgent implements Agent {

        @Override
        public int doWork(final long nowNanos) throws InterruptedException {
            final ReceivedRequest request = intake.next(500, TimeUnit.MILLISECONDS);
            if (request == null) {
                return 0;
            }
            // Set for the whole request, warm-up included: a probe between warm-up round trips
            // would be timed on a path kept busy by them, and would delay the run's own.
            measuringNow = true;
            try {
                measure(request);
            } finally {
                measuringNow = false;
            }
            return 1;
        }

        @Override
        public String roleName() {
            return "agent-measuring";
        }

        @Override
        public boolean wakesByInterrupt() {
            return true; // ends the wait for a request, and a measurement's waits
        }
    }

    /**
     * Whether this agent is running a measurement now. The prober reads it before each send and
     * skips the send while it is true: a probe round trip would disturb the measurement and be
     * disturbed by it. A probe already in flight when a measurement starts ends during the
     * measurement's first, unrecorded round trips (the echo check and the warm-up). Thread-safe (volatile).
     *
     * @return true from taking a request until its result is submitted or given up
     */
    boolean measuringNow() {
        return measuringNow;
    }

    private void measure(final ReceivedRequest received) {
        final MeasurementRequest request = received.request();
        final String what = String.format(Locale.ROOT, "connection %d ticket %d (%s -> %s, %d B)", request.index_ref,
            request.ticket, request.client_node_name, request.peer_node_name, request.message_size_bytes);
        if (intake.expired(received)) {
            LOG.warn("{}: expired while waiting behind other measurements; the server re-issues it", what);
            return;
        }
        final RequestTraffic traffic = RequestTraffic.of(request);
        if (!traffic.problem().isEmpty()) {
            LOG.warn("{}: {}; measured as the classic run (one burst, arrays)", what, traffic.problem());
        }
        LOG.info("{}: measuring {} round trips after {} warm-up in {}{}", what, request.round_trips, request.warmup_round_trips,
            traffic.describe(), request.reason == null || request.reason.isEmpty() ? "" : " (" + request.reason + ")");
        final Backoff backoff = new Backoff(500, 5_000);
        while (running && !intake.expired(received)) {
            final RunResult result;
            try {
                final RoundTripRunner runner = new RoundTripRunner(peers.peer(request.peer_node_name), request.message_size_bytes,
                    traffic.call());
                final long deadlineNanos = received.deadlineNanos();
                final long intervalNanos = intervalNanos(request, traffic);
                if (warmUp(runner, request, intervalNanos, deadlineNanos) && !stillOpen(request)) {
                    LOG.info("{}: superseded while the path warmed up (the state changed again); not measured", what);
                    return;
                }
                final long stopNanos = received.timeBudgetEndNanos(nanoTime.getAsLong(), SUBMIT_MARGIN_NANOS);
                final int minRecorded = Math.max(1, Math.min(request.round_trips, request.min_round_trips));
                result = runner.run(request.warmup_round_trips, request.round_trips, settings.adaptive(), deadlineNanos,
                    intervalNanos, stopNanos, minRecorded, traffic.burstRoundTrips(), traffic.pauseNanos());
            } catch (SystemException | References.ReferenceException | IllegalStateException e) {
                peers.forget(request.peer_node_name);
                if (e instanceof SystemException system && peers.pinning() && TlsPinning.isRefusal(system)) {
                    refusePinned(what, request, system);
                    return;
                }
                final long delayMillis = intake.retryDelayMillis(received, backoff.nextDelayMillis());
                LOG.warn("{}: peer {} failed: {}; retrying in {} ms (deadline in {} s)", what, request.peer_node_name,
                    describe(e), delayMillis, intake.remainingMillis(received) / 1000);
                sleep(delayMillis);
                continue;
            } catch (DeadlineExceededException e) {
                LOG.warn("{}: abandoned: {}; the server re-issues it with a new ticket", what, e.getMessage());
                return;
            } catch (Exception e) {
                LOG.error("{}: measurement failed: {}", what, describe(e));
                return;
            }
            submission.submit(what, received, result);
            return;
        }
        if (running) {
            LOG.warn("{}: gave up at the request's deadline; the server re-issues it with a new ticket", what);
        }
    }

    /**
     * A peer that is not the pinned one, or not over TLS: the measurement is not made (nothing it answered is
     * recorded) and not retried; the server re-issues it after its deadline, when the peer is looked up again.
     * Logged at a peer's first refusal and then at most once a minute per peer.
     */
    private void refusePinned(final String what, final MeasurementRequest request, final SystemException refusal) {
        final long unlogged = pinRefusals.refused(request.peer_node_name, nanoTime.getAsLong());
        if (unlogged >= 0) {
            // JacORB's own refusal (minor 0): the reference offers no IIOP/TLS address to call.
            final String why = refusal.minor == TlsPinning.REFUSED_MINOR ? refusal.getMessage()
                : refusal.getMessage() + " (its reference has no IIOP/TLS address: its peer agent needs --tls-port)";
            LOG.warn("{}: not measured: peer {} failed the pin check (--pin-peers): {}{}; the server re-issues the request"
                    + " after its deadline", what, request.peer_node_name, why,
                unlogged > 0 ? " (" + unlogged + " more refusals of this peer since the last such line)" : "");
        }
    }

    /** @return measurements refused since start because a peer was not the pinned one (--pin-peers) */
    long pinRefusals() {
        return pinRefusals.total();
    }

    /**
     * Runs the warm-up {@link WarmupBudget} plans: before the first measurements of a peer in this
     * JVM, unrecorded round trips back to back.
     *
     * @return whether it warmed anything (the request may have been superseded meanwhile)
     */
    private boolean warmUp(final RoundTripRunner runner, final MeasurementRequest request, final long intervalNanos,
                           final long deadlineNanos) throws Exception {
        final WarmupBudget.Plan plan = warmup.plan(request.peer_node_name, request.message_size_bytes,
            (long) request.warmup_round_trips + request.round_trips, intervalNanos, request.min_interval_nanos,
            Math.max(0, request.time_budget_millis) * 1_000_000L, nanoTime.getAsLong(), deadlineNanos);
        if (!plan.warms()) {
            return false;
        }
        runner.warmUntil(plan.roundTrips(), plan.untilNanos(), request.min_interval_nanos);
        if (!plan.spendsPeerTime()) {
            return true; // a new path of a peer whose time is spent: its round trips alone
        }
        final long spentNanos = warmup.warmed(plan, nanoTime.getAsLong());
        LOG.info(String.format(Locale.ROOT, "warmed up round trips to %s: %.1f s back to back of %.0f s%s", request.peer_node_name,
            spentNanos / 1e9, warmup.jitWarmupNanos() / 1e9,
            spentNanos < warmup.jitWarmupNanos() ? " (the rest before its next measurement: this request's deadline is near)" : ""));
        return true;
    }

    /**
     * @return the run's pacing: the longest of the agent's own interval, the request's (the share of the path's slowest
     *         link the server allows a measurement) and the spacing of the traffic it reproduces
     */
    private long intervalNanos(final MeasurementRequest request, final RequestTraffic traffic) {
        return Math.max(traffic.spacingNanos(), Math.max(settings.intervalNanos(), Math.max(0, request.min_interval_nanos)));
    }

    /** @return whether the server still waits for this ticket; true when it cannot be asked (the submit will tell) */
    private boolean stillOpen(final MeasurementRequest request) {
        try {
            for (final MeasurementRequest open : server.get().pending_measurements()) {
                if (open.ticket == request.ticket) {
                    return true;
                }
            }
            return false;
        } catch (RuntimeException e) {
            return true;
        }
    }

    /** @return the exception in words for a log line: a CORBA system exception's name and message, else the message */
    static String describe(final Exception e) {
        if (e instanceof SystemException system) {
            final String name = system.getClass().getSimpleName();
            return system.getMessage() == null || system.getMessage().isBlank() ? name : name + ": " + system.getMessage();
        }
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }

    /** Waits; an interrupt (only close interrupts these threads) ends the wait and stops the loops. */
    private void sleep(final long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            running = false;
        }
    }

    @Override
    public void close() {
        running = false;
        AgentRunner.closeAll(control, measuring);
    }
}
