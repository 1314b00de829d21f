package org.latencyserver.launch.agent;

/**
 * Never pauses: for an agent that waits inside its own {@code doWork} (a bounded poll of a queue,
 * a blocking receive with a time-out), so the wait is already its idle. Such an agent must bound
 * its wait, or the runner's close cannot end it; it usually also answers
 * {@link Agent#wakesByInterrupt()} with true.
 */
public final class NoIdleStrategy implements IdleStrategy {

    /** The one instance; the strategy has no state. */
    public static final NoIdleStrategy INSTANCE = new NoIdleStrategy();

    private NoIdleStrategy() {
    }

    @Override
    public void idle(final int workCount) {
        // the agent's own bounded wait is its idle
    }
}
