package org.latencyserver.agent.probe;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import org.latencyserver.agent.measure.CorbaRoundTrips;
import org.latencyserver.agent.measure.RoundTrip;
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
 * Light, continuous probing of the paths this agent measures: for every connection of a client
 * node the agent measures for whose {@code probe_rate_per_second} is above 0, one round trip of the
 * connection's message size to its peer agent, at times drawn in advance from a Poisson process
 * of that rate ({@link PoissonSchedule}, all paths merged in one schedule). Every report interval
 * each connection's window of round trips goes to the server as a {@code ProbeReport} (a delta)
 * and the window is reset.
 *
 * <p>Open loop: a send is due at its drawn time whatever the replies did. A send held up by an
 * earlier slow reply is still sent, as soon as it can be, and counted as late; the round-trip time
 * is measured from the actual send ({@link System#nanoTime()}). Sends due while this agent runs a
 * measurement ({@code measuringNow}: a probe would disturb the measurement and be disturbed by it)
 * or while a failed peer is backed off are skipped and counted, never made up later.
 *
 * <p>Failures: a refused report is dropped (logged once per connection per minute); a server that
 * cannot be reached costs the windows of that time (logged when it goes and when it is back,
 * reference forgotten, retried with back-off) while probing goes on; a peer that fails is
 * forgotten in the peer lookup and its path backed off (logged once per outage). Bad values in the
 * connection list are skipped with the reason ({@link ProbeTargets}).
 *
 * <p>Threads: one, "agent-probe" (an {@link Agent} on its {@link AgentRunner}), owns all the state; {@link #totals()} may be read from any
 * thread. The send-and-record path allocates nothing of its own (the histograms are pre-sized, the
 * round trip pre-built, the schedule is arrays); what the ORB allocates while marshalling is part
 * of what is measured, as in the measurements. Units: ns internally, ms in the reports.
 */
public final class PathProber implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(PathProber.class);

    /**
     * A send started more than this after its scheduled time is late, ns. Waking from a timed park
     * costs up to ~0.1 ms on an idle Linux; a send a millisecond behind was held up by an earlier
     * reply (or a busy core), which is what the late count is to show.
     */
    public static final long LATE_AFTER_NANOS = 1_000_000L;

    /** Round trips run unrecorded each time a path's round trip is (re)built: its connection set-up. */
    public static final int WARMUP_ROUND_TRIPS = 20;

    /** Pause after an unexpected failure of the loop itself, so that a bug cannot spin a core. */
    private static final long FAULT_PAUSE_NANOS = 1_000_000_000L;

    private final ProbeServer server;
    private final PeerLookup peers;
    private final Predicate<String> measuresFor;
    private final BooleanSupplier measuringNow;
    private final ProbeSettings settings;
    private final long reportIntervalNanos;
    private final long refreshIntervalNanos;
    private final PoissonSchedule schedule;
    private final AgentRunner thread;

    // ---- prober thread only ----
    /** The path in each schedule slot; null for a free slot. */
    private ProbePath[] pathsBySlot = new ProbePath[0];
    private final Map<Short, ProbePath> pathsByIndex = new LinkedHashMap<>();
    /** Paths dropped from the schedule whose last window is still to be reported. */
    private final List<ProbePath> retired = new ArrayList<>();
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
     * @param random       where the send times come from
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
        this.schedule = new PoissonSchedule(random);
        // A daemon: probing is an extra, it must never keep the JVM alive on its own.
        this.thread = new AgentRunner(new ProbeAgent(), NoIdleStrategy.INSTANCE, new DistinctErrorLog("agent-probe"),
            System::nanoTime, Duration.ofSeconds(5)).pauseAfterFailure(Duration.ofNanos(FAULT_PAUSE_NANOS));
    }

    /** Starts the probe thread. */
    public void start() {
        LOG.info("probing connections at their probe rates; reporting every {} ms", settings.reportIntervalMillis());
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
     * The prober's duty cycle: each round refreshes the targets, reports, or sends one due probe
     * (whichever is due first), or parks until the next of them is due. A failure (a bug) is counted
     * by the runner, which pauses {@code FAULT_PAUSE_NANOS} before going on.
     */
    private final class ProbeAgent implements Agent {

        private long nextRefreshNanos;
        private long nextReportNanos;

        @Override
        public void onStart() {
            final long startNanos = System.nanoTime();
            nextRefreshNanos = startNanos;
            nextReportNanos = startNanos + reportIntervalNanos;
        }

        @Override
        public int doWork(final long roundNanos) {
            final long nowNanos = System.nanoTime();
            if (nowNanos - nextRefreshNanos >= 0) {
                nextRefreshNanos = refresh(nowNanos);
                return 1;
            }
            if (nowNanos - nextReportNanos >= 0) {
                report(nowNanos);
                // Keep the cadence; after a long stall (a hung call) start afresh rather than report in a burst.
                nextReportNanos += reportIntervalNanos;
                if (nowNanos - nextReportNanos >= 0) {
                    nextReportNanos = nowNanos + reportIntervalNanos;
                }
                return 1;
            }
            long wakeNanos = nextRefreshNanos - nextReportNanos < 0 ? nextRefreshNanos : nextReportNanos;
            final int slot = schedule.earliestSlot();
            if (slot >= 0) {
                final long dueNanos = schedule.dueNanos(slot);
                if (dueNanos - nowNanos <= 0) {
                    // The next send time is drawn now, from this one: open loop, whatever this send does.
                    schedule.advance(slot);
                    probe(pathsBySlot[slot], dueNanos);
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

    /** Trains start at Poisson times at the rate that gives the connection's round trips per second. */
    private double trainsPerSecond(final ProbeTarget target) {
        return target.ratePerSecond() / settings.trainRoundTrips();
    }

    /**
     * One probe: a train of {@code trainRoundTrips} round trips at the train's spacing, the first
     * unrecorded when there are several (it meets the path cold, as a measurement's warm-up does).
     * Trains sample the path as the measurements do (paced, warm), so the calibration compares like
     * with like: single round trips after idle seconds read 2-10 times slower here than paced ones.
     */
    private void probe(final ProbePath path, final long dueNanos) {
        final int train = settings.trainRoundTrips();
        for (int i = 0; i < train; i++) {
            if (i > 0) {
                final long nextNanos = dueNanos + i * settings.trainSpacingNanos();
                long waitNanos;
                while ((waitNanos = nextNanos - System.nanoTime()) > 0) {
                    LockSupport.parkNanos(this, waitNanos);
                }
            }
            if (!thread.running() || !sendOne(path, i == 0 ? dueNanos : System.nanoTime(), train > 1 && i == 0)) {
                return;
            }
        }
    }

    /** @return whether the train may go on (no measurement started, the peer answered) */
    private boolean sendOne(final ProbePath path, final long dueNanos, final boolean unrecorded) {
        if (measuringNow.getAsBoolean()) {
            path.skippedWhileMeasuring++;
            skippedWhileMeasuring++;
            return false;
        }
        if (path.peerDown && System.nanoTime() - path.pausedUntilNanos < 0) {
            path.skippedWhilePeerDown++;
            skippedWhilePeerDown++;
            return false;
        }
        try {
            if (path.roundTrip == null) {
                // The same round trip the measurements time (fm1 arrays or octets); building it checks the echo once.
                path.roundTrip = CorbaRoundTrips.to(peers.peer(path.target.peerNode()), path.target.messageSizeBytes());
                path.warmupLeft = WARMUP_ROUND_TRIPS;
            }
            final RoundTrip roundTrip = path.roundTrip;
            if (path.warmupLeft > 0 || unrecorded) {
                roundTrip.once(); // unrecorded; at its scheduled time all the same, so the rate holds
                path.warmupLeft = Math.max(0, path.warmupLeft - 1);
                unrecordedRoundTrips++;
                return true;
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
            return true;
        } catch (Exception e) {
            peerFailed(path, e);
            return false;
        }
    }

    private void peerFailed(final ProbePath path, final Exception e) {
        if (!thread.running()) {
            return; // interrupted by close(): not the peer's fault
        }
        failedRoundTrips++;
        peers.forget(path.target.peerNode());
        path.roundTrip = null;
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

    private void report(final long nowNanos) {
        for (final ProbePath path : pathsBySlot) {
            if (path != null) {
                reportWindow(path, nowNanos);
            }
        }
        for (final ProbePath path : retired) {
            reportWindow(path, nowNanos);
        }
        retired.clear();
    }

    private void reportWindow(final ProbePath path, final long nowNanos) {
        final long roundTrips = path.window.roundTrips();
        final String outcome = roundTrips > 0 ? submit(path, path.window.toReport(path.target, settings.agentName(), nowNanos), nowNanos)
            : "nothing to report";
        if (LOG.isDebugEnabled()) {
            LOG.debug(String.format(Locale.ROOT,
                "probe %s: %d round trips in the window%s, %s; %d late, %d skipped while measuring, %d skipped while the peer was"
                    + " down", path.target.describe(), roundTrips,
                roundTrips > 0 ? String.format(Locale.ROOT, " (mean %.4f ms)", path.window.meanMillis()) : "", outcome,
                path.lateSends, path.skippedWhileMeasuring, path.skippedWhilePeerDown));
        }
        path.window.reset(nowNanos);
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
                if (target.ratePerSecond() != path.target.ratePerSecond()) {
                    schedule.setRate(path.slot, trainsPerSecond(target), nowNanos);
                    LOG.info(String.format(Locale.ROOT, "%s: probe rate changed from %.3f to %.3f per second",
                        target.describe(), path.target.ratePerSecond(), target.ratePerSecond()));
                }
                path.target = target;
            } else {
                retire(path, target == null ? "no longer probed (removed, rate 0 or not valid)" : "its peer or size changed");
                it.remove();
            }
        }
        for (final ProbeTarget target : wanted.values()) {
            final int slot = schedule.add(trainsPerSecond(target), nowNanos);
            if (slot >= pathsBySlot.length) {
                pathsBySlot = Arrays.copyOf(pathsBySlot, slot + 1);
            }
            final ProbePath path = new ProbePath(target, slot, nowNanos);
            pathsBySlot[slot] = path;
            pathsByIndex.put(target.indexRef(), path);
            LOG.info(String.format(Locale.ROOT, "%s: probing at %.3f round trips per second (Poisson, open loop; trains of %d"
                    + " spaced %d us)", target.describe(), target.ratePerSecond(), settings.trainRoundTrips(),
                settings.trainSpacingNanos() / 1000));
        }
    }

    /** Takes a path off the schedule; its open window is still reported at the next report time. */
    private void retire(final ProbePath path, final String why) {
        schedule.remove(path.slot);
        pathsBySlot[path.slot] = null;
        path.slot = -1;
        retired.add(path);
        LOG.info("{}: {}", path.target.describe(), why);
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
