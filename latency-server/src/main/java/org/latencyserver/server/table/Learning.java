package org.latencyserver.server.table;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.latencyserver.core.calibration.AdaptiveQuantileLevel;
import org.latencyserver.core.calibration.ClassExcess;
import org.latencyserver.core.calibration.PortPatternLevel;
import org.latencyserver.core.calibration.RecentValues;
import org.latencyserver.core.calibration.ShapeExcessModel;
import org.latencyserver.core.calibration.ShapeMeanModel;
import org.latencyserver.core.calibration.ShapeModelLevel;
import org.latencyserver.core.calibration.StateKnowledge;
import org.latencyserver.core.state.ConnectionLoadState;
import org.latencyserver.core.state.PortState;

/**
 * What a connection has learned, per load state ({@link StateKnowledge}: last measurement,
 * calibration, corrections), and the bookkeeping of its current state.
 *
 * <p>Immutable and thread-safe.
 *
 * @param byState                the knowledge of each load state seen
 * @param stateSinceNanos        monotonic time the current load state began, or {@link ConnectionRow#NOT_DUE}
 * @param nextMeasurementReason  why the next (deferred or open) measurement was asked for, or null
 * @param pooledLevel            the connection's adaptive level learned from every block of every load state, which a
 *                               young state's served level borrows from ({@code BorrowedLevel}); null until a bound
 *                               connection's first block (then it starts at the nominal level)
 * @param classExcess            each traffic shape class's excess over its state's level, learned from every block of
 *                               the class in every state ({@code ClassExcess}); never null
 * @param shapeModel             every traffic shape's excess over its state's bound, a regression on the shape learned
 *                               from every block of every shape in every state ({@code ShapeExcessModel}); never null
 * @param shapeMeanModel         every traffic shape's mean over its state's thesis mean, a regression on the shape
 *                               learned from every probe window of a mean in every state ({@code ShapeMeanModel});
 *                               never null
 * @param pooledLevelBlocks      blocks the pooled level learned from, {@code >= 0}: its own count (a state whose
 *                               corrections restart starts its own count again, the pooled level does not), which decides
 *                               the pooled level's step ({@link AdaptiveQuantileLevel#stepFactor}: γ for every count
 *                               while {@code YOUNG_BLOCKS} is 1)
 * @param patternLevels          each port pattern's level (the load states with the same kind of port state on every hop, the
 *                               CPU states left out; {@link PortPatternLevel}), learned from every block of a bound in
 *                               its states, which a young state borrows from before the pooled level; empty until a
 *                               pattern's first block, and in older files
 * @param shapeModelLevel        the level the shape model's score quantile is read at, per port band, learned from the
 *                               misses of the model's own bound on the trains it learns from ({@code ShapeModelLevel});
 *                               null until a bound connection's first such train (then it starts at the nominal level)
 */
