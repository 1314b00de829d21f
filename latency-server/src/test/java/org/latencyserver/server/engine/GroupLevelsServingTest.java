package org.latencyserver.server.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.latencyserver.server.engine.AdaptiveConnectionFixture.measure;
import static org.latencyserver.server.engine.AdaptiveConnectionFixture.roundTrips;

import org.junit.jupiter.api.Test;
import org.latencyserver.core.calibration.AdaptiveQuantileLevel;
import org.latencyserver.core.calibration.BorrowedLevel;
import org.latencyserver.core.calibration.StateKnowledge;
import org.latencyserver.core.traffic.CallKind;
import org.latencyserver.core.traffic.ShapeClass;
import org.latencyserver.core.traffic.TrafficShape;
import org.latencyserver.server.table.ConnectionRow;
import org.latencyserver.server.table.Learning;
import org.latencyserver.server.table.MibReading;

/**
 * The engine serves a QoS 4 bound at the level of the worst traffic shape class its probe windows showed, and a load
 * state entered for the first time at the connection's pooled level.
 */
class GroupLevelsServingTest {

    private static final long SECOND = 1_000_000_000L;
    /** Bursts of 60 octet round trips 0.8 ms apart: class "spacing 0.5–1 ms, bursts 50–100, octets". */
    private static final TrafficShape LONG_BURST_TRAINS = new TrafficShape(800, 60, 0, CallKind.OCTETS);
    private static final ShapeClass LONG_BURSTS = ShapeClass.of(LONG_BURST_TRAINS);

    private final AdaptiveConnectionFixture connection = new AdaptiveConnectionFixture();

    @Test
    void theWorstShapeSeenDecidesTheBoundAndANewStateStartsFromThePooledLevel() {
        final UpdateEngine engine = connection.engine();
        engine.applyMib((short) 4, new MibReading((short) 10, (short) 10, (short) 10), 0);
        measure(engine, 100, 300, SECOND);
        long now = 10 * SECOND;
        for (int w = 0; w < 15; w++) {
            // Unknown traffic (the classic probes) stays within the measured spread; long bursts reach a third beyond it.
            assertTrue(engine.submitProbe((short) 4, "lab1", roundTrips(10, 100, 295), 0.2, 2000, now).accepted());
            now += 2 * SECOND;
            assertTrue(engine.submitProbe((short) 4, "lab1", roundTrips(10, 150, 400), 0.27, 2000, LONG_BURST_TRAINS, now).accepted());
            now += 2 * SECOND;
        }
        final ConnectionRow row = engine.table().row((short) 4);
        final StateKnowledge known = row.currentKnowledge();
        assertEquals(15, known.groups().byClass().get(LONG_BURSTS).blocks());
        assertEquals(15, known.groups().byClass().get(StateKnowledge.CLASSIC_PROBES).blocks());
        assertTrue(row.served().correction().contains("level for the worst shape seen: " + LONG_BURSTS.label()),
            row.served().correction());
        assertTrue(row.estimate().notes().stream().anyMatch(n -> n.contains("level for the worst shape seen: ")));
        assertEquals(org.latencyserver.core.traffic.TrafficFamily.DEFAULT.label() + "; bound at the level of the worst shape seen: "
            + LONG_BURSTS.label(), org.latencyserver.server.table.ConnectionTraffic.estimateText(row));
        final BorrowedLevel.Served worst = BorrowedLevel.of(known, row.learning().pooledLevel(96), null);
        final BorrowedLevel.Served classic = BorrowedLevel.of(known, row.learning().pooledLevel(96), StateKnowledge.CLASSIC_PROBES);
        assertTrue(worst.missFraction() < classic.missFraction(), "the classic probes alone would need a lower level: "
            + worst + " against " + classic);
        assertTrue(row.learning().pooledLevel().servedPercent() > 96.0, row.learning().pooledLevel()::toString);

        // A state never seen: its own level is nominal, its bound is read at the pooled level.
        engine.applyMib((short) 4, new MibReading((short) 80, (short) 80, (short) 10), now);
        measure(engine, 900, 1100, now + SECOND);
        final ConnectionRow young = engine.table().row((short) 4);
        assertEquals(0, young.currentKnowledge().groups().stateBlocks());
        assertTrue(young.served().correction().contains("against the connection's pooled level"), young.served().correction());
        assertTrue(young.estimate().valueMillis() > young.served().thesis().valueMillis(),
            "served " + young.estimate().valueMillis() + " ms above the thesis's " + young.served().thesis().valueMillis() + " ms");
    }

