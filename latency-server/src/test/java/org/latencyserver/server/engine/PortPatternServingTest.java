package org.latencyserver.server.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.latencyserver.core.calibration.AdaptiveQuantileLevel;
import org.latencyserver.core.calibration.BorrowedLevel;
import org.latencyserver.core.calibration.PortPatternLevel;
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
 * A young combined state on a two-hop path borrows its port pattern's level (the states with the same kind of port
 * state on every hop, whatever the CPU states and a loaded port's percent) before the connection's pooled one, and says
 * so; the round trips that follow a served bound teach the pattern's level of the state they were sent in, and only that
 * pattern's; what another state's level borrows from is shown with the connection's pooled level as its base.
 */
class PortPatternServingTest {

    private static final WorkstationType TYPE = new WorkstationType("LOCAL-2CORE", 5);
    private static final List<PortState> BOTH_LOADED = List.of(PortState.loaded(98), PortState.loaded(98));
    private static final ConnectionLoadState BOTH_LOW = ConnectionLoadState.ofHops(new CpuStatePair(CpuState.LOW, CpuState.LOW),
        BOTH_LOADED);
    private static final ConnectionLoadState BOTH_HIGH = ConnectionLoadState.ofHops(
        new CpuStatePair(CpuState.HIGH, CpuState.MEDIUM), BOTH_LOADED);
    private static final ConnectionLoadState HOP_2_ONLY = ConnectionLoadState.ofHops(new CpuStatePair(CpuState.LOW, CpuState.LOW),
        List.of(PortState.NORMAL, PortState.loaded(98)));

    /** 10 round trips in each 1 ms bin up to 100 ms: the bound at p % is p ms. */
    private static LatencyHistogram probes() {
        final long[] counts = new long[100];
        Arrays.fill(counts, 10);
        return LatencyHistogram.uniform(1_000_000L, counts, 0);
    }

    private static Estimate thesis() {
        return new Estimate(2, EstimateKind.BOUND, 96.0, 96, new ConfidenceInterval(0.95, 0.97, 0.95, "test"), List.of(),
            "band probes", List.of(), false);
    }

    /** A pattern whose states missed a lot: its level at the floor after 12 blocks. */
    private static PortPatternLevel missedPattern() {
        PortPatternLevel pattern = PortPatternLevel.start(96);
        for (int i = 0; i < 12; i++) {
            pattern = pattern.observe(25, 6);
        }
        return pattern;
    }

    private static ConnectionRow served(final Learning learning) {
        return served(BOTH_LOW, learning);
    }

    private static ConnectionRow served(final ConnectionLoadState state, final Learning learning) {
        final ConnectionSpec spec = new ConnectionSpec((short) 2, "ws1", (short) 1, TYPE, "ws2", (short) 2, TYPE,
            List.of("sw1-trunk", "sw2-ws2"), 256, 2, 96, "paths", CalibrationMode.ADAPTIVE, 10.0, BoundMethod.UNION);
        final ConnectionRow row = ConnectionRow.initial(spec, 0).withMib(MibReading.NONE, state, 0).withLearning(learning);
        return ServingPolicy.reserve(row.withServed(thesis(), null,
            new ServedEstimate(thesis(), probes(), EstimateSource.BAND_PROBES, 0, "", null)));
    }

    private static Learning young() {
        return new Learning(Map.of(BOTH_LOW, StateKnowledge.fresh(96)), 0, null, AdaptiveQuantileLevel.start(96));
    }

    @Test
    void aYoungStateWhosePatternMissedIsServedAboveWhatThePooledLevelAloneGivesAndSaysItBorrowedFromThePattern() {
        final ConnectionRow alone = served(young());
        final ConnectionRow byPattern = served(young().withPatternLevel(BOTH_HIGH, missedPattern()));

        assertEquals(96.0, alone.estimate().valueMillis(), 1e-9, "the pooled level is nominal: " + alone.served().correction());
        final double w = 12 / 32.0;
        final double alpha = w * missedPattern().level().missFraction() + (1 - w) * 0.04;
        assertEquals(100.0 * (1 - alpha), byPattern.estimate().valueMillis(), 0.5, byPattern.served().correction());
        assertTrue(byPattern.estimate().valueMillis() > 97.0, byPattern.served().correction());
        assertTrue(byPattern.served().correction().contains("port pattern's level"), byPattern.served().correction());
    }

