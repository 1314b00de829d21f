package org.latencyserver.server.engine;

import java.util.function.DoubleToLongFunction;
import org.latencyserver.core.calibration.AdaptiveQuantileLevel;
import org.latencyserver.core.calibration.BorrowedLevel;
import org.latencyserver.core.calibration.ClassExcess;
import org.latencyserver.core.calibration.PortBand;
import org.latencyserver.core.calibration.ReferenceMisses;
import org.latencyserver.core.calibration.PortPatternLevel;
import org.latencyserver.core.calibration.ShapeExcessModel;
import org.latencyserver.core.calibration.ShapeModelBound;
import org.latencyserver.core.calibration.ShapeModelLevel;
import org.latencyserver.core.calibration.StateKnowledge;
import org.latencyserver.core.estimate.Estimate;
import org.latencyserver.core.estimate.EstimateKind;
import org.latencyserver.core.histogram.LatencyHistogram;
import org.latencyserver.core.traffic.ShapeClass;
import org.latencyserver.core.traffic.TrafficShape;
import org.latencyserver.server.table.ConnectionRow;
import org.latencyserver.server.table.Learning;


/**
 * Round trips sent while an estimate was served test it: counted in the load state's calibration, and, when the
 * estimate is the state's own (a measurement of it, remembered or fresh, its profile cell, or its band's probes) and
 * the connection adaptive, learned from (the correction, the drift test). A bound's levels — the connection's pooled
 * one, the state's port pattern's, the state's own, the traffic shape class's — each learn from the misses of the bound read at that level from
 * the histogram the served bound came from (see {@code BorrowedLevel}); the class's excess over its state's level, kept
 * connection-wide ({@code ClassExcess}), learns from the misses of the bound read at the state's level plus that excess;
 * the connection's shape model ({@code ShapeExcessModel}) learns from the round trips' ratios to the state's bound, and,
 * before it does, the level its score quantile is read at ({@code ShapeModelLevel}) from a shaped train's misses of the
 * bound the fitted model would have served for it.
 * A mean's probe windows teach the connection's shape mean model ({@code ShapeMeanModel}) their mean over the thesis mean,
 * in the port band they were sent in (not at all when an unknown hop may hide a loaded one).
 * The state's level and the pooled one also learn the round trips' ratios to the thesis's bound behind the served one
 * ({@code RatioScores}): to a profile's bound apart from those to the path's own round trips' (band probes, measurements).
 *
 * <p>Stateless and thread-safe.
 */
final class ServedCalibration {

    private ServedCalibration() {
    }

    /**
     * As {@link #tested(ConnectionRow, LatencyHistogram, long, double, boolean, TrafficShape)} for round trips of
     * unknown traffic (counted under {@link StateKnowledge#CLASSIC_PROBES}).
     */
    static Learning tested(final ConnectionRow row, final LatencyHistogram roundTrips, final long count,
                           final double meanMillis, final boolean fromProbe) {
        return tested(row, roundTrips, count, meanMillis, fromProbe, null);
    }

