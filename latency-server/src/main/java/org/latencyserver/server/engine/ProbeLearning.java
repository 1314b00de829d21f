package org.latencyserver.server.engine;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.latencyserver.core.calibration.BandProbes;
import org.latencyserver.core.calibration.LearnedCell;
import org.latencyserver.core.calibration.LearnedProfiles;
import org.latencyserver.core.calibration.StateKnowledge;
import org.latencyserver.core.histogram.LatencyHistogram;
import org.latencyserver.core.profile.Profile;
import org.latencyserver.core.profile.ProfileCell;
import org.latencyserver.core.stats.Counts;
import org.latencyserver.core.state.PortState;
import org.latencyserver.core.traffic.TrafficShape;
import org.latencyserver.server.table.ConnectionRow;
import org.latencyserver.server.table.Learning;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Probe learning: a client agent's probe window tests the estimate being served (calibration, correction, the drift
 * test; a drift alarm re-measures an adaptive QoS 3/4 connection), feeds a QoS 1/2 connection's profile cell's learned
 * histogram on an idle port, and on a loaded port joins the connection's probes of that port state, which may then be
 * served. A window counts only when the connection's load state held throughout it.
 *
 * <p>Not thread-safe: owned by the update thread; the learned cells are published as an immutable snapshot and the
 * count is volatile, for readers on other threads.
 */
final class ProbeLearning {

    private static final Logger LOG = LoggerFactory.getLogger(ProbeLearning.class);

    private final ResultFiling filing;
    private final MeasurementScheduler scheduler;
    /** Probe round trips accepted since start, saturating; written by the update thread, read by metrics. */
    private volatile long probeRoundTrips;
    /** What probes of QoS 1/2 connections taught about their profiles' cells, by profile name. */
    private volatile Map<String, Map<LearnedProfiles.CellKey, LearnedCell>> learnedCells = Map.of();

    ProbeLearning(final ResultFiling filing, final MeasurementScheduler scheduler) {
        this.filing = filing;
        this.scheduler = scheduler;
    }

    /** @see UpdateEngine#submitProbe(short, String, LatencyHistogram, double, long, TrafficShape, long) */
    SubmitOutcome submitProbe(final short indexRef, final String clientNode, final LatencyHistogram roundTrips,
                              final double meanMillis, final long windowMillis, final TrafficShape shape, final long nowNanos) {
        final ConnectionRow row = filing.table().row(indexRef);
        if (row == null) {
            return new SubmitOutcome(Refusal.Kind.UNKNOWN_CONNECTION, "no connection " + indexRef);
        }
        if (!row.spec().clientNodeName().equals(clientNode)) {
            return SubmitOutcome.refused("probe report from node '" + CallerText.capped(clientNode) + "' for connection " + indexRef
                + ", whose client is '" + row.spec().clientNodeName() + "': only the client's own agent probes a connection");
        }
        if (row.spec().probeRatePerSecond() == 0) {
            return SubmitOutcome.refused("probing of connection " + indexRef + " is switched off (probe_rate_per_second: 0)");
        }
        final Optional<Refusal> implausible = filing.plausibility().probe(row, roundTrips, meanMillis,
            filing.serving().profileOf(row));
        if (implausible.isPresent()) {
            return new SubmitOutcome(implausible.get());
        }
        final long count = roundTrips.totalCount();
        if (!row.load().isKnown() || count == 0 || row.learning().stateSinceNanos() == ConnectionRow.NOT_DUE
            || nowNanos - row.learning().stateSinceNanos() < windowMillis * 1_000_000L) {
            // The window began in another load state. On a loaded path whose probe state (worst hop's band, loaded
            // hops) held throughout, it still describes the ports' queueing: it joins their probes, testing nothing.
            if (row.load().isKnown() && count > 0 && row.load().port().isLoaded()
                && filing.bandProbes().heldSince(row.spec(), row.load().hops(), nowNanos - windowMillis * 1_000_000L)) {
                final ConnectionRow learned = learnBand(row, roundTrips, meanMillis, nowNanos);
                if (learned != row) {
                    filing.publisher().publish(row, learned);
                }
            }
            return SubmitOutcome.ACCEPTED;
        }
        if (row.estimate() == null) {
            // Nothing to test against; on a loaded port the window still describes the band.
            final ConnectionRow learned = learnBand(row, roundTrips, meanMillis, nowNanos);
            if (learned != row) {
                filing.publisher().publish(row, learned);
            }
            return SubmitOutcome.ACCEPTED;
        }
        probeRoundTrips = Counts.saturatedSum(probeRoundTrips, count);
        learnProfileCell(row, roundTrips, meanMillis);
        final Learning tested = ServedCalibration.tested(row, roundTrips, count, meanMillis, true, shape);
        filing.settling().taught(indexRef, row.learning(), tested, nowNanos);
        final StateKnowledge known = tested.of(row.load(), row.spec().boundPercent());
        final ConnectionRow next = learnBand(ServingPolicy.reserve(row.withLearning(tested)), roundTrips, meanMillis, nowNanos);
        filing.publisher().publish(row, known.drift().alarm() == null ? next : onDriftAlarm(row, next, known, nowNanos));
        return SubmitOutcome.ACCEPTED;
    }

