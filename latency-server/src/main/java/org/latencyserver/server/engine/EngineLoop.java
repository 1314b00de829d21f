package org.latencyserver.server.engine;

import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.latencyserver.launch.agent.Agent;
import org.latencyserver.launch.agent.AgentRunner;
import org.latencyserver.launch.agent.DistinctErrorLog;
import org.latencyserver.launch.agent.NoIdleStrategy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The update thread: it alone touches the {@link UpdateEngine}. Other threads (CORBA servant
 * threads, SNMP callbacks) send it typed commands through an {@link EngineProxy} and read the
 * published rows through the {@link EngineQuery} of {@link #query()}; the loop hands the engine to
 * no other thread (commands get it only while they run on this one). Between commands it runs the engine's
 * periodic duty every {@code tickIntervalNanos}.
 *
 * <p>An {@link Agent} on its own {@link AgentRunner}: each round waits for a command at most until
 * the next tick is due (so the runner needs no idle strategy of its own), runs it, then runs the
 * tick when due. A failing command or tick is counted in the runner's {@link DistinctErrorLog} (once
 * logged per distinct error), and the loop carries on with the last good table. A command whose caller gave up before the loop took it is skipped
 * (see {@link EngineCommand}: the loop only runs a command it moved from PENDING to RUNNING).
 *
 * <p>Thread-safety: {@link #submit} may be used from any thread; {@link #start}/{@link #close} once.
 */
public final class EngineLoop implements AutoCloseable {

    /** The update thread's role and thread name. */
    public static final String ROLE = "latency-update";

    private static final Logger LOG = LoggerFactory.getLogger(EngineLoop.class);
    /** How long close waits for the update thread to finish the command it runs. */
    private static final Duration JOIN_WAIT = Duration.ofMillis(2000);

    private final UpdateEngine engine;
    private final EngineQuery query;
    private final LongSupplier nanoClock;
    private final long tickIntervalNanos;
    private final BlockingQueue<EngineCommand<?>> commands = new LinkedBlockingQueue<>();
    /** Commands skipped because their caller had cancelled them; written by the update thread. */
    private final AtomicLong commandsSkipped = new AtomicLong();
    private final AgentRunner thread;
    /** When the engine's duty is next due, on {@link #nanoClock}; owned by the update thread. */
    private long nextTickNanos;

    /**
     * @param engine            the engine this loop owns; no other thread may use it once the loop is started
     * @param nanoClock         monotonic time, e.g. {@code System::nanoTime}
     * @param tickIntervalNanos period of the engine's duty (time-outs, deferred requests)
     */
    public EngineLoop(final UpdateEngine engine, final LongSupplier nanoClock, final long tickIntervalNanos) {
        this.engine = engine;
        this.query = new EngineQuery(engine);
        this.nanoClock = nanoClock;
        this.tickIntervalNanos = tickIntervalNanos;
        this.thread = new AgentRunner(new UpdateAgent(), NoIdleStrategy.INSTANCE,
                new DistinctErrorLog(ROLE), nanoClock, JOIN_WAIT);
    }

    /** Starts the update thread. */
    public void start() {
        thread.start();
    }

    /** @return the read side: published rows and immutable snapshots, safe from any thread */
    public EngineQuery query() {
        return query;
    }

    /**
     * Queues a command (any thread).
     *
     * @param command the command, PENDING
     * @return false when the loop is stopped; the command is then cancelled and never runs
     */
    boolean submit(final EngineCommand<?> command) {
        if (!thread.running()) {
            command.cancel();
            return false;
        }
        commands.add(command);
        if (!thread.running()) {
            // close() may have drained the queue before the add: cancel it ourselves (a no-op if the loop took it).
            command.cancel();
        }
        return true;
    }

    /** @return commands (and ticks) that threw since start */
    public long commandErrors() {
        return thread.errors().totalCount();
    }

    /** @return the update thread's failures by distinct error */
    public DistinctErrorLog errors() {
        return thread.errors();
    }

    /** @return the loop's and its engine's counters, read now (any thread) */
    public EngineCounters counters() {
        return new EngineCounters(commandErrors(), engine.probeRoundTrips(), engine.polledJitterKept(), engine.resultsTakenBack(),
            engine.resultsPooledInBand(), engine.shapeTrainsTakenBack());
    }

    /** @return commands skipped since start because their caller had given up on them (time-out) */
    public long commandsSkipped() {
        return commandsSkipped.get();
    }

    /** The update thread's duty cycle. */
    private final class UpdateAgent implements Agent {

        @Override
        public void onStart() {
            nextTickNanos = nanoClock.getAsLong();
        }

        @Override
        public int doWork(final long nowNanos) throws InterruptedException {
            final long waitNanos = Math.max(0, nextTickNanos - nowNanos);
            final EngineCommand<?> command = commands.poll(waitNanos, TimeUnit.NANOSECONDS);
            if (command != null) {
                runClaimed(command);
            }
            // The duty runs on time even while commands keep arriving.
            final long afterNanos = nanoClock.getAsLong();
            if (afterNanos - nextTickNanos >= 0) {
                runCounted(() -> engine.tick(afterNanos));
                nextTickNanos = afterNanos + tickIntervalNanos;
            }
            return command == null ? 0 : 1;
        }

        @Override
        public String roleName() {
            return ROLE;
        }

        @Override
        public boolean wakesByInterrupt() {
            return true;
        }
    }

    private void runClaimed(final EngineCommand<?> command) {
        if (!command.tryStart()) {
            commandsSkipped.incrementAndGet();
            LOG.debug("skipped {}: its caller gave up waiting", command.name());
            return;
        }
        runCounted(() -> command.runStarted(engine, nanoClock.getAsLong()));
    }

    private void runCounted(final Runnable command) {
        try {
            command.run();
        } catch (RuntimeException e) {
            // Counted and logged once per distinct error; the table keeps its last good state.
            thread.errors().record(e);
        }
    }

    /**
     * Stops the update thread; commands still queued are cancelled, so their callers learn at once
     * that they were not applied.
     */
    @Override
    public void close() {
        thread.close();
        EngineCommand<?> left;
        while ((left = commands.poll()) != null) {
            left.cancel();
        }
    }
}
