package org.latencyserver.core.calibration;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.latencyserver.core.estimate.Estimate;
import org.latencyserver.core.histogram.BoundBeyondHistogramException;
import org.latencyserver.core.histogram.LatencyHistogram;
import org.latencyserver.core.traffic.TrafficShape;

/**
 * A bound for one traffic shape from the connection's {@link ShapeExcessModel}: the load state's bound (the reference
 * histogram read at the state's level, borrowing from the pooled one while young) times the shape's factor for the
 * current state's port band {@code L} ({@link PortBand}) — the model's own bound for the shape moved by how far the
 * band's trains' observed quantile lay from the model's estimate of it ({@link ShapeExcessModel#servedBoundFactor}),
 * the shape's margin its own once the model's spread is fitted ({@link ShapeExcessModel#shapeMargin}). The state's
 * bound is the one the model learned its excesses against.
 *
 * <p>Stateless and thread-safe.
 */
public final class ShapeModelBound {

    /** The highest ceiling of any level, {@code 1 − MIN_LEVEL_PERCENT / 100}: no quantile is read above it. */
    public static final double HIGHEST_MISS_FRACTION = 1.0 - AdaptiveQuantileLevel.MIN_LEVEL_PERCENT / 100.0;

    private ShapeModelBound() {
    }

    /**
     * @param reference the histogram the served bound is read from, not null
     * @param knowledge what was learned in the load state; its level not null
     * @param pooled    the connection's pooled level, or null to borrow nothing
     * @return the state's bound, ns: the reference read at {@code 1 − α_state} (its last edge beyond it)
     */
    public static double stateBoundNanos(final LatencyHistogram reference, final StateKnowledge knowledge,
                                         final AdaptiveQuantileLevel pooled) {
        final double percent = ClassExcess.percentOf(BorrowedLevel.stateMissFraction(knowledge, pooled));
        try {
            return reference.boundAt(percent).boundNanos();
        } catch (BoundBeyondHistogramException | IllegalArgumentException beyond) {
            return reference.lastEdgeNanos();
        }
    }

    /**
     * @param thesis    the thesis's bound
     * @param reference the histogram it was read from, not null
     * @param knowledge what was learned in its load state; its level not null
     * @param pooled    the connection's pooled level, or null
     * @param model     the connection's shape model, {@linkplain ShapeExcessModel#fitted() fitted}
     * @param asked     the shape asked for
     * @param band      the current state's port band
     * @return the state's bound times the shape's factor, and how (naming the model and its trains)
     */
    public static EstimateCorrection.Corrected bound(final Estimate thesis, final LatencyHistogram reference,
                                                     final StateKnowledge knowledge, final AdaptiveQuantileLevel pooled,
                                                     final ShapeExcessModel model, final TrafficShape asked,
                                                     final PortBand band) {
        return bound(thesis, reference, knowledge, pooled, model, asked, band, true);
    }

    /**
     * As {@link #bound(Estimate, LatencyHistogram, StateKnowledge, AdaptiveQuantileLevel, ShapeExcessModel, TrafficShape,
     * PortBand)}, saying whether an IDLE band is known to be idle (every hop observed) or only not known to be loaded.
     *
     * @param thesis    the thesis's bound
     * @param reference the histogram it was read from, not null
     * @param knowledge what was learned in its load state; its level not null
     * @param pooled    the connection's pooled level, or null
     * @param model     the connection's shape model, {@linkplain ShapeExcessModel#fitted() fitted}
     * @param asked     the shape asked for
     * @param band      the current state's port band
     * @param bandKnown false when no hop is seen loaded but some hop's load is not known: the description then does not
     *                  call the port idle
     * @return the state's bound times the shape's factor, and how (naming the model and its trains)
     */
    public static EstimateCorrection.Corrected bound(final Estimate thesis, final LatencyHistogram reference,
                                                     final StateKnowledge knowledge, final AdaptiveQuantileLevel pooled,
                                                     final ShapeExcessModel model, final TrafficShape asked,
                                                     final PortBand band, final boolean bandKnown) {
        return bound(thesis, reference, knowledge, BorrowedLevel.Prior.pooled(pooled), model, asked, band, bandKnown, null);
    }

    /**
     * As {@link #bound(Estimate, LatencyHistogram, StateKnowledge, AdaptiveQuantileLevel, ShapeExcessModel, TrafficShape,
     * PortBand, boolean)}, the score quantile read at the band's adaptive level ({@link ShapeModelLevel}) rather than the
     * nominal one.
     *
     * @param modelLevel the model's adaptive level, or null for the nominal one
     * @return the state's bound times the shape's factor, and how (naming the model, its trains and the level)
     */
    public static EstimateCorrection.Corrected bound(final Estimate thesis, final LatencyHistogram reference,
                                                     final StateKnowledge knowledge, final AdaptiveQuantileLevel pooled,
                                                     final ShapeExcessModel model, final TrafficShape asked,
                                                     final PortBand band, final boolean bandKnown,
                                                     final ShapeModelLevel modelLevel) {
        return bound(thesis, reference, knowledge, BorrowedLevel.Prior.pooled(pooled), model, asked, band, bandKnown, modelLevel);
    }

