package org.latencyserver.agent.client;

import java.util.Locale;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.latencyserver.agent.measure.DeadlineExceededException;
import org.latencyserver.agent.measure.RoundTripRunner;
import org.latencyserver.agent.measure.RunResult;
import org.latencyserver.core.histogram.LatencyHistogram;
import org.latencyserver.idl.latency.HistogramBins;
import org.latencyserver.idl.latency.LatencyService;
import org.latencyserver.idl.latency.MeasuredResult;
import org.latencyserver.idl.latency.MeasurementListener;
import org.latencyserver.idl.latency.MeasurementRequest;
import org.latencyserver.idl.latency.ResultRefused;
import org.latencyserver.idl.latency.UnknownConnection;
import org.latencyserver.orb.References;
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
 * measurements of this agent never disturb each other. Requests pass between them through a
 * queue; a ticket is taken once.
 */
public final class MeasurementAgent implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(MeasurementAgent.class);

    private final ServerConnection server;
    private final PeerDirectory peers;
    private final AgentSettings settings;
    private final MeasurementListener listener;
    private final LongSupplier epochMillis;
    private final BlockingQueue<MeasurementRequest> queue = new LinkedBlockingQueue<>();
    /** Tickets taken, with their deadlines (epoch ms), so a request polled again is not measured twice. */
    private final Map<Long, Long> takenTickets = new ConcurrentHashMap<>();
    /** Paths (peer and size) this JVM has warmed up; measuring thread only. */
    private final java.util.Set<String> warmedPaths = new java.util.HashSet<>();
    private static final int JIT_WARMUP_ROUND_TRIPS = 3_000;
    private final Thread control;
    private final Thread measuring;
    private volatile boolean running = true;

    /**
     * @param server      the Latency Server
     * @param peers       where peer agents are found
     * @param settings    what to measure
     * @param listener    this agent's callback object, already activated in its POA; its servant
     *                    hands requests to {@link #offer}
     * @param epochMillis wall clock (request deadlines are epoch ms)
     */
    MeasurementAgent(final ServerConnection server, final PeerDirectory peers, final AgentSettings settings,
                     final MeasurementListener listener, final LongSupplier epochMillis) {
        this.server = server;
        this.peers = peers;
        this.settings = settings;
        this.listener = listener;
        this.epochMillis = epochMillis;
        this.control = new Thread(this::controlLoop, "agent-control");
        this.measuring = new Thread(this::measuringLoop, "agent-measuring");
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
        if (request == null || !settings.measuresFor(request.client_node_name)) {
            return;
        }
        if (epochMillis.getAsLong() >= request.deadline_epoch_millis) {
            return;
        }
        if (takenTickets.putIfAbsent(request.ticket, request.deadline_epoch_millis) == null) {
            queue.add(request);
        }
    }

    private void controlLoop() {
        final Backoff backoff = new Backoff(500, 10_000);
        boolean subscribed = false;
        boolean down = false;
        while (running) {
            try {
                final LatencyService service = server.get();
                if (!subscribed) {
                    service.subscribe_measurements(listener, new short[0]);
                    subscribed = true;
                    LOG.info("subscribed to measurement requests");
                }
                for (final MeasurementRequest request : service.pending_measurements()) {
                    offer(request);
                }
                if (down) {
                    LOG.info("the server answers again");
                    down = false;
                }
                backoff.reset();
                forgetExpiredTickets();
                sleep(settings.pollIntervalMillis());
            } catch (SystemException | References.ReferenceException e) {
                server.invalidate();
                subscribed = false;
                final long delayMillis = backoff.nextDelayMillis();
                if (!down) {
                    LOG.warn("the server cannot be reached ({}); retrying with back-off", describe(e));
                    down = true;
                } else {
                    LOG.debug("server still unreachable ({}); next try in {} ms", describe(e), delayMillis);
                }
                sleep(delayMillis);
            } catch (org.latencyserver.idl.latency.UnknownConnection | org.latencyserver.idl.latency.InvalidArgument e) {
                // Subscribing to all connections (an empty list) cannot name a bad one; if it does, say so.
                LOG.error("the server refused the subscription: {}", e);
                sleep(settings.pollIntervalMillis());
            }
        }
    }

    private void forgetExpiredTickets() {
        final long nowMillis = epochMillis.getAsLong();
        takenTickets.values().removeIf(deadline -> deadline < nowMillis - 60_000);
    }

    private void measuringLoop() {
        while (running) {
            final MeasurementRequest request;
            try {
                request = queue.poll(500, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                return;
            }
            if (request != null) {
                measure(request);
            }
        }
    }

    private void measure(final MeasurementRequest request) {
        final String what = String.format(Locale.ROOT, "connection %d ticket %d (%s -> %s, %d B)", request.index_ref,
            request.ticket, request.client_node_name, request.peer_node_name, request.message_size_bytes);
        if (epochMillis.getAsLong() >= request.deadline_epoch_millis) {
            LOG.warn("{}: expired while waiting behind other measurements; the server re-issues it", what);
            return;
        }
        LOG.info("{}: measuring {} round trips after {} warm-up", what, request.round_trips, request.warmup_round_trips);
        final Backoff backoff = new Backoff(500, 5_000);
        while (running && epochMillis.getAsLong() < request.deadline_epoch_millis) {
            final RunResult result;
            try {
                final RoundTripRunner runner = new RoundTripRunner(peers.peer(request.peer_node_name), request.message_size_bytes);
                warmUpOnce(runner, request.peer_node_name + "@" + request.message_size_bytes);
                final long deadlineNanos = System.nanoTime()
                    + (request.deadline_epoch_millis - epochMillis.getAsLong()) * 1_000_000L;
                result = runner.run(request.warmup_round_trips, request.round_trips, settings.adaptive(), deadlineNanos,
                    settings.intervalNanos());
            } catch (SystemException | References.ReferenceException | IllegalStateException e) {
                peers.forget(request.peer_node_name);
                final long delayMillis = backoff.nextDelayMillis();
                LOG.warn("{}: peer {} failed: {}; retrying in {} ms (deadline in {} s)", what, request.peer_node_name,
                    describe(e), delayMillis, (request.deadline_epoch_millis - epochMillis.getAsLong()) / 1000);
                sleep(delayMillis);
                continue;
            } catch (DeadlineExceededException e) {
                LOG.warn("{}: abandoned: {}; the server re-issues it with a new ticket", what, e.getMessage());
                return;
            } catch (Exception e) {
                LOG.error("{}: measurement failed: {}", what, describe(e));
                return;
            }
            submit(what, request, result);
            return;
        }
        if (running) {
            LOG.warn("{}: gave up at the request's deadline; the server re-issues it with a new ticket", what);
        }
    }

    /**
     * The first measurement of a path in this JVM runs the round trip a few thousand times first:
     * the request's warm-up (a few hundred) covers the connection, not the JIT, and an interpreted
     * ORB path would read several times slower than the path really is.
     */
    private void warmUpOnce(final RoundTripRunner runner, final String path) throws Exception {
        if (warmedPaths.add(path)) {
            runner.run(JIT_WARMUP_ROUND_TRIPS, 1, null);
            LOG.info("warmed up {} with {} round trips (compiled before the first measurement)", path, JIT_WARMUP_ROUND_TRIPS);
        }
    }

    private void submit(final String what, final MeasurementRequest request, final RunResult run) {
        final String agent = run.savedRoundTrips() > 0
            ? String.format(Locale.ROOT, "%s (adaptive: %d of %d round trips)", settings.agentName(), run.recordedRoundTrips(),
                run.recordedRoundTrips() + run.savedRoundTrips())
            : settings.agentName();
        final MeasuredResult result = new MeasuredResult(request.index_ref, request.ticket, bins(run), run.recordedRoundTrips(),
            run.meanMillis(), run.stdDevMillis(), run.maxMillis(), run.warmupRoundTrips(), run.gcPauseOverlapNanos(), agent,
            run.batchMeansMillis());
        final Backoff backoff = new Backoff(500, 5_000);
        while (running && epochMillis.getAsLong() < request.deadline_epoch_millis) {
            try {
                server.get().submit_measurement(result);
                LOG.info(String.format(Locale.ROOT,
                    "%s: submitted mean %.4f ms +/- %.4f ms (95 %% CI), max %.3f ms, %d round trips%s, own GC during the run %.1f ms",
                    what, run.meanMillis(), run.halfWidthMillis(), run.maxMillis(), run.recordedRoundTrips(),
                    run.savedRoundTrips() > 0 ? " (" + run.savedRoundTrips() + " saved by adaptive sampling)" : "",
                    run.gcPauseOverlapNanos() / 1e6));
                return;
            } catch (ResultRefused e) {
                LOG.warn("{}: the server refused the result: {}", what, e.reason);
                return;
            } catch (UnknownConnection e) {
                LOG.warn("{}: the server no longer has this connection: {}", what, e.reason);
                return;
            } catch (SystemException | References.ReferenceException e) {
                server.invalidate();
                final long delayMillis = backoff.nextDelayMillis();
                LOG.warn("{}: the server cannot be reached to submit ({}); retrying in {} ms", what, describe(e), delayMillis);
                sleep(delayMillis);
            }
        }
        if (running) {
            LOG.warn("{}: the result could not be submitted before the deadline; the server re-issues the request", what);
        } else {
            LOG.info("{}: stopping before the result was submitted; the server re-issues the request", what);
        }
    }

    private static HistogramBins bins(final RunResult run) {
        final LatencyHistogram histogram = LatencyHistogram.fromHdr(run.histogramNanos());
        return new HistogramBins(histogram.upperEdgesNanos(), histogram.counts(), histogram.overflowCount());
    }

    private static String describe(final Exception e) {
        if (e instanceof SystemException system) {
            final String name = system.getClass().getSimpleName();
            return system.getMessage() == null || system.getMessage().isBlank() ? name : name + ": " + system.getMessage();
        }
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }

    private void sleep(final long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            running = false;
        }
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        control.interrupt();
        measuring.interrupt();
        control.join(5_000);
        measuring.join(5_000);
    }
}
