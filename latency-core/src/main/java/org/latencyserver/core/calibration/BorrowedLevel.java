package org.latencyserver.core.calibration;

import java.util.Comparator;
import java.util.Locale;
import java.util.Map;
import org.latencyserver.core.traffic.ShapeClass;

/**
 * The level a bound is served at in one load state, for one traffic: group-conditional adaptive
 * conformal inference by shrinkage. Three adaptive levels learn side by side, each from the misses
 * of the bound that it itself would give (so each tracks its own group's quantile, whatever is served):
 * the connection's pooled level (every block of every state), the state's own level (its blocks),
 * and each shape class's level within the state (its blocks). What is served borrows from the group
 * above while a group is young:
 * <pre>
 *   α_state = w(n_s) α_own + (1 − w(n_s)) α_pooled        w(n) = n / (n + {@value #PRIOR_BLOCKS})
 *   α_class = w(n_c) α_c   + (1 − w(n_c)) α_state
 * </pre>
 * with {@code n} the blocks (probe windows, measurements) the group's own level learned from. A
 * state never seen is served at the pooled level; a state with many blocks at its own.
 *
 * <p>With no declared traffic, the level served is the highest (α lowest) of {@code α_state} and the
 * {@code α_class} of every class seen in the state with at least {@value #MIN_CLASS_BLOCKS} blocks:
 * the bound holds for the worst shape seen. With a declared shape, only its class counts ({@code
 * α_class}, or {@code α_state} before that class was seen).
 *
 * <p>Stateless and thread-safe.
 */
public final class BorrowedLevel {

    /** n0: the blocks at which a group's own level and the level it borrows from weigh alike. */
    public static final double PRIOR_BLOCKS = 20.0;
    /** Blocks a shape class needs before it may decide the served level as the worst shape. */
    public static final long MIN_CLASS_BLOCKS = 10;

    private BorrowedLevel() {
    }

    /**
     * The level served, and what decided it.
     *
     * @param missFraction        α served: the level read is {@code 1 − α}
     * @param targetMissFraction  α_target (nominal)
     * @param stateBlocks         blocks of the state's own level
     * @param stateWeight         {@code w(stateBlocks)}, the own level's weight against the pooled one
     * @param shape               the class whose level is served (the worst seen, or the declared one), or null
     * @param declared            whether {@code shape} was declared by the connection rather than the worst seen
     */
    public record Served(double missFraction, double targetMissFraction, long stateBlocks, double stateWeight, ShapeClass shape,
                         boolean declared) {

        /** @return the level to read the bound at, percent, in [{@value AdaptiveQuantileLevel#MIN_LEVEL_PERCENT}, 100] */
        public double servedPercent() {
            return Math.max(AdaptiveQuantileLevel.MIN_LEVEL_PERCENT, Math.min(100.0, 100.0 * (1.0 - missFraction)));
        }

        /** @return whether nothing moved it off the nominal level */
        public boolean nominal() {
            return Math.abs(missFraction - targetMissFraction) < 1e-12;
        }

        /**
         * @return e.g. "state's own level weighted 0.33 (10 blocks, n0 20) against the connection's pooled level;
         *         level for the worst shape seen: spacing < 0.5 ms, bursts 10–49, arrays"
         */
        public String description() {
            final String borrowed = String.format(Locale.ROOT,
                "state's own level weighted %.2f (%d blocks, n0 %.0f) against the connection's pooled level", stateWeight,
                stateBlocks, PRIOR_BLOCKS);
            if (shape == null) {
                return borrowed;
            }
            return borrowed + (declared ? "; level for the declared shape: " : "; level for the worst shape seen: ") + shape.label();
        }
    }

    /** @return {@code n / (n + n0)}, in [0, 1) */
    public static double weight(final long blocks) {
        return blocks / (blocks + PRIOR_BLOCKS);
    }

    /**
     * @param state    what was learned in the load state; its level must not be null (a bound)
     * @param pooled   the connection's pooled level, or null to borrow nothing (the state's own level then stands alone)
     * @param declared the connection's declared traffic's class, or null when it declares none
     * @return the level to serve
     * @throws IllegalArgumentException when the state has no level (a mean, or a 100 % bound)
     */
    public static Served of(final StateKnowledge state, final AdaptiveQuantileLevel pooled, final ShapeClass declared) {
        final AdaptiveQuantileLevel own = state.level();
        if (own == null) {
            throw new IllegalArgumentException("no adaptive level in this state (a mean, or a 100 % bound)");
        }
        final long stateBlocks = state.groups().stateBlocks();
        final double stateWeight = pooled == null ? 1.0 : weight(stateBlocks);
        final double prior = pooled == null ? own.missFraction() : pooled.missFraction();
        final double stateAlpha = stateWeight * own.missFraction() + (1.0 - stateWeight) * prior;
        final Map<ShapeClass, GroupLevels.ClassLevel> classes = state.groups().byClass();
        if (declared != null) {
            final GroupLevels.ClassLevel mine = classes.get(declared);
            final double alpha = mine == null ? stateAlpha : blend(mine, stateAlpha);
            return new Served(alpha, own.targetMissFraction(), stateBlocks, stateWeight, declared, true);
        }
        double alpha = stateAlpha;
        ShapeClass worst = null;
        double worstAlpha = Double.POSITIVE_INFINITY;
        final ShapeClass[] seen = classes.keySet().toArray(ShapeClass[]::new);
        java.util.Arrays.sort(seen, Comparator.comparingInt(ShapeClass::wireCode));
        for (final ShapeClass shape : seen) {
            final GroupLevels.ClassLevel level = classes.get(shape);
            if (level.blocks() >= MIN_CLASS_BLOCKS) {
                final double classAlpha = blend(level, stateAlpha);
                if (classAlpha < worstAlpha) {
                    worstAlpha = classAlpha;
                    worst = shape;
                }
            }
        }
        if (worst != null) {
            alpha = Math.min(alpha, worstAlpha);
        }
        return new Served(alpha, own.targetMissFraction(), stateBlocks, stateWeight, worst, false);
    }

    private static double blend(final GroupLevels.ClassLevel level, final double priorAlpha) {
        final double w = weight(level.blocks());
        return w * level.level().missFraction() + (1.0 - w) * priorAlpha;
    }
}