    /** Six probe windows in one state, then a measurement and four windows in another: ten blocks of a bound. */
    private static UpdateEngine tenWindowsInTwoStates(final UpdateEngine engine) {
        engine.applyMib((short) 4, new MibReading((short) 10, (short) 10, (short) 10), 0);
        measure(engine, 100, 300, SECOND);
        long now = 10 * SECOND;
        for (int w = 0; w < 6; w++) {
            assertTrue(engine.submitProbe((short) 4, "lab1", roundTrips(10, 100, 295), 0.2, 2000, now).accepted());
            now += 2 * SECOND;
        }
        engine.applyMib((short) 4, new MibReading((short) 80, (short) 80, (short) 10), now);
        measure(engine, 900, 1100, now + SECOND);
        now += 10 * SECOND;
        for (int w = 0; w < 4; w++) {
            assertTrue(engine.submitProbe((short) 4, "lab1", roundTrips(10, 900, 1100), 1.0, 2000, now).accepted());
            now += 2 * SECOND;
        }
        return engine;
    }

    @Test
    void thePooledLevelCountsEveryBlockItLearnedFromAndStepsByItsOwnCount() {
        final UpdateEngine engine = tenWindowsInTwoStates(connection.engine());
        final ConnectionRow before = engine.table().row((short) 4);
        assertEquals(2, before.learning().byState().size());
        assertEquals(10, before.learning().pooledLevelBlocks(), "six windows in one state, four in the other");
        final AdaptiveQuantileLevel pooledBefore = before.learning().pooledLevel();

        // Every round trip of the window far above any bound read from the state's histogram: 10 misses of 10.
        assertTrue(engine.submitProbe((short) 4, "lab1", roundTrips(10, 20_000, 30_000), 25.0, 2000, 100 * SECOND).accepted());
        final ConnectionRow after = engine.table().row((short) 4);
        assertEquals(11, after.learning().pooledLevelBlocks());
        assertEquals(pooledBefore.observe(10, 10, 10).missFraction(), after.learning().pooledLevel().missFraction(), 1e-12);
        assertEquals(11, ServedCalibration.tested(before, roundTrips(10, 20_000, 30_000), 10, 25.0, true).pooledLevelBlocks(),
            "the same block tested directly counts the same");
    }

    @Test
    void aStateWhoseCorrectionsRestartKeepsThePooledLevelsOwnBlockCountAndStep() {
        final UpdateEngine engine = tenWindowsInTwoStates(connection.engine());
        final ConnectionRow settled = engine.table().row((short) 4);
        // What the engine does when the state starts being served from its band's probes: its own count starts again.
        final ConnectionRow restarted = settled.withLearning(settled.learning().with(settled.load(),
            settled.currentKnowledge().withCorrectionsRestarted(96)));
        assertEquals(0, restarted.currentKnowledge().groups().stateBlocks());
        final AdaptiveQuantileLevel pooledBefore = restarted.learning().pooledLevel();

        // A clean window (every round trip far below any bound read from the state's histogram): 0 misses of 10.
        final Learning learned = ServedCalibration.tested(restarted, roundTrips(10, 1, 5), 10, 0.003, true);
        final double mature = pooledBefore.observe(10, 0, 10).missFraction();
        assertEquals(mature, learned.pooledLevel().missFraction(), 1e-12, "the step stays γ");
        assertEquals(11, learned.pooledLevelBlocks());
    }
}
