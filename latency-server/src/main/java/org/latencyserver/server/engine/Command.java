package org.latencyserver.server.engine;

import java.util.function.LongConsumer;
import org.latencyserver.core.estimate.Estimate;
import org.latencyserver.core.estimate.Measurement;
import org.latencyserver.core.histogram.LatencyHistogram;
import org.latencyserver.core.traffic.TrafficShape;
import org.latencyserver.core.profile.Profile;
import org.latencyserver.server.table.ConnectionRow;
import org.latencyserver.server.table.Learning;
import org.latencyserver.server.table.MibReading;
import org.latencyserver.server.table.MibUpdate;
import org.latencyserver.server.table.ServedEstimate;

/**
 * Every change another thread may ask of the update engine: the sealed set of its commands, one
 * record each, carrying values only. {@link EngineProxy} queues them on the {@link EngineLoop};
 * the update thread applies each with {@link #applyTo}, the one place a command meets the engine.
 * A restart's replay of the saved state is commands too ({@link RestoreConnection}), applied by the
 * launching thread before the update thread starts (the engine is its until then).
 *
 * <p>Immutable and thread-safe (the values they carry are immutable).
 *
 * @param <T> the engine's answer
 */
public sealed interface Command<T> permits Command.PushedMib, Command.PolledMib, Command.Result, Command.ThesisResponse,
    Command.Probe, Command.SwapProfile, Command.RestoreConnection,
    Command.RestoreLearnedCells {

    /** @return what the command does, for messages ("the probe report for connection 3") */
    String describe();

    /**
     * Update thread only.
     *
     * @param engine   the engine
     * @param nowNanos monotonic time of the run
     * @return the engine's answer
     */
    T applyTo(UpdateEngine engine, long nowNanos);

    /**
     * MIB values pushed by an operator ({@code PutMibUpdates}): published even within tick-counter noise.
     *
     * @param indexRef the connection
     * @param update   the pushed sources' values (a polled source of the connection is not set)
     */
    record PushedMib(short indexRef, MibUpdate update) implements Command<Boolean> {
        @Override
        public String describe() {
            return "MIB values for connection " + indexRef;
        }

        /** @return false when no connection has this {@code index_ref} */
        @Override
        public Boolean applyTo(final UpdateEngine engine, final long nowNanos) {
            final ConnectionRow row = engine.table().row(indexRef);
            return row != null && engine.applyMib(indexRef, update.mergeInto(row.latest()), nowNanos);
        }
    }

    /**
     * MIB values the SNMP poller read (see {@link UpdateEngine#applyPolledMib}).
     *
     * @param indexRef      the connection
     * @param update        the polled sources' values
     * @param answeredNanos the poller's monotonic time of the answer, or {@code Long.MIN_VALUE} when untimed
     * @param answerToApply when timed, given {@code answeredNanos} on the update thread as the command runs, so the
     *                      poller can count the time from its answer to the update on its own clock
     */
    record PolledMib(short indexRef, MibUpdate update, long answeredNanos, LongConsumer answerToApply)
        implements Command<Boolean> {
        @Override
        public String describe() {
            return "polled MIB values for connection " + indexRef;
        }

        @Override
        public Boolean applyTo(final UpdateEngine engine, final long nowNanos) {
            final ConnectionRow row = engine.table().row(indexRef);
            if (answeredNanos != Long.MIN_VALUE) {
                answerToApply.accept(answeredNanos);
            }
            return row != null && engine.applyPolledMib(indexRef, update.mergeInto(row.latest()), nowNanos);
        }
    }

    /**
     * A measured result with its ticket (see {@link UpdateEngine#submitMeasurement}).
     *
     * @param indexRef    the connection
     * @param ticket      the ticket of the request it answers
     * @param measurement the round trips
     * @param agent       who measured
     */
    record Result(short indexRef, long ticket, Measurement measurement, String agent) implements Command<SubmitOutcome> {
        @Override
        public String describe() {
            return "the measured result for connection " + indexRef;
        }

        @Override
        public SubmitOutcome applyTo(final UpdateEngine engine, final long nowNanos) {
            return engine.submitMeasurement(indexRef, ticket, measurement, agent, nowNanos);
        }
    }

    /**
     * The thesis's {@code UpdateResponse} (see {@link UpdateEngine#submitThesisResponse}).
     *
     * @param indexRef           the connection
     * @param latencyAvgMillis   measured mean (QoS 3), ms
     * @param latencyBoundMillis measured bound (QoS 4), ms
     * @param upperMillis        upper end of the agent's interval, ms
     * @param lowerMillis        lower end, ms
     * @param dataProvided       the thesis's {@code latency_data_provided}
     */
    record ThesisResponse(short indexRef, float latencyAvgMillis, float latencyBoundMillis, float upperMillis,
                          float lowerMillis, short dataProvided) implements Command<SubmitOutcome> {
        @Override
        public String describe() {
            return "the UpdateResponse for connection " + indexRef;
        }

        @Override
        public SubmitOutcome applyTo(final UpdateEngine engine, final long nowNanos) {
            return engine.submitThesisResponse(indexRef, latencyAvgMillis, latencyBoundMillis, upperMillis, lowerMillis,
                dataProvided, nowNanos);
        }
    }

    /**
     * A client agent's probe window (see {@link UpdateEngine#submitProbe}).
     *
     * @param indexRef     the connection
     * @param clientNode   the reporting agent's node
     * @param roundTrips   the window's round trips, ns
     * @param meanMillis   their exact mean, ms
     * @param windowMillis how long the window lasted, ms
     * @param shape        the traffic shape the window's round trips were sent in
     */
    record Probe(short indexRef, String clientNode, LatencyHistogram roundTrips, double meanMillis, long windowMillis,
                 TrafficShape shape) implements Command<SubmitOutcome> {
        @Override
        public String describe() {
            return "the probe report for connection " + indexRef;
        }

        @Override
        public SubmitOutcome applyTo(final UpdateEngine engine, final long nowNanos) {
            return engine.submitProbe(indexRef, clientNode, roundTrips, meanMillis, windowMillis, shape, nowNanos);
        }
    }

    /**
     * A validated profile swapped in (see {@link UpdateEngine#swapProfile}).
     *
     * @param profile the profile
     */
    record SwapProfile(Profile profile) implements Command<Integer> {
        @Override
        public String describe() {
            return "profile " + profile.name();
        }

        /** @return how many connections were recomputed */
        @Override
        public Integer applyTo(final UpdateEngine engine, final long nowNanos) {
            return engine.swapProfile(profile);
        }
    }

    /**
     * A connection as it was saved before a restart (see {@link UpdateEngine#restore}): the state
     * file's record, or the journal's newest one for the connection.
     *
     * @param indexRef          the connection
     * @param latest            saved latest values
     * @param previous          saved previous values
     * @param estimate          the estimate served, or null
     * @param unavailableReason why none, or null
     * @param measurementWanted whether a measurement was awaited
     * @param measurement       the last measurement, or null
     * @param served            where the served estimate came from
     * @param learning          what was learned per load state
     */
    record RestoreConnection(short indexRef, MibReading latest, MibReading previous, Estimate estimate,
                             String unavailableReason, boolean measurementWanted, Measurement measurement,
                             ServedEstimate served, Learning learning) implements Command<Boolean> {
        @Override
        public String describe() {
            return "the saved state of connection " + indexRef;
        }

        /** @return false when no connection has this {@code index_ref} (nothing restored) */
        @Override
        public Boolean applyTo(final UpdateEngine engine, final long nowNanos) {
            if (engine.table().row(indexRef) == null) {
                return false;
            }
            engine.restore(indexRef, latest, previous, estimate, unavailableReason, measurementWanted, measurement, served,
                learning, nowNanos);
            return true;
        }
    }

    /**
     * The profile cells the primary learned from live probes, replacing this server's (a standby's copy of them).
     *
     * @param learned the learned cells by profile name, immutable
     */
    record RestoreLearnedCells(java.util.Map<String, java.util.Map<org.latencyserver.core.calibration.LearnedProfiles.CellKey,
        org.latencyserver.core.calibration.LearnedCell>> learned) implements Command<Boolean> {
        @Override
        public String describe() {
            return "the primary's learned profile cells";
        }

        /** @return true */
        @Override
        public Boolean applyTo(final UpdateEngine engine, final long nowNanos) {
            engine.restoreLearnedCells(learned);
            return true;
        }
    }
}
