package org.latencyserver.server.engine;

import org.latencyserver.core.calibration.StateKnowledge;
import org.latencyserver.core.estimate.Estimate;
import org.latencyserver.core.estimate.EstimateKind;
import org.latencyserver.core.histogram.LatencyHistogram;
import org.latencyserver.server.table.ConnectionRow;


/**
 * Round trips sent while an estimate was served test it: counted in the load state's calibration, and, when the
 * estimate is the state's own (a measurement of it, remembered or fresh, its profile cell, or its band's probes) and
 * the connection adaptive, learned from (the correction, the drift test).
 *
 * <p>Stateless and thread-safe.
 */
final class ServedCalibration {

    private ServedCalibration() {
    }

    /**
     * @param row        the connection, serving the estimate the round trips followed
     * @param roundTrips the round trips, ns
     * @param count      how many
     * @param meanMillis their exact mean
     * @param fromProbe  true for a probe window, false for a measurement
     * @return what is known of the row's load state after them
     */
    static StateKnowledge tested(final ConnectionRow row, final LatencyHistogram roundTrips, final long count,
                                 final double meanMillis, final boolean fromProbe) {
        final StateKnowledge known = row.currentKnowledge();
        final Estimate served = row.estimate();
        if (served == null || count < 1) {
            return known;
        }
        final boolean ownState = row.served().source().ofCurrentState();
        final boolean adapt = row.spec().isAdaptive() && ownState;
        if (served.kind() == EstimateKind.BOUND) {
            final long hits = Math.min(count, roundTrips.countAtOrBelow(Math.round(served.valueMillis() * 1e6)));
            return known.observeBound(count, hits, fromProbe, adapt);
        }
        final double thesisMillis = row.served().thesis() != null ? row.served().thesis().valueMillis() : served.valueMillis();
        if (served.qos() == 3 && row.spec().isAdaptive()) {
            // A prediction interval for the next burst: the window is judged as the burst it stands for.
            return known.observeMean(thesisMillis, served.valueMillis(), served.interval().lower(), served.interval().upper(),
                meanMillis, count, fromProbe, adapt, known.burstSpread(), BurstLength.of(row.spec()));
        }
        return known.observeMean(thesisMillis, served.valueMillis(), served.interval().lower(), served.interval().upper(),
            meanMillis, count, fromProbe, adapt);
    }
}
