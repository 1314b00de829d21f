package org.latencyserver.server.engine;

import java.util.Locale;
import java.util.Map;
import org.latencyserver.core.calibration.AdaptiveQuantileLevel;
import org.latencyserver.core.calibration.CoverageTally;
import org.latencyserver.core.calibration.EstimateCorrection;
import org.latencyserver.core.calibration.PortPatternLevel;
import org.latencyserver.core.calibration.RatioScores;
import org.latencyserver.core.calibration.StateKnowledge;
import org.latencyserver.core.state.ConnectionLoadState;
import org.latencyserver.core.state.PortState;
import org.latencyserver.server.table.ConnectionRow;

/**
 * The adaptive level a bound on a loaded path of several ports is corrected with while its combined state (every hop's
 * band, the CPU pair) is young: the connection's pooled level. Combined states of a path flap as each hop moves between
 * neighbouring bands, so each stays young and would be served at the thesis's level, uncorrected, however much the
 * connection has learned in its neighbours.
 *
 * <p>A state is young with fewer than {@value EstimateCorrection#MIN_BLOCKS_FOR_OBSERVED_INTERVAL} blocks of round trips
 * tested against its own served bounds. Its pooled level is the round-trip-weighted mean of the miss fraction α of the
 * connection's states with a tested level, the young state's own included, with — only when they have the same hops
 * loaded — their ratios of round trips to the profile's bound ({@code RatioScores}, the young state's newest): those
 * with the same hops loaded when any
 * has been tested (their queues are the same ports'), else every state. The borrowed knowledge carries the pooled
 * states' coverage, so the interval served is theirs, and the correction's description says it was borrowed. What is
 * learned from the round trips that follow is still filed under the young state's own level. Only a bound read from the
 * profile (a composed path's, or its one loaded hop's cell) borrows ({@link ServingPolicy} decides): band probes and
 * measurements are the path's own round trips.
 *
 * <p>A bound read from the path's own round trips (band probes, a measurement) on such a loaded path is shrunk towards,
 * and rescaled by the ratios of, the pooled level of the states with the same hops loaded only ({@link
 * #pooledForOwnRoundTrips}): the connection's pool mixes other ports' queues (an idle path, the other hop loaded), whose
 * levels and ratios to their own histograms say nothing of this one's. Until such a state has been tested, the
 * connection's pool is borrowed, as for a one-port path: on a CPU-bound host every state shares the CPUs' queue.
 *
 * <p>Stateless and thread-safe.
 */
final class PathLevelBorrowing {

    /**
     * @param knowledge   what to correct with
     * @param description null when the state's own was used; else how the level was borrowed, for the correction's
     *                    description
     */
    record Borrowed(StateKnowledge knowledge, String description) {
    }

    private PathLevelBorrowing() {
    }

    /**
     * @param row an adaptive connection in its current state
     * @return the row's own knowledge of the state, or one with the pooled level when the state is a young loaded path of
     *         several ports and the connection has tested bounds elsewhere
     */
    static Borrowed knowledgeFor(final ConnectionRow row) {
        final StateKnowledge own = row.currentKnowledge();
        final ConnectionLoadState load = row.load();
        if (own.level() == null || !load.isMultiHop() || !load.port().isLoaded()
            || own.coverage().blocks() >= EstimateCorrection.MIN_BLOCKS_FOR_OBSERVED_INTERVAL) {
            return new Borrowed(own, null);
        }
        Pool pool = pool(row.learning().byState(), load, true);
        if (pool.states == 0) {
            pool = pool(row.learning().byState(), load, false);
        }
        if (pool.states == 0) {
            return new Borrowed(own, null);
        }
        final long ownRoundTrips = own.coverage().roundTrips();
        final double weight = pool.roundTrips + ownRoundTrips;
        final double missFraction = (pool.weightedMiss + ownRoundTrips * own.level().missFraction()) / weight;
        final AdaptiveQuantileLevel level = new AdaptiveQuantileLevel(own.level().targetMissFraction(), missFraction,
            own.level().stepPerRoundTrip(), own.level().maxBlockWeight(), own.level().ratios(),
            pool.profileRatios.plus(own.level().profileRatios()));
        final CoverageTally coverage = own.coverage().plus(pool.coverage);
        final StateKnowledge borrowed = new StateKnowledge(own.lastMeasurement(), own.lastMeasuredEpochMillis(), own.measurements(),
            level, own.meanCorrection(), coverage, own.meanErrors(), own.drift(), own.driftAlarms(), own.probeWindows(),
            // the borrowed level speaks for the pooled states' blocks too, so the connection-wide blending weighs it so
            new org.latencyserver.core.calibration.GroupLevels(own.groups().stateBlocks() + pool.coverage.blocks(),
                own.groups().byClass()), own.burstWidth());
        final String description = String.format(Locale.ROOT, "level borrowed: %s has %d blocks of its own (%d round trips),"
                + " so the connection's pooled level over %d %s (%d round trips) is served, %.2f %%, and their observed coverage",
            load.label(), own.coverage().blocks(), ownRoundTrips, pool.states,
            pool.sameLoadedHops ? "states with the same hops loaded" : "load states", pool.roundTrips, level.servedPercent());
        return new Borrowed(borrowed, description);
    }

