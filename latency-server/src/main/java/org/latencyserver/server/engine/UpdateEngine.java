package org.latencyserver.server.engine;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.LongSupplier;
import org.latencyserver.core.calibration.LearnedCell;
import org.latencyserver.core.calibration.LearnedProfiles;
import org.latencyserver.core.estimate.Estimate;
import org.latencyserver.core.estimate.Measurement;
import org.latencyserver.core.histogram.LatencyHistogram;
import org.latencyserver.core.traffic.TrafficShape;
import org.latencyserver.core.profile.Profile;
import org.latencyserver.core.state.ConnectionLoadState;
import org.latencyserver.orb.EstimateSource;
import org.latencyserver.server.table.ConnectionRow;
import org.latencyserver.server.table.ConnectionTable;
import org.latencyserver.server.table.Learning;
import org.latencyserver.server.table.MibReading;
import org.latencyserver.server.table.ServedEstimate;

/**
 * The update engine: the one owner of the connection table's state (thesis section 4.2.4, phase 2, done
 * continuously). It takes the engine's commands — MIB values, results, probe windows, restored rows, profiles, the
 * periodic tick — and applies them through its policies, each of which it alone touches:
 * <ul>
 *   <li>{@link LoadClassification}: MIB values as load states, with hysteresis; polled tick-counter noise;</li>
 *   <li>{@link ServingPolicy}: what a connection serves in its state, and from where;</li>
 *   <li>{@link MeasurementScheduler}: when a QoS 3/4 request opens, waits or is re-issued;</li>
 *   <li>{@link ResultIntake}: which results are accepted, and under which state they are filed or taken back;</li>
 *   <li>{@link SettlingShapeTeachers}: what the trains of a settle window taught the shape models, taken back
 *   when the ports move;</li>
 *   <li>{@link ProbeLearning}: what probe windows test and teach.</li>
 * </ul>
 * Every change is published as a new immutable row version in the {@link ConnectionTable}, the read side other
 * threads use, and told to the listeners.
 *
 * <p>Thread-safety: every command method runs on the update thread (see {@link EngineLoop}); other threads send work
 * through the loop. Readers on other threads use the table, {@link #profiles()}, {@link #learnedCells()} (immutable
 * snapshots) and the counters (volatile, written by the update thread only). Time is passed in ({@code nowNanos}
 * from a monotonic clock); wall-clock milliseconds, used for ages and display, come from the injected supplier.
 */
public final class UpdateEngine {

    private final ConnectionTable table;
    private volatile Map<String, Profile> profilesByName;
    private final EngineSettings settings;
    private final InputLimits limits;
    private final LongSupplier epochMillis;
    private final List<EngineListener> listeners = new CopyOnWriteArrayList<>();
    private final LoadClassification classification;
    private final ServingPolicy serving;
    private final MeasurementScheduler scheduler;
    private final ResultIntake results;
    private final SettlingShapeTeachers settling;
    private final ProbeLearning probes;
    private final BandProbesBook bandProbes;
    /** Polled readings kept as tick-counter noise; written by the update thread only, volatile for the metrics endpoint. */
    private volatile long polledJitterKept;

    /**
     * @param table          the table this engine owns
     * @param profilesByName the profiles known at start-up
     * @param settings       thresholds, budgets, time-outs
     * @param ticketSource   unguessable non-zero tickets (a SecureRandom in production)
     * @param epochMillis    wall clock, for display only
     */
    public UpdateEngine(final ConnectionTable table, final Map<String, Profile> profilesByName, final EngineSettings settings,
                        final LongSupplier ticketSource, final LongSupplier epochMillis) {
        this(table, profilesByName, settings, InputLimits.DEFAULT, ticketSource, epochMillis);
    }

