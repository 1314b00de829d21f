package org.latencyserver.server.standby;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;
import java.nio.charset.StandardCharsets;
import org.latencyserver.core.profile.Profile;
import org.latencyserver.core.profile.ProfileJson;
import org.latencyserver.core.profile.ProfileLimits;
import org.latencyserver.core.profile.ProfileValidationException;
import org.latencyserver.launch.agent.AgentRunner;
import org.latencyserver.launch.agent.DistinctErrorLog;
import org.latencyserver.launch.agent.NoIdleStrategy;
import org.latencyserver.launch.agent.TaskQueueAgent;
import org.latencyserver.server.engine.Command;
import org.latencyserver.server.engine.ProfileInstaller;
import org.latencyserver.server.engine.UpdateEngine;
import org.latencyserver.server.persistence.LearnedCellsCodec;
import org.latencyserver.server.persistence.ReplicaRecords;

/**
 * The standby's side of the pair: applies the primary's records to this server's engine, as a
 * restart restores its saved records, on a thread of its own ({@code standby-apply}) that owns the
 * engine while this server stands by (its update thread has not started). Each record becomes the
 * connection's row; its listeners hear it, so the standby's own state store saves it too.
 *
 * <p>A profile the primary loaded is swapped in here too and kept for this server's next start; the
 * changes of the profile cells it learned from probes are applied to this server's.
 *
 * <p>A standby opens no measurement: a record that says a measurement was awaited is applied
 * without asking for one, and remembered; {@link #handOver} gives those back so the new primary
 * asks for them once it owns the engine.
 *
 * <p>A server that served as primary and stepped down stands by again with its update thread
 * running: after {@link #resumeThroughLoop} the records are applied as commands of that thread
 * ({@link #useLoop}'s proxy), and {@link #handOver} ends that mode for the next takeover.
 *
 * <p>Thread-safety: {@link #apply} from any thread (JGroups' delivery), each waiting for its
 * records to be applied; {@link #handOver} from the thread that takes the engine over (it
 * returns after the applier's thread ended, so that thread's writes happen-before the caller's).
 * The records that awaited a measurement are kept under the map's own lock; through the update
 * thread, a message's records are applied and remembered under that lock, which {@link #handOver}
 * takes too, so a record delivered while the engine is handed over is either in the hand-over's
 * list or refused (the primary's send fails), never applied and forgotten. The lock is never
 * taken on the request path.
 */
public final class ReplicaApplier implements AutoCloseable {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(ReplicaApplier.class);

    private final UpdateEngine engine;
    private final int maxHistogramBins;
    private final LongSupplier nanoClock;
    private final TaskQueueAgent tasks = TaskQueueAgent.named("standby-apply").build();
    private final AgentRunner runner;
    /**
     * The newest record of each connection whose measurement was awaited. Its lock also orders the records applied through
     * the update thread against {@link #handOver}: such a record is applied and remembered whole before the hand-over
     * takes the map, or refused after it.
     */
    private final Map<Short, Command.RestoreConnection> awaitingMeasurement = new HashMap<>();
    /** Set by {@link #handOver}, cleared by {@link #resumeThroughLoop}; guarded by {@link #awaitingMeasurement}. */
    private boolean handedOver;
    private final LongAdder recordsApplied = new LongAdder();
    private final ProfileLimits profileLimits;
    private final ProfileInstaller.ProfileKeeper profileKeeper;
    /** The running update thread's commands, for a standby that served before; set once by the server. */
    private volatile org.latencyserver.server.engine.EngineProxy loop;
    /** Whether records go through {@link #loop} (a server that stepped down and stands by again). */
    private volatile boolean throughLoop;

    /**
     * @param engine           the standby's engine, whose update thread does not run while it stands by
     * @param maxHistogramBins the most bins a record's histogram may have
     * @param nanoClock        monotonic time for the restored rows
     */
    public ReplicaApplier(final UpdateEngine engine, final int maxHistogramBins, final LongSupplier nanoClock) {
        this(engine, maxHistogramBins, nanoClock, ProfileLimits.DEFAULT, profile -> { });
    }

