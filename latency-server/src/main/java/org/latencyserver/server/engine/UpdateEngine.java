package org.latencyserver.server.engine;

import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.LongSupplier;
import org.latencyserver.core.calibration.BandProbes;
import org.latencyserver.core.calibration.EstimateCorrection;
import org.latencyserver.core.calibration.LearnedCell;
import org.latencyserver.core.calibration.LearnedProfiles;
import org.latencyserver.core.calibration.StateKnowledge;
import org.latencyserver.core.estimate.Estimate;
import org.latencyserver.core.estimate.EstimateKind;
import org.latencyserver.core.estimate.EstimateRefusedException;
import org.latencyserver.core.estimate.ProfileHistograms;
import org.latencyserver.core.estimate.Measurement;
import org.latencyserver.core.estimate.Qos;
import org.latencyserver.core.histogram.LatencyHistogram;
import org.latencyserver.core.profile.Profile;
import org.latencyserver.core.profile.ProfileCell;
import org.latencyserver.core.state.ConnectionLoadState;
import org.latencyserver.core.state.CpuState;
import org.latencyserver.core.state.CpuStateClassifier;
import org.latencyserver.core.state.CpuStatePair;
import org.latencyserver.core.state.MeasurementSchedule;
import org.latencyserver.core.state.PortState;
import org.latencyserver.core.state.PortStateClassifier;
import org.latencyserver.core.stats.ConfidenceInterval;
import org.latencyserver.server.table.ConnectionRow;
import org.latencyserver.server.table.ConnectionTable;
import org.latencyserver.server.table.Learning;
import org.latencyserver.server.table.MibReading;
import org.latencyserver.server.table.PendingMeasurement;
import org.latencyserver.server.table.ServedEstimate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The update engine: the one owner of the connection table's state (thesis section 4.2.4, phase
 * 2, done continuously). It classifies MIB values, recomputes QoS 1/2 estimates on every state
 * change, opens measurement requests for QoS 3/4 (deferring, never dropping, those due sooner
 * than the minimum interval or beyond the concurrency budget), re-issues timed-out requests with
 * a new ticket, accepts a result only with its open ticket, and keeps calibration.
 *
 * <p>Thread-safety: not thread-safe, by design. Every method runs on the update thread (see
 * {@link EngineLoop}); other threads send it work through the loop and read the published rows.
 * Time is passed in ({@code nowNanos} from a monotonic clock); wall-clock milliseconds, used only
 * for display, come from the injected supplier.
 */
public final class UpdateEngine {

    private static final Logger LOG = LoggerFactory.getLogger(UpdateEngine.class);

    /** A polled end that moved by at most this many points within its load state is noise (see {@link #applyPolledMib}). */
    static final int POLLED_JITTER_PERCENT = 1;

    private final ConnectionTable table;
    /**
     * The {@code index_ref}s of the rows with a measurement request open or due: all that the
     * periodic duty looks at, so that a tick costs what is pending, not the table (at 25,000
     * connections a scan of every row every 50 ms was the update thread's largest cost).
     */
    private final BitSet openOrDue = new BitSet();
    /** Rows with a measurement request open. */
    private int openRequests;
    /**
     * Open requests by client workstation: a client agent measures one request at a time, so one opened beyond
     * {@link EngineSettings#maxOpenPerClient()} would wait behind the others while its deadline ran; it waits here, due.
     */
    private final Map<String, Integer> openByClient = new HashMap<>();
    private volatile Map<String, Profile> profilesByName;
    private final EngineSettings settings;
    private final InputLimits limits;
    private final ResultPlausibility plausibility;
    private final RoundTripBudget budget;
    private final CpuStateClassifier cpuClassifier;
    private final PortStateClassifier portClassifier;
    private final MeasurementSchedule schedule;
    private final LongSupplier ticketSource;
    private final LongSupplier epochMillis;
    private final List<EngineListener> listeners = new CopyOnWriteArrayList<>();
    /** QoS 1/2 estimates by profile, state and size, shared by the rows (update thread only). */
    private final ProfileEstimates profileEstimates = new ProfileEstimates();
    /** Probe round trips accepted since start; written by the update thread, read by metrics. */
    private volatile long probeRoundTrips;
    /** Written by the update thread only; volatile for the metrics endpoint. */
    private volatile long polledJitterKept;
    /** Results taken back from a load state that changed within the settle window after them; update thread writes. */
    private volatile long resultsTakenBack;
    /** Results pooled with their port state's probes because the CPU states moved while they ran; update thread writes. */
    private volatile long resultsPooledInBand;
    /**
     * The last accepted measurement of each connection, while the settle window after it runs: the row as it was
     * before, to take the result back from its load state if that state turns out not to have held. Update thread only.
     */
    private final Map<Short, JustFiled> justFiled = new HashMap<>();

    /**
     * A result filed under a load state, still within the settle window.
     *
     * @param before        the row before the result was filed
     * @param acceptedNanos when it was accepted, monotonic
     * @param ticket        its ticket, for the log
     */
    private record JustFiled(ConnectionRow before, long acceptedNanos, long ticket) {
    }
    /**
     * What probes of QoS 1/2 connections taught about their profiles' cells, by profile name: written
     * by the update thread only, published as an immutable snapshot for readers.
     */
    private volatile Map<String, Map<LearnedProfiles.CellKey, LearnedCell>> learnedCells = Map.of();

    /**
     * Each connection's recent probe windows per loaded port state (update thread only). Not saved: after a restart
     * they are probed again within {@value BandProbes#MIN_ROUND_TRIPS} round trips.
     */
    private final Map<BandKey, BandProbes> bandProbes = new HashMap<>();