    /**
     * @param table          the table this engine owns
     * @param profilesByName the profiles known at start-up
     * @param settings       thresholds, budgets, time-outs
     * @param limits         what a submitted result or probe may be
     * @param ticketSource   unguessable non-zero tickets (a SecureRandom in production)
     * @param epochMillis    wall clock, for display only
     */
    public UpdateEngine(final ConnectionTable table, final Map<String, Profile> profilesByName, final EngineSettings settings,
                        final InputLimits limits, final LongSupplier ticketSource, final LongSupplier epochMillis) {
        this.table = table;
        this.profilesByName = Map.copyOf(profilesByName);
        this.settings = settings;
        this.limits = limits;
        this.epochMillis = epochMillis;
        final ResultPlausibility plausibility = new ResultPlausibility(limits);
        this.bandProbes = new BandProbesBook(table.rows());
        this.classification = new LoadClassification(settings);
        this.serving = new ServingPolicy(this::profiles, bandProbes, epochMillis, settings.dwellNanos() / 1_000_000);
        this.scheduler = new MeasurementScheduler(table, settings, ticketSource, epochMillis);
        this.settling = new SettlingShapeTeachers(settings.settleNanos());
        final ResultFiling filing = new ResultFiling(table, plausibility, serving, bandProbes, epochMillis, this::publish,
            this::servePathsBand, settling);
        this.results = new ResultIntake(filing, settings);
        this.probes = new ProbeLearning(filing, scheduler);
    }

    /** @param listener told of every change, on the update thread */
    public void addListener(final EngineListener listener) {
        listeners.add(listener);
    }

    /** @return the table (readers may use it from any thread) */
    public ConnectionTable table() {
        return table;
    }

    /** @return the composed paths' histograms the update thread computed (an immutable snapshot; any thread) */
    PathHistograms pathHistograms() {
        return serving.pathHistograms();
    }

    /** @return the profiles now in use, an immutable map safe to read from any thread */
    public Map<String, Profile> profiles() {
        return profilesByName;
    }

    /** @return the engine's settings */
    public EngineSettings settings() {
        return settings;
    }

    /** @return what a result, probe report or profile may be (any thread) */
    public InputLimits limits() {
        return limits;
    }

    /**
     * New MIB values for a connection (from {@code PutMibUpdates} or the SNMP poller). A value of
     * −1 means unknown: the end becomes UNKNOWN and the served estimate is kept but marked stale.
     *
     * @param indexRef the connection
     * @param reading  the values
     * @param nowNanos monotonic time
     * @return false when no connection has this {@code index_ref}
     */
    public boolean applyMib(final short indexRef, final MibReading reading, final long nowNanos) {
        final ConnectionRow row = table.row(indexRef);
        if (row == null) {
            return false;
        }
        apply(row, reading, classification.loadOf(row, reading), nowNanos, false);
        return true;
    }

    /**
     * As {@link #applyMib}, for values the SNMP poller read: a reading that moved by at most
     * {@value LoadClassification#POLLED_JITTER_PERCENT} point per end within the same load state (known ends staying
     * known) is tick-counter noise and is not published — the row, its version and its readings
     * stay as they were, so the table shows a polled value at most that far from the last poll.
     * Any change of load state, of an end's known-ness, or of more than that is applied as by
     * {@link #applyMib}. (Under a mass change on a busy host every poll of every loaded workstation
     * moved by a point; published, each was a row change for each of its connections.)
     *
     * @param indexRef the connection
     * @param reading  the polled values (merged with the pushed ends, if any)
     * @param nowNanos monotonic time
     * @return false when no connection has this {@code index_ref}
     */
    public boolean applyPolledMib(final short indexRef, final MibReading reading, final long nowNanos) {
        final ConnectionRow row = table.row(indexRef);
        if (row == null) {
            return false;
        }
        final ConnectionLoadState load = classification.loadOf(row, reading);
        if (load.equals(row.load()) && LoadClassification.withinJitter(row.latest(), reading)) {
            polledJitterKept++;
            return true;
        }
        apply(row, reading, load, nowNanos, true);
        return true;
    }

    /** @return polled readings not published as tick-counter noise since start (see {@link #applyPolledMib}; any thread) */
    public long polledJitterKept() {
        return polledJitterKept;
    }

