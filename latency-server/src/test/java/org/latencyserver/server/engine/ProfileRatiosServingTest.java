package org.latencyserver.server.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.latencyserver.core.calibration.StateKnowledge;
import org.latencyserver.core.estimate.Estimate;
import org.latencyserver.core.estimate.EstimateKind;
import org.latencyserver.core.histogram.LatencyHistogram;
import org.latencyserver.core.path.BoundMethod;
import org.latencyserver.core.state.ConnectionLoadState;
import org.latencyserver.core.state.CpuState;
import org.latencyserver.core.state.CpuStatePair;
import org.latencyserver.core.state.PortState;
import org.latencyserver.core.state.WorkstationType;
import org.latencyserver.core.stats.ConfidenceInterval;
import org.latencyserver.orb.EstimateSource;
import org.latencyserver.server.table.CalibrationMode;
import org.latencyserver.server.table.ConnectionRow;
import org.latencyserver.server.table.ConnectionSpec;
import org.latencyserver.server.table.Learning;
import org.latencyserver.server.table.MibReading;
import org.latencyserver.server.table.ServedEstimate;

/**
 * A profile's bound ten times too high for the path (port cells measured under burstier cross-traffic) is rescaled by the
 * ratios of round trips to profile bounds that the states with the same hops loaded learned, even in a young combined
 * state; the ratios to the path's own round trips' bounds, learned apart, do not rescale it.
 */
class ProfileRatiosServingTest {

    private static final WorkstationType TYPE = new WorkstationType("LOCAL-2CORE", 5);
    private static final CpuStatePair LOW = new CpuStatePair(CpuState.LOW, CpuState.LOW);
    private static final ConnectionLoadState SEASONED = ConnectionLoadState.ofHops(LOW,
        List.of(PortState.loaded(95), PortState.loaded(100)));
    private static final ConnectionLoadState YOUNG = ConnectionLoadState.ofHops(LOW,
        List.of(PortState.loaded(98), PortState.loaded(100)));
    private static final double THESIS_MILLIS = 96.0;

    private static ConnectionSpec spec() {
        return new ConnectionSpec((short) 2, "ws1", (short) 1, TYPE, "ws2", (short) 2, TYPE, List.of("a", "b"), 256, 2, 96,
            "paths", CalibrationMode.ADAPTIVE, 10.0, BoundMethod.UNION);
    }

    /** Blocks of 10 round trips all at {@code rttMillis}, each tested against a thesis bound of 96 ms and covered. */
    private static StateKnowledge learned(final StateKnowledge start, final int blocks, final double rttMillis,
                                          final boolean profileThesis) {
        final LatencyHistogram block = LatencyHistogram.of(new long[] {Math.round(rttMillis * 1e6)}, new long[] {10}, 0);
        StateKnowledge known = start;
        for (int i = 0; i < blocks; i++) {
            known = known.observeBound(10, 10, true, true, null, levelPercent -> 0, block, THESIS_MILLIS, profileThesis);
        }
        return known;
    }

    private static ConnectionRow served(final EstimateSource source) {
        // The seasoned neighbour: its profile bounds were ten times what followed, its probes' bounds about right.
        final StateKnowledge seasoned = learned(learned(StateKnowledge.fresh(96), 30, 9.6, true), 30, 90.0, false);
        final StateKnowledge young = learned(StateKnowledge.fresh(96), 2, 9.6, true);
        final long[] counts = new long[100];
        java.util.Arrays.fill(counts, 10);
        final LatencyHistogram reference = LatencyHistogram.uniform(1_000_000L, counts, 0);
        final Estimate thesis = new Estimate(2, EstimateKind.BOUND, THESIS_MILLIS, 96, new ConfidenceInterval(0.9, 0.99, 0.95,
            "test"), List.of(), "profile paths", List.of(), false);
        final ConnectionRow row = ConnectionRow.initial(spec(), 0).withMib(MibReading.NONE, YOUNG, 0)
            .withLearning(new Learning(Map.of(SEASONED, seasoned, YOUNG, young), 0, null));
        return ServingPolicy.reserve(row.withServed(thesis, null, new ServedEstimate(thesis, reference, source, 0, "", null)));
    }

    @Test
    void aYoungPathStatesProfileBoundIsRescaledByItsNeighboursProfileRatios() {
        final ConnectionRow row = served(EstimateSource.PROFILE);
        assertEquals(9.6, row.estimate().valueMillis(), 1e-9, "96 ms × 0.1, the profile ratios' conformal 96 % quantile");
        assertTrue(row.served().correction().contains("rescaled"), row.served().correction());
        assertTrue(row.served().correction().contains("level borrowed"), row.served().correction());
    }

    @Test
    void aYoungLoadedStateDoesNotBorrowTheProfileRatiosOfAStateWithOtherHopsLoaded() {
        // An idle path's CPU cell was ten times what followed; the young loaded state has no neighbour with its hops
        // loaded: it borrows the idle state's level but not its ratios, and is not rescaled by them.
        final ConnectionLoadState idle = ConnectionLoadState.ofHops(LOW, List.of(PortState.NORMAL, PortState.NORMAL));
        final StateKnowledge idleKnown = learned(StateKnowledge.fresh(96), 30, 9.6, true);
        final long[] counts = new long[100];
        java.util.Arrays.fill(counts, 10);
        final Estimate thesis = new Estimate(2, EstimateKind.BOUND, THESIS_MILLIS, 96, new ConfidenceInterval(0.9, 0.99, 0.95,
            "test"), List.of(), "profile paths", List.of(), false);
        final ConnectionRow row = ConnectionRow.initial(spec(), 0).withMib(MibReading.NONE, YOUNG, 0)
            .withLearning(new Learning(Map.of(idle, idleKnown, YOUNG, learned(StateKnowledge.fresh(96), 2, 9.6, true)), 0, null));
        final ConnectionRow served = ServingPolicy.reserve(row.withServed(thesis, null, new ServedEstimate(thesis,
            LatencyHistogram.uniform(1_000_000L, counts, 0), EstimateSource.PROFILE, 0, "", null)));
        assertTrue(served.served().correction().contains("level borrowed"), served.served().correction());
        assertFalse(served.served().correction().contains("rescaled"), served.served().correction());
    }

    @Test
    void theProbesRatiosAreKeptApartAndDoNotRescaleAProfilesBound() {
        final StateKnowledge both = learned(learned(StateKnowledge.fresh(96), 30, 9.6, true), 30, 90.0, false);
        assertEquals(300, both.level().profileRatios().size());
        assertEquals(300, both.level().ratios().size());
        assertEquals(0.1, both.level().profileRatios().quantile(0.04), 1e-12);
        assertEquals(0.938, both.level().ratios().quantile(0.04), 1e-12, "90 / 96 to three digits");

        final ConnectionRow probed = served(EstimateSource.BAND_PROBES);
        assertFalse(probed.served().correction().contains("rescaled"), "a young state's own probe ratios are too few, and the"
            + " connection's pool learned none: " + probed.served().correction());
    }
}
