package org.latencyserver.core.calibration;

import java.util.List;
import org.latencyserver.core.state.ConnectionLoadState;
import org.latencyserver.core.state.PortState;

/**
 * The adaptive level of one port pattern of a connection: the load states whose hops are of the same kind, hop by
 * hop ({@link #patternOf}: NORMAL, LOADED, SATURATED or UNKNOWN, the utilisation of a LOADED port left out), whatever
 * their CPU states and whatever percent a loaded port is at. A pattern's states share the same ports' queues, so their
 * references tend to be off alike; a young combined state borrows from its pattern's level before the connection's
 * pooled one ({@link BorrowedLevel.Prior}). A loaded port's every percent 91..100 is a load state of its own, so a
 * pattern keyed by the percents would stay as young as the states.
 *
 * <p>The level learns, like every other group's, from the misses of the bound it itself would give, read from the
 * reference of whichever state of the pattern the block was in; {@code blocks} counts those blocks and decides the
 * pattern's weight {@link BorrowedLevel#weight} against the pooled level.
 *
 * <p>Immutable and thread-safe.
 *
 * @param level  the pattern's adaptive level, not null
 * @param blocks blocks it learned from, {@code >= 0}
 */
public record PortPatternLevel(AdaptiveQuantileLevel level, long blocks) {

    /** @throws IllegalArgumentException on a missing level or a negative count */
    public PortPatternLevel {
        if (level == null) {
            throw new IllegalArgumentException("a port pattern's level must not be null");
        }
        if (blocks < 0) {
            throw new IllegalArgumentException("a port pattern's blocks must be >= 0, was " + blocks);
        }
    }

    /**
     * @param boundPercent the connection's bound, in (0, 100)
     * @return a pattern level at the nominal level, no block learned
     */
    public static PortPatternLevel start(final double boundPercent) {
        return new PortPatternLevel(AdaptiveQuantileLevel.start(boundPercent), 0);
    }

    /**
     * @param state a load state
     * @return its port pattern: every hop's kind of port state in path order (the CPU states and a loaded port's
     *         percent left out)
     */
    public static List<PortState.Kind> patternOf(final ConnectionLoadState state) {
        return state.hops().stream().map(PortState::kind).toList();
    }

    /**
     * @param roundTrips round trips of the block, {@code >= 1}
     * @param misses     of those, how many were above the bound read at this level's own served percent
     * @return the level after the block, its count one higher
     */
    public PortPatternLevel observe(final long roundTrips, final long misses) {
        return new PortPatternLevel(level.observe(roundTrips, misses, blocks), blocks + 1);
    }
}