    /**
     * @param polled whether the reading came from the SNMP poller, whose counters lag the load by up to an agent's
     *               refresh (a pushed reading is the load as the pusher saw it: nothing is taken back for it)
     */
    private void apply(final ConnectionRow row, final MibReading reading, final ConnectionLoadState load, final long nowNanos,
                       final boolean polled) {
        ConnectionRow next = row.withMib(reading, load, epochMillis.getAsLong()).withStaleInputs(LoadClassification.staleInputs(row.spec(), reading));
        if (load.isStateChangeFrom(row.load())) {
            bandProbes.entered(row.spec(), load.hops(), nowNanos);
            if (polled) {
                next = results.takeBackIfJustFiled(next, row.load(), nowNanos);
            }
            next = next.withLearning(settling.afterStateChange(row.spec().indexRef(), next.learning(), row.load(), load,
                polled, nowNanos));
            next = onStateChange(next.withLearning(next.learning().enteredStateAt(nowNanos)), row.load(), nowNanos);
        }
        publish(row, next);
    }

    private ConnectionRow onStateChange(final ConnectionRow row, final ConnectionLoadState before, final long nowNanos) {
        if (!row.load().isKnown()) {
            // Keep the last good estimate; the stale reason says why it may no longer hold.
            return row;
        }
        if (!row.spec().isMeasured()) {
            return serving.fromProfile(row);
        }
        if (row.spec().isAdaptive() && row.pending() != null && before.port().isLoaded() && before.hops().equals(row.load().hops())) {
            // Only the CPUs moved, on a loaded port whose queue decides: the open request still measures this port state.
            // It stays open (a result that straddles CPU states is pooled with the port state's probes, not filed under
            // either state); meanwhile what is known of the new state is served.
            return serving.known(row);
        }
        final String reason = "load state changed to " + ServingPolicy.label(row.load());
        final ConnectionRow cleared = row.withMeasurementRequest(null, ConnectionRow.NOT_DUE, row.lastMeasurementStartNanos())
            .withLearning(row.learning().withMeasurementReason(reason));
        if (!row.spec().isAdaptive()) {
            // Thesis semantics: the previous state's value stays, labelled as such, and any open request
            // (it measured the old state) is replaced at once — unless the port moved into or out of a loaded band
            // or between bands: an idle port's value is no estimate for a queueing one (nor the reverse), so what is
            // known of the new state is served instead (its last measurement, else the profile, else nothing).
            if (cleared.estimate() != null && ServingPolicy.pathBandChanged(before, row.load())) {
                return scheduler.openOrDefer(serving.known(cleared), nowNanos);
            }
            final ConnectionRow labelled = cleared.estimate() == null ? cleared
                : cleared.withServed(cleared.estimate(), cleared.unavailableReason(), cleared.served().relabelled(EstimateSource.PREVIOUS_STATE));
            return scheduler.request(labelled, nowNanos);
        }
        // Serve at once what is known of the new state; measure once it has held for the dwell.
        return scheduler.dueAfterDwell(serving.known(cleared), nowNanos);
    }

    /**
     * The periodic duty: re-issue requests past their deadline (with a new ticket), open deferred requests whose time
     * has come and for which the limits have room, and forget results whose settle window has passed.
     *
     * @param nowNanos monotonic time
     * @return how many rows changed
     */
    public int tick(final long nowNanos) {
        results.expireSettled(nowNanos);
        settling.expireSettled(nowNanos);
        return scheduler.tick(nowNanos, this::publish);
    }

    /**
     * A measured result with its ticket (the extended {@code submit_measurement}).
     *
     * @param indexRef    the connection
     * @param ticket      the ticket of the request it answers
     * @param measurement the round trips
     * @param agent       who measured, for the basis
     * @param nowNanos    monotonic time
     * @return accepted, or why not
     */
    public SubmitOutcome submitMeasurement(final short indexRef, final long ticket, final Measurement measurement,
                                           final String agent, final long nowNanos) {
        return results.submitMeasurement(indexRef, ticket, measurement, agent, nowNanos);
    }

