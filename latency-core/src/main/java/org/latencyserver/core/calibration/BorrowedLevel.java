package org.latencyserver.core.calibration;

import java.util.Comparator;
import java.util.Locale;
import org.latencyserver.core.traffic.ShapeClass;

/**
 * The level a bound is served at in one load state, for one traffic: group-conditional adaptive
 * conformal inference by shrinkage. Four adaptive levels learn side by side, each from the misses
 * of the bound that it itself would give (so each tracks its own group's quantile, whatever is served):
 * the connection's pooled level (every block of every state), the state's port pattern's level (every block of
 * the states with the same kind of port state on every hop, {@link PortPatternLevel}), the state's own level (its blocks),
 * and each shape class's level within the state (its blocks). What is served borrows from the group
 * above while a group is young:
 * <pre>
 *   α_pattern = w(n_p) α_p     + (1 − w(n_p)) α_pooled      w(n) = n / (n + {@value #PRIOR_BLOCKS})
 *   α_state   = w(n_s) α_own   + (1 − w(n_s)) α_pattern
 *   α_class   = w(n_c) α_c     + (1 − w(n_c)) α_state
 * </pre>
 * with {@code n} the blocks (probe windows, measurements) the group's own level learned from. A
 * state never seen is served at its pattern's level, a pattern never seen at the pooled level; a state with many
 * blocks at its own. Without a pattern ({@link Prior#pooled}) the state borrows from the pooled level directly.
 *
 * <p>A class's prior is not the state's level alone but the state's level plus the class's excess learned
 * connection-wide ({@link ClassExcess}), once learned:
 * <pre>
 *   α_class = w(n_c) α_c + (1 − w(n_c)) max(α_min, α_state + δ_c)
 * </pre>
 * ({@code α_min} the level's floor, {@link AdaptiveQuantileLevel#minMissFraction}).
 * With no declared traffic, the level served is the highest (α lowest) of {@code α_state} and the {@code α_class}
 * of every class that is known: seen in the state with at least {@value #MIN_CLASS_BLOCKS} blocks, or with a
 * learned excess (then, below {@value #MIN_CLASS_BLOCKS} blocks in the state, mostly {@code α_state + δ_c}): the bound
 * holds for the worst shape seen. With a declared shape, only its class counts ({@code α_class}, or {@code
 * α_state} while the class is not known). For one shape asked ({@link #forShape}), its class's level when known,
 * else the worst class's.
 *
 * <p>Stateless and thread-safe.
 */
public final class BorrowedLevel {

    /** n0: the blocks at which a group's own level and the level it borrows from weigh alike. */
    public static final double PRIOR_BLOCKS = 20.0;
    /** Blocks a shape class needs in a state before its own level there may decide the served level. */
    public static final long MIN_CLASS_BLOCKS = 10;

    private BorrowedLevel() {
    }

    /** What the served level was read from. */
    public enum Basis {
        /** The state's level (borrowing from the pooled one): no class decided. */
        STATE("the state's level"),
        /** The class's own level in the state, with at least {@value BorrowedLevel#MIN_CLASS_BLOCKS} blocks there. */
        CLASS_IN_STATE("the class's own level in this state"),
        /** The state's level plus the class's excess learned connection-wide (too few blocks of it in the state). */
        STATE_PLUS_EXCESS("the state's level plus the class's excess learned on the whole connection"),
        /** A shape asked whose class is not known: the level of the worst class seen. */
        WORST_CLASS("the level of the worst shape class seen (this shape's class is not known yet)");

        private final String words;

        Basis(final String words) {
            this.words = words;
        }

        /** @return how a client reads it */
        public String words() {
            return words;
        }
    }