    /**
     * The pooled level a bound read from the path's own round trips (band probes, a measurement) is corrected with.
     *
     * @param row              an adaptive connection in its current state
     * @param connectionPooled the connection's pooled level, or null
     * @return {@code connectionPooled} unless the row is on a loaded path of several ports and another state with the same
     *         hops loaded has been tested; then the round-trip-weighted level of those states, carrying their ratios to
     *         their own round trips' bounds once they hold enough to rescale with (else the connection's ratios)
     */
    static AdaptiveQuantileLevel pooledForOwnRoundTrips(final ConnectionRow row, final AdaptiveQuantileLevel connectionPooled) {
        final ConnectionLoadState load = row.load();
        if (connectionPooled == null || !load.isMultiHop() || !load.port().isLoaded()) {
            return connectionPooled;
        }
        final Pool pool = pool(row.learning().byState(), load, true);
        if (pool.states == 0 || pool.roundTrips == 0) {
            return connectionPooled;
        }
        // The level switches at the first tested block; the ratios only once they are enough to rescale with, so
        // that one or two blocks of a neighbour do not turn the rescale off.
        final RatioScores ratios = pool.ratios.size() >= RatioScores.MIN_SCORES ? pool.ratios : connectionPooled.ratios();
        return new AdaptiveQuantileLevel(connectionPooled.targetMissFraction(), pool.weightedMiss / pool.roundTrips,
            connectionPooled.stepPerRoundTrip(), connectionPooled.maxBlockWeight(), ratios, RatioScores.EMPTY);
    }

    /** The tested levels of the connection's other states. */
    private static final class Pool {
        int states;
        long roundTrips;
        double weightedMiss;
        CoverageTally coverage = CoverageTally.EMPTY;
        RatioScores profileRatios = RatioScores.EMPTY;
        RatioScores ratios = RatioScores.EMPTY;
        boolean sameLoadedHops;
    }

    private static Pool pool(final Map<ConnectionLoadState, StateKnowledge> byState, final ConnectionLoadState current,
                             final boolean sameLoadedHopsOnly) {
        final Pool pool = new Pool();
        pool.sameLoadedHops = sameLoadedHopsOnly;
        // In a fixed order (by the state's label), so that which states' profile ratios the pool keeps when they are more
        // than it holds is the same on every server and after every restart.
        final java.util.List<Map.Entry<ConnectionLoadState, StateKnowledge>> entries = new java.util.ArrayList<>(byState.entrySet());
        entries.sort(Map.Entry.comparingByKey(java.util.Comparator.comparing(ConnectionLoadState::label)));
        for (final Map.Entry<ConnectionLoadState, StateKnowledge> entry : entries) {
            final StateKnowledge known = entry.getValue();
            if (entry.getKey().equals(current) || known.level() == null || known.coverage().blocks() == 0
                || sameLoadedHopsOnly && !sameLoadedHops(entry.getKey(), current)) {
                continue;
            }
            pool.states++;
            pool.roundTrips += known.coverage().roundTrips();
            pool.weightedMiss += known.coverage().roundTrips() * known.level().missFraction();
            pool.coverage = pool.coverage.plus(known.coverage());
            if (sameLoadedHopsOnly) {
                // CPU cells and port cells are off by different factors: only the same hops' profile ratios are pooled.
                pool.profileRatios = pool.profileRatios.plus(known.level().profileRatios());
                pool.ratios = pool.ratios.plus(known.level().ratios());
            }
        }
        return pool;
    }

    /**
     * @return whether the two states load the same hops: their port patterns ({@link PortPatternLevel#patternOf}) alike
     *         hop by hop in whether the hop adds its queue (LOADED and SATURATED alike, NORMAL and UNKNOWN alike)
     */
    static boolean sameLoadedHops(final ConnectionLoadState a, final ConnectionLoadState b) {
        final java.util.List<PortState.Kind> x = PortPatternLevel.patternOf(a);
        final java.util.List<PortState.Kind> y = PortPatternLevel.patternOf(b);
        if (x.size() != y.size()) {
            return false;
        }
        for (int i = 0; i < x.size(); i++) {
            if (x.get(i).isLoaded() != y.get(i).isLoaded()) {
                return false;
            }
        }
        return true;
    }
}
