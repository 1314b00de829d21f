package org.latencyserver.server.engine;

import java.util.Locale;
import java.util.Map;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.latencyserver.core.calibration.AdaptiveQuantileLevel;
import org.latencyserver.core.calibration.BorrowedLevel;
import org.latencyserver.core.calibration.BandProbes;
import org.latencyserver.core.calibration.EstimateCorrection;
import org.latencyserver.core.calibration.RatioScores;
import org.latencyserver.core.calibration.StateKnowledge;
import org.latencyserver.core.estimate.Estimate;
import org.latencyserver.core.estimate.EstimateKind;
import org.latencyserver.core.estimate.EstimateRefusedException;
import org.latencyserver.core.estimate.Measurement;
import org.latencyserver.core.estimate.ProfileHistograms;
import org.latencyserver.core.estimate.ProfilePath;
import org.latencyserver.core.estimate.Qos;
import org.latencyserver.core.histogram.LatencyHistogram;
import org.latencyserver.core.profile.Profile;
import org.latencyserver.core.state.ConnectionLoadState;
import org.latencyserver.core.state.PortState;
import org.latencyserver.orb.EstimateSource;
import org.latencyserver.server.table.ComposedBound;
import org.latencyserver.server.table.ConnectionRow;
import org.latencyserver.server.table.Learning;
import org.latencyserver.server.table.MibReading;
import org.latencyserver.server.table.ServedEstimate;

/**
 * The serving policy: what a connection serves in its load state, and from where.
 * <ul>
 *   <li>QoS 1/2: the profile's cell for the state (shared between rows by {@link ProfileEstimates}).</li>
 *   <li>QoS 3/4 entering a state: its last measurement of the state ({@code remembered}), else the profile's cell
 *       ({@code profile fallback}); on a loaded port only the band's own measured port cell, never the idle port's.</li>
 *   <li>On a loaded port (a band, or saturated), every connection: its path's recent probe windows and measurements
 *       of the port state once they hold {@value BandProbes#MIN_ROUND_TRIPS} round trips ({@code band probes}; see
 *       {@link BandProbesBook}) — for QoS 1/2 instead of the
 *       profile, for QoS 3/4 before a remembered measurement older than {@value BandProbes#MAX_AGE_MILLIS} ms and
 *       before the profile.</li>
 *   <li>An adaptive connection's value is corrected from what was learned in the state
 *       ({@link EstimateCorrection}); a bound on a loaded path of several ports whose combined state is young, with the
 *       connection's pooled level ({@link PathLevelBorrowing}); one read from a loaded path's own round trips (band probes,
 *       a measurement), with the pooled level of the states with the same hops loaded once one was tested; in every
 *       case a young state's level borrows from its port pattern's level (the states with the same port state on every
 *       hop) before that pooled one ({@link #correctingPrior}); a thesis connection's is served as the thesis computes it.</li>
 * </ul>
 *
 * <p>Not thread-safe: owned by the update thread (the profiles it reads are an immutable snapshot).
 */
final class ServingPolicy {

    private final Supplier<Map<String, Profile>> profiles;
    private final ProfileEstimates profileEstimates = new ProfileEstimates();
    private final BandProbesBook bandProbes;
    private final LongSupplier epochMillis;
    private final long dwellMillis;
    /** Written by the update thread only; read by {@link EstimateQuestions} on any thread. */
    private volatile PathHistograms pathHistograms = PathHistograms.EMPTY;

    /**
     * @param profiles    the profiles now in use
     * @param bandProbes  the connections' probes of loaded port states
     * @param epochMillis wall clock, ms (ages and display)
     * @param dwellMillis how long a state holds before an adaptive connection measures it, for the reason shown
     */
    ServingPolicy(final Supplier<Map<String, Profile>> profiles, final BandProbesBook bandProbes, final LongSupplier epochMillis,
                  final long dwellMillis) {
        this.profiles = profiles;
        this.bandProbes = bandProbes;
        this.epochMillis = epochMillis;
        this.dwellMillis = dwellMillis;
    }

    /** @param replaced a profile replaced by another of its name: its shared estimates are dropped */
    void forget(final Profile replaced) {
        profileEstimates.forget(replaced);
        pathHistograms = pathHistograms.without(replaced);
    }

