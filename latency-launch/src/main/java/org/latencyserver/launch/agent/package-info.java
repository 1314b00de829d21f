/**
 * The agent runtime: every loop of the product is an {@link org.latencyserver.launch.agent.Agent}
 * (a duty cycle that owns its state; commands in, immutable snapshots out) run by an
 * {@link org.latencyserver.launch.agent.AgentRunner} on its own daemon thread with an
 * {@link org.latencyserver.launch.agent.IdleStrategy} between idle rounds
 * ({@link org.latencyserver.launch.agent.SleepingIdleStrategy},
 * {@link org.latencyserver.launch.agent.BackoffIdleStrategy},
 * {@link org.latencyserver.launch.agent.NoIdleStrategy}). Failures are counted once per distinct
 * error in a {@link org.latencyserver.launch.agent.DistinctErrorLog}. Periodic duties keep their
 * timetable with {@link org.latencyserver.launch.agent.PeriodicDeadline}; start-ups undo what they
 * started with a {@link org.latencyserver.launch.agent.CloseStack}.
 */
package org.latencyserver.launch.agent;