public record Learning(Map<ConnectionLoadState, StateKnowledge> byState, long stateSinceNanos, String nextMeasurementReason,
                       AdaptiveQuantileLevel pooledLevel, ClassExcess classExcess, ShapeExcessModel shapeModel,
                       ShapeMeanModel shapeMeanModel, long pooledLevelBlocks, Map<List<PortState.Kind>, PortPatternLevel> patternLevels,
                       ShapeModelLevel shapeModelLevel) {

    /** Nothing learned. */
    public static final Learning NONE = new Learning(Map.of(), ConnectionRow.NOT_DUE, null, null, ClassExcess.EMPTY,
        ShapeExcessModel.EMPTY);

    /** Copies the maps. */
    public Learning {
        byState = Map.copyOf(byState);
        if (patternLevels == null) {
            throw new IllegalArgumentException("learning needs its port patterns' levels (an empty map for none)");
        }
        patternLevels = Map.copyOf(patternLevels);
        if (classExcess == null || shapeModel == null || shapeMeanModel == null) {
            throw new IllegalArgumentException("learning needs its class excesses and shape models (EMPTY for none)");
        }
        if (pooledLevelBlocks < 0) {
            throw new IllegalArgumentException("pooled level blocks must be >= 0, was " + pooledLevelBlocks);
        }
    }

    /** Learning with no port pattern's level yet, and whose shape model's level has learned from no train yet. */
    public Learning(final Map<ConnectionLoadState, StateKnowledge> byState, final long stateSinceNanos,
                    final String nextMeasurementReason, final AdaptiveQuantileLevel pooledLevel, final ClassExcess classExcess,
                    final ShapeExcessModel shapeModel, final ShapeMeanModel shapeMeanModel, final long pooledLevelBlocks) {
        this(byState, stateSinceNanos, nextMeasurementReason, pooledLevel, classExcess, shapeModel, shapeMeanModel,
            pooledLevelBlocks, Map.of(), null);
    }

    /**
     * @param boundPercent the connection's bound, or 0 for a mean
     * @return the shape model's level, started at the nominal one when none yet; null for a mean or a 100 % bound
     */
    public ShapeModelLevel shapeModelLevel(final double boundPercent) {
        if (shapeModelLevel != null) {
            return shapeModelLevel;
        }
        return boundPercent > 0 && boundPercent < 100 ? ShapeModelLevel.start(boundPercent) : null;
    }

    /**
     * @param level the shape model's level after a train, or as read back (null: none learned)
     * @return the learning with it
     */
    public Learning withShapeModelLevel(final ShapeModelLevel level) {
        return new Learning(byState, stateSinceNanos, nextMeasurementReason, pooledLevel, classExcess, shapeModel, shapeMeanModel,
            pooledLevelBlocks, patternLevels, level);
    }

    /** Learning whose pooled level has learned from no block yet. */
    public Learning(final Map<ConnectionLoadState, StateKnowledge> byState, final long stateSinceNanos,
                    final String nextMeasurementReason, final AdaptiveQuantileLevel pooledLevel, final ClassExcess classExcess,
                    final ShapeExcessModel shapeModel, final ShapeMeanModel shapeMeanModel) {
        this(byState, stateSinceNanos, nextMeasurementReason, pooledLevel, classExcess, shapeModel, shapeMeanModel, 0);
    }

    /** Learning with no shape mean model learned yet. */
    public Learning(final Map<ConnectionLoadState, StateKnowledge> byState, final long stateSinceNanos,
                    final String nextMeasurementReason, final AdaptiveQuantileLevel pooledLevel, final ClassExcess classExcess,
                    final ShapeExcessModel shapeModel) {
        this(byState, stateSinceNanos, nextMeasurementReason, pooledLevel, classExcess, shapeModel, ShapeMeanModel.EMPTY);
    }

    /**
     * @param model the shape mean model after a probe window, or as read back
     * @return the learning with it
     */
    public Learning withShapeMeanModel(final ShapeMeanModel model) {
        return new Learning(byState, stateSinceNanos, nextMeasurementReason, pooledLevel, classExcess, shapeModel, model,
            pooledLevelBlocks, patternLevels, shapeModelLevel);
    }

    /** Learning with no class excess nor shape model learned yet. */
    public Learning(final Map<ConnectionLoadState, StateKnowledge> byState, final long stateSinceNanos,
                    final String nextMeasurementReason, final AdaptiveQuantileLevel pooledLevel) {
        this(byState, stateSinceNanos, nextMeasurementReason, pooledLevel, ClassExcess.EMPTY, ShapeExcessModel.EMPTY);
    }

    /**
     * @param excess the class excesses after a block, or as read back
     * @return the learning with them
     */
    public Learning withClassExcess(final ClassExcess excess) {
        return new Learning(byState, stateSinceNanos, nextMeasurementReason, pooledLevel, excess, shapeModel, shapeMeanModel,
            pooledLevelBlocks, patternLevels, shapeModelLevel);
    }

    /**
     * @param model the shape model after a block, or as read back
     * @return the learning with it
     */
    public Learning withShapeModel(final ShapeExcessModel model) {
        return new Learning(byState, stateSinceNanos, nextMeasurementReason, pooledLevel, classExcess, model, shapeMeanModel,
            pooledLevelBlocks, patternLevels, shapeModelLevel);
    }

    /**
     * @param earlier this connection's learning at an earlier moment
     * @return this learning with its shape models — the shape model and the shape mean model — as they were in
     *         {@code earlier}; everything else (the shape model's level included) as now
     */
    public Learning withShapeModelsFrom(final Learning earlier) {
        return new Learning(byState, stateSinceNanos, nextMeasurementReason, pooledLevel, classExcess, earlier.shapeModel,
            earlier.shapeMeanModel, pooledLevelBlocks, patternLevels, shapeModelLevel);
    }

    /**
     * @param other another learning of this connection
     * @return whether its shape models are the very same objects in both (see {@link #withShapeModelsFrom})
     */
    public boolean sameShapeModelsAs(final Learning other) {
        return shapeModel == other.shapeModel && shapeMeanModel == other.shapeMeanModel;
    }

    /** Learning with no pooled level yet. */
    public Learning(final Map<ConnectionLoadState, StateKnowledge> byState, final long stateSinceNanos,
                    final String nextMeasurementReason) {
        this(byState, stateSinceNanos, nextMeasurementReason, null);
    }

    /**
     * @param boundPercent the connection's bound, or 0 for a mean
     * @return the pooled level, started at the nominal one when none yet; null for a mean or a 100 % bound
     */
    public AdaptiveQuantileLevel pooledLevel(final double boundPercent) {
        if (pooledLevel != null) {
            return pooledLevel;
        }
        return boundPercent > 0 && boundPercent < 100 ? AdaptiveQuantileLevel.start(boundPercent) : null;
    }

    /**
     * @param level the connection's pooled level after a block, or null
     * @return the learning with it
     */
    public Learning withPooledLevel(final AdaptiveQuantileLevel level) {
        return new Learning(byState, stateSinceNanos, nextMeasurementReason, level, classExcess, shapeModel, shapeMeanModel,
            pooledLevelBlocks, patternLevels, shapeModelLevel);
    }

    /**
     * @param level the connection's pooled level after it learned from one more block
     * @return the learning with it, its block count one higher
     */
    public Learning withPooledLevelLearned(final AdaptiveQuantileLevel level) {
        return new Learning(byState, stateSinceNanos, nextMeasurementReason, level, classExcess, shapeModel, shapeMeanModel,
            pooledLevelBlocks + 1, patternLevels, shapeModelLevel);
    }

    /**
     * @param blocks blocks the pooled level learned from, as read back, {@code >= 0}
     * @return the learning with that count
     */
    public Learning withPooledLevelBlocks(final long blocks) {
        return new Learning(byState, stateSinceNanos, nextMeasurementReason, pooledLevel, classExcess, shapeModel, shapeMeanModel,
            blocks, patternLevels, shapeModelLevel);
    }

    /**
     * @param state a load state
     * @return its port pattern's level, or null when none of the pattern's states has learned a block of a bound
     */
    public PortPatternLevel patternLevel(final ConnectionLoadState state) {
        return patternLevels.get(PortPatternLevel.patternOf(state));
    }

    /**
     * @param state   a load state (its port pattern is what counts)
     * @param pattern the pattern's level after a block, or as read back
     * @return the learning with it
     */
    public Learning withPatternLevel(final ConnectionLoadState state, final PortPatternLevel pattern) {
        return withPatternLevel(PortPatternLevel.patternOf(state), pattern);
    }

    /**
     * @param hops    a port pattern: every hop's kind of port state in path order ({@link PortPatternLevel#patternOf})
     * @param pattern its level after a block, or as read back
     * @return the learning with it
     */
    public Learning withPatternLevel(final List<PortState.Kind> hops, final PortPatternLevel pattern) {
        final Map<List<PortState.Kind>, PortPatternLevel> next = new HashMap<>(patternLevels);
        next.put(List.copyOf(hops), pattern);
        return new Learning(byState, stateSinceNanos, nextMeasurementReason, pooledLevel, classExcess, shapeModel, shapeMeanModel,
            pooledLevelBlocks, next, shapeModelLevel);
    }

    /**
     * @param state        a load state
     * @param boundPercent the connection's bound, or 0 for a mean
     * @return what is known of it (fresh when never seen)
     */
    public StateKnowledge of(final ConnectionLoadState state, final double boundPercent) {
        final StateKnowledge known = byState.get(state);
        return known != null ? known : StateKnowledge.fresh(boundPercent);
    }

    /**
     * @return the recent log errors of served means of every load state, pooled (at most
     *         {@link RecentValues#CAPACITY}, taken evenly from the states)
     */
    public RecentValues pooledMeanLogResiduals() {
        return pooled(known -> known.meanCorrection().logResiduals());
    }

    /**
     * @return the recent next-burst scores (normalised errors of served QoS 3 means) of every load state, pooled (at
     *         most {@link RecentValues#CAPACITY}, taken evenly from the states)
     */
    public RecentValues pooledBurstScores() {
        return pooled(known -> known.burstWidth().scores());
    }

    private RecentValues pooled(final java.util.function.Function<StateKnowledge, RecentValues> part) {
        final java.util.List<Double> pooled = new java.util.ArrayList<>();
        for (final StateKnowledge known : byState.values()) {
            for (final double value : part.apply(known).toArray()) {
                pooled.add(value);
            }
        }
        final int step = Math.max(1, (pooled.size() + RecentValues.CAPACITY - 1) / RecentValues.CAPACITY);
        final double[] sampled = new double[(pooled.size() + step - 1) / step];
        for (int i = 0; i < sampled.length; i++) {
            sampled[i] = pooled.get(i * step);
        }
        return RecentValues.of(sampled);
    }

    /**
     * @param state     a load state
     * @param knowledge its new knowledge
     * @return the learning with it
     */
    public Learning with(final ConnectionLoadState state, final StateKnowledge knowledge) {
        final Map<ConnectionLoadState, StateKnowledge> next = new HashMap<>(byState);
        next.put(state, knowledge);
        return new Learning(next, stateSinceNanos, nextMeasurementReason, pooledLevel, classExcess, shapeModel, shapeMeanModel,
            pooledLevelBlocks, patternLevels, shapeModelLevel);
    }

    /**
     * @param sinceNanos when the current state began
     * @return the learning with it
     */
    public Learning enteredStateAt(final long sinceNanos) {
        return new Learning(byState, sinceNanos, nextMeasurementReason, pooledLevel, classExcess, shapeModel, shapeMeanModel,
            pooledLevelBlocks, patternLevels, shapeModelLevel);
    }

    /**
     * @param reason why the next measurement is asked for
     * @return the learning with it
     */
    public Learning withMeasurementReason(final String reason) {
        return new Learning(byState, stateSinceNanos, reason, pooledLevel, classExcess, shapeModel, shapeMeanModel,
            pooledLevelBlocks, patternLevels, shapeModelLevel);
    }
}
