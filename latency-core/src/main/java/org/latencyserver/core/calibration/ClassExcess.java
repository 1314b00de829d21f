package org.latencyserver.core.calibration;

import java.util.HashMap;
import java.util.Map;
import java.util.function.DoubleToLongFunction;
import org.latencyserver.core.traffic.ShapeClass;

/**
 * Each traffic shape class's excess over its load state's level, learned connection-wide: an offset
 * {@code δ_c} in quantile space such that a bound read at the level {@code 1 − (α_state + δ_c)} covers
 * the class's round trips at the nominal share, pooled over every load state it was seen in. It is
 * learned by adaptive conformal inference on the offset itself: after each block of class {@code c}
 * seen in a state whose level was {@code α_state},
 * <pre>
 *   δ_c ← δ_c + γ · min(n, cap) · (α_target − misses(1 − (α_state + δ_c)) / n)
 * </pre>
 * with the step {@code γ}, the cap and {@code α_target} of the state's own {@link AdaptiveQuantileLevel}. A
 * negative {@code δ_c} says the class needs a higher level than its state's (e.g. sparse traffic that
 * pays a wake-up on each round trip); a positive one a lower level.
 *
 * <p>Why: a class decides a state's level on its own only after {@link BorrowedLevel#MIN_CLASS_BLOCKS}
 * blocks in that state, and a class rarely probed seldom gets there in any state. Its excess, learned from
 * all its blocks, lets it count in every state ({@link BorrowedLevel}) once it has {@value #MIN_BLOCKS}
 * blocks connection-wide.
 *
 * <p>At most {@link GroupLevels#MAX_CLASSES} classes (all there are); offsets are kept in
 * [{@value #MIN_OFFSET}, {@value #MAX_OFFSET}], and after a block never below the floor of the state's level minus
 * the state's α then ({@code α_state + δ_c ≥ −γ · cap · α_target}, {@link AdaptiveQuantileLevel#minMissFraction}): a
 * burst of misses of one class winds its level no further above 100 % than one clean block brings back, as for a
 * level; where it is used, {@code α_state + δ_c} is raised to that floor too ({@link BorrowedLevel}), since the state's
 * α moves on. Immutable and thread-safe.
 *
 * @param byClass each class's offset and the blocks it learned from
 */
public record ClassExcess(Map<ShapeClass, Offset> byClass) {

    /**
     * Blocks connection-wide before a class's excess may stand for it in a state where it has too few of its own: as
     * many as a class needs in one state to decide its level there.
     */
    public static final long MIN_BLOCKS = BorrowedLevel.MIN_CLASS_BLOCKS;
    /** Lowest offset (a level at most this much above the state's). */
    public static final double MIN_OFFSET = -0.5;
    /** Highest offset (a level at most this much below the state's). */
    public static final double MAX_OFFSET = 0.5;

    /** Nothing learned. */
    public static final ClassExcess EMPTY = new ClassExcess(Map.of());

    /**
     * One class's excess.
     *
     * @param missFraction {@code δ_c}: added to the state's miss fraction α, in [{@value #MIN_OFFSET}, {@value #MAX_OFFSET}]
     * @param blocks       blocks it learned from, {@code >= 0}
     */
    public record Offset(double missFraction, long blocks) {

        /** @throws IllegalArgumentException on an offset outside its range, NaN, or a negative count */
        public Offset {
            if (!(missFraction >= MIN_OFFSET && missFraction <= MAX_OFFSET) || blocks < 0) {
                throw new IllegalArgumentException("a class offset needs a miss fraction in [" + MIN_OFFSET + ", " + MAX_OFFSET
                    + "] and blocks >= 0, was " + missFraction + " and " + blocks);
            }
        }

        /** @return whether it learned from at least {@value ClassExcess#MIN_BLOCKS} blocks */
        public boolean learned() {
            return blocks >= MIN_BLOCKS;
        }
    }

    /**
     * Copies the map.
     *
     * @throws IllegalArgumentException on a missing map or more classes than there are
     */
    public ClassExcess {
        if (byClass == null || byClass.size() > GroupLevels.MAX_CLASSES) {
            throw new IllegalArgumentException("at most " + GroupLevels.MAX_CLASSES + " shape classes");
        }
        byClass = Map.copyOf(byClass);
    }

    /**
     * @param shape a class
     * @return its offset once learned from {@value #MIN_BLOCKS} blocks or more, else null
     */
    public Offset learned(final ShapeClass shape) {
        final Offset offset = byClass.get(shape);
        return offset != null && offset.learned() ? offset : null;
    }

    /**
     * @param shape              the class of the block's traffic
     * @param stateMissFraction  the state's α when the block was sent (its own level as served, borrowing included)
     * @param rule               gives α_target, the step and the cap (the state's own level)
     * @param roundTrips         round trips of the block, {@code >= 1}
     * @param missesAtPercent    round trips of the block above the bound read at a level, percent
     * @return the excesses after the block
     */
    public ClassExcess observe(final ShapeClass shape, final double stateMissFraction, final AdaptiveQuantileLevel rule,
                               final long roundTrips, final DoubleToLongFunction missesAtPercent) {
        if (shape == null || rule == null || roundTrips < 1) {
            throw new IllegalArgumentException("a class block needs its class, its rule and >= 1 round trip");
        }
        final Offset known = byClass.getOrDefault(shape, new Offset(0.0, 0));
        final double levelPercent = percentOf(stateMissFraction + known.missFraction());
        final long misses = Math.max(0, Math.min(roundTrips, missesAtPercent.applyAsLong(levelPercent)));
        final double weight = Math.min(roundTrips, rule.maxBlockWeight());
        final double next = known.missFraction()
            + rule.stepPerRoundTrip() * weight * (rule.targetMissFraction() - (double) misses / roundTrips);
        final Map<ShapeClass, Offset> updated = new HashMap<>(byClass);
        // Anti-windup, as for a level: α_state + δ_c never below the rule's floor (any α ≤ 0 serves the histogram's top).
        final double lowest = Math.max(MIN_OFFSET, rule.minMissFraction() - stateMissFraction);
        updated.put(shape, new Offset(Math.max(lowest, Math.min(MAX_OFFSET, next)), known.blocks() + 1));
        return new ClassExcess(updated);
    }

    /** @return the level a miss fraction is read at, percent, in [{@value AdaptiveQuantileLevel#MIN_LEVEL_PERCENT}, 100] */
    static double percentOf(final double missFraction) {
        return Math.max(AdaptiveQuantileLevel.MIN_LEVEL_PERCENT, Math.min(100.0, 100.0 * (1.0 - missFraction)));
    }
}