    /**
     * The thesis's {@code UpdateResponse}: a client agent reports its own mean or bound and interval.
     * It carries no ticket, so it is accepted only while a request is open for the connection.
     *
     * @param indexRef       the connection
     * @param latencyAvgMillis   measured mean (QoS 3)
     * @param latencyBoundMillis measured bound (QoS 4)
     * @param upper          upper end of the agent's interval (ms for QoS 3, percent for QoS 4)
     * @param lower          lower end
     * @param dataProvided   the thesis's {@code latency_data_provided}, must be 1
     * @param nowNanos       monotonic time
     * @return accepted, or why not
     */
    public SubmitOutcome submitThesisResponse(final short indexRef, final float latencyAvgMillis, final float latencyBoundMillis,
                                              final float upper, final float lower, final short dataProvided, final long nowNanos) {
        return results.submitThesisResponse(indexRef, latencyAvgMillis, latencyBoundMillis, upper, lower, dataProvided, nowNanos);
    }

    /**
     * A client agent's probe window (the extended {@code submit_probe}): its round trips test the
     * estimate being served, feed the correction, and may show that the estimate stopped holding
     * (then a QoS 3/4 connection is re-measured, within the budget and the minimum interval).
     *
     * @param indexRef     the connection
     * @param clientNode   the reporting agent's node
     * @param roundTrips   the window's round trips, ns
     * @param meanMillis   their exact mean
     * @param windowMillis how long the window lasted
     * @param shape        the traffic shape the window's round trips were sent in (every round trip of a window in one)
     * @param nowNanos     monotonic time
     * @return accepted (also when not used: load unknown, nothing served, the window straddles a state change), or why not
     */
    public SubmitOutcome submitProbe(final short indexRef, final String clientNode, final LatencyHistogram roundTrips,
                                     final double meanMillis, final long windowMillis, final long nowNanos) {
        return submitProbe(indexRef, clientNode, roundTrips, meanMillis, windowMillis, null, nowNanos);
    }

    /**
     * As {@link #submitProbe(short, String, LatencyHistogram, double, long, long)}, for a window whose trains had a known
     * traffic shape: a bound's calibration is kept per shape class in each load state, and the bound served for a
     * connection with no declared traffic is read at the level of the worst class seen.
     *
     * @param shape the shape of the window's trains, as its report says, or null when unknown (counted under the
     *              client agent's classic probes, {@link org.latencyserver.core.calibration.StateKnowledge#CLASSIC_PROBES})
     */
    public SubmitOutcome submitProbe(final short indexRef, final String clientNode, final LatencyHistogram roundTrips,
                                     final double meanMillis, final long windowMillis, final TrafficShape shape,
                                     final long nowNanos) {
        return probes.submitProbe(indexRef, clientNode, roundTrips, meanMillis, windowMillis, shape, nowNanos);
    }

    /** @return results taken back from a load state that changed within the settle window (any thread) */
    public long resultsTakenBack() {
        return results.resultsTakenBack();
    }

    /** @return trains whose teaching of the shape models was taken back: the ports moved within the settle window (any thread) */
    public long shapeTrainsTakenBack() {
        return settling.shapeTrainsTakenBack();
    }

    /** @return results pooled with their port state's probes because the CPU states moved while they ran (any thread) */
    public long resultsPooledInBand() {
        return results.resultsPooledInBand();
    }

    /** @return the learned profile cells by profile name, an immutable snapshot safe to read from any thread */
    public Map<String, Map<LearnedProfiles.CellKey, LearnedCell>> learnedCells() {
        return probes.learnedCells();
    }

    /**
     * Replaces the learned profile cells with the primary's (a standby's copy, see {@link Command.RestoreLearnedCells}).
     *
     * @param learned the learned cells by profile name
     */
    public void restoreLearnedCells(final Map<String, Map<LearnedProfiles.CellKey, LearnedCell>> learned) {
        probes.restoreLearned(learned);
    }

    /** @return probe round trips accepted and tested since start (any thread) */
    public long probeRoundTrips() {
        return probes.probeRoundTrips();
    }