    /** @return the composed paths' histograms computed so far (an immutable snapshot; any thread) */
    PathHistograms pathHistograms() {
        return pathHistograms;
    }

    /** @return the connection's profile, or null when it has none or it is not loaded */
    Profile profileOf(final ConnectionRow row) {
        return row.spec().profileName() == null ? null : profiles.get().get(row.spec().profileName());
    }

    /** A QoS 1/2 connection in its state: its band's probes on a loaded port, else its profile's cell, else why not. */
    ConnectionRow fromProfile(final ConnectionRow row) {
        final ConnectionRow probed = fromBandProbes(row);
        if (probed != null) {
            return probed;
        }
        final Profile profile = profileOf(row);
        if (profile == null) {
            final String reason = "profile '" + row.spec().profileName() + "' is not loaded";
            // A band's probes describe that band only: without them for this state there is nothing to keep serving.
            return row.served().source() == EstimateSource.BAND_PROBES ? row.withServed(null, reason, ServedEstimate.NONE)
                : row.withEstimate(row.estimate(), reason);
        }
        try {
            final ProfileEstimates.Entry entry = profileEstimates.estimate(row.spec().asQos(), profile, row.load(),
                row.spec().messageSizeBytes(), row.spec().boundPercent(), row.spec().pathBound());
            // A composed path's reference is its parts' convolution: what the correction re-reads at its learned level.
            final LatencyHistogram reference = row.spec().asQos() == Qos.PROFILE_BOUND ? cellHistogram(profile, row) : null;
            return serve(row, entry.estimate(), reference, EstimateSource.PROFILE, 0, entry.composed());
        } catch (EstimateRefusedException e) {
            return row.withServed(null, e.getMessage(), ServedEstimate.NONE);
        }
    }

