package org.latencyserver.server.persistence;

import java.time.Duration;
import org.latencyserver.launch.agent.AgentRunner;
import org.latencyserver.launch.agent.DistinctErrorLog;
import org.latencyserver.launch.agent.NoIdleStrategy;
import org.latencyserver.launch.agent.TaskQueueAgent;

/**
 * A {@link TaskQueueAgent} whose thread starts with its first task, as a single-thread executor's
 * does: a store that is only read at start (restored, never written) never starts a thread.
 *
 * <p>Thread-safety: {@link #started} and {@link #close} from any thread.
 */
final class LazyAgent {

    private final TaskQueueAgent agent;
    private final AgentRunner runner;
    private boolean started;
    private boolean closed;

    /**
     * @param agent     the agent
     * @param closeWait how long {@link #close} waits for its thread at most
     */
    LazyAgent(final TaskQueueAgent agent, final Duration closeWait) {
        this.agent = agent;
        this.runner = new AgentRunner(agent, NoIdleStrategy.INSTANCE, new DistinctErrorLog(agent.roleName()),
                System::nanoTime, closeWait);
    }

    /** @return the agent, its thread started (unless closed: then its tasks are rejected) */
    synchronized TaskQueueAgent started() {
        if (!started && !closed) {
            started = true;
            runner.start();
        }
        return agent;
    }

    /**
     * Closes the agent: on its thread the tasks left run, then its last action (on the calling thread
     * when it never started).
     *
     * @return false when its thread did not end within the close wait
     */
    boolean close() {
        synchronized (this) {
            closed = true;
        }
        runner.close();
        return runner.closed();
    }
}