    /** A connection in a loaded port state. */
    private record BandKey(short indexRef, PortState port) {
    }

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
        for (final ConnectionRow row : table.rows()) {
            track(null, row);
        }
        this.profilesByName = Map.copyOf(profilesByName);
        this.settings = settings;
        this.limits = limits;
        this.plausibility = new ResultPlausibility(limits);
        this.cpuClassifier = new CpuStateClassifier(settings.cpuThresholds());
        this.portClassifier = new PortStateClassifier(90, settings.portHysteresisBandPercent(), settings.portBands());
        this.schedule = new MeasurementSchedule(settings.minMeasurementIntervalNanos());
        this.budget = new RoundTripBudget(settings.budgetRoundTripsPerSecond(), settings.roundTripsPerMeasurement());
        this.ticketSource = ticketSource;
        this.epochMillis = epochMillis;
    }

    /** @param listener told of every change, on the update thread */
    public void addListener(final EngineListener listener) {
        listeners.add(listener);
    }

    /** @return the table (readers may use it from any thread) */
    public ConnectionTable table() {
        return table;
    }

    /** @return the profiles now in use, an immutable map safe to read from any thread */
    public Map<String, Profile> profiles() {
        return profilesByName;
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
        apply(row, reading, loadOf(row, reading), nowNanos, false);
        return true;
    }

    /**
     * As {@link #applyMib}, for values the SNMP poller read: a reading that moved by at most
     * {@value #POLLED_JITTER_PERCENT} point per end within the same load state (known ends staying
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
        final ConnectionLoadState load = loadOf(row, reading);
        if (load.equals(row.load()) && withinJitter(row.latest(), reading)) {
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

    private static boolean withinJitter(final MibReading was, final MibReading is) {
        return withinJitter(was.clientCpuPercent(), is.clientCpuPercent()) && withinJitter(was.peerCpuPercent(), is.peerCpuPercent())
            && withinJitter(was.portPercent(), is.portPercent());
    }

    /** Both unknown, or both known and at most {@value #POLLED_JITTER_PERCENT} point apart. */
    private static boolean withinJitter(final short was, final short is) {
        return was < 0 ? is < 0 : is >= 0 && Math.abs(is - was) <= POLLED_JITTER_PERCENT;
    }

    private ConnectionLoadState loadOf(final ConnectionRow row, final MibReading reading) {
        final CpuState client = reading.clientCpuPercent() < 0 ? CpuState.UNKNOWN
            : cpuClassifier.classify(reading.clientCpuPercent(), row.load().cpu().client());
        final CpuState peer = reading.peerCpuPercent() < 0 ? CpuState.UNKNOWN
            : cpuClassifier.classify(reading.peerCpuPercent(), row.load().cpu().peer());
        final PortState port = reading.portPercent() < 0 ? PortState.UNKNOWN
            : portClassifier.classify(reading.portPercent(), row.load().port());
        return new ConnectionLoadState(new CpuStatePair(client, peer), port);
    }

    /**
     * @param polled whether the reading came from the SNMP poller, whose counters lag the load by up to an agent's
     *               refresh (a pushed reading is the load as the pusher saw it: nothing is taken back for it)
     */
    private void apply(final ConnectionRow row, final MibReading reading, final ConnectionLoadState load, final long nowNanos,
                       final boolean polled) {
        ConnectionRow next = row.withMib(reading, load, epochMillis.getAsLong()).withStaleReason(staleReason(reading));
        if (load.isStateChangeFrom(row.load())) {
            if (polled) {
                next = takeBackIfJustFiled(next, row.load(), nowNanos);
                takeBackBandProbes(row, load.port(), nowNanos);
            }
            next = onStateChange(next.withLearning(next.learning().enteredStateAt(nowNanos)), row.load().port(), nowNanos);
        }
        publish(row, next);
    }

    /**
     * A result accepted less than the settle window before a polled reading changed its load state may have run
     * partly in the next state: SNMP counters lag the load by up to an agent's refresh, so the change began before
     * it was seen.
     * Such a result is taken back from the state it was filed under — the state's knowledge, the last
     * measurement and the served estimate return to what they were before it — logged and counted. A change to or
     * from UNKNOWN (no answers) says nothing about the load and takes nothing back.
     */
    private ConnectionRow takeBackIfJustFiled(final ConnectionRow changed, final ConnectionLoadState filedUnder,
                                              final long nowNanos) {
        final JustFiled filed = justFiled.remove(changed.spec().indexRef());
        if (filed == null || nowNanos - filed.acceptedNanos() > settings.settleNanos()
            || !filedUnder.equals(filed.before().load()) || !changed.load().isKnown() || !filedUnder.isKnown()
            || changed.load().port().kind() == PortState.Kind.UNKNOWN || filedUnder.port().kind() == PortState.Kind.UNKNOWN) {
            return changed;
        }
        resultsTakenBack++;
        LOG.info("connection {}: measurement ticket {} taken back from {}: the load state changed to {} {} ms after it"
                + " arrived, within the settle window of {} ms (counters lag the load by up to an agent's refresh)",
            changed.spec().indexRef(), filed.ticket(), label(filedUnder), label(changed.load()),
            (nowNanos - filed.acceptedNanos()) / 1_000_000, settings.settleNanos() / 1_000_000);
        final ConnectionRow before = filed.before();
        final Learning reverted = changed.learning().with(filedUnder, before.learning().of(filedUnder, changed.spec().boundPercent()));
        return changed.withMeasurement(before.measurement(), reverted)
            .withServed(before.estimate(), before.unavailableReason(), before.served());
    }

    /**
     * A polled reading that moved the port out of a loaded state: the probe windows accepted in that state within the
     * settle window before it may have run after the change began (counters lag the load), so they are dropped.
     */
    private void takeBackBandProbes(final ConnectionRow row, final PortState portNow, final long nowNanos) {
        final PortState before = row.load().port();
        if (!before.isLoaded() || before.equals(portNow) || portNow.kind() == PortState.Kind.UNKNOWN || settings.settleNanos() == 0) {
            return;
        }
        bandProbes.computeIfPresent(new BandKey(row.spec().indexRef(), before),
            (key, probes) -> probes.withoutWindowsAfter(nowNanos - settings.settleNanos()));
    }

    /** @return results taken back from a load state that changed within the settle window (any thread) */
    public long resultsTakenBack() {
        return resultsTakenBack;
    }

    private static String staleReason(final MibReading reading) {
        final String cpu;
        if (reading.clientCpuPercent() < 0 && reading.peerCpuPercent() < 0) {
            cpu = "CPU utilisation of both workstations unknown";
        } else if (reading.clientCpuPercent() < 0) {
            cpu = "client workstation CPU utilisation unknown";
        } else if (reading.peerCpuPercent() < 0) {
            cpu = "peer workstation CPU utilisation unknown";
        } else {
            cpu = null;
        }
        // An unknown port may hide a load above 90 %, whose contribution the estimate then lacks.
        final String port = reading.portPercent() < 0 ? "switch port utilisation unknown" : null;
        if (cpu != null && port != null) {
            return cpu + "; " + port;
        }
        return cpu != null ? cpu : port;
    }

    private ConnectionRow onStateChange(final ConnectionRow row, final PortState portBefore, final long nowNanos) {
        if (!row.load().isKnown()) {
            // Keep the last good estimate; the stale reason says why it may no longer hold.
            return row;
        }
        if (!row.spec().isMeasured()) {
            return recomputeFromProfile(row);
        }
        if (row.spec().isAdaptive() && row.pending() != null && portBefore.isLoaded() && portBefore.equals(row.load().port())) {
            // Only the CPUs moved, on a loaded port whose queue decides: the open request still measures this port state.
            // It stays open (a result that straddles CPU states is pooled with the port state's probes, not filed under
            // either state); meanwhile what is known of the new state is served.
            return serveKnown(row);
        }
        final String reason = "load state changed to " + label(row.load());
        final ConnectionRow cleared = row.withMeasurementRequest(null, ConnectionRow.NOT_DUE, row.lastMeasurementStartNanos())
            .withLearning(row.learning().withMeasurementReason(reason));
        if (!row.spec().isAdaptive()) {
            // Thesis semantics: the previous state's value stays, labelled as such, and any open request
            // (it measured the old state) is replaced at once — unless the port moved into or out of a loaded band
            // or between bands: an idle port's value is no estimate for a queueing one (nor the reverse), so what is
            // known of the new state is served instead (its last measurement, else the profile, else nothing).
            if (cleared.estimate() != null && portBandChanged(portBefore, row.load().port())) {
                return openOrDefer(serveKnown(cleared), nowNanos);
            }
            final ConnectionRow labelled = cleared.estimate() == null ? cleared
                : cleared.withServed(cleared.estimate(), cleared.unavailableReason(), cleared.served().relabelled(ServedEstimate.PREVIOUS_STATE));
            return requestMeasurement(labelled, nowNanos);
        }
        // Serve at once what is known of the new state; measure once it has held for the dwell, so a
        // transient state (one poll of a mixed state while both CPUs change) spends no measurement.
        final ConnectionRow served = serveKnown(cleared);
        final MeasurementSchedule.Decision decision = schedule.decide(nowNanos + settings.dwellNanos(),
            served.lastMeasurementStartNanos());
        final long dueNanos = decision.measureNow() ? nowNanos + settings.dwellNanos() : decision.notBeforeNanos();
        return served.withMeasurementRequest(null, dueNanos, served.lastMeasurementStartNanos());
    }

    /**
     * @return whether the value served before may belong to another port band than the new state's: the port went
     *         between NORMAL and a loaded state or between loaded states (bands, SATURATED), or it returns from UNKNOWN
     *         (no answers: what it was in the meantime, and so which band the served value belongs to, is not known);
     *         a change to UNKNOWN is not one
     */
    private static boolean portBandChanged(final PortState before, final PortState after) {
        if (after.kind() == PortState.Kind.UNKNOWN) {
            return false;
        }
        if (before.kind() == PortState.Kind.UNKNOWN) {
            return true;
        }
        return (before.isLoaded() || after.isLoaded()) && !before.equals(after);
    }

    /**
     * A QoS 3/4 connection entering a state: its last measurement of that state, else its profile, else nothing. On a
     * loaded port the band's probes come before a remembered measurement older than they may be
     * ({@value BandProbes#MAX_AGE_MILLIS} ms) and before the profile's port cell.
     */
    private ConnectionRow serveKnown(final ConnectionRow row) {
        final StateKnowledge known = row.currentKnowledge();
        final String state = label(row.load());
        final boolean rememberedIsRecent = known.lastMeasurement() != null
            && epochMillis.getAsLong() - known.lastMeasuredEpochMillis() <= BandProbes.MAX_AGE_MILLIS;
        if (!rememberedIsRecent) {
            final ConnectionRow probed = fromBandProbes(row);
            if (probed != null) {
                return probed;
            }
        }
        if (known.lastMeasurement() != null) {
            final String basis = String.format(Locale.ROOT, "the last measurement of %s (%d ms old)", state,
                Math.max(0, epochMillis.getAsLong() - known.lastMeasuredEpochMillis()));
            try {
                return serve(row, measuredEstimate(row, known.lastMeasurement(), basis), known.lastMeasurement().histogram(),
                    ServedEstimate.REMEMBERED, known.lastMeasuredEpochMillis());
            } catch (EstimateRefusedException e) {
                return row.withServed(null, e.getMessage(), ServedEstimate.NONE);
            }
        }
        final String waiting = "connection " + row.spec().indexRef() + " has not been measured in " + state
            + " yet: a measurement is requested" + (row.spec().isAdaptive()
                ? " once the state has held for " + settings.dwellNanos() / 1_000_000 + " ms" : "");
        final Profile profile = row.spec().profileName() == null ? null : profilesByName.get(row.spec().profileName());
        if (profile == null) {
            return row.withServed(null, waiting, ServedEstimate.NONE);
        }
        try {
            if (row.load().port().isLoaded()) {
                // A measured connection's stand-in for a loaded band is the band's own measured cell, never the idle
                // port's cell with a model's guess added: ProfileHistograms refuses the state without one.
                ProfileHistograms.portCell(profile, row.load(), row.spec().messageSizeBytes());
            }
            final Estimate cell = row.spec().asQos().fromProfile(profile, row.load(), row.spec().messageSizeBytes(),
                row.spec().boundPercent());
            // Served at the connection's QoS level (3 or 4), saying where it comes from.
            final Estimate fallback = new Estimate(row.spec().qos(), cell.kind(), cell.valueMillis(), cell.boundPercent(),
                cell.interval(), cell.alternatives(), "profile fallback (" + state + " never measured): " + cell.basis(),
                cell.notes(), cell.interpolated());
            return serve(row, fallback, cellHistogram(profile, row), ServedEstimate.PROFILE_FALLBACK, 0);
        } catch (EstimateRefusedException e) {
            return row.withServed(null, waiting + "; the profile offers none: " + e.getMessage(), ServedEstimate.NONE);
        }
    }

    private static Estimate measuredEstimate(final ConnectionRow row, final Measurement measurement, final String basis)
        throws EstimateRefusedException {
        return row.spec().asQos().fromMeasurement(measurement, row.spec().boundPercent(), basis);
    }

    /** The profile cell's histogram for the row's state, or null when it has none. */
    private static LatencyHistogram cellHistogram(final Profile profile, final ConnectionRow row) {
        try {
            return ProfileHistograms.forState(profile, row.load(), row.spec().messageSizeBytes()).histogram();
        } catch (EstimateRefusedException noneForThisState) {
            return null;
        }
    }

    /**
     * Serves the thesis's estimate, corrected from what was learned in the row's load state when the
     * connection is adaptive.
     */
    private static ConnectionRow serve(final ConnectionRow row, final Estimate thesis, final LatencyHistogram reference,
                                       final String source, final long dataEpochMillis) {
        if (!row.spec().isAdaptive()) {
            return row.withServed(thesis, null, new ServedEstimate(thesis, reference, source, dataEpochMillis, ""));
        }
        final EstimateCorrection.Corrected corrected = EstimateCorrection.correct(thesis, reference, row.currentKnowledge(),
            row.learning().pooledMeanLogResiduals());
        return row.withServed(corrected.estimate(), null,
            new ServedEstimate(thesis, reference, source, dataEpochMillis, corrected.description()));
    }

    /** Serves the same thesis estimate again with the correction as it now stands. */
    private static ConnectionRow reserve(final ConnectionRow row) {
        final ServedEstimate served = row.served();
        if (served.thesis() == null || row.estimate() == null) {
            return row;
        }
        final ConnectionRow again = serve(row, served.thesis(), served.reference(), served.source(), served.dataEpochMillis());
        return again.withServed(again.estimate(), row.unavailableReason(), again.served());
    }

    private static String label(final ConnectionLoadState load) {
        return load.cpu() + " " + load.port();
    }

    private ConnectionRow recomputeFromProfile(final ConnectionRow row) {
        final ConnectionRow probed = fromBandProbes(row);
        if (probed != null) {
            return probed;
        }
        final Profile profile = profilesByName.get(row.spec().profileName());
        if (profile == null) {
            final String reason = "profile '" + row.spec().profileName() + "' is not loaded";
            // A band's probes describe that band only: without them for this state there is nothing to keep serving.
            return ServedEstimate.BAND_PROBES.equals(row.served().source()) ? row.withServed(null, reason, ServedEstimate.NONE)
                : row.withEstimate(row.estimate(), reason);
        }
        try {
            final Estimate estimate = profileEstimates.estimate(row.spec().asQos(), profile, row.load(), row.spec().messageSizeBytes(),
                row.spec().boundPercent());
            final LatencyHistogram reference = row.spec().asQos() == Qos.PROFILE_BOUND ? cellHistogram(profile, row) : null;
            return serve(row, estimate, reference, ServedEstimate.PROFILE, 0);
        } catch (EstimateRefusedException e) {
            return row.withServed(null, e.getMessage(), ServedEstimate.NONE);
        }
    }

    /**
     * On a loaded port, the connection's own recent probes of the port state served as its estimate (a QoS 1/2
     * connection's instead of the profile, a QoS 3/4 connection's until a measurement of the state): a mean, or the
     * bound read from their merged histogram, corrected as any estimate is; the corrections start afresh when the
     * source changes to them.
     *
     * @return the row serving them, or null when the port is not loaded or the probes are too few or refused
     */
    private ConnectionRow fromBandProbes(final ConnectionRow row) {
        if (!row.load().port().isLoaded() || !row.load().isKnown()) {
            return null;
        }
        final BandProbes probes = bandProbes.get(new BandKey(row.spec().indexRef(), row.load().port()));
        final long nowMillis = epochMillis.getAsLong();
        final Measurement pooled = probes == null ? null : probes.measurement(nowMillis);
        if (pooled == null) {
            return null;
        }
        final long lastMillis = probes.lastEpochMillis(nowMillis);
        final String basis = String.format(Locale.ROOT,
            "probes of connection %d in port %s: %d round trips over %d s up to %d ms ago (CPU states pooled: the port's"
                + " queue decides)", row.spec().indexRef(), row.load().port(), pooled.sampleCount(),
            Math.max(0, lastMillis - probes.firstEpochMillis(nowMillis)) / 1000, Math.max(0, nowMillis - lastMillis));
        final Qos asMeasured = row.spec().asQos().bound() ? Qos.MEASURED_BOUND : Qos.MEASURED_AVERAGE;
        final Estimate measured;
        try {
            measured = asMeasured.fromMeasurement(pooled, row.spec().boundPercent(), basis);
        } catch (EstimateRefusedException tooFew) {
            return null;
        }
        final Estimate thesis = new Estimate(row.spec().qos(), measured.kind(), measured.valueMillis(), measured.boundPercent(),
            measured.interval(), measured.alternatives(), measured.basis(), measured.notes(), false);
        final ConnectionRow restarted = !row.spec().isAdaptive() || ServedEstimate.BAND_PROBES.equals(row.served().source()) ? row
            : row.withLearning(row.learning().with(row.load(),
                row.currentKnowledge().withCorrectionsRestarted(row.spec().boundPercent())));
        return serve(restarted, thesis, pooled.histogram(), ServedEstimate.BAND_PROBES, lastMillis);
    }

    /**
     * A probe window of a loaded port state, after it tested what was served: kept with the band's probes, and the
     * row's estimate drawn from them again where it comes from them, or from a stand-in they replace (the profile
     * for QoS 1/2; its fallback, or nothing, for QoS 3/4 awaiting a measurement).
     */
    private ConnectionRow learnBand(final ConnectionRow row, final LatencyHistogram roundTrips, final double meanMillis,
                                    final long nowNanos) {
        if (!row.load().port().isLoaded()) {
            return row;
        }
        bandProbes.merge(new BandKey(row.spec().indexRef(), row.load().port()),
            BandProbes.EMPTY.add(new BandProbes.Window(roundTrips, meanMillis, nowNanos, epochMillis.getAsLong())),
            (kept, added) -> kept.add(added.windows().get(0)));
        if (!row.spec().isMeasured()) {
            return recomputeFromProfile(row);
        }
        final String source = row.served().source();
        final boolean standIn = ServedEstimate.BAND_PROBES.equals(source) || ServedEstimate.PROFILE_FALLBACK.equals(source)
            || ServedEstimate.NOT_SERVED.equals(source);
        if (!standIn) {
            return row;
        }
        final ConnectionRow probed = fromBandProbes(row);
        return probed == null ? row : probed;
    }

    private ConnectionRow requestMeasurement(final ConnectionRow measured, final long nowNanos) {
        // Before the first result there is nothing to serve; say what is awaited, not "no load state".
        final ConnectionRow row = measured.estimate() != null ? measured : measured.withEstimate(null,
            "connection " + measured.spec().indexRef() + " has not been measured yet: a measurement of "
                + measured.load().cpu().thesisLabel() + " is requested");
        return openOrDefer(row, nowNanos);
    }

    /** Opens the row's measurement request now, or marks it due when the schedule or the budget defers it. */
    private ConnectionRow openOrDefer(final ConnectionRow row, final long nowNanos) {
        final MeasurementSchedule.Decision decision = schedule.decide(nowNanos, row.lastMeasurementStartNanos());
        if (!decision.measureNow() || !mayOpen(row.spec().indexRef(), nowNanos)) {
            final long due = decision.measureNow() ? nowNanos : decision.notBeforeNanos();
            return row.withMeasurementRequest(null, due, row.lastMeasurementStartNanos());
        }
        return openRequest(row, nowNanos, 1);
    }

    private ConnectionRow openRequest(final ConnectionRow row, final long nowNanos, final int attempt) {
        final long nowMillis = epochMillis.getAsLong();
        final long timeoutMillis = settings.measurementTimeoutNanos() / 1_000_000L;
        final String reason = row.learning().nextMeasurementReason() != null ? row.learning().nextMeasurementReason()
            : "load state " + label(row.load());
        final PendingMeasurement request = new PendingMeasurement(nextTicket(), settings.roundTripsPerMeasurement(),
            nowNanos, nowNanos + settings.measurementTimeoutNanos(), nowMillis, nowMillis + timeoutMillis, attempt,
            attempt > 1 ? reason + " (re-issued after a time-out, attempt " + attempt + ")" : reason, row.load());
        return row.withMeasurementRequest(request, ConnectionRow.NOT_DUE, nowNanos);
    }

    private long nextTicket() {
        long ticket;
        do {
            ticket = ticketSource.getAsLong();
        } while (ticket == 0);
        return ticket;
    }

    /**
     * Room for one more request: under the concurrency limit, none other open for the same client workstation (its
     * agent measures one at a time), and the round trips fit the budget (taken if so).
     */
    private boolean mayOpen(final short indexRef, final long nowNanos) {
        return openRequestsOtherThan(indexRef) < settings.maxConcurrentMeasurements() && !clientBusyOtherThan(indexRef)
            && budget.tryTake(settings.roundTripsPerMeasurement(), nowNanos);
    }

    /** Whether other connections of {@code indexRef}'s client workstation hold all the requests it may have open. */
    private boolean clientBusyOtherThan(final short indexRef) {
        final ConnectionRow own = table.row(indexRef);
        if (own == null) {
            return false;
        }
        final int open = openByClient.getOrDefault(own.spec().clientNodeName(), 0);
        return (own.pending() != null ? open - 1 : open) >= settings.maxOpenPerClient();
    }

    /** @return the engine's settings */
    public EngineSettings settings() {
        return settings;
    }

    /** @return what a result, probe report or profile may be (any thread) */
    public InputLimits limits() {
        return limits;
    }

    /** The connection's profile, or null when it has none or it is not loaded. */
    private Profile profileOf(final ConnectionRow row) {
        return row.spec().profileName() == null ? null : profilesByName.get(row.spec().profileName());
    }

    /** Open requests of other rows: a row's own request, about to be replaced, does not take a slot. */
    private int openRequestsOtherThan(final short indexRef) {
        final ConnectionRow own = table.row(indexRef);
        return own != null && own.pending() != null ? openRequests - 1 : openRequests;
    }

    /**
     * The periodic duty: re-issue requests past their deadline (with a new ticket), and open
     * deferred requests whose time has come and for which the budget has room.
     *
     * @param nowNanos monotonic time
     * @return how many rows changed
     */
    public int tick(final long nowNanos) {
        if (!justFiled.isEmpty()) {
            justFiled.values().removeIf(filed -> nowNanos - filed.acceptedNanos() > settings.settleNanos());
        }
        int changed = 0;
        // In index_ref order; publishing a row may clear or set its own bit, which the iteration tolerates.
        for (int indexRef = openOrDue.nextSetBit(0); indexRef >= 0; indexRef = openOrDue.nextSetBit(indexRef + 1)) {
            final ConnectionRow row = table.row((short) indexRef);
            if (row.pending() != null && nowNanos - row.pending().deadlineNanos() > 0) {
                publish(row, openRequest(row.withMeasurementRequest(null, ConnectionRow.NOT_DUE, row.lastMeasurementStartNanos()),
                    nowNanos, row.pending().attempt() + 1));
                changed++;
            } else if (row.pending() == null && row.measurementDueNanos() != ConnectionRow.NOT_DUE
                && nowNanos - row.measurementDueNanos() >= 0 && mayOpen(row.spec().indexRef(), nowNanos)) {
                publish(row, openRequest(row, nowNanos, 1));
                changed++;
            }
        }
        return changed;
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
        final ConnectionRow row = table.row(indexRef);
        if (row == null) {
            return new SubmitOutcome(SubmitOutcome.Kind.UNKNOWN_CONNECTION, "no connection " + indexRef);
        }
        final String refusal = checkTicket(row, ticket, nowNanos);
        if (refusal != null) {
            return SubmitOutcome.refused(refusal);
        }
        final String implausible = plausibility.ofMeasurement(row, measurement, profileOf(row));
        if (implausible != null) {
            return SubmitOutcome.implausible(implausible); // the request stays open for a plausible result
        }
        final ConnectionLoadState issuedIn = row.pending().issuedIn();
        if (issuedIn != null && !issuedIn.equals(row.load())) {
            return poolInBand(row, ticket, measurement, issuedIn, nowNanos);
        }
        final String basis = String.format(Locale.ROOT, "measurement ticket %d by %s, %s", ticket, agent,
            row.load().cpu().thesisLabel());
        final long nowMillis = epochMillis.getAsLong();
        // The measurement's round trips also test the estimate served while they were sent.
        final StateKnowledge tested = testServed(row, measurement.histogram(), measurement.sampleCount(),
            measurement.meanMillis(), false);
        final Learning learning = row.learning().with(row.load(), tested.withMeasurement(measurement, nowMillis))
            .withMeasurementReason(null);
        final ConnectionRow measured = row.withMeasurement(measurement, learning);
        ConnectionRow next;
        try {
            next = serve(measured, measuredEstimate(row, measurement, basis), measurement.histogram(), ServedEstimate.MEASUREMENT,
                nowMillis);
        } catch (EstimateRefusedException e) {
            next = measured.withServed(null, e.getMessage(), ServedEstimate.NONE);
        }
        publish(row, next);
        if (settings.settleNanos() > 0) {
            justFiled.put(indexRef, new JustFiled(row, nowNanos, ticket));
        }
        return SubmitOutcome.ACCEPTED;
    }

    /**
     * A result whose request stayed open while only the CPUs moved on a loaded port: its load state did not hold
     * throughout, its port state did. It is filed under no load state; its round trips join the port state's probes,
     * which the connection then serves. Counted and logged.
     */
    private SubmitOutcome poolInBand(final ConnectionRow row, final long ticket, final Measurement measurement,
                                     final ConnectionLoadState issuedIn, final long nowNanos) {
        final StateKnowledge tested = testServed(row, measurement.histogram(), measurement.sampleCount(), measurement.meanMillis(),
            false);
        final ConnectionRow answered = row.withMeasurementRequest(null, ConnectionRow.NOT_DUE, row.lastMeasurementStartNanos())
            .withLearning(row.learning().with(row.load(), tested).withMeasurementReason(null));
        bandProbes.merge(new BandKey(row.spec().indexRef(), row.load().port()),
            BandProbes.EMPTY.add(new BandProbes.Window(measurement.histogram(), measurement.meanMillis(), nowNanos,
                epochMillis.getAsLong())),
            (kept, added) -> kept.add(added.windows().get(0)));
        resultsPooledInBand++;
        LOG.info("connection {}: measurement ticket {} ran from {} into {}: filed under neither state, its {} round trips"
                + " join the probes of port {}", row.spec().indexRef(), ticket, label(issuedIn), label(row.load()),
            measurement.sampleCount(), row.load().port());
        final ConnectionRow probed = fromBandProbes(answered);
        publish(row, probed != null ? probed : answered);
        return SubmitOutcome.ACCEPTED;
    }

    /** @return results pooled with their port state's probes because the CPU states moved while they ran (any thread) */
    public long resultsPooledInBand() {
        return resultsPooledInBand;
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
        final ConnectionRow row = table.row(indexRef);
        if (row == null) {
            return new SubmitOutcome(SubmitOutcome.Kind.UNKNOWN_CONNECTION, "no connection " + indexRef);
        }
        if (row.pending() == null) {
            return SubmitOutcome.refused("no measurement is pending for connection " + indexRef
                + (row.spec().isMeasured() ? "" : " (it is QoS " + row.spec().qos() + ", never measured)"));
        }
        if (nowNanos - row.pending().deadlineNanos() > 0) {
            return SubmitOutcome.refused("the request for connection " + indexRef + " expired; it will be re-issued");
        }
        if (dataProvided != 1) {
            return SubmitOutcome.refused("latency_data_provided is " + dataProvided + ", not 1");
        }
        final boolean bound = row.spec().asQos() == Qos.MEASURED_BOUND;
        final float value = bound ? latencyBoundMillis : latencyAvgMillis;
        final double scale = bound ? 100.0 : 1.0;
        if (!(value > 0) || Float.isInfinite(value) || !(lower <= upper) || !Float.isFinite(lower) || !Float.isFinite(upper)
            || (bound && (lower < 0 || upper > 100))) {
            return SubmitOutcome.implausible(String.format(Locale.ROOT,
                "implausible result for QoS %d: value %s ms, interval [%s, %s]", row.spec().qos(), value, lower, upper));
        }
        final String implausible = plausibility.ofThesisResponse(row, value, upper, profileOf(row));
        if (implausible != null) {
            return SubmitOutcome.implausible(implausible);
        }
        final ConfidenceInterval interval = new ConfidenceInterval(lower / scale, upper / scale, Estimate.CONFIDENCE_LEVEL,
            "reported by the client agent (thesis UpdateResponse)");
        final Estimate estimate = new Estimate(row.spec().qos(), bound ? EstimateKind.BOUND : EstimateKind.AVERAGE, value,
            bound ? row.spec().boundPercent() : 0.0, interval, List.of(), "thesis UpdateResponse", List.of(), false);
        // The thesis's agents report numbers, not round trips: served as reported, never corrected.
        publish(row, row.withMeasurement(row.measurement(), row.learning().withMeasurementReason(null))
            .withServed(estimate, null, new ServedEstimate(estimate, null, ServedEstimate.MEASUREMENT, epochMillis.getAsLong(), "")));
        return SubmitOutcome.ACCEPTED;
    }

    private static String checkTicket(final ConnectionRow row, final long ticket, final long nowNanos) {
        final short indexRef = row.spec().indexRef();
        if (row.pending() == null) {
            return "no measurement is pending for connection " + indexRef + " (ticket " + ticket + " is not open)";
        }
        if (row.pending().ticket() != ticket) {
            return "ticket " + ticket + " is not the open ticket of connection " + indexRef
                + " (forged, or superseded by a newer request)";
        }
        if (nowNanos - row.pending().deadlineNanos() > 0) {
            return "ticket " + ticket + " of connection " + indexRef + " is late: its deadline passed; the request is re-issued";
        }
        return null;
    }

    /**
     * Round trips sent while {@code row}'s estimate was served test it: counted in the load state's
     * calibration, and, when the estimate is this state's own and the connection adaptive, learned
     * from (the correction, the drift test).
     */
    private static StateKnowledge testServed(final ConnectionRow row, final LatencyHistogram roundTrips, final long count,
                                             final double meanMillis, final boolean fromProbe) {
        final StateKnowledge known = row.currentKnowledge();
        final Estimate served = row.estimate();
        if (served == null || count < 1) {
            return known;
        }
        final String source = row.served().source();
        final boolean ownState = ServedEstimate.MEASUREMENT.equals(source) || ServedEstimate.REMEMBERED.equals(source)
            || ServedEstimate.PROFILE.equals(source) || ServedEstimate.BAND_PROBES.equals(source);
        final boolean adapt = row.spec().isAdaptive() && ownState;
        if (served.kind() == EstimateKind.BOUND) {
            final long hits = Math.min(count, roundTrips.countAtOrBelow(Math.round(served.valueMillis() * 1e6)));
            return known.observeBound(count, hits, fromProbe, adapt);
        }
        final double thesisMillis = row.served().thesis() != null ? row.served().thesis().valueMillis() : served.valueMillis();
        return known.observeMean(thesisMillis, served.valueMillis(), served.interval().lower(), served.interval().upper(),
            meanMillis, count, fromProbe, adapt);
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
     * @param nowNanos     monotonic time
     * @return accepted (also when not used: load unknown, nothing served, the window straddles a state change), or why not
     */
    public SubmitOutcome submitProbe(final short indexRef, final String clientNode, final LatencyHistogram roundTrips,
                                     final double meanMillis, final long windowMillis, final long nowNanos) {
        final ConnectionRow row = table.row(indexRef);
        if (row == null) {
            return new SubmitOutcome(SubmitOutcome.Kind.UNKNOWN_CONNECTION, "no connection " + indexRef);
        }
        if (!row.spec().clientNodeName().equals(clientNode)) {
            return SubmitOutcome.refused("probe report from node '" + clientNode + "' for connection " + indexRef
                + ", whose client is '" + row.spec().clientNodeName() + "': only the client's own agent probes a connection");
        }
        if (row.spec().probeRatePerSecond() == 0) {
            return SubmitOutcome.refused("probing of connection " + indexRef + " is switched off (probe_rate_per_second: 0)");
        }
        final String implausible = plausibility.ofProbe(row, roundTrips, meanMillis, profileOf(row));
        if (implausible != null) {
            return SubmitOutcome.implausible(implausible);
        }
        final long count = roundTrips.totalCount();
        if (!row.load().isKnown() || count == 0 || row.learning().stateSinceNanos() == ConnectionRow.NOT_DUE
            || nowNanos - row.learning().stateSinceNanos() < windowMillis * 1_000_000L) {
            return SubmitOutcome.ACCEPTED; // the window began in another state
        }
        if (row.estimate() == null) {
            // Nothing to test against; on a loaded port the window still describes the band.
            final ConnectionRow learned = learnBand(row, roundTrips, meanMillis, nowNanos);
            if (learned != row) {
                publish(row, learned);
            }
            return SubmitOutcome.ACCEPTED;
        }
        probeRoundTrips += count;
        learnProfileCell(row, roundTrips, meanMillis);
        StateKnowledge known = testServed(row, roundTrips, count, meanMillis, true);
        ConnectionRow next = learnBand(reserve(row.withLearning(row.learning().with(row.load(), known))), roundTrips,
            meanMillis, nowNanos);
        final String alarm = known.drift().alarm();
        if (alarm != null) {
            known = known.withDriftHandled();
            next = next.withLearning(next.learning().with(row.load(), known));
            final boolean remeasure = row.spec().isMeasured() && row.spec().isAdaptive() && next.pending() == null
                && next.measurementDueNanos() == ConnectionRow.NOT_DUE;
            LOG.info("connection {} in {}: {}{}", indexRef, label(row.load()), alarm,
                remeasure ? "; re-measuring" : row.spec().isMeasured() ? "; a measurement is already awaited" : "");
            if (remeasure) {
                next = requestMeasurement(next.withLearning(next.learning().withMeasurementReason(alarm)), nowNanos);
            }
        }
        publish(row, next);
        return SubmitOutcome.ACCEPTED;
    }

    /**
     * A profile-served connection's probe window feeds its profile cell's learned histogram. Only in
     * a NORMAL port state: the cells describe the path without a loaded port.
     */
    private void learnProfileCell(final ConnectionRow row, final LatencyHistogram roundTrips, final double meanMillis) {
        if (row.spec().isMeasured() || row.load().port().kind() != PortState.Kind.NORMAL) {
            return;
        }
        final Profile profile = profilesByName.get(row.spec().profileName());
        final ProfileCell cell = profile == null ? null : profile.cell(row.load().cpu(), row.spec().messageSizeBytes()).orElse(null);
        if (cell == null) {
            return;
        }
        final LearnedProfiles.CellKey key = new LearnedProfiles.CellKey(cell.cpuStates(), cell.messageSizeBytes());
        final Map<LearnedProfiles.CellKey, LearnedCell> cells = new HashMap<>(learnedCells.getOrDefault(profile.name(), Map.of()));
        cells.put(key, cells.getOrDefault(key, LearnedCell.empty(cell)).add(roundTrips, meanMillis, epochMillis.getAsLong()));
        final Map<String, Map<LearnedProfiles.CellKey, LearnedCell>> next = new HashMap<>(learnedCells);
        next.put(profile.name(), Map.copyOf(cells));
        learnedCells = Map.copyOf(next);
    }

    /** @return the learned profile cells by profile name, an immutable snapshot safe to read from any thread */
    public Map<String, Map<LearnedProfiles.CellKey, LearnedCell>> learnedCells() {
        return learnedCells;
    }

    /** @return probe round trips accepted and tested since start (any thread) */
    public long probeRoundTrips() {
        return probeRoundTrips;
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
        final CpuState client = latest.clientCpuPercent() < 0 ? CpuState.UNKNOWN : cpuClassifier.classifyPlain(latest.clientCpuPercent());
        final CpuState peer = latest.peerCpuPercent() < 0 ? CpuState.UNKNOWN : cpuClassifier.classifyPlain(latest.peerCpuPercent());
        final PortState port = latest.portPercent() < 0 ? PortState.UNKNOWN : portClassifier.classify(latest.portPercent(), null);
        final ConnectionLoadState load = new ConnectionLoadState(new CpuStatePair(client, peer), port);
        ConnectionRow restored = row.toBuilder().latest(latest).previous(previous).load(load).estimate(estimate)
            .unavailableReason(unavailableReason).staleReason(staleReason(latest)).pending(null)
            .measurementDueNanos(ConnectionRow.NOT_DUE).lastMeasurementStartNanos(ConnectionRow.NOT_DUE).measurement(measurement)
            .served(withReference(row, load, served, learning))
            .learning(learning.enteredStateAt(nowNanos).withMeasurementReason("restart: a measurement was awaited"))
            .version(row.version() + 1).changedEpochMillis(epochMillis.getAsLong()).build();
        if (row.spec().isMeasured() && measurementWanted && restored.load().isKnown()) {
            restored = requestMeasurement(restored, nowNanos);
        }
        publish(row, restored);
    }

    /** The histogram a restored bound was read from: not saved, found again where it came from. */
    private ServedEstimate withReference(final ConnectionRow row, final ConnectionLoadState load, final ServedEstimate served,
                                         final Learning learning) {
        if (served.thesis() == null || served.thesis().kind() != EstimateKind.BOUND || !load.isKnown()) {
            return served;
        }
        LatencyHistogram reference = null;
        if (ServedEstimate.MEASUREMENT.equals(served.source()) || ServedEstimate.REMEMBERED.equals(served.source())) {
            final StateKnowledge known = learning.byState().get(load);
            reference = known == null || known.lastMeasurement() == null ? null : known.lastMeasurement().histogram();
        } else if (row.spec().profileName() != null && profilesByName.containsKey(row.spec().profileName())) {
            reference = cellHistogram(profilesByName.get(row.spec().profileName()), row.withMib(MibReading.NONE, load, 0));
        }
        return new ServedEstimate(served.thesis(), reference, served.source(), served.dataEpochMillis(), served.correction());
    }

    /**
     * Swaps a profile in (new or replacing one of the same name) and recomputes the QoS 1/2
     * connections that use it.
     *
     * @param profile a validated profile
     * @return how many connections were recomputed
     */
    public int swapProfile(final Profile profile) {
        final HashMap<String, Profile> next = new HashMap<>(profilesByName);
        final Profile replaced = next.put(profile.name(), profile);
        if (replaced != null) {
            profileEstimates.forget(replaced);
        }
        profilesByName = Map.copyOf(next);
        // The new profile is the new baseline: what was learned against the old one is dropped.
        final Map<String, Map<LearnedProfiles.CellKey, LearnedCell>> learned = new HashMap<>(learnedCells);
        learned.remove(profile.name());
        learnedCells = Map.copyOf(learned);
        int recomputed = 0;
        for (final ConnectionRow row : table.rows()) {
            if (!row.spec().isMeasured() && profile.name().equals(row.spec().profileName()) && row.load().isKnown()) {
                publish(row, recomputeFromProfile(row));
                recomputed++;
            }
        }
        return recomputed;
    }

    /** Keeps {@link #openOrDue} and {@link #openRequests} in step as {@code published} replaces {@code replaced} (null: none). */
    private void track(final ConnectionRow replaced, final ConnectionRow published) {
        if (replaced != null && replaced.pending() != null) {
            openRequests--;
            openByClient.merge(replaced.spec().clientNodeName(), -1, (was, minus) -> was + minus == 0 ? null : was + minus);
        }
        if (published.pending() != null) {
            openRequests++;
            openByClient.merge(published.spec().clientNodeName(), 1, Integer::sum);
        }
        openOrDue.set(published.spec().indexRef(),
            published.pending() != null || published.measurementDueNanos() != ConnectionRow.NOT_DUE);
    }

    private void publish(final ConnectionRow before, final ConnectionRow after) {
        final ConnectionRow stamped = after.version() == before.version() ? after.withNextVersion(epochMillis.getAsLong()) : after;
        track(table.row(stamped.spec().indexRef()), stamped);
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
