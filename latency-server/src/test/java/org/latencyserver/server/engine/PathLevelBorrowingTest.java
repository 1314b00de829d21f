package org.latencyserver.server.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
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
 * A bound on a loaded path whose combined state is young is corrected with the connection's pooled level; an
 * experienced state, a one-port path and a connection that learned nothing elsewhere keep their own.
 */
class PathLevelBorrowingTest {

    private static final WorkstationType TYPE = new WorkstationType("LOCAL-2CORE", 5);
    private static final CpuStatePair LOW = new CpuStatePair(CpuState.LOW, CpuState.LOW);
    private static final ConnectionLoadState SEASONED = ConnectionLoadState.ofHops(LOW,
        List.of(PortState.loaded(95), PortState.loaded(100)));
    private static final ConnectionLoadState YOUNG = ConnectionLoadState.ofHops(LOW,
        List.of(PortState.loaded(98), PortState.loaded(100)));

    private static ConnectionSpec spec(final List<String> links) {
        return new ConnectionSpec((short) 2, "ws1", (short) 1, TYPE, "ws2", (short) 2, TYPE, links, 256, 2, 96, "paths",
            CalibrationMode.ADAPTIVE, 10.0, BoundMethod.UNION);
    }

    /** Knowledge after blocks of 10 round trips with {@code missesPerBlock} above the bound each. */
    private static StateKnowledge tested(final int blocks, final int missesPerBlock) {
        StateKnowledge known = StateKnowledge.fresh(96);
        for (int i = 0; i < blocks; i++) {
            known = known.observeBound(10, 10 - missesPerBlock, true, true);
        }
        return known;
    }

    private static ConnectionRow row(final ConnectionSpec spec, final ConnectionLoadState load,
                                     final Map<ConnectionLoadState, StateKnowledge> learned) {
        return ConnectionRow.initial(spec, 0).withMib(MibReading.NONE, load, 0)
            .withLearning(new Learning(learned, 0, null));
    }

    @Test
    void aYoungCombinedStateBorrowsTheLevelOfItsNeighbours() {
        final StateKnowledge seasoned = tested(40, 3);
        final ConnectionRow row = row(spec(List.of("a", "b")), YOUNG, Map.of(SEASONED, seasoned, YOUNG, tested(2, 0)));
        final PathLevelBorrowing.Borrowed borrowed = PathLevelBorrowing.knowledgeFor(row);
        assertTrue(borrowed.description().startsWith("level borrowed: LOW/LOW [LOADED 98 %, LOADED 100 %] has 2 blocks of its own"
            + " (20 round trips), so the connection's pooled level over 1 states with the same hops loaded (400 round trips)"),
            borrowed.description());
        final double expectedMiss = (400 * seasoned.level().missFraction() + 20 * tested(2, 0).level().missFraction()) / 420;
        assertEquals(expectedMiss, borrowed.knowledge().level().missFraction(), 1e-12);
        assertTrue(borrowed.knowledge().level().servedPercent() > 96.5, "the neighbour missed often: its level is above nominal");
        assertEquals(42, borrowed.knowledge().coverage().blocks(), "the pooled states' coverage with the state's own");
    }

    @Test
    void anExperiencedStateAOnePortPathAndNothingLearnedElsewhereKeepTheirOwn() {
        final StateKnowledge own = tested(20, 0);
        final ConnectionRow experienced = row(spec(List.of("a", "b")), YOUNG, Map.of(SEASONED, tested(40, 3), YOUNG, own));
        assertSame(own, PathLevelBorrowing.knowledgeFor(experienced).knowledge());
        assertNull(PathLevelBorrowing.knowledgeFor(experienced).description());

        final ConnectionLoadState onePort = new ConnectionLoadState(LOW, PortState.loaded(98));
        final ConnectionRow single = row(spec(List.of("a")), onePort,
            Map.of(new ConnectionLoadState(LOW, PortState.loaded(95)), tested(40, 3)));
        assertNull(PathLevelBorrowing.knowledgeFor(single).description(), "a one-port state does not flap between hops");

        final ConnectionRow alone = row(spec(List.of("a", "b")), YOUNG, Map.of());
        assertNull(PathLevelBorrowing.knowledgeFor(alone).description());
    }

    @Test
    void theServedBoundIsReadAtTheBorrowedLevelAndSaysSo() {
        final long[] counts = new long[100];
        java.util.Arrays.fill(counts, 10);
        final LatencyHistogram reference = LatencyHistogram.uniform(1_000_000L, counts, 0);
        final Estimate thesis = new Estimate(2, EstimateKind.BOUND, 96.0, 96, new ConfidenceInterval(0.9, 0.99, 0.95, "test"),
            List.of(), "profile paths", List.of(), false);
        final ConnectionRow row = row(spec(List.of("a", "b")), YOUNG, Map.of(SEASONED, tested(40, 3), YOUNG, tested(2, 0)));
        final ConnectionRow served = ServingPolicy.reserve(row.withServed(thesis, null,
            new ServedEstimate(thesis, reference, EstimateSource.PROFILE, 0, "", null)));
        assertTrue(served.estimate().valueMillis() > 96.5, "read above the nominal level: " + served.estimate().valueMillis());
        assertTrue(served.served().correction().contains("level borrowed"), served.served().correction());
        assertTrue(served.estimate().notes().get(served.estimate().notes().size() - 1).startsWith("level borrowed"));

        final ConnectionRow probed = ServingPolicy.reserve(row.withServed(thesis, null,
            new ServedEstimate(thesis, reference, EstimateSource.BAND_PROBES, 0, "", null)));
        assertTrue(!probed.served().correction().contains("level borrowed"), "the path's own round trips borrow nothing: "
            + probed.served().correction());
    }
}