    /**
     * As {@link #bound(Estimate, LatencyHistogram, StateKnowledge, AdaptiveQuantileLevel, ShapeExcessModel, TrafficShape,
     * PortBand, boolean, ShapeModelLevel)}, the state borrowing from {@code prior} (the pooled level shrunk towards its
     * port pattern's).
     *
     * @param thesis     the thesis's bound
     * @param reference  the histogram it was read from, not null
     * @param knowledge  what was learned in its load state; its level not null
     * @param prior      what the state borrows from, not null
     * @param model      the connection's shape model, {@linkplain ShapeExcessModel#fitted() fitted}
     * @param asked      the shape asked for
     * @param band       the current state's port band
     * @param bandKnown  false when no hop is seen loaded but some hop's load is not known
     * @param modelLevel the model's adaptive level, or null for the nominal one
     * @return the state's bound times the shape's factor, and how (naming the model, its trains and the level)
     */
    public static EstimateCorrection.Corrected bound(final Estimate thesis, final LatencyHistogram reference,
                                                     final StateKnowledge knowledge, final BorrowedLevel.Prior prior,
                                                     final ShapeExcessModel model, final TrafficShape asked,
                                                     final PortBand band, final boolean bandKnown,
                                                     final ShapeModelLevel modelLevel) {
        final AdaptiveQuantileLevel pooled = prior.level();
        final double nominal = knowledge.level().targetMissFraction();
        final double target = modelLevel == null ? nominal
            : modelLevel.quantileMissFraction(band);
        final String atLevel = modelLevel == null ? "" : " at " + modelLevel.description(band, bandKnown);
        final BorrowedLevel.Served stateLevel = new BorrowedLevel.Served(BorrowedLevel.stateMissFraction(knowledge, pooled), nominal,
            knowledge.groups().stateBlocks(), pooled == null ? 1.0 : BorrowedLevel.weight(knowledge.groups().stateBlocks()), null,
            false, BorrowedLevel.Basis.STATE, pooled == null ? null : prior.pattern());
        final EstimateCorrection.Corrected atState = EstimateCorrection.bound(thesis, reference, knowledge, pooled, stateLevel);
        final double stateMillis = stateBoundNanos(reference, knowledge, pooled) / 1e6;
        final double move = model.moveToTrains(band, nominal);
        final double factor = model.servedBoundFactor(asked, band, target, nominal, move);
        final ShapeSpreadModel spread = model.spread();
        final String margin = spread.fitted()
            ? String.format(Locale.ROOT, "conformal margin %+.3f = score quantile %.3f × the shape's spread %.3f",
                model.shapeMargin(asked, band, target), spread.scoreQuantile(target), spread.scale(asked, band)) + atLevel
            : String.format(Locale.ROOT, "conformal margin %+.3f, one for every shape", model.margin(target)) + atLevel;
        final String description = String.format(Locale.ROOT,
            "shape model from %d trains: the state's bound %.4f ms × %.3f for %s on %s (predicted excess %+.3f, %s; %s,"
                + " ln units)", model.blocks(), stateMillis, factor, asked.label(), band == PortBand.LOADED ? "a loaded port"
                : bandKnown ? "an idle port" : "a port not seen loaded (a hop's load not known; the idle port's terms)",
            model.predictedLogExcess(asked, band), margin, moved(model, band, nominal, move));
        final Estimate at = atState.estimate();
        final List<String> notes = new ArrayList<>(thesis.notes());
        notes.add(description);
        return new EstimateCorrection.Corrected(new Estimate(at.qos(), at.kind(), stateMillis * factor, at.boundPercent(),
            at.interval(), at.alternatives(), at.basis(), notes, at.interpolated()), description);
    }

    /** How far the model's bound was moved to what the band's trains showed ({@link ShapeExcessModel#servedBoundFactor}). */
    private static String moved(final ShapeExcessModel model, final PortBand band, final double nominal, final double move) {
        if (Double.isNaN(move)) {
            return "not moved: the band's trains do not (yet) show where they lay against their state's bound";
        }
        final double estimated = model.mixLogBound(band, nominal);
        return String.format(Locale.ROOT, "moved by %+.3f: the trains' mix needed %+.3f over their state's bound, the model"
            + " says %+.3f", move, estimated + move, estimated);
    }

    /**
     * What a block would have missed of the model's bound, for {@link ShapeModelLevel#observe}: computed before the
     * block teaches the model.
     *
     * @param model           the shape model before the block
     * @param shape           the block's traffic shape
     * @param band            the band it was sent in
     * @param stateBoundNanos the state's bound it was sent under, ns, {@code > 0}
     * @param roundTrips      its round trips, ns
     * @param nominalMissFraction the connection's nominal miss fraction α, in (0, 1)
     * @return round trips above {@code stateBoundNanos ×} {@link ShapeExcessModel#servedBoundFactor} read at α, as a
     *         function of α, read within [{@link ShapeModelLevel#TOP_MISS_FRACTION}, {@link #HIGHEST_MISS_FRACTION}] (the
     *         caller passes α already within its level's ceiling)
     */
    public static java.util.function.DoubleToLongFunction missesAt(final ShapeExcessModel model, final TrafficShape shape,
                                                                   final PortBand band, final double stateBoundNanos,
                                                                   final LatencyHistogram roundTrips,
                                                                   final double nominalMissFraction) {
        final long total = roundTrips.totalCount();
        final double move = model.moveToTrains(band, nominalMissFraction);
        return missFraction -> {
            final double boundNanos = stateBoundNanos * model.servedBoundFactor(shape, band,
                ShapeModelLevel.quantileMissFraction(missFraction, HIGHEST_MISS_FRACTION), nominalMissFraction, move);
            if (!(boundNanos < Long.MAX_VALUE)) {
                return 0;
            }
            return total - Math.min(total, roundTrips.countAtOrBelow(Math.round(boundNanos)));
        };
    }
}
