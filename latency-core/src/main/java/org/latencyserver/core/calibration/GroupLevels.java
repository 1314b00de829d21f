package org.latencyserver.core.calibration;

import java.util.HashMap;
import java.util.Map;
import org.latencyserver.core.traffic.ShapeClass;

/**
 * The groups one load state's adaptive level is kept for, beside the state's own level
 * ({@link StateKnowledge#level()}): how many blocks that own level has learned from since it
 * (re)started, and one level per {@link ShapeClass} whose round trips were seen in the state, each
 * with its own block count. At most {@value #MAX_CLASSES} classes are kept; the blocks of a class
 * seen when the map is full still teach the state's and the connection's pooled levels, only not a
 * level of their own.
 *
 * <p>Immutable and thread-safe.
 *
 * @param stateBlocks blocks the state's own level learned from since it (re)started, {@code >= 0}
 * @param byClass     each shape class's level and blocks
 */
public record GroupLevels(long stateBlocks, Map<ShapeClass, ClassLevel> byClass) {

    /** Most shape classes kept per load state. */
    public static final int MAX_CLASSES = org.latencyserver.core.traffic.ShapeClass.SPACING_RANGES
        * org.latencyserver.core.traffic.ShapeClass.BURST_RANGES * org.latencyserver.core.traffic.CallKind.values().length;

    /** Nothing learned. */
    public static final GroupLevels EMPTY = new GroupLevels(0, Map.of());

    /**
     * One shape class's level in a load state.
     *
     * @param level  its adaptive level, learned only from blocks of that class
     * @param blocks blocks it learned from, {@code >= 0}
     */
    public record ClassLevel(AdaptiveQuantileLevel level, long blocks) {

        /** @throws IllegalArgumentException on a missing level or negative count */
        public ClassLevel {
            if (level == null || blocks < 0) {
                throw new IllegalArgumentException("a class level needs its level and blocks >= 0");
            }
        }
    }

    /**
     * Copies the map.
     *
     * @throws IllegalArgumentException on a negative count or more than {@value #MAX_CLASSES} classes
     */
    public GroupLevels {
        if (stateBlocks < 0) {
            throw new IllegalArgumentException("state blocks must be >= 0, was " + stateBlocks);
        }
        if (byClass == null || byClass.size() > MAX_CLASSES) {
            throw new IllegalArgumentException("at most " + MAX_CLASSES + " shape classes per load state");
        }
        byClass = Map.copyOf(byClass);
    }

    /**
     * @param shape        the class of the block's traffic
     * @param fresh        the level a class never seen starts at (the nominal one)
     * @param roundTrips   round trips of the block, {@code >= 1}
     * @param classMisses  how many were above the bound the class's own level gives (or {@code fresh}'s, when new)
     * @return the groups after the block; the state's count always rises, the class's when it is kept
     */
    GroupLevels observe(final ShapeClass shape, final AdaptiveQuantileLevel fresh, final long roundTrips, final long classMisses) {
        final ClassLevel known = byClass.get(shape);
        if (known == null && byClass.size() >= MAX_CLASSES) {
            return new GroupLevels(stateBlocks + 1, byClass);
        }
        final ClassLevel before = known != null ? known : new ClassLevel(fresh, 0);
        final Map<ShapeClass, ClassLevel> next = new HashMap<>(byClass);
        next.put(shape, new ClassLevel(before.level().observe(roundTrips, classMisses, before.blocks()), before.blocks() + 1));
        return new GroupLevels(stateBlocks + 1, next);
    }
}
