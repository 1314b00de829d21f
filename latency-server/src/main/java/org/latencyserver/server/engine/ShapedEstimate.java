package org.latencyserver.server.engine;

import org.latencyserver.core.calibration.AdaptiveQuantileLevel;
import org.latencyserver.core.calibration.BorrowedLevel;
import org.latencyserver.core.calibration.EstimateCorrection;
import org.latencyserver.core.calibration.PortBand;
import org.latencyserver.core.calibration.ShapeExcessModel;
import org.latencyserver.core.calibration.ShapeMeanModel;
import org.latencyserver.core.calibration.ShapeModelBound;
import org.latencyserver.core.calibration.StateKnowledge;
import org.latencyserver.core.estimate.Estimate;
import org.latencyserver.core.estimate.EstimateKind;
import org.latencyserver.core.traffic.ShapeClass;
import org.latencyserver.core.traffic.TrafficShape;
import org.latencyserver.orb.EstimateSource;
import org.latencyserver.server.table.ConnectionRow;

/**
 * A connection's current estimate for the traffic of one application: the same thesis estimate and histogram as
 * served, corrected for that shape rather than for the connection's declared traffic or the worst shape class seen.
 * <ul>
 * <li>a bound (QoS 2, 4) is read at the level of the shape's class ({@link BorrowedLevel#forShape}) when it has
 *     {@value BorrowedLevel#MIN_CLASS_BLOCKS} blocks in the current load state; else, once the connection's shape model
 *     is fitted ({@link ShapeExcessModel#fitted()}), it is the state's bound times the shape's factor
 *     ({@link ShapeModelBound}), its score quantile read at the model's adaptive level for the port band
 *     ({@code ShapeModelLevel}); else the state's level plus the class's excess learned connection-wide, else the
 *     worst class's level; {@code traffic} says which;</li>
 * <li>a QoS 3 mean carries the prediction interval for the mean of the next burst of the shape's burst length;</li>
 * <li>a mean (QoS 1, 3) of the state's own (a measurement, remembered or fresh, or its band's probes), once the
 *     connection's shape mean model is fitted ({@link ShapeMeanModel#fitted()}), is the state's thesis mean times the
 *     shape's factor in the current state's port band, its interval moved with it; before, the state's served mean, the same for every shape;</li>
 * <li>anything else (a connection with calibration: thesis, a bound with nothing to read another level from)
 *     is the served estimate unchanged.</li>
 * </ul>
 *
 * <p>Stateless; reads only a published (immutable) row, so safe from any thread.
 */
public final class ShapedEstimate {

    private ShapedEstimate() {
    }

    /**
     * @param estimate   the estimate for the shape
     * @param correction how it was corrected from the thesis's value ({@code Estimate.correction}); empty when the
     *                   thesis value is served unchanged
     * @param thesisMillis the thesis's value behind it, ms
     * @param traffic    what traffic it is for and at which level its bound was read ({@code Estimate.traffic})
     */
    public record ForShape(Estimate estimate, String correction, double thesisMillis, String traffic) {
    }