    /**
     * Restores a connection saved before a restart: its MIB values (classified afresh, without
     * hysteresis history), the estimate it served, its last measurement and calibration. A QoS 3/4
     * connection that was waiting for a measurement asks again: the old ticket died with the old
     * process.
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
     * @param nowNanos          monotonic time
     */
    public void restore(final short indexRef, final MibReading latest, final MibReading previous, final Estimate estimate,
                        final String unavailableReason, final boolean measurementWanted, final Measurement measurement,
                        final ServedEstimate served, final Learning learning, final long nowNanos) {
        final ConnectionRow row = table.row(indexRef);
        if (row == null) {
            return;
        }
        final ConnectionLoadState load = classification.restored(latest);
        settling.forget(indexRef);
        ConnectionRow restored = row.toBuilder().latest(latest).previous(previous).load(load).estimate(estimate)
            .unavailableReason(unavailableReason).staleInputs(LoadClassification.staleInputs(row.spec(), latest)).pending(null)
            .measurementDueNanos(ConnectionRow.NOT_DUE).lastMeasurementStartNanos(ConnectionRow.NOT_DUE).measurement(measurement)
            .served(serving.withReference(row, load, served, learning))
            .learning(learning.enteredStateAt(nowNanos).withMeasurementReason("restart: a measurement was awaited"))
            .version(row.version() + 1).changedEpochMillis(epochMillis.getAsLong()).build();
        if (row.spec().isMeasured() && measurementWanted && restored.load().isKnown()) {
            restored = scheduler.request(restored, nowNanos);
        }
        publish(row, restored);
    }

    /**
     * Swaps a profile in (new or replacing one of the same name) and recomputes the QoS 1/2
     * connections that use it. The new profile is the new baseline: what was learned against the old one is dropped.
     *
     * @param profile a validated profile
     * @return how many connections were recomputed
     */
    public int swapProfile(final Profile profile) {
        final HashMap<String, Profile> next = new HashMap<>(profilesByName);
        final Profile replaced = next.put(profile.name(), profile);
        if (replaced != null) {
            serving.forget(replaced);
        }
        profilesByName = Map.copyOf(next);
        probes.forgetLearned(profile.name());
        int recomputed = 0;
        for (final ConnectionRow row : table.rows()) {
            if (!row.spec().isMeasured() && profile.name().equals(row.spec().profileName()) && row.load().isKnown()) {
                publish(row, serving.fromProfile(row));
                recomputed++;
            }
        }
        return recomputed;
    }

    /**
     * Round trips of {@code source}'s path joined its port state's band probes: the path's other connections in that
     * state serve them again where they serve them or a stand-in they replace (published when the value or its source
     * changed, so that a probe window does not push every connection of its path).
     */
    private void servePathsBand(final ConnectionRow source) {
        for (final short indexRef : bandProbes.pathOf(source.spec())) {
            final ConnectionRow row = table.row(indexRef);
            if (indexRef == source.spec().indexRef() || !row.load().isKnown() || !source.load().hops().equals(row.load().hops())) {
                continue;
            }
            final ConnectionRow next = serving.afterBandProbes(row);
            if (next != row && (next.estimate() == null ? row.estimate() != null : row.estimate() == null
                || next.estimate().valueMillis() != row.estimate().valueMillis()
                || next.served().source() != row.served().source())) {
                publish(row, next);
            }
        }
    }

    private void publish(final ConnectionRow before, final ConnectionRow after) {
        final ConnectionRow stamped = after.version() == before.version() ? after.withNextVersion(epochMillis.getAsLong()) : after;
        scheduler.track(table.row(stamped.spec().indexRef()), stamped);
        table.publish(stamped);
        final boolean newRequest = stamped.pending() != null
            && (before.pending() == null || before.pending().ticket() != stamped.pending().ticket());
        for (final EngineListener listener : listeners) {
            listener.rowChanged(before, stamped);
            if (newRequest) {
                listener.measurementRequested(stamped);
            }
        }
    }
}
