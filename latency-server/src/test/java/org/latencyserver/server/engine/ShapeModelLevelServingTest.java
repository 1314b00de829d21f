package org.latencyserver.server.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.DoubleToLongFunction;
import org.junit.jupiter.api.Test;
import org.latencyserver.core.calibration.AdaptiveQuantileLevel;
import org.latencyserver.core.calibration.BorrowedLevel;
import org.latencyserver.core.calibration.PortBand;
import org.latencyserver.core.calibration.PortPatternLevel;
import org.latencyserver.core.calibration.ShapeModelBound;
import org.latencyserver.core.calibration.ShapeModelLevel;
import org.latencyserver.core.estimate.Measurement;
import org.latencyserver.core.histogram.LatencyHistogram;
import org.latencyserver.core.state.CpuThresholds;
import org.latencyserver.core.state.WorkstationType;
import org.latencyserver.core.traffic.CallKind;
import org.latencyserver.core.traffic.TrafficShape;
import org.latencyserver.server.table.CalibrationMode;
import org.latencyserver.server.table.ConnectionRow;
import org.latencyserver.server.table.ConnectionSpec;
import org.latencyserver.server.table.ConnectionTable;
import org.latencyserver.server.table.MibReading;
import org.latencyserver.testkit.RoundTrips;

/**
 * The engine teaches the shape model's level from the misses of the fitted model's bound on its shaped trains, in the
 * train's port band, and a shape's bound from the model is read at that level and says so.
 */
class ShapeModelLevelServingTest {

    private static final long SECOND = 1_000_000_000L;
    private static final short INDEX = 4;
    private static final TrafficShape OCTETS = new TrafficShape(800, 5, 0, CallKind.OCTETS);
    /** Never probed here: served by the shape model. */
    private static final TrafficShape FAST = new TrafficShape(500, 100, 0, CallKind.OCTETS);

    private final AtomicLong tickets = new AtomicLong();

    private UpdateEngine engine() {
        final ConnectionSpec spec = new ConnectionSpec(INDEX, "lab1", (short) 5, new WorkstationType("LOCAL-2CORE", 5), "lab2",
            (short) 6, new WorkstationType("LOCAL-2CORE", 5), null, 1024, 4, 96, null, CalibrationMode.ADAPTIVE, 4.0);
        return new UpdateEngine(new ConnectionTable(List.of(ConnectionRow.initial(spec, 0))), Map.of(),
            new EngineSettings(CpuThresholds.DEFAULT, 1.0, 1000, 30 * SECOND, 0, 2, 20, 100_000, 0), tickets::incrementAndGet,
            () -> 1_700_000_000_000L);
    }

    private static LatencyHistogram roundTrips(final int count, final long lowMicros, final long highMicros) {
        return LatencyHistogram.fromHdr(RoundTrips.evenlySpread(count, lowMicros, highMicros));
    }

    /** A measurement on an idle port, then {@code quiet} trains near the state's bound and {@code wide} spread far wider. */
    private UpdateEngine trained(final int quiet, final int wide) {
        final UpdateEngine engine = engine();
        engine.applyMib(INDEX, new MibReading((short) 10, (short) 10, (short) 10), 0);
        final LatencyHistogram histogram = roundTrips(1000, 100, 300);
        final double mean = histogram.meanNanosFromBinMidpoints() / 1e6;
        engine.tick(SECOND);
        assertTrue(engine.submitMeasurement(INDEX, engine.table().row(INDEX).pending().ticket(),
            new Measurement(histogram, 1000, mean, mean / 4, 0.3), "test", SECOND).accepted());
        long now = 10 * SECOND;
        for (int w = 0; w < quiet + wide; w++) {
            final LatencyHistogram train = w < quiet ? roundTrips(10, 150, 400 + 20 * (w % 7)) : roundTrips(10, 60, 3000);
            assertTrue(engine.submitProbe(INDEX, "lab1", train, 0.3, 2000, OCTETS, now).accepted());
            now += SECOND;
        }
        return engine;
    }

    /**
     * The connection as {@link #trained}, its port pattern's level then restored as one that has not missed for long (its
     * α at its ceiling, 1000 trains) and its shape model's level as nominal: the state's prior α (the pooled level's
     * shrunk towards the pattern's) is then well above the pooled level's alone, and the state's bound lower.
     */
    private UpdateEngine trainedWithAPatternThatNeverMissed() {
        final UpdateEngine engine = trained(20, 0);
        final ConnectionRow row = engine.table().row(INDEX);
        final AdaptiveQuantileLevel nominal = AdaptiveQuantileLevel.start(96);
        final PortPatternLevel neverMissed = new PortPatternLevel(new AdaptiveQuantileLevel(nominal.targetMissFraction(),
            nominal.maxMissFraction(), nominal.stepPerRoundTrip(), nominal.maxBlockWeight()), 1000);
        engine.restore(INDEX, row.latest(), row.previous(), row.estimate(), row.unavailableReason(), false, row.measurement(),
            row.served(), row.learning().withPatternLevel(row.load(), neverMissed).withShapeModelLevel(ShapeModelLevel.start(96)),
            90 * SECOND);
        return engine;
    }