    /**
     * @param row   a published row
     * @param shape the application's traffic
     * @return the estimate for it, or why there is none
     */
    public static Answer<ForShape> of(final ConnectionRow row, final TrafficShape shape) {
        final Estimate served = row.estimate();
        if (served == null) {
            return Answer.unavailable(row.unavailableReason() != null ? row.unavailableReason() : "no estimate yet");
        }
        final Estimate thesis = row.served().thesis() != null ? row.served().thesis() : served;
        final String asServed = row.served().correction();
        if (!row.spec().isAdaptive()) {
            return Answer.found(new ForShape(served, asServed, thesis.valueMillis(),
                shape.label() + "; calibration thesis: the same estimate for every traffic"));
        }
        final AdaptiveQuantileLevel pooled = row.learning().pooledLevel(row.spec().boundPercent());
        if (served.kind() == EstimateKind.BOUND) {
            final boolean fromProfile = row.served().source() == EstimateSource.PROFILE
                || row.served().source() == EstimateSource.PROFILE_FALLBACK;
            final StateKnowledge knowledge = ServingPolicy.correctingKnowledge(fromProfile,
                fromProfile ? PathLevelBorrowing.knowledgeFor(row).knowledge() : row.currentKnowledge());
            final BorrowedLevel.Prior prior = ServingPolicy.correctingPrior(row, fromProfile, pooled);
            if (knowledge.level() == null || row.served().reference() == null || thesis.kind() != EstimateKind.BOUND) {
                return Answer.found(new ForShape(served, asServed, thesis.valueMillis(),
                    shape.label() + "; the served bound (no level learned to read another at)"));
            }
            final BorrowedLevel.Served level = BorrowedLevel.forShape(knowledge, prior, row.learning().classExcess(),
                ShapeClass.of(shape));
            final ShapeExcessModel model = row.learning().shapeModel();
            if (level.basis() != BorrowedLevel.Basis.CLASS_IN_STATE && model.fitted()) {
                // The model learned each shape's excess over the state's bound read with the state's own knowledge and the
                // prior the bound was served with (the pooled level, or a loaded path's same-hops pool, shrunk towards the
                // state's port pattern's level): served against the same bound.
                final EstimateCorrection.Corrected corrected = ShapeModelBound.bound(thesis, row.served().reference(),
                    row.currentKnowledge(), prior, model, shape, PortBand.of(row.load()),
                    PortBand.knownIdle(row.load()), row.learning().shapeModelLevel(row.spec().boundPercent()));
                return Answer.found(new ForShape(corrected.estimate(), corrected.description(), thesis.valueMillis(),
                    shape.label() + "; bound from the shape model from " + model.blocks() + " trains (the state's bound times"
                        + " the shape's learned excess; its class has too few blocks in this state)"));
            }
            final EstimateCorrection.Corrected corrected = EstimateCorrection.bound(thesis, row.served().reference(), knowledge,
                prior.level(), level);
            return Answer.found(new ForShape(corrected.estimate(), corrected.description(), thesis.valueMillis(),
                shape.label() + "; bound read at " + level.basis().words()
                    + (level.shape() == null ? "" : " (" + level.shape().label() + ")")));
        }
        final ShapeMeanModel meanModel = row.learning().shapeMeanModel();
        final boolean shapeMean = meanModel.fitted() && thesis.kind() == EstimateKind.AVERAGE && row.served().source().ofCurrentState();
        if (served.qos() == 3) {
            final EstimateCorrection.Corrected corrected = EstimateCorrection.correct(thesis, row.served().reference(),
                row.currentKnowledge(), row.learning().pooledMeanLogResiduals(), pooled, null, row.learning().pooledBurstScores(),
                shape.burstRoundTrips(), row.learning().classExcess());
            final String traffic = shape.label() + "; interval for the mean of the next burst of " + shape.burstRoundTrips()
                + " round trips";
            return Answer.found(shapeMean ? shapeMean(meanModel, corrected.estimate(), corrected.description(), thesis, shape, traffic,
                row) : new ForShape(corrected.estimate(), corrected.description(), thesis.valueMillis(), traffic));
        }
        return Answer.found(shapeMean ? shapeMean(meanModel, served, asServed, thesis, shape, shape.label(), row)
            : new ForShape(served, asServed, thesis.valueMillis(), shape.label() + "; a mean, the same for every traffic"));
    }

    /**
     * The state's thesis mean times the shape's factor in the current state's port band ({@link ShapeMeanModel}), the
     * served mean's interval moved with it.
     */
    private static ForShape shapeMean(final ShapeMeanModel model, final Estimate stateMean, final String stateCorrection,
                                      final Estimate thesis, final TrafficShape shape, final String traffic,
                                      final ConnectionRow row) {
        final EstimateCorrection.Corrected shaped = model.shaped(stateMean, thesis.valueMillis(), shape, PortBand.of(row.load()),
            PortBand.knownIdle(row.load()));
        return new ForShape(shaped.estimate(), shaped.description() + (stateCorrection == null || stateCorrection.isEmpty() ? ""
            : "; the state's own mean: " + stateCorrection), thesis.valueMillis(),
            traffic + "; mean from the shape mean model from " + model.blocks() + " probe windows");
    }
}