    /**
     * @param engine           the standby's engine, whose update thread does not run while it stands by
     * @param maxHistogramBins the most bins a record's histogram may have
     * @param nanoClock        monotonic time for the restored rows
     * @param profileLimits    the limits a profile from the primary is read within
     * @param profileKeeper    keeps a profile from the primary for this server's next start (and tells its own sender)
     */
    public ReplicaApplier(final UpdateEngine engine, final int maxHistogramBins, final LongSupplier nanoClock,
                          final ProfileLimits profileLimits, final ProfileInstaller.ProfileKeeper profileKeeper) {
        this.profileLimits = profileLimits;
        this.profileKeeper = profileKeeper;
        this.engine = engine;
        this.maxHistogramBins = maxHistogramBins;
        this.nanoClock = nanoClock;
        this.runner = new AgentRunner(tasks, NoIdleStrategy.INSTANCE, new DistinctErrorLog("standby-apply"), System::nanoTime,
            Duration.ofSeconds(5));
        runner.start();
    }

    /**
     * Applies the primary's records and returns once they are in the table.
     *
     * @param records       {@link ReplicaRecords}' lines
     * @param timeoutMillis how long to wait for them to be applied
     * @throws IllegalArgumentException when a record is damaged or names a connection this configuration lacks (nothing
     *                                  of the message is applied)
     * @throws IllegalStateException    when the applier was handed over, or did not apply them in time
     */
    public void apply(final byte[] records, final long timeoutMillis) {
        final List<Command.RestoreConnection> commands = ReplicaRecords.decode(records, engine.table(), maxHistogramBins);
        if (throughLoop) {
            applyThroughLoop(commands);
            return;
        }
        waitFor(() -> {
            applyOnOwnThread(commands);
            return null;
        }, timeoutMillis);
    }

    /**
     * Swaps in a profile the primary loaded (as {@code load_profile} does there) and keeps it for this server's next
     * start; returns once it serves here.
     *
     * @param json          the profile's JSON
     * @param timeoutMillis how long to wait for it to be applied
     * @throws IllegalArgumentException when the profile is refused by this server's limits
     * @throws IllegalStateException    when the applier was handed over, or did not apply it in time
     */
    public void applyProfile(final byte[] json, final long timeoutMillis) {
        final Profile profile;
        try {
            profile = ProfileJson.parse(new String(json, StandardCharsets.UTF_8), "the primary's loaded profile", profileLimits);
        } catch (ProfileValidationException e) {
            throw new IllegalArgumentException("the primary's loaded profile is refused here: " + e.getMessage(), e);
        }
        if (throughLoop) {
            synchronized (awaitingMeasurement) {
                refuseAfterHandOver();
                try {
                    runningLoop().swapProfile(profile);
                    profileKeeper.keep(profile);
                } catch (org.latencyserver.server.engine.EngineCallException | java.io.IOException e) {
                    throw new IllegalStateException("the primary's profile " + profile.name() + " was not applied: " + e, e);
                }
            }
            return;
        }
        waitFor(() -> {
            engine.swapProfile(profile);
            try {
                profileKeeper.keep(profile);
            } catch (java.io.IOException e) {
                LOG.error("profile {} from the primary serves but could not be kept for a restart: {}", profile.name(), e.getMessage());
            }
            return null;
        }, timeoutMillis);
    }

    /**
     * Applies a change of the primary's learned profile cells to this server's; returns once they are in the engine.
     *
     * @param json          {@link LearnedCellsCodec}'s form
     * @param timeoutMillis how long to wait for them to be applied
     * @throws IllegalArgumentException when the cells are damaged (none is applied)
     * @throws IllegalStateException    when the applier was handed over, or did not apply them in time
     */
    public void applyLearned(final byte[] json, final long timeoutMillis) {
        final LearnedCellsCodec.Change change = LearnedCellsCodec.decode(json,
            Math.max(maxHistogramBins, org.latencyserver.core.calibration.LearnedCell.GRID_BINS));
        // The standby learns nothing itself: its cells change only here, one message at a time, so reading them and
        // applying the change is not raced (on the applier's thread, or under the lock through the update thread).
        if (throughLoop) {
            synchronized (awaitingMeasurement) {
                refuseAfterHandOver();
                try {
                    runningLoop().call(new Command.RestoreLearnedCells(change.applyTo(engine.learnedCells())));
                } catch (org.latencyserver.server.engine.EngineCallException e) {
                    throw new IllegalStateException("the primary's learned cells were not applied: " + e, e);
                }
            }
            return;
        }
        waitFor(() -> new Command.RestoreLearnedCells(change.applyTo(engine.learnedCells())).applyTo(engine,
            nanoClock.getAsLong()), timeoutMillis);
    }