    /**
     * What a state's level borrows from: the connection's pooled level, shrunk towards the state's port pattern's
     * level by the pattern's blocks when one is given.
     *
     * @param level   the level to borrow: the pooled one (its ratios kept) with α = {@code α_pattern}; null to borrow
     *                nothing
     * @param pattern the port pattern's level it was blended from, or null when the state borrows the pooled level
     *                directly
     */
    public record Prior(AdaptiveQuantileLevel level, PortPatternLevel pattern) {

        /**
         * @param pooled the connection's pooled level, or null to borrow nothing
         * @return the pooled level, no pattern
         */
        public static Prior pooled(final AdaptiveQuantileLevel pooled) {
            return new Prior(pooled, null);
        }

        /**
         * @param pooled  the connection's pooled level (or the level that stands for it), or null to borrow nothing
         * @param pattern the state's port pattern's level, or null when none is kept
         * @return {@code α_pattern = w(n_p) α_p + (1 − w(n_p)) α_pooled} as a level carrying the pooled one's
         *         target, step, cap and ratios; the pooled level alone when either is null
         */
        public static Prior of(final AdaptiveQuantileLevel pooled, final PortPatternLevel pattern) {
            if (pooled == null || pattern == null) {
                return pooled(pooled);
            }
            final double w = weight(pattern.blocks());
            final double alpha = w * pattern.level().missFraction() + (1.0 - w) * pooled.missFraction();
            return new Prior(new AdaptiveQuantileLevel(pooled.targetMissFraction(), alpha, pooled.stepPerRoundTrip(),
                pooled.maxBlockWeight(), pooled.ratios(), pooled.profileRatios()), pattern);
        }

        /** @return {@code w(n_p)}, the pattern's own level's weight against the pooled one; 0 without a pattern */
        public double patternWeight() {
            return pattern == null ? 0.0 : weight(pattern.blocks());
        }
    }

