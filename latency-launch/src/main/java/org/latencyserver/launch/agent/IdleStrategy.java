package org.latencyserver.launch.agent;

/**
 * What an {@link AgentRunner} does between two rounds of an agent's duty cycle.
 *
 * <p>Thread-safety: an instance belongs to one runner and is only used on its agent's thread.
 */
public interface IdleStrategy {

    /**
     * Called after each round.
     *
     * @param workCount what the round's {@code doWork} returned; above 0 the strategy returns at once
     *                  (and starts over its back-off), at 0 it pauses in its own way
     */
    void idle(int workCount);

    /** Starts the strategy's back-off over, as after a round that did work. */
    default void reset() {
    }
}