    private void waitFor(final java.util.concurrent.Callable<Object> task, final long timeoutMillis) {
        try {
            tasks.submit(task).get(timeoutMillis, TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.RejectedExecutionException e) {
            throw new IllegalStateException("this server no longer stands by: not applied", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("not applied: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while applying", e);
        }
    }

    private void applyOnOwnThread(final List<Command.RestoreConnection> commands) {
        final long now = nanoClock.getAsLong();
        for (final Command.RestoreConnection command : commands) {
            withoutMeasurement(command).applyTo(engine, now);
            remember(command);
        }
    }

    private void applyThroughLoop(final List<Command.RestoreConnection> commands) {
        final org.latencyserver.server.engine.EngineProxy proxy = runningLoop();
        synchronized (awaitingMeasurement) { // a hand-over waits for these records, or refuses them
            refuseAfterHandOver();
            for (final Command.RestoreConnection command : commands) {
                try {
                    proxy.call(withoutMeasurement(command));
                } catch (org.latencyserver.server.engine.EngineCallException e) {
                    throw new IllegalStateException("record of connection " + command.indexRef() + " not applied: " + e, e);
                }
                remember(command);
            }
        }
    }

    /** Guarded by {@link #awaitingMeasurement}: through the loop, nothing is applied once the engine was handed over. */
    private void refuseAfterHandOver() {
        if (handedOver) {
            throw new IllegalStateException("this server no longer stands by (handed over): not applied");
        }
    }

    private void remember(final Command.RestoreConnection command) {
        synchronized (awaitingMeasurement) {
            if (command.measurementWanted()) {
                awaitingMeasurement.put(command.indexRef(), command);
            } else {
                awaitingMeasurement.remove(command.indexRef());
            }
        }
        recordsApplied.increment();
    }

    private org.latencyserver.server.engine.EngineProxy runningLoop() {
        final org.latencyserver.server.engine.EngineProxy proxy = loop;
        if (proxy == null) {
            throw new IllegalStateException("this server has no running update thread to apply the primary's records with");
        }
        return proxy;
    }

    /**
     * @param proxy the update thread's commands, for when this server stands by again after serving
     */
    public void useLoop(final org.latencyserver.server.engine.EngineProxy proxy) {
        this.loop = proxy;
    }

    /** This server stepped down and stands by again: records are applied through its running update thread. */
    public void resumeThroughLoop() {
        synchronized (awaitingMeasurement) {
            handedOver = false;
        }
        throughLoop = true;
    }

    private static Command.RestoreConnection withoutMeasurement(final Command.RestoreConnection c) {
        return c.measurementWanted() ? new Command.RestoreConnection(c.indexRef(), c.latest(), c.previous(), c.estimate(),
            c.unavailableReason(), false, c.measurement(), c.served(), c.learning()) : c;
    }

    /**
     * Stops applying (its thread ends after the records under way) and hands the engine to the caller.
     *
     * @return the newest records of the connections that awaited a measurement, for the new primary to apply again with
     *         their request
     */
    public List<Command.RestoreConnection> handOver() {
        runner.close();
        throughLoop = false;
        synchronized (awaitingMeasurement) { // after the records being applied through the loop, before any later one
            handedOver = true;
            final List<Command.RestoreConnection> awaiting = new ArrayList<>(awaitingMeasurement.values());
            awaitingMeasurement.clear();
            return awaiting;
        }
    }

    /** @return records applied since start */
    public long recordsApplied() {
        return recordsApplied.sum();
    }

    @Override
    public void close() {
        runner.close();
    }
}
