package org.latencyserver.launch.agent;

/**
 * One duty cycle that owns its state: an {@link AgentRunner} calls {@link #onStart()} once, then
 * {@link #doWork} again and again on the agent's own thread, then {@link #onClose()} once, all on
 * that same thread. Other threads talk to an agent only through what it chooses to expose: commands
 * in (a queue the agent drains in {@code doWork}), immutable snapshots out (a volatile reference
 * the agent publishes).
 *
 * <p>A failing {@code doWork} does not end the agent: the runner records the failure in its
 * {@link DistinctErrorLog} and calls {@code doWork} again after the idle strategy's pause.
 */
public interface Agent {

    /** Runs once on the agent's thread before the first {@link #doWork}; a failure here ends the agent (after {@link #onClose()}). */
    default void onStart() throws Exception {
    }

    /**
     * Does one round of the agent's duty.
     *
     * @param nowNanos the runner's monotonic clock when the round began (nanoseconds, {@code System::nanoTime} by default)
     * @return how much work was done; 0 means the agent was idle, and the runner's idle strategy may pause
     * @throws InterruptedException when a bounded wait inside the round was interrupted (the runner's close does this
     *                              for an agent whose {@link #wakesByInterrupt()} is true)
     * @throws Exception            any other failure; recorded, and the agent carries on
     */
    int doWork(long nowNanos) throws Exception;

    /** Runs once on the agent's thread after the last {@link #doWork}, with the interrupt status cleared. */
    default void onClose() throws Exception {
    }

    /**
     * Called by the runner's close on the closing thread, after the loop was asked to end and before
     * the close waits: an agent that waits inside {@link #doWork} on something neither an unpark nor
     * (for {@link #wakesByInterrupt()} false) an interrupt ends, ends that wait here, e.g. by offering a
     * marker to the queue it polls. Must not block. Default: nothing.
     */
    default void onCloseRequested() {
    }

    /** @return the agent's role, also its thread's name, e.g. {@code latency-update} */
    String roleName();

    /**
     * @return true when {@link #doWork} waits inside (e.g. a bounded poll of a queue) and the runner's close must
     *         interrupt the thread to end that wait; false (the default) when the agent only ever pauses in its idle
     *         strategy, which the close wakes without an interrupt (so an interrupt never closes a {@code FileChannel}
     *         the agent is writing)
     */
    default boolean wakesByInterrupt() {
        return false;
    }
}
