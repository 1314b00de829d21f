package org.latencyserver.agent.probe;

import java.time.Duration;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import org.latencyserver.agent.measure.CorbaRoundTrips;
import org.latencyserver.agent.measure.RoundTrip;
import org.latencyserver.core.traffic.CallKind;
import org.latencyserver.core.traffic.TrafficFamily;
import org.latencyserver.core.traffic.TrafficShape;
import org.latencyserver.idl.latency.ConnectionInfo;
import org.latencyserver.idl.latency.ProbeReport;
import org.latencyserver.idl.latency.ResultRefused;
import org.latencyserver.idl.latency.UnknownConnection;
import org.latencyserver.launch.agent.Agent;
import org.latencyserver.launch.agent.AgentRunner;
import org.latencyserver.launch.agent.DistinctErrorLog;
import org.latencyserver.launch.agent.NoIdleStrategy;
import org.latencyserver.orb.Backoff;
import org.omg.CORBA.BAD_OPERATION;
import org.omg.CORBA.NO_IMPLEMENT;
import org.omg.CORBA.SystemException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Light, continuous probing of the paths this agent measures, in the traffic its applications send:
 * for every connection of a client node the agent measures for whose {@code probe_rate_per_second}
 * is above 0, trains of round trips of the connection's message size to its peer agent
 * ({@link TrainSchedule}, all paths merged in one schedule). A connection with a declared traffic
 * shape is probed in it: bursts of {@code burst_round_trips} started {@code spacing_micros} apart,
 * made with its call (octets: {@code EchoPeer.echo} with an octet sequence; arrays: the thesis's
 * {@code fm1} calls, which exist for its eight sizes only, so any other size goes as octets and is
 * reported so), followed by the longer of the declared pause and the pause the probe rate needs, so
 * that the long-run rate never exceeds {@code probe_rate_per_second}. A connection without one is
 * probed in trains whose shapes are drawn from the default family, a new draw per train. Every round
 * trip of a train is recorded: an application's first message of a burst meets the path as it is too.
 *
 * <p>Report windows, one shape each: a window opens at its first train's first send (the pause
 * before it is no part of it) and closes at the end of a train when the next train's shape differs
 * (so a connection without a declared shape reports every train) or when the window is at least
 * the report interval old; a window is also closed mid-train once it is
 * {@link #MAX_WINDOW_MILLIS} old, so that a very slow train still reports. A closed window with round
 * trips goes to the server as a {@code ProbeReport} (a delta) carrying the trains' shape, and the
 * window is reset. A connection taken off the schedule reports its open window at once.
 *
 * <p>Open loop: a send is due at its scheduled time whatever the replies did. A send held up by an
 * earlier slow reply (of this path or another) is still sent, as soon as it can be, and counted as
 * late; the round-trip time is measured from the actual send ({@link System#nanoTime()}). Sends due
 * while this agent runs a measurement ({@code measuringNow}: a probe would disturb the measurement
 * and be disturbed by it) or while a failed peer is backed off are skipped and counted, never made
 * up later.
 *
 * <p>Failures: a refused report is dropped (logged once per connection per minute); a server that
 * cannot be reached costs the windows of that time (logged when it goes and when it is back,
 * reference forgotten, retried with back-off) while probing goes on; a peer that fails is
 * forgotten in the peer lookup and its path backed off (logged once per outage). Bad values in the
 * connection list are skipped with the reason ({@link ProbeTargets}).
 *
 * <p>Threads: one, "agent-probe" (an {@link Agent} on its {@link AgentRunner}), owns all the state; {@link #totals()} may be read from any
 * thread. The send-and-record path allocates nothing of its own (the histograms are pre-sized, one
 * round trip pre-built per call, the schedule is arrays); a drawn shape is allocated between trains.
 * What the ORB allocates while marshalling is part of what is measured, as in the measurements.
 * Units: ns internally, ms in the reports.
 */
public final class PathProber implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(PathProber.class);

    /**
     * A send started more than this after its scheduled time is late, ns. Waking from a timed park
     * costs up to ~0.1 ms on an idle Linux; a send a millisecond behind was held up by an earlier
     * reply (or a busy core), which is what the late count is to show.
     */
    public static final long LATE_AFTER_NANOS = 1_000_000L;

    /**
     * Round trips run unrecorded, back to back, each time a path's round trip of a call is (re)built: its
     * connection set-up. They run before the send that needed the round trip, which is then late.
     */
    public static final int WARMUP_ROUND_TRIPS = 20;

    /** A report window is closed, even mid-train, once it is this old, ms (the server takes windows up to an hour). */
    public static final long MAX_WINDOW_MILLIS = 600_000L;

    /** Pause after an unexpected failure of the loop itself, so that a bug cannot spin a core. */
    private static final long FAULT_PAUSE_NANOS = 1_000_000_000L;

    private final ProbeServer server;
    private final PeerLookup peers;
    private final Predicate<String> measuresFor;
    private final BooleanSupplier measuringNow;
    private final ProbeSettings settings;
    /** A window at least this old closes at the end of its train, ns. */
    private final long reportIntervalNanos;
    private final long refreshIntervalNanos;
    private final TrainSchedule schedule;
    private final AgentRunner thread;

    // ---- prober thread only ----
    /** The path in each schedule slot; null for a free slot. */
    private ProbePath[] pathsBySlot = new ProbePath[0];
    private final Map<Short, ProbePath> pathsByIndex = new LinkedHashMap<>();
    /** Problems of the connection list already logged (each is logged again only after it went away). */
    private final Set<String> knownProblems = new HashSet<>();
    private final Backoff serverBackoff = new Backoff(500, 10_000);
    private boolean serverDown;
    private long serverRetryNanos;
    private boolean unsupportedLogged;

    // ---- totals: written by the prober thread only (single writer), read by any ----
    private volatile long sentRoundTrips;
    private volatile long lateSends;
    private volatile long skippedWhileMeasuring;
    private volatile long skippedWhilePeerDown;
    private volatile long failedRoundTrips;
    private volatile long reportsSubmitted;
    private volatile long reportedRoundTrips;
    private volatile long droppedRoundTrips;
    private volatile long unrecordedRoundTrips;

    /**
     * @param server       the connection list and where reports go
     * @param peers        where peer agents are found (the agent's {@code PeerDirectory})
     * @param measuresFor  whether this agent measures for a client node
     * @param measuringNow whether this agent is running a measurement now (read before each send)
     * @param settings     report and refresh intervals, agent name
     * @param random       where drawn shapes and the trains' first phases come from
     */
    public PathProber(final ProbeServer server, final PeerLookup peers, final Predicate<String> measuresFor,
                      final BooleanSupplier measuringNow, final ProbeSettings settings, final Random random) {
        this.server = server;
        this.peers = peers;
        this.measuresFor = measuresFor;
        this.measuringNow = measuringNow;
        this.settings = settings;
        this.reportIntervalNanos = settings.reportIntervalMillis() * 1_000_000L;
        this.refreshIntervalNanos = settings.refreshIntervalMillis() * 1_000_000L;
        this.schedule = new TrainSchedule(random);
        // A daemon: probing is an extra, it must never keep the JVM alive on its own.
        this.thread = new AgentRunner(new ProbeAgent(), NoIdleStrategy.INSTANCE, new DistinctErrorLog("agent-probe"),
            System::nanoTime, Duration.ofSeconds(5)).pauseAfterFailure(Duration.ofNanos(FAULT_PAUSE_NANOS));
    }

    /** Starts the probe thread. */
    public void start() {
        LOG.info("probing connections at their probe rates in their traffic shapes; reporting at the end of a train, every {} ms"
            + " or at each change of shape", settings.reportIntervalMillis());
        thread.start();
    }

    /** @return what the prober has done so far; thread-safe */
    public ProbeTotals totals() {
        return new ProbeTotals(sentRoundTrips, unrecordedRoundTrips, lateSends, skippedWhileMeasuring, skippedWhilePeerDown, failedRoundTrips,
            reportsSubmitted, reportedRoundTrips, droppedRoundTrips);
    }

    /**
     * Stops probing; the open windows are not reported. Waits up to 5 s for the thread (a round
     * trip or a report may be in flight); an interrupt while waiting is kept for the caller.
     */
    @Override
    public void close() {
        thread.close();
    }

    /**
     * The prober's duty cycle: each round refreshes the targets or sends one due probe (whichever is
     * due first) and closes its window where a train ends, or parks until the next of them is due. A
     * failure (a bug) is counted by the runner, which pauses {@code FAULT_PAUSE_NANOS} before going on.
     */
    private final class ProbeAgent implements Agent {

        private long nextRefreshNanos;

        @Override
        public void onStart() {
            nextRefreshNanos = System.nanoTime();
        }

        @Override
        public int doWork(final long roundNanos) {
            final long nowNanos = System.nanoTime();
            if (nowNanos - nextRefreshNanos >= 0) {
                nextRefreshNanos = refresh(nowNanos);
                return 1;
            }
            long wakeNanos = nextRefreshNanos;
            final int slot = schedule.earliestSlot();
            if (slot >= 0) {
                final long dueNanos = schedule.dueNanos(slot);
                if (dueNanos - nowNanos <= 0) {
                    probe(slot, dueNanos);
                    return 1;
                }
                if (dueNanos - wakeNanos < 0) {
                    wakeNanos = dueNanos;
                }
            }
            LockSupport.parkNanos(this, wakeNanos - nowNanos);
            // A stray interrupt (not close()) must not turn the park into a spin.
            Thread.interrupted();
            return 0;
        }

        @Override
        public String roleName() {
            return "agent-probe";
        }

        @Override
        public boolean wakesByInterrupt() {
            return true; // ends a round trip or a report in flight
        }
    }

    // ---- sending ----

    /**
     * One due send of a path's train, then the schedule moved on (open loop, whatever this send did); at the train's
     * end its window is closed when the next train's shape differs or the window is old enough, and any window is
     * closed once it is {@link #MAX_WINDOW_MILLIS} old.
     */
    private void probe(final int slot, final long dueNanos) {
        final ProbePath path = pathsBySlot[slot];
        if (path.windowShape == null) {
            // A window opens with its first train's first send: the pause before it is no part of what it reports.
            path.windowShape = schedule.trainShape(slot);
            path.window.reset(System.nanoTime());
        }
        sendOne(path, dueNanos, path.windowShape.call());
        final boolean trainEnded = schedule.advance(slot);
        final long nowNanos = System.nanoTime();
        final long windowAgeNanos = nowNanos - path.window.startNanos();
        if (trainEnded && (!schedule.trainShape(slot).equals(path.windowShape) || windowAgeNanos >= reportIntervalNanos)
            || windowAgeNanos >= MAX_WINDOW_MILLIS * 1_000_000L) {
            reportWindow(path, nowNanos);
        }
    }

    /** Sends one round trip with the call and records it; skipped (and counted) while measuring or while the peer is backed off. */
    private void sendOne(final ProbePath path, final long dueNanos, final CallKind call) {
        if (measuringNow.getAsBoolean()) {
            path.skippedWhileMeasuring++;
            skippedWhileMeasuring++;
            return;
        }
        if (path.peerDown && System.nanoTime() - path.pausedUntilNanos < 0) {
            path.skippedWhilePeerDown++;
            skippedWhilePeerDown++;
            return;
        }
        try {
            final CallKind made = CorbaRoundTrips.callFor(path.target.messageSizeBytes(), call);
            RoundTrip roundTrip = path.roundTrips[made.ordinal()];
            if (roundTrip == null) {
                roundTrip = prepare(path, made);
            }
            final long startNanos = System.nanoTime();
            roundTrip.once();
            final long rttNanos = System.nanoTime() - startNanos;
            path.window.record(rttNanos);
            sentRoundTrips++;
            if (startNanos - dueNanos > LATE_AFTER_NANOS) {
                path.lateSends++;
                lateSends++;
            }
            if (path.peerDown) {
                peerBack(path);
            }
        } catch (Exception e) {
            peerFailed(path, e);
        }
    }

    /**
     * Builds the path's round trip of a call (the echo check is its first, unrecorded round trip) and warms it with
     * {@link #WARMUP_ROUND_TRIPS} more, back to back and unrecorded: a fresh round trip (a new connection to the peer,
     * first marshalling; the thesis saw its first two samples at 200 ms) would report the set-up, not the path.
     */
    private RoundTrip prepare(final ProbePath path, final CallKind call) throws Exception {
        final RoundTrip roundTrip = CorbaRoundTrips.to(peers.peer(path.target.peerNode()), path.target.messageSizeBytes(), call);
        unrecordedRoundTrips++;
        for (int i = 0; i < WARMUP_ROUND_TRIPS; i++) {
            roundTrip.once();
            unrecordedRoundTrips++;
        }
        path.roundTrips[call.ordinal()] = roundTrip;
        return roundTrip;
    }

    private void peerFailed(final ProbePath path, final Exception e) {
        if (!thread.running()) {
            return; // interrupted by close(): not the peer's fault
        }
        failedRoundTrips++;
        peers.forget(path.target.peerNode());
        java.util.Arrays.fill(path.roundTrips, null);
        final long delayMillis = path.peerBackoff.nextDelayMillis();
        path.pausedUntilNanos = System.nanoTime() + delayMillis * 1_000_000L;
        if (!path.peerDown) {
            path.peerDown = true;
            LOG.warn("{}: probe to peer {} failed ({}); probing it again with back-off, sends due meanwhile are skipped",
                path.target.describe(), path.target.peerNode(), describe(e));
        } else {
            LOG.debug("{}: peer {} still fails ({}); next try in {} ms", path.target.describe(), path.target.peerNode(),
                describe(e), delayMillis);
        }
    }

    private void peerBack(final ProbePath path) {
        path.peerDown = false;
        path.peerBackoff.reset();
        LOG.info("{}: peer {} answers probes again", path.target.describe(), path.target.peerNode());
    }

    // ---- reporting ----

    private void reportWindow(final ProbePath path, final long nowNanos) {
        final long roundTrips = path.window.roundTrips();
        final TrafficShape shape = path.windowShape == null ? null : madeAs(path.windowShape, path.target.messageSizeBytes());
        final String outcome = roundTrips > 0 && shape != null
            ? submit(path, path.window.toReport(path.target, settings.agentName(), nowNanos, shape), nowNanos) : "nothing to report";
        if (LOG.isDebugEnabled()) {
            LOG.debug(String.format(Locale.ROOT,
                "probe %s: %d round trips in the window (%s)%s, %s; %d late, %d skipped while measuring, %d skipped while the"
                    + " peer was down", path.target.describe(), roundTrips, shape == null ? "no train" : shape.label(),
                roundTrips > 0 ? String.format(Locale.ROOT, " (mean %.4f ms)", path.window.meanMillis()) : "", outcome,
                path.lateSends, path.skippedWhileMeasuring, path.skippedWhilePeerDown));
        }
        path.window.reset(nowNanos);
        path.windowShape = null;
        path.resetWindowCounts();
    }

    /** @return what became of the report, for the window's summary line */
    private String submit(final ProbePath path, final ProbeReport report, final long nowNanos) {
        if (serverDown && nowNanos - serverRetryNanos < 0) {
            droppedRoundTrips += report.sample_count; // backed off: not even tried
            return "dropped (the server is unreachable)";
        }
        try {
            server.submitProbe(report);
            reportsSubmitted++;
            reportedRoundTrips += report.sample_count;
            serverAnswered();
            return "reported";
        } catch (UnknownConnection e) {
            droppedRoundTrips += report.sample_count;
            serverAnswered();
            refused(path, "the server has no such connection: " + e.reason, nowNanos);
            return "refused";
        } catch (ResultRefused e) {
            droppedRoundTrips += report.sample_count;
            serverAnswered();
            refused(path, e.reason, nowNanos);
            return "refused";
        } catch (BAD_OPERATION | NO_IMPLEMENT e) {
            // The server answered, but does not know submit_probe: older than this agent. Not an outage.
            droppedRoundTrips += report.sample_count;
            serverAnswered();
            if (!unsupportedLogged) {
                unsupportedLogged = true;
                LOG.warn("the server does not take probe reports ({}): an older server? Probe windows are dropped", describe(e));
            }
            return "dropped (the server does not take probe reports)";
        } catch (RuntimeException e) {
            droppedRoundTrips += report.sample_count;
            serverFailed(e, nowNanos);
            return "dropped (the server is unreachable)";
        }
    }

    private void refused(final ProbePath path, final String reason, final long nowNanos) {
        final long notLogged = path.refusalsNotLogged;
        if (path.mayLogRefusal(nowNanos)) {
            path.refusalsNotLogged = 0;
            LOG.warn("{}: the server refused a probe report ({}); the window is dropped{}", path.target.describe(), reason,
                notLogged > 0 ? " (" + notLogged + " more refused in the last minute)" : "");
        }
    }

    // ---- the server's connection list ----

    private long refresh(final long nowNanos) {
        if (serverDown && nowNanos - serverRetryNanos < 0) {
            return serverRetryNanos;
        }
        final ConnectionInfo[] connections;
        try {
            connections = server.listConnections();
        } catch (RuntimeException e) {
            serverFailed(e, nowNanos);
            return serverRetryNanos;
        }
        serverAnswered();
        apply(ProbeTargets.select(connections, measuresFor), nowNanos);
        return nowNanos + refreshIntervalNanos;
    }

    private void apply(final ProbeTargets.Selection selection, final long nowNanos) {
        for (final String problem : selection.problems()) {
            if (knownProblems.add(problem)) {
                LOG.warn("the server's connection list: {}", problem);
            }
        }
        knownProblems.retainAll(new HashSet<>(selection.problems()));
        final Map<Short, ProbeTarget> wanted = new LinkedHashMap<>();
        for (final ProbeTarget target : selection.targets()) {
            wanted.put(target.indexRef(), target);
        }
        for (final Iterator<ProbePath> it = pathsByIndex.values().iterator(); it.hasNext(); ) {
            final ProbePath path = it.next();
            final ProbeTarget target = wanted.get(path.target.indexRef());
            if (target != null && target.samePath(path.target)) {
                wanted.remove(target.indexRef());
                if (target.ratePerSecond() != path.target.ratePerSecond() || !target.traffic().equals(path.target.traffic())) {
                    schedule.change(path.slot, target.traffic().orElse(null), target.ratePerSecond());
                    LOG.info(String.format(Locale.ROOT, "%s: probe rate %.3f per second, %s (was %.3f per second, %s), from its"
                            + " next train", target.describe(), target.ratePerSecond(), trafficText(target),
                        path.target.ratePerSecond(), trafficText(path.target)));
                }
                path.target = target;
            } else {
                retire(path, target == null ? "no longer probed (removed, rate 0 or not valid)" : "its peer or size changed",
                    nowNanos);
                it.remove();
            }
        }
        for (final ProbeTarget target : wanted.values()) {
            final int slot = schedule.add(target.traffic().orElse(null), target.ratePerSecond(), nowNanos);
            if (slot >= pathsBySlot.length) {
                pathsBySlot = Arrays.copyOf(pathsBySlot, slot + 1);
            }
            final ProbePath path = new ProbePath(target, slot, nowNanos);
            pathsBySlot[slot] = path;
            pathsByIndex.put(target.indexRef(), path);
            LOG.info(String.format(Locale.ROOT, "%s: probing at %.3f round trips per second (open loop) in %s",
                target.describe(), target.ratePerSecond(), trafficText(target)));
        }
    }

    /** @return the shape with the call its round trips were made with at this size (arrays exist for the thesis's sizes only) */
    private static TrafficShape madeAs(final TrafficShape shape, final int messageSizeBytes) {
        final CallKind made = CorbaRoundTrips.callFor(messageSizeBytes, shape.call());
        return made == shape.call() ? shape : new TrafficShape(shape.spacingMicros(), shape.burstRoundTrips(), shape.pauseMillis(), made);
    }

    private static String trafficText(final ProbeTarget target) {
        return target.traffic().map(shape -> "its declared traffic, " + shape.label())
            .orElse("trains drawn from the default traffic family, " + TrafficFamily.DEFAULT.label());
    }

    /** Takes a path off the schedule and reports its open window now. */
    private void retire(final ProbePath path, final String why, final long nowNanos) {
        schedule.remove(path.slot);
        pathsBySlot[path.slot] = null;
        path.slot = -1;
        LOG.info("{}: {}", path.target.describe(), why);
        reportWindow(path, nowNanos);
    }

    // ---- the server's health ----

    private void serverFailed(final RuntimeException e, final long nowNanos) {
        server.forgetReference();
        final long delayMillis = serverBackoff.nextDelayMillis();
        serverRetryNanos = nowNanos + delayMillis * 1_000_000L;
        if (!serverDown) {
            serverDown = true;
            LOG.warn("the server cannot be reached for probing ({}); probing goes on, its windows are dropped until the server"
                + " answers", describe(e));
        } else {
            LOG.debug("the server still cannot be reached for probing ({}); next try in {} ms", describe(e), delayMillis);
        }
    }

    private void serverAnswered() {
        if (serverDown) {
            serverDown = false;
            LOG.info("the server answers again; probe reports resume");
        }
        serverBackoff.reset();
    }

    private static String describe(final Exception e) {
        if (e instanceof SystemException system) {
            final String name = system.getClass().getSimpleName();
            return system.getMessage() == null || system.getMessage().isBlank() ? name : name + ": " + system.getMessage();
        }
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }
}