    /**
     * A shaped train after the model fitted: the idle band's and the connection's levels learn from its misses of the
     * bound the model (before the train) would serve for its shape, on the state's bound read against the prior the
     * state was served with (its port pattern's level before the pooled one), exactly as {@link ShapeModelLevel#observe}
     * counts them; the loaded band's own level is left alone. Against the pooled level alone the train would have
     * missed a different count, so the wrong prior would not give these levels.
     */
    @Test
    void aShapedTrainTeachesTheIdleBandsLevelTheMissesOfTheModelsBoundBeforeItTaughtTheModel() {
        final UpdateEngine engine = trainedWithAPatternThatNeverMissed();
        final ConnectionRow before = engine.table().row(INDEX);
        assertTrue(before.learning().shapeModel().fitted());
        final AdaptiveQuantileLevel pooled = before.learning().pooledLevel(96);
        final BorrowedLevel.Prior prior = ServingPolicy.correctingPrior(before, false, pooled);
        final AdaptiveQuantileLevel pooledAlone = ServingPolicy.correctingPooled(before, false, pooled);
        assertNotNull(prior.pattern(), "the state's port pattern has a level");
        assertTrue(prior.level().missFraction() > pooledAlone.missFraction() + 0.05,
            "the pattern's level raises the prior's α: " + prior.level().missFraction() + " vs " + pooledAlone.missFraction());
        final LatencyHistogram train = roundTrips(200, 300, 480);
        final double stateBoundNanos = ShapeModelBound.stateBoundNanos(before.served().reference(), before.currentKnowledge(),
            prior.level());
        final DoubleToLongFunction misses = ShapeModelBound.missesAt(before.learning().shapeModel(), OCTETS, PortBand.IDLE,
            stateBoundNanos, train, 0.04);
        assertTrue(misses.applyAsLong(0.04) > 1, "the train misses the model's nominal bound: " + misses.applyAsLong(0.04));
        final ShapeModelLevel expected = before.learning().shapeModelLevel(96).observe(PortBand.IDLE, 200, misses);
        final DoubleToLongFunction missesAgainstPooled = ShapeModelBound.missesAt(before.learning().shapeModel(), OCTETS,
            PortBand.IDLE, ShapeModelBound.stateBoundNanos(before.served().reference(), before.currentKnowledge(), pooledAlone), train, 0.04);
        assertTrue(misses.applyAsLong(0.04) > missesAgainstPooled.applyAsLong(0.04), "the prior's lower bound misses more: "
            + misses.applyAsLong(0.04) + " vs " + missesAgainstPooled.applyAsLong(0.04));
        final ShapeModelLevel wrong = before.learning().shapeModelLevel(96).observe(PortBand.IDLE, 200, missesAgainstPooled);
        assertNotEquals(expected, wrong, "the pooled level alone would teach other levels");
        assertTrue(engine.submitProbe(INDEX, "lab1", train, 0.5, 2000, OCTETS, 100 * SECOND).accepted());
        final ShapeModelLevel level = engine.table().row(INDEX).learning().shapeModelLevel();
        assertEquals(expected, level);
        assertTrue(level.own(PortBand.IDLE).servedPercent() > before.learning().shapeModelLevel(96).own(PortBand.IDLE).servedPercent(),
            "the misses raised the idle level");
        assertEquals(0, level.blocks(PortBand.LOADED));
        assertEquals(0.04, level.loaded().missFraction(), 1e-12, "no loaded train");
    }

    @Test
    void aShapesBoundFromTheModelIsReadAtTheBandsLevelAndSaysSo() {
        final ConnectionRow row = trained(40, 0).table().row(INDEX);
        assertTrue(row.learning().shapeModel().fitted());
        final AdaptiveQuantileLevel nominal = AdaptiveQuantileLevel.start(96);
        final AdaptiveQuantileLevel high = new AdaptiveQuantileLevel(nominal.targetMissFraction(), 0.002, nominal.stepPerRoundTrip(),
            nominal.maxBlockWeight());
        final ShapeModelLevel raised = new ShapeModelLevel(nominal, 1000, high, 1000, nominal, 0);
        final ShapedEstimate.ForShape atNominal = ShapedEstimate.of(
            row.withLearning(row.learning().withShapeModelLevel(ShapeModelLevel.start(96))), FAST).orElseThrow(IllegalStateException::new);
        final ShapedEstimate.ForShape atRaised = ShapedEstimate.of(row.withLearning(row.learning().withShapeModelLevel(raised)),
            FAST).orElseThrow(IllegalStateException::new);
        final String raisedWords = String.format(java.util.Locale.ROOT, "at the model's level %.1f %% (idle port, 1000 trains)",
            raised.servedPercent(PortBand.IDLE));
        assertTrue(raised.servedPercent(PortBand.IDLE) > 99.0, raised::toString);
        assertTrue(atRaised.correction().contains(raisedWords), atRaised.correction());
        assertTrue(atNominal.correction().contains("at the model's level 96.0 % (idle port, 0 trains)"), atNominal.correction());
        assertTrue(atRaised.estimate().valueMillis() > atNominal.estimate().valueMillis(),
            atRaised.estimate().valueMillis() + " vs " + atNominal.estimate().valueMillis());
    }
}