    /**
     * The level served, and what decided it.
     *
     * @param missFraction        α served: the level read is {@code 1 − α}
     * @param targetMissFraction  α_target (nominal)
     * @param stateBlocks         blocks of the state's own level
     * @param stateWeight         {@code w(stateBlocks)}, the own level's weight against the pooled one
     * @param shape               the class whose level is served (the worst seen, the declared or the asked one), or null
     * @param declared            whether {@code shape} was declared by the connection (or asked) rather than the worst seen
     * @param basis               what the level was read from
     * @param pattern             the port pattern's level the state borrowed from (before the pooled one), or null when
     *                            it borrowed the pooled level directly
     */
    public record Served(double missFraction, double targetMissFraction, long stateBlocks, double stateWeight, ShapeClass shape,
                         boolean declared, Basis basis, PortPatternLevel pattern) {

        /** A level whose state borrowed the pooled level directly (no port pattern). */
        public Served(final double missFraction, final double targetMissFraction, final long stateBlocks, final double stateWeight,
                      final ShapeClass shape, final boolean declared, final Basis basis) {
            this(missFraction, targetMissFraction, stateBlocks, stateWeight, shape, declared, basis, null);
        }

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
         *         level for the worst shape seen: spacing < 0.5 ms, bursts 10–49, arrays (the class's own level in this state)";
         *         with a port pattern, "state's own level weighted 0.09 (2 blocks, n0 20) against its port pattern's level
         *         (the states with the same kind of port state on every hop), itself weighted 0.31 (9 blocks) against the
         *         connection's pooled level"
         */
        public String description() {
            final String against = pattern == null ? "the connection's pooled level" : String.format(Locale.ROOT,
                "its port pattern's level (the states with the same kind of port state on every hop), itself weighted %.2f (%d blocks)"
                    + " against the connection's pooled level", weight(pattern.blocks()), pattern.blocks());
            final String borrowed = String.format(Locale.ROOT,
                "state's own level weighted %.2f (%d blocks, n0 %.0f) against %s", stateWeight, stateBlocks, PRIOR_BLOCKS, against);
            if (shape == null) {
                return borrowed;
            }
            return borrowed + (declared ? "; level for the shape: " : "; level for the worst shape seen: ") + shape.label()
                + " (" + basis.words() + ")";
        }
    }

    /** @return {@code n / (n + n0)}, in [0, 1) */
    public static double weight(final long blocks) {
        return blocks / (blocks + PRIOR_BLOCKS);
    }

    /** As {@link #of(StateKnowledge, AdaptiveQuantileLevel, ShapeClass, ClassExcess)} with no excess learned. */
    public static Served of(final StateKnowledge state, final AdaptiveQuantileLevel pooled, final ShapeClass declared) {
        return of(state, pooled, declared, ClassExcess.EMPTY);
    }

    /**
     * @param state    what was learned in the load state; its level must not be null (a bound)
     * @param pooled   the connection's pooled level, or null to borrow nothing (the state's own level then stands alone)
     * @param declared the connection's declared traffic's class, or null when it declares none
     * @param excess   the classes' excesses learned connection-wide
     * @return the level to serve
     * @throws IllegalArgumentException when the state has no level (a mean, or a 100 % bound)
     */
    public static Served of(final StateKnowledge state, final AdaptiveQuantileLevel pooled, final ShapeClass declared,
                            final ClassExcess excess) {
        return of(state, Prior.pooled(pooled), declared, excess);
    }

    /**
     * As {@link #of(StateKnowledge, AdaptiveQuantileLevel, ShapeClass, ClassExcess)}, the state borrowing from {@code
     * prior} (the pooled level shrunk towards the state's port pattern's).
     *
     * @param prior what the state borrows from, not null ({@code prior.level()} null to borrow nothing)
     * @return the level to serve, naming the pattern when one was borrowed from
     */
    public static Served of(final StateKnowledge state, final Prior prior, final ShapeClass declared, final ClassExcess excess) {
        final AdaptiveQuantileLevel pooled = prior.level();
        final PortPatternLevel pattern = pooled == null ? null : prior.pattern();
        final AdaptiveQuantileLevel own = ownLevel(state);
        final long stateBlocks = state.groups().stateBlocks();
        final double stateWeight = pooled == null ? 1.0 : weight(stateBlocks);
        final double stateAlpha = stateMissFraction(state, pooled);
        if (declared != null) {
            final Choice mine = classAlpha(state, excess, declared, stateAlpha);
            if (mine == null) {
                final GroupLevels.ClassLevel few = state.groups().byClass().get(declared);
                return new Served(few == null ? stateAlpha : blend(few, stateAlpha), own.targetMissFraction(), stateBlocks,
                    stateWeight, declared, true, Basis.STATE, pattern);
            }
            return new Served(mine.alpha, own.targetMissFraction(), stateBlocks, stateWeight, declared, true, mine.basis, pattern);
        }
        final java.util.Set<ShapeClass> candidates = new java.util.HashSet<>(state.groups().byClass().keySet());
        candidates.addAll(excess.byClass().keySet());
        final ShapeClass[] seen = candidates.toArray(ShapeClass[]::new);
        java.util.Arrays.sort(seen, Comparator.comparingInt(ShapeClass::wireCode));
        Choice worst = null;
        ShapeClass worstShape = null;
        for (final ShapeClass shape : seen) {
            final Choice choice = classAlpha(state, excess, shape, stateAlpha);
            if (choice != null && (worst == null || choice.alpha < worst.alpha)) {
                worst = choice;
                worstShape = shape;
            }
        }
        if (worst == null) {
            return new Served(stateAlpha, own.targetMissFraction(), stateBlocks, stateWeight, null, false, Basis.STATE, pattern);
        }
        return new Served(Math.min(stateAlpha, worst.alpha), own.targetMissFraction(), stateBlocks, stateWeight, worstShape, false,
            worst.basis, pattern);
    }

    /**
     * The level for one shape class asked by an application: its class's level when known in the state or
     * connection-wide ({@link Basis#CLASS_IN_STATE}, {@link Basis#STATE_PLUS_EXCESS}), else the worst class's level
     * ({@link Basis#WORST_CLASS}, {@code shape} then the worst class seen, or null when none).
     *
     * @param asked the class of the shape asked for, not null
     * @return the level to serve for it
     */
    public static Served forShape(final StateKnowledge state, final AdaptiveQuantileLevel pooled, final ClassExcess excess,
                                  final ShapeClass asked) {
        return forShape(state, Prior.pooled(pooled), excess, asked);
    }

    /**
     * As {@link #forShape(StateKnowledge, AdaptiveQuantileLevel, ClassExcess, ShapeClass)}, the state borrowing from
     * {@code prior}.
     *
     * @param prior what the state borrows from, not null
     * @return the level to serve for the shape
     */
    public static Served forShape(final StateKnowledge state, final Prior prior, final ClassExcess excess, final ShapeClass asked) {
        final AdaptiveQuantileLevel pooled = prior.level();
        final PortPatternLevel pattern = pooled == null ? null : prior.pattern();
        final AdaptiveQuantileLevel own = ownLevel(state);
        final long stateBlocks = state.groups().stateBlocks();
        final double stateWeight = pooled == null ? 1.0 : weight(stateBlocks);
        final Choice mine = classAlpha(state, excess, asked, stateMissFraction(state, pooled));
        if (mine != null) {
            return new Served(mine.alpha, own.targetMissFraction(), stateBlocks, stateWeight, asked, true, mine.basis, pattern);
        }
        final Served worst = of(state, prior, null, excess);
        return new Served(worst.missFraction(), worst.targetMissFraction(), stateBlocks, stateWeight, worst.shape(), false,
            Basis.WORST_CLASS, pattern);
    }

    /**
     * @param state  what was learned in the load state; its level must not be null
     * @param pooled the connection's pooled level, or null to borrow nothing
     * @return {@code α_state}: the state's own level shrunk towards the pooled one by its blocks
     */
    public static double stateMissFraction(final StateKnowledge state, final AdaptiveQuantileLevel pooled) {
        final AdaptiveQuantileLevel own = ownLevel(state);
        final double stateWeight = pooled == null ? 1.0 : weight(state.groups().stateBlocks());
        final double prior = pooled == null ? own.missFraction() : pooled.missFraction();
        return stateWeight * own.missFraction() + (1.0 - stateWeight) * prior;
    }

    private static AdaptiveQuantileLevel ownLevel(final StateKnowledge state) {
        if (state.level() == null) {
            throw new IllegalArgumentException("no adaptive level in this state (a mean, or a 100 % bound)");
        }
        return state.level();
    }

    private record Choice(double alpha, Basis basis) {
    }

    /** @return the class's α in the state, or null when it is known neither there nor connection-wide */
    private static Choice classAlpha(final StateKnowledge state, final ClassExcess excess, final ShapeClass shape,
                                     final double stateAlpha) {
        final GroupLevels.ClassLevel inState = state.groups().byClass().get(shape);
        final ClassExcess.Offset offset = excess.learned(shape);
        // Never below the level's floor (anti-windup): the state's α may have fallen since the offset learned.
        final double prior = offset == null ? stateAlpha
            : Math.max(ownLevel(state).minMissFraction(), stateAlpha + offset.missFraction());
        if (inState != null && inState.blocks() >= MIN_CLASS_BLOCKS) {
            return new Choice(blend(inState, prior), Basis.CLASS_IN_STATE);
        }
        if (offset != null) {
            return new Choice(inState == null ? prior : blend(inState, prior), Basis.STATE_PLUS_EXCESS);
        }
        return null;
    }

    private static double blend(final GroupLevels.ClassLevel level, final double priorAlpha) {
        final double w = weight(level.blocks());
        return w * level.level().missFraction() + (1.0 - w) * priorAlpha;
    }
}