    /** The probes showed the served estimate stopped holding: the alarm is counted, an adaptive QoS 3/4 connection re-measured. */
    private ConnectionRow onDriftAlarm(final ConnectionRow row, final ConnectionRow next, final StateKnowledge known,
                                       final long nowNanos) {
        final String alarm = known.drift().alarm();
        final ConnectionRow handled = next.withLearning(next.learning().with(row.load(), next.currentKnowledge().withDriftHandled()));
        final boolean remeasure = row.spec().isMeasured() && row.spec().isAdaptive() && handled.pending() == null
            && handled.measurementDueNanos() == ConnectionRow.NOT_DUE;
        LOG.info("connection {} in {}: {}{}", row.spec().indexRef(), ServingPolicy.label(row.load()), alarm,
            remeasure ? "; re-measuring" : row.spec().isMeasured() ? "; a measurement is already awaited" : "");
        return remeasure ? scheduler.request(handled.withLearning(handled.learning().withMeasurementReason(alarm)), nowNanos)
            : handled;
    }

    /**
     * A probe window of a loaded port state, after it tested what was served: kept with the band's probes, and the
     * row's estimate drawn from them again where they serve (see {@link ServingPolicy#afterBandProbes}).
     */
    private ConnectionRow learnBand(final ConnectionRow row, final LatencyHistogram roundTrips, final double meanMillis,
                                    final long nowNanos) {
        if (!row.load().port().isLoaded()) {
            return row;
        }
        filing.bandProbes().add(row.spec(), row.load().hops(),
            new BandProbes.Window(roundTrips, meanMillis, nowNanos, filing.epochMillis().getAsLong()));
        filing.bandListener().bandProbesChanged(row);
        return filing.serving().afterBandProbes(row);
    }

    /**
     * A profile-served connection's probe window feeds its profile cell's learned histogram. Only in
     * a NORMAL port state: the cells describe the path without a loaded port.
     */
    private void learnProfileCell(final ConnectionRow row, final LatencyHistogram roundTrips, final double meanMillis) {
        if (row.spec().isMeasured() || row.load().port().kind() != PortState.Kind.NORMAL) {
            return;
        }
        final Profile profile = filing.serving().profileOf(row);
        final ProfileCell cell = profile == null ? null : profile.cell(row.load().cpu(), row.spec().messageSizeBytes()).orElse(null);
        if (cell == null) {
            return;
        }
        final LearnedProfiles.CellKey key = new LearnedProfiles.CellKey(cell.cpuStates(), cell.messageSizeBytes());
        final Map<LearnedProfiles.CellKey, LearnedCell> cells = new HashMap<>(learnedCells.getOrDefault(profile.name(), Map.of()));
        cells.put(key,
            cells.getOrDefault(key, LearnedCell.empty(cell)).add(roundTrips, meanMillis, filing.epochMillis().getAsLong()));
        final Map<String, Map<LearnedProfiles.CellKey, LearnedCell>> next = new HashMap<>(learnedCells);
        next.put(profile.name(), Map.copyOf(cells));
        learnedCells = Map.copyOf(next);
    }

    /** @param profileName a profile swapped in: what was learned against its predecessor is dropped */
    void forgetLearned(final String profileName) {
        final Map<String, Map<LearnedProfiles.CellKey, LearnedCell>> learned = new HashMap<>(learnedCells);
        learned.remove(profileName);
        learnedCells = Map.copyOf(learned);
    }

    /** @param learned the primary's learned cells, replacing this server's (a standby's copy) */
    void restoreLearned(final Map<String, Map<LearnedProfiles.CellKey, LearnedCell>> learned) {
        learnedCells = Map.copyOf(learned);
    }

    /** @return the learned profile cells by profile name, an immutable snapshot safe to read from any thread */
    Map<String, Map<LearnedProfiles.CellKey, LearnedCell>> learnedCells() {
        return learnedCells;
    }

    /** @return probe round trips accepted and tested since start (any thread) */
    long probeRoundTrips() {
        return probeRoundTrips;
    }
}