    @Test
    void roundTripsTeachThePatternLevelOfTheirStateSharedByItsCpuStatesAndNoOther() {
        final ConnectionRow row = served(young());
        final long[] counts = new long[100];
        counts[99] = 10; // every round trip at 99–100 ms: above every bound but the histogram's top
        final LatencyHistogram block = LatencyHistogram.uniform(1_000_000L, counts, 0);

        final Learning after = ServedCalibration.tested(row, block, 10, 99.5, true);

        final PortPatternLevel pattern = after.patternLevel(BOTH_LOW);
        assertEquals(1, pattern.blocks());
        assertTrue(pattern.level().missFraction() < 0.04, "it learned the misses: α " + pattern.level().missFraction());
        assertSame(pattern, after.patternLevel(BOTH_HIGH), "the same hops, other CPU states: the same pattern");
        assertNull(after.patternLevel(HOP_2_ONLY), "another pattern learned nothing");
        assertEquals(after.pooledLevel().missFraction(), pattern.level().missFraction(), 1e-12,
            "both started nominal and learned the same block");
    }

    /** A block whose every round trip is at 99–100 ms: above every bound but the histogram's top. */
    private static LatencyHistogram missedBlock() {
        final long[] counts = new long[100];
        counts[99] = 10;
        return LatencyHistogram.uniform(1_000_000L, counts, 0);
    }

    @Test
    void loadedPortsAtDifferentPercentsShareOnePattern() {
        final ConnectionLoadState at95And100 = ConnectionLoadState.ofHops(new CpuStatePair(CpuState.LOW, CpuState.LOW),
            List.of(PortState.loaded(95), PortState.loaded(100)));

        final Learning after = ServedCalibration.tested(served(at95And100, young()), missedBlock(), 10, 99.5, true);

        assertEquals(1, after.patternLevels().size(), "one pattern: both hops loaded");
        assertSame(after.patternLevel(at95And100), after.patternLevel(BOTH_LOW), "95 % and 100 % as 98 % and 98 %");
        assertEquals(1, after.patternLevel(BOTH_LOW).blocks());
    }

    @Test
    void anotherStatesPriorBorrowsFromTheConnectionsPooledLevelNotTheCurrentPathsSameHopsPool() {
        // BOTH_HIGH tested one block that missed; the connection's pooled level set back to nominal, so that the
        // current loaded path's same-hops pool (BOTH_HIGH's level) and the connection's pooled level differ.
        final Learning tested = ServedCalibration.tested(served(BOTH_HIGH, young()), missedBlock(), 10, 99.5, true)
            .withPooledLevel(AdaptiveQuantileLevel.start(96));
        final ConnectionRow row = served(BOTH_LOW, tested);
        final double sameHopsPool = ServedLevels.pooledAsServed(row).missFraction();
        assertTrue(sameHopsPool < 0.04, "the current state's base is the same-hops pool: α " + sameHopsPool);

        assertEquals(0.04, ServedLevels.priorAsServed(row, HOP_2_ONLY).level().missFraction(), 1e-12,
            "no pattern learned for one loaded hop: the connection's pooled level alone");
        final PortPatternLevel pattern = tested.patternLevel(BOTH_HIGH);
        final double w = BorrowedLevel.weight(pattern.blocks());
        assertEquals(w * pattern.level().missFraction() + (1 - w) * 0.04,
            ServedLevels.priorAsServed(row, BOTH_HIGH).level().missFraction(), 1e-12, "the pattern over the connection's pool");
        assertEquals(w * pattern.level().missFraction() + (1 - w) * sameHopsPool,
            ServedLevels.priorAsServed(row, BOTH_LOW).level().missFraction(), 1e-12, "the current state: as served");
    }
}