    /**
     * A QoS 3/4 connection entering a state: its last measurement of that state, else its profile, else nothing. On a
     * loaded port the band's probes come before a remembered measurement older than they may be
     * ({@value BandProbes#MAX_AGE_MILLIS} ms) and before the profile's port cell.
     */
    ConnectionRow known(final ConnectionRow row) {
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
                    EstimateSource.REMEMBERED, known.lastMeasuredEpochMillis());
            } catch (EstimateRefusedException e) {
                return row.withServed(null, e.getMessage(), ServedEstimate.NONE);
            }
        }
        return profileFallback(row, state);
    }

    private ConnectionRow profileFallback(final ConnectionRow row, final String state) {
        final String waiting = "connection " + row.spec().indexRef() + " has not been measured in " + state
            + " yet: a measurement is requested" + (row.spec().isAdaptive() ? " once the state has held for " + dwellMillis + " ms" : "");
        final Profile profile = profileOf(row);
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
            return serve(row, fallback, cellHistogram(profile, row), EstimateSource.PROFILE_FALLBACK, 0);
        } catch (EstimateRefusedException e) {
            return row.withServed(null, waiting + "; the profile offers none: " + e.getMessage(), ServedEstimate.NONE);
        }
    }

    /**
     * A measurement of the row's current state, served as the state's own.
     *
     * @param basis where it came from
     */
    ConnectionRow measured(final ConnectionRow row, final Measurement measurement, final String basis, final long epochMillisNow) {
        try {
            return serve(row, measuredEstimate(row, measurement, basis), measurement.histogram(), EstimateSource.MEASUREMENT,
                epochMillisNow);
        } catch (EstimateRefusedException e) {
            return row.withServed(null, e.getMessage(), ServedEstimate.NONE);
        }
    }

    /**
     * On a loaded port, its path's recent round trips in the port state served as the connection's estimate: a mean, or the
     * bound read from their merged histogram, corrected as any estimate is; the corrections start afresh when the
     * source changes to them.
     *
     * @return the row serving them, or null when the port is not loaded or the probes are too few or refused
     */
    ConnectionRow fromBandProbes(final ConnectionRow row) {
        if (!row.load().port().isLoaded() || !row.load().isKnown()) {
            return null;
        }
        final BandProbes probes = bandProbes.of(row.spec(), row.load().hops());
        final long nowMillis = epochMillis.getAsLong();
        final Measurement pooled = probes.measurement(nowMillis);
        if (pooled == null) {
            return null;
        }
        final long lastMillis = probes.lastEpochMillis(nowMillis);
        final String basis = String.format(Locale.ROOT,
            "probes and measurements of %s -> %s via %s, %d B, in port %s: %d round trips over %d s up to %d ms ago (CPU"
                + " states and the path's connections pooled%s: the port's queue decides)", row.spec().clientNodeName(),
            row.spec().peerNodeName(), row.spec().pathLabel(), row.spec().messageSizeBytes(), portLabel(row.load()),
            pooled.sampleCount(),
            Math.max(0, lastMillis - probes.firstEpochMillis(nowMillis)) / 1000, Math.max(0, nowMillis - lastMillis),
            row.load().isMultiHop() ? ", and the hops' states with the same worst band and the same hops loaded" : "");
        final Qos asMeasured = row.spec().asQos().bound() ? Qos.MEASURED_BOUND : Qos.MEASURED_AVERAGE;
        final Estimate measured;
        try {
            measured = asMeasured.fromMeasurement(pooled, row.spec().boundPercent(), basis);
        } catch (EstimateRefusedException tooFew) {
            return null;
        }
        final Estimate thesis = new Estimate(row.spec().qos(), measured.kind(), measured.valueMillis(), measured.boundPercent(),
            measured.interval(), measured.alternatives(), measured.basis(), measured.notes(), false);
        final ConnectionRow restarted = !row.spec().isAdaptive() || row.served().source() == EstimateSource.BAND_PROBES ? row
            : row.withLearning(row.learning().with(row.load(),
                row.currentKnowledge().withCorrectionsRestarted(row.spec().boundPercent())));
        return serve(restarted, thesis, pooled.histogram(), EstimateSource.BAND_PROBES, lastMillis, composedBeside(row));
    }

    /**
     * @return for a QoS 2 path with two or more loaded ports served from elsewhere (its probes), what its profile's
     *         composition gives, so that a client sees both methods' values beside the served one; null otherwise
     */
    private ComposedBound composedBeside(final ConnectionRow row) {
        final Profile profile = profileOf(row);
        if (row.spec().asQos() != Qos.PROFILE_BOUND || profile == null || !ProfilePath.isComposed(row.load())) {
            return null;
        }
        try {
            return profileEstimates.estimate(row.spec().asQos(), profile, row.load(), row.spec().messageSizeBytes(),
                row.spec().boundPercent(), row.spec().pathBound()).composed();
        } catch (EstimateRefusedException e) {
            return null;
        }
    }

    /**
     * After a probe window (or a pooled result) of a loaded port state joined the band's probes: the row's estimate drawn
     * from them again where it comes from them, or from a stand-in they replace (the profile for QoS 1/2; its fallback,
     * or nothing, for QoS 3/4 awaiting a measurement).
     */
    ConnectionRow afterBandProbes(final ConnectionRow row) {
        if (!row.spec().isMeasured()) {
            return fromProfile(row);
        }
        final EstimateSource source = row.served().source();
        final boolean standIn = source == EstimateSource.BAND_PROBES || source == EstimateSource.PROFILE_FALLBACK
            || source == EstimateSource.NONE;
        final ConnectionRow probed = standIn ? fromBandProbes(row) : null;
        return probed == null ? row : probed;
    }

    /** Serves the same thesis estimate again with the correction as it now stands. */
    static ConnectionRow reserve(final ConnectionRow row) {
        final ServedEstimate served = row.served();
        if (served.thesis() == null || row.estimate() == null) {
            return row;
        }
        final ConnectionRow again = serve(row, served.thesis(), served.reference(), served.source(), served.dataEpochMillis(),
            served.composed());
        return again.withServed(again.estimate(), row.unavailableReason(), again.served());
    }

    /** The histogram a restored bound was read from: not saved, found again where it came from. */
    ServedEstimate withReference(final ConnectionRow row, final ConnectionLoadState load, final ServedEstimate served,
                                 final Learning learning) {
        if (served.thesis() == null || served.thesis().kind() != EstimateKind.BOUND || !load.isKnown()) {
            return served;
        }
        LatencyHistogram reference = null;
        if (served.source().measured()) {
            final StateKnowledge known = learning.byState().get(load);
            reference = known == null || known.lastMeasurement() == null ? null : known.lastMeasurement().histogram();
        } else if (profileOf(row) != null) {
            reference = cellHistogram(profileOf(row), row.withMib(MibReading.NONE, load, 0));
        }
        return new ServedEstimate(served.thesis(), reference, served.source(), served.dataEpochMillis(), served.correction(),
            served.composed());
    }

    /** @return whether any hop's band changed ({@link #portBandChanged}), hop by hop in path order */
    static boolean pathBandChanged(final ConnectionLoadState before, final ConnectionLoadState after) {
        if (before.hops().size() != after.hops().size()) {
            return portBandChanged(before.port(), after.port());
        }
        for (int i = 0; i < after.hops().size(); i++) {
            if (portBandChanged(before.hops().get(i), after.hops().get(i))) {
                return true;
            }
        }
        return false;
    }

    /**
     * @return whether the value served before may belong to another port band than the new state's: the port went
     *         between NORMAL and a loaded state or between loaded states (bands, SATURATED), or it returns from UNKNOWN
     *         (no answers: what it was in the meantime, and so which band the served value belongs to, is not known);
     *         a change to UNKNOWN is not one
     */
    static boolean portBandChanged(final PortState before, final PortState after) {
        if (after.kind() == PortState.Kind.UNKNOWN) {
            return false;
        }
        if (before.kind() == PortState.Kind.UNKNOWN) {
            return true;
        }
        return (before.isLoaded() || after.isLoaded()) && !before.equals(after);
    }

    /** @return the load state as logs and reasons name it, e.g. "LOW/LOW LOADED 100 %", or "LOW/LOW [LOADED 95 %, NORMAL]" for a path of several ports */
    static String label(final ConnectionLoadState load) {
        return load.label();
    }

    /** @return the port state, or every hop's in path order for a path of several ports */
    static String portLabel(final ConnectionLoadState load) {
        return load.isMultiHop() ? load.hops().toString() : load.port().toString();
    }

    private static Estimate measuredEstimate(final ConnectionRow row, final Measurement measurement, final String basis)
        throws EstimateRefusedException {
        return row.spec().asQos().fromMeasurement(measurement, row.spec().boundPercent(), basis);
    }

    /**
     * The profile cell's histogram for the row's state, or null when it has none; a composed path's convolution is
     * computed once per profile, combined state and size and kept in {@link #pathHistograms()}.
     */
    private LatencyHistogram cellHistogram(final Profile profile, final ConnectionRow row) {
        final int size = row.spec().messageSizeBytes();
        try {
            if (!ProfilePath.isComposed(row.load())) {
                return ProfileHistograms.forState(profile, row.load(), size).histogram();
            }
            final ProfileHistograms.StateHistogram kept = pathHistograms.find(profile, row.load(), size);
            if (kept != null) {
                return kept.histogram();
            }
            final ProfileHistograms.StateHistogram composed = ProfileHistograms.forState(profile, row.load(), size);
            pathHistograms = pathHistograms.with(profile, row.load(), size, composed);
            return composed.histogram();
        } catch (EstimateRefusedException noneForThisState) {
            return null;
        }
    }

    /**
     * Serves the thesis's estimate, corrected from what was learned in the row's load state when the
     * connection is adaptive.
     */
    private static ConnectionRow serve(final ConnectionRow row, final Estimate thesis, final LatencyHistogram reference,
                                       final EstimateSource source, final long dataEpochMillis) {
        return serve(row, thesis, reference, source, dataEpochMillis, null);
    }

    /**
     * @return the class of the connection's declared traffic shape, whose level alone a bound is then read at; null while
     *         a connection declares none (its bound is read at the level of the worst shape class seen)
     */
    static org.latencyserver.core.traffic.ShapeClass declaredShape(final ConnectionRow row) {
        return org.latencyserver.server.table.ConnectionTraffic.declaredClass(row.spec());
    }

    /** @param composed a composed path bound's methods and values, or null */
    private static ConnectionRow serve(final ConnectionRow row, final Estimate thesis, final LatencyHistogram reference,
                                       final EstimateSource source, final long dataEpochMillis, final ComposedBound composed) {
        if (!row.spec().isAdaptive()) {
            return row.withServed(thesis, null, new ServedEstimate(thesis, reference, source, dataEpochMillis, "", composed));
        }
        // Only a profile's bound borrows: band probes and measurements are the path's own round trips, corrected afresh.
        final boolean fromProfile = source == EstimateSource.PROFILE || source == EstimateSource.PROFILE_FALLBACK;
        final PathLevelBorrowing.Borrowed knowledge = thesis.kind() == EstimateKind.BOUND && fromProfile
            ? PathLevelBorrowing.knowledgeFor(row) : new PathLevelBorrowing.Borrowed(row.currentKnowledge(), null);
        final EstimateCorrection.Corrected corrected = EstimateCorrection.correct(thesis, reference,
            correctingKnowledge(fromProfile, knowledge.knowledge()), row.learning().pooledMeanLogResiduals(),
            correctingPrior(row, fromProfile, row.learning().pooledLevel(row.spec().boundPercent())), declaredShape(row),
            row.learning().pooledBurstScores(), BurstLength.of(row.spec()), row.learning().classExcess());
        final boolean borrowed = knowledge.description() != null && !corrected.description().isEmpty();
        final Estimate estimate = borrowed ? withNote(corrected.estimate(), knowledge.description()) : corrected.estimate();
        final String description = borrowed ? corrected.description() + "; " + knowledge.description() : corrected.description();
        return row.withServed(estimate, null, new ServedEstimate(thesis, reference, source, dataEpochMillis, description, composed));
    }

    /**
     * A profile's bound is rescaled by the ratios to profile bounds only: the state's own, or those of the states with the
     * same hops loaded that a young path state borrows ({@link PathLevelBorrowing}); never the connection's pooled ones
     * (its idle CPU cells and its port cells are off by different factors).
     *
     * @param fromProfile whether the bound was read from a profile
     * @param knowledge   the knowledge it is corrected with
     * @return that knowledge, its level's ratios those to profile bounds when from a profile
     */
    static StateKnowledge correctingKnowledge(final boolean fromProfile, final StateKnowledge knowledge) {
        return fromProfile && knowledge.level() != null
            ? knowledge.withLevel(knowledge.level().withRatios(knowledge.level().profileRatios())) : knowledge;
    }

    /**
     * @param fromProfile whether the bound was read from a profile
     * @param pooled      the connection's pooled level, or null
     * @return the pooled level a bound is corrected with: without ratios for a profile's bound (see
     *         {@link #correctingKnowledge})
     */
    static AdaptiveQuantileLevel correctingPooled(final boolean fromProfile, final AdaptiveQuantileLevel pooled) {
        return fromProfile && pooled != null ? pooled.withRatios(RatioScores.EMPTY) : pooled;
    }

    /**
     * As {@link #correctingPooled(boolean, AdaptiveQuantileLevel)}; a bound read from a loaded path's own round trips is
     * corrected with the states with the same hops loaded once one was tested ({@link PathLevelBorrowing#pooledForOwnRoundTrips}).
     *
     * @param row the connection, in its current state
     * @return the pooled level a bound is corrected with, or null to borrow nothing
     */
    static AdaptiveQuantileLevel correctingPooled(final ConnectionRow row, final boolean fromProfile,
                                                  final AdaptiveQuantileLevel pooled) {
        return fromProfile ? correctingPooled(true, pooled) : PathLevelBorrowing.pooledForOwnRoundTrips(row, pooled);
    }

    /**
     * What the current state's level borrows from: the pooled level a bound is corrected with ({@link
     * #correctingPooled(ConnectionRow, boolean, AdaptiveQuantileLevel)}) shrunk towards the state's port pattern's level
     * by the pattern's blocks ({@code BorrowedLevel.Prior}).
     *
     * @param row         the connection, in its current state
     * @param fromProfile whether the bound was read from a profile
     * @param pooled      the connection's pooled level, or null
     * @return the prior; its level null to borrow nothing
     */
    static BorrowedLevel.Prior correctingPrior(final ConnectionRow row, final boolean fromProfile,
                                               final AdaptiveQuantileLevel pooled) {
        return BorrowedLevel.Prior.of(correctingPooled(row, fromProfile, pooled), row.learning().patternLevel(row.load()));
    }

    private static Estimate withNote(final Estimate estimate, final String note) {
        final java.util.List<String> notes = new java.util.ArrayList<>(estimate.notes());
        notes.add(note);
        return new Estimate(estimate.qos(), estimate.kind(), estimate.valueMillis(), estimate.boundPercent(), estimate.interval(),
            estimate.alternatives(), estimate.basis(), notes, estimate.interpolated());
    }
}
