package org.latencyserver.server.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.latencyserver.core.calibration.AdaptiveQuantileLevel;
import org.latencyserver.core.calibration.RatioScores;
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
 * A band-probe bound on a path with both hops loaded, in a combined state with no blocks of its own, while the
 * connection's pool learned, on a state with only the second hop loaded, round trips 3 times its probes' 96th percentile
 * and a level of 98.5 %. The pool's ratios and level are that other queue's: once a state with the same hops loaded was
 * tested, the young state is corrected from that state instead (until then from the pool, as a one-port path is).
 */
class PathOwnRoundTripsPoolTest {

    private static final WorkstationType TYPE = new WorkstationType("LOCAL-2CORE", 5);
    private static final CpuStatePair LOW = new CpuStatePair(CpuState.LOW, CpuState.LOW);
    private static final ConnectionLoadState BOTH_YOUNG = ConnectionLoadState.ofHops(LOW,
        List.of(PortState.loaded(98), PortState.loaded(98)));
    private static final ConnectionLoadState BOTH_OTHER_BANDS = ConnectionLoadState.ofHops(LOW,
        List.of(PortState.loaded(95), PortState.loaded(98)));
    private static final ConnectionLoadState HOP_2_ONLY = ConnectionLoadState.ofHops(LOW,
        List.of(PortState.NORMAL, PortState.loaded(98)));

    /** 10 round trips in each 1 ms bin up to 100 ms: the 96 % bound is 96 ms. */
    private static LatencyHistogram probes() {
        final long[] counts = new long[100];
        Arrays.fill(counts, 10);
        return LatencyHistogram.uniform(1_000_000L, counts, 0);
    }

    private static Estimate thesis() {
        return new Estimate(2, EstimateKind.BOUND, 96.0, 96, new ConfidenceInterval(0.95, 0.97, 0.95, "test"), List.of(),
            "band probes", List.of(), false);
    }

    private static RatioScores all(final double ratio) {
        return all(ratio, 120);
    }

    private static RatioScores all(final double ratio, final int count) {
        final double[] scores = new double[count];
        Arrays.fill(scores, ratio);
        return RatioScores.of(scores);
    }

    /** Knowledge after {@code blocks} blocks of 10 round trips, none missed, with {@code ratios} learned. */
    private static StateKnowledge tested(final int blocks, final RatioScores ratios) {
        StateKnowledge known = StateKnowledge.fresh(96);
        for (int i = 0; i < blocks; i++) {
            known = known.observeBound(10, 10, true, true);
        }
        return known.withLevel(known.level().withRatios(ratios));
    }

    private static ConnectionRow served(final Map<ConnectionLoadState, StateKnowledge> learned) {
        final ConnectionSpec spec = new ConnectionSpec((short) 2, "ws1", (short) 1, TYPE, "ws2", (short) 2, TYPE,
            List.of("sw1-trunk", "sw2-ws2"), 256, 2, 96, "paths", CalibrationMode.ADAPTIVE, 10.0, BoundMethod.UNION);
        // The connection's pool: a level of 98.5 % and ratios of 3, as learned on the hop-2-only state.
        final AdaptiveQuantileLevel pooled = new AdaptiveQuantileLevel(0.04, 0.015, AdaptiveQuantileLevel.start(96)
            .stepPerRoundTrip(), AdaptiveQuantileLevel.start(96).maxBlockWeight(), all(3.0), RatioScores.EMPTY);
        final ConnectionRow row = ConnectionRow.initial(spec, 0).withMib(MibReading.NONE, BOTH_YOUNG, 0)
            .withLearning(new Learning(learned, 0, null, pooled));
        return ServingPolicy.reserve(row.withServed(thesis(), null,
            new ServedEstimate(thesis(), probes(), EstimateSource.BAND_PROBES, 0, "", null)));
    }

    @Test
    void untilAStateWithTheSameHopsLoadedIsTestedTheConnectionsPoolIsBorrowed() {
        final ConnectionRow row = served(Map.of(HOP_2_ONLY, tested(6, all(3.0)), BOTH_YOUNG, StateKnowledge.fresh(96)));
        assertEquals(288.0, row.estimate().valueMillis(), 1e-9, "the pool's ratios, as on a one-port path: "
            + row.served().correction());
        assertTrue(row.served().correction().contains("rescaled"), row.served().correction());
    }

    @Test
    void aStateWithTheSameHopsLoadedIsBorrowedFromInstead() {
        final ConnectionRow row = served(Map.of(HOP_2_ONLY, tested(6, all(3.0)), BOTH_OTHER_BANDS, tested(6, all(0.9)),
            BOTH_YOUNG, StateKnowledge.fresh(96)));
        assertTrue(row.estimate().valueMillis() < 96.0,
            "its neighbour with both hops loaded was covered: a level below nominal, "
                + row.estimate().valueMillis() + " ms, " + row.served().correction());
        assertTrue(row.estimate().valueMillis() > 90.0, "read near its level, not rescaled: " + row.estimate().valueMillis());
        assertFalse(row.served().correction().contains("rescaled"), row.served().correction());
    }

    @Test
    void aNeighbourWithTooFewRatiosToRescaleLendsItsLevelButNotItsRatios() {
        // one block's 50 ratios: fewer than a rescale needs, so the connection's ratios are kept beside the neighbour's level
        final ConnectionRow row = served(Map.of(HOP_2_ONLY, tested(6, all(3.0)),
            BOTH_OTHER_BANDS, tested(1, all(0.9, RatioScores.MIN_SCORES / 2)), BOTH_YOUNG, StateKnowledge.fresh(96)));
        final AdaptiveQuantileLevel connection = row.learning().pooledLevel(96);
        final AdaptiveQuantileLevel borrowed = PathLevelBorrowing.pooledForOwnRoundTrips(row, connection);
        assertEquals(connection.ratios().size(), borrowed.ratios().size(), "the connection's ratios");
        assertTrue(borrowed.missFraction() != connection.missFraction(), "the neighbour's level: " + borrowed.missFraction());
        final ConnectionRow enough = served(Map.of(HOP_2_ONLY, tested(6, all(3.0)),
            BOTH_OTHER_BANDS, tested(3, all(0.9, RatioScores.MIN_SCORES)), BOTH_YOUNG, StateKnowledge.fresh(96)));
        assertEquals(RatioScores.MIN_SCORES, PathLevelBorrowing.pooledForOwnRoundTrips(enough,
            enough.learning().pooledLevel(96)).ratios().size(), "enough of the neighbour's own ratios: those");
    }
}
