package org.latencyserver.server.engine;

import org.latencyserver.core.estimate.Measurement;
import org.latencyserver.core.histogram.LatencyHistogram;
import org.latencyserver.core.profile.Profile;
import org.latencyserver.server.table.MibUpdate;

/**
 * The write side of the update engine, for every thread but the update thread: one method per
 * command, each run on the {@link EngineLoop}'s thread and answered with the engine's typed
 * outcome.
 *
 * <p>A waiting method gives the update thread {@code timeoutMillis} to take the command. If it
 * does not, the command is cancelled and the caller gets an {@link EngineTimeoutException}: the
 * command was not applied and will not be applied later. If the update thread took it just in
 * time, the caller waits for it to finish and gets its outcome. A stopped loop answers
 * {@link EngineStoppedException}; a command that threw, {@link EngineCommandFailedException}.
 *
 * <p>Thread-safety: any thread but the update thread (which would wait for itself).
 */
public final class EngineProxy {

    /**
     * How long a caller's command may wait in the queue by default. The update thread takes a
     * command within milliseconds; only a stalled thread (a long GC, a starved machine) makes one
     * wait this long, and then the caller learns it was not applied rather than waiting on.
     */
    public static final long DEFAULT_TIMEOUT_MILLIS = 5_000;

    private final EngineLoop loop;
    private final long timeoutMillis;

    /** @param loop the update loop; waiting commands are cancelled after {@link #DEFAULT_TIMEOUT_MILLIS} */
    public EngineProxy(final EngineLoop loop) {
        this(loop, DEFAULT_TIMEOUT_MILLIS);
    }

    /**
     * @param loop          the update loop
     * @param timeoutMillis how long a waiting command may stay queued before it is cancelled, {@code > 0}
     */
    public EngineProxy(final EngineLoop loop, final long timeoutMillis) {
        if (timeoutMillis <= 0) {
            throw new IllegalArgumentException("timeoutMillis must be > 0, was " + timeoutMillis);
        }
        this.loop = loop;
        this.timeoutMillis = timeoutMillis;
    }

    /** @return how long a waiting command may stay queued */
    public long timeoutMillis() {
        return timeoutMillis;
    }

    /**
     * Pushed MIB values (see {@link UpdateEngine#applyMib}), merged on the update thread into the
     * connection's latest reading there, so that a merge of pushed and polled sources sees the
     * newest polled values.
     *
     * @param indexRef the connection
     * @param update   the pushed sources' values
     * @return false when no connection has this {@code index_ref}
     * @throws EngineCallException when the update thread gave no outcome
     */
    public boolean applyMib(final short indexRef, final MibUpdate update) throws EngineCallException {
        return call(new Command.PushedMib(indexRef, update));
    }

    /**
     * A command queued without waiting (for producers that must never wait: the SNMP poller). A
     * failing command is logged and counted by the loop.
     *
     * @param command the command, e.g. {@link Command.PolledMib}
     * @return false when the loop is stopped and the command was dropped
     */
    public boolean post(final Command<?> command) {
        return loop.submit(new EngineCommand<>(command));
    }

    /**
     * A measured result with its ticket (see {@link UpdateEngine#submitMeasurement}).
     *
     * @param indexRef    the connection
     * @param ticket      the ticket of the request it answers
     * @param measurement the round trips
     * @param agent       who measured
     * @return accepted, or why not
     * @throws EngineCallException when the update thread gave no outcome
     */
    public SubmitOutcome submitMeasurement(final short indexRef, final long ticket, final Measurement measurement,
                                           final String agent) throws EngineCallException {
        return call(new Command.Result(indexRef, ticket, measurement, agent));
    }

    /**
     * The thesis's {@code UpdateResponse} (see {@link UpdateEngine#submitThesisResponse}).
     *
     * @param indexRef           the connection
     * @param latencyAvgMillis   measured mean (QoS 3)
     * @param latencyBoundMillis measured bound (QoS 4)
     * @param upper              upper end of the agent's interval
     * @param lower              lower end
     * @param dataProvided       the thesis's {@code latency_data_provided}
     * @return accepted, or why not
     * @throws EngineCallException when the update thread gave no outcome
     */
    public SubmitOutcome submitThesisResponse(final short indexRef, final float latencyAvgMillis, final float latencyBoundMillis,
                                              final float upper, final float lower, final short dataProvided)
        throws EngineCallException {
        return call(new Command.ThesisResponse(indexRef, latencyAvgMillis, latencyBoundMillis, upper, lower, dataProvided));
    }

    /**
     * A client agent's probe window (see {@link UpdateEngine#submitProbe}).
     *
     * @param indexRef     the connection
     * @param clientNode   the reporting agent's node
     * @param roundTrips   the window's round trips, ns
     * @param meanMillis   their exact mean
     * @param windowMillis how long the window lasted
     * @return accepted, or why not
     * @throws EngineCallException when the update thread gave no outcome
     */
    public SubmitOutcome submitProbe(final short indexRef, final String clientNode, final LatencyHistogram roundTrips,
                                     final double meanMillis, final long windowMillis) throws EngineCallException {
        return submitProbe(indexRef, clientNode, roundTrips, meanMillis, windowMillis, null);
    }

    /**
     * A client agent's probe window whose trains had a known traffic shape (see {@link UpdateEngine#submitProbe(short,
     * String, LatencyHistogram, double, long, org.latencyserver.core.traffic.ShapeClass, long)}).
     *
     * @param shape the class of the trains' shape, or null when unknown
     * @return accepted, or why not
     * @throws EngineCallException when the update thread gave no outcome
     */
    public SubmitOutcome submitProbe(final short indexRef, final String clientNode, final LatencyHistogram roundTrips,
                                     final double meanMillis, final long windowMillis,
                                     final org.latencyserver.core.traffic.ShapeClass shape) throws EngineCallException {
        return call(new Command.Probe(indexRef, clientNode, roundTrips, meanMillis, windowMillis, shape));
    }

    /**
     * Swaps a profile in (see {@link UpdateEngine#swapProfile}).
     *
     * @param profile a validated profile
     * @return how many connections were recomputed
     * @throws EngineCallException when the update thread gave no outcome
     */
    public int swapProfile(final Profile profile) throws EngineCallException {
        return call(new Command.SwapProfile(profile));
    }

    /**
     * Runs one of the engine's commands on the update thread and waits for its answer.
     *
     * @param command the command
     * @param <T>     its answer's type
     * @return the engine's answer
     * @throws EngineCallException when the update thread gave no outcome (see the class comment)
     */
    public <T> T call(final Command<T> command) throws EngineCallException {
        return call(new EngineCommand<>(command));
    }

    private <T> T call(final EngineCommand<T> command) throws EngineCallException {
        if (!loop.submit(command)) {
            throw new EngineStoppedException(command.name() + " was not applied: the update thread is stopped");
        }
        return command.await(timeoutMillis);
    }
}