    /**
     * @param row        the connection, serving the estimate the round trips followed
     * @param roundTrips the round trips, ns
     * @param count      how many
     * @param meanMillis their exact mean
     * @param fromProbe  true for a probe window, false for a measurement
     * @param traffic    the traffic shape the round trips were sent with, or null when unknown
     * @return the row's learning after them: its load state's knowledge, its pooled level, its class excesses and shape model
     */
    static Learning tested(final ConnectionRow row, final LatencyHistogram roundTrips, final long count,
                           final double meanMillis, final boolean fromProbe, final TrafficShape traffic) {
        final ShapeClass shape = traffic == null ? null : ShapeClass.of(traffic);
        final StateKnowledge known = row.currentKnowledge();
        final Estimate served = row.estimate();
        if (served == null || count < 1) {
            return row.learning();
        }
        final boolean ownState = row.served().source().ofCurrentState();
        final boolean adapt = row.spec().isAdaptive() && ownState;
        if (served.kind() == EstimateKind.BOUND) {
            final long hits = Math.min(count, roundTrips.countAtOrBelow(Math.round(served.valueMillis() * 1e6)));
            final DoubleToLongFunction missesAt = missesAt(row.served().reference(), roundTrips, count, count - hits);
            final double thesisMillis = row.served().thesis() != null ? row.served().thesis().valueMillis() : served.valueMillis();
            // Ratios to a profile's bound and to the path's own round trips' are off by different factors: kept apart.
            final boolean profileThesis = fromProfile(row.served().source());
            final boolean ratios = thesisMillis > 0 && !Double.isInfinite(thesisMillis) && roundTrips.totalCount() > 0;
            final StateKnowledge next = known.observeBound(count, hits, fromProbe, adapt, shape, missesAt,
                ratios ? roundTrips : null, thesisMillis, profileThesis);
            final AdaptiveQuantileLevel pooled = row.learning().pooledLevel(row.spec().boundPercent());
            final Learning learning = row.learning().with(row.load(), next);
            if (!adapt || pooled == null || known.level() == null) {
                return learning;
            }
            final ShapeClass group = shape == null ? StateKnowledge.CLASSIC_PROBES : shape;
            // Learned against the level the bound was served at (a loaded path borrows from its same-hops states; every
            // state from its port pattern's level before the pooled one).
            final AdaptiveQuantileLevel servedPooled = ServingPolicy.correctingPrior(row, profileThesis, pooled).level();
            final ClassExcess excess = learning.classExcess().observe(group, BorrowedLevel.stateMissFraction(known, servedPooled),
                known.level(), count, missesAt);
            // A block on a path whose loaded hop may hide behind an unknown one teaches the shape model nothing.
            final boolean teachesModel = row.served().reference() != null && !PortBand.hidesLoad(row.load());
            final double stateBoundNanos = teachesModel
                ? ShapeModelBound.stateBoundNanos(row.served().reference(), known, servedPooled) : Double.NaN;
            final ShapeExcessModel model = !teachesModel ? learning.shapeModel()
                : learning.shapeModel().observe(traffic == null ? ShapeExcessModel.UNKNOWN_TRAFFIC : traffic, roundTrips,
                    stateBoundNanos, PortBand.of(row.load()));
            // Before the train teaches the model: its misses of the bound the (fitted) model would serve for its shape.
            final ShapeModelLevel modelLevel = teachesModel && traffic != null && learning.shapeModel().fitted()
                ? modelLevel(row, learning.shapeModel(), traffic, stateBoundNanos, roundTrips)
                : row.learning().shapeModelLevel();
            // The pooled level's own count: a state whose corrections restart does not make it young again.
            final AdaptiveQuantileLevel pooledNext = pooled.observe(count, missesAt.applyAsLong(pooled.servedPercent()),
                row.learning().pooledLevelBlocks());
            // The port pattern's level learns, as the others, from the misses of the bound it itself gives.
            final PortPatternLevel pattern = row.learning().patternLevel(row.load());
            final PortPatternLevel patternBefore = pattern != null ? pattern : PortPatternLevel.start(row.spec().boundPercent());
            final PortPatternLevel patternNext = patternBefore.observe(count,
                missesAt.applyAsLong(patternBefore.level().servedPercent()));
            return learning.withPooledLevelLearned(!ratios ? pooledNext : profileThesis ? pooledNext.observeProfileRatios(roundTrips,
                thesisMillis) : pooledNext.observeRatios(roundTrips, thesisMillis)).withClassExcess(excess).withShapeModel(model)
                .withPatternLevel(row.load(), patternNext).withShapeModelLevel(modelLevel);
        }
        final double thesisMillis = row.served().thesis() != null ? row.served().thesis().valueMillis() : served.valueMillis();
        // A window on a path whose loaded hop may hide behind an unknown one teaches the shape mean model nothing.
        final Learning learning = withShapeMean(row.learning(), adapt && fromProbe && !PortBand.hidesLoad(row.load()), traffic,
            roundTrips, count, meanMillis, thesisMillis, PortBand.of(row.load()));
        if (served.qos() == 3 && row.spec().isAdaptive()) {
            // A prediction interval for the next burst: the window is judged as the burst it stands for.
            return learning.with(row.load(), known.observeMean(thesisMillis, served.valueMillis(), served.interval().lower(),
                served.interval().upper(), meanMillis, count, fromProbe, adapt, known.burstSpread(), BurstLength.of(row.spec())));
        }
        return learning.with(row.load(), known.observeMean(thesisMillis, served.valueMillis(), served.interval().lower(),
            served.interval().upper(), meanMillis, count, fromProbe, adapt));
    }

    /**
     * A probe window of a mean of the state's own, on an adaptive connection, teaches the connection's shape mean model
     * its shape's mean over the thesis mean served ({@code ShapeMeanModel}) in the port band it was sent in, its round
     * trips' spread correcting the log of a short window's mean; measurements (whose shape is the measurement's, not an
     * application's), windows whose band is not known and anything else teach nothing.
     */
    private static Learning withShapeMean(final Learning learning, final boolean learns, final TrafficShape traffic,
                                          final LatencyHistogram roundTrips, final long count, final double meanMillis,
                                          final double thesisMillis, final PortBand band) {
        return !learns ? learning : learning.withShapeMeanModel(learning.shapeMeanModel().observe(
            traffic == null ? ShapeExcessModel.UNKNOWN_TRAFFIC : traffic, roundTrips, count, meanMillis, thesisMillis, band));
    }

    /**
     * @param row             the connection, serving the bound the train followed
     * @param model           the shape model before the train, fitted
     * @param traffic         the train's shape
     * @param stateBoundNanos the state's bound it was sent under, ns
     * @param roundTrips      its round trips, ns
     * @return the shape model's level after the train: each of its levels learned from the train's misses of the model's
     *         bound for the train's shape and band read at that level
     */
    private static ShapeModelLevel modelLevel(final ConnectionRow row, final ShapeExcessModel model, final TrafficShape traffic,
                                              final double stateBoundNanos, final LatencyHistogram roundTrips) {
        final ShapeModelLevel before = row.learning().shapeModelLevel(row.spec().boundPercent());
        if (before == null || !(stateBoundNanos > 0) || Double.isInfinite(stateBoundNanos)) {
            return row.learning().shapeModelLevel();
        }
        final PortBand band = PortBand.of(row.load());
        return before.observe(band, roundTrips.totalCount(),
            ShapeModelBound.missesAt(model, traffic, band, stateBoundNanos, roundTrips, before.connection().targetMissFraction()));
    }

    /** @return whether the estimate served was read from a profile (its cell, or a composed path of cells) */
    static boolean fromProfile(final org.latencyserver.orb.EstimateSource source) {
        return source == org.latencyserver.orb.EstimateSource.PROFILE || source == org.latencyserver.orb.EstimateSource.PROFILE_FALLBACK;
    }

    /**
     * @param reference    the histogram the served bound was read from, or null (then every level is taken to miss
     *                     what the served bound missed: there is nothing to read another level from)
     * @param servedMisses round trips above the served bound
     * @return round trips above the bound read from {@code reference} at a level, percent (its last edge beyond it)
     */
    private static DoubleToLongFunction missesAt(final LatencyHistogram reference, final LatencyHistogram roundTrips,
                                                 final long count, final long servedMisses) {
        if (reference == null) {
            return levelPercent -> servedMisses;
        }
        return ReferenceMisses.at(reference, roundTrips, count);
    }
}
