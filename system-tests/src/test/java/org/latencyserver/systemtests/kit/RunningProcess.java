package org.latencyserver.systemtests.kit;

import org.latencyserver.launch.ChildProcess;

/**
 * What the kit's started components have in common: one child process, whose output, liveness,
 * kill and stop they pass on.
 */
public interface RunningProcess extends AutoCloseable {

    /** @return the process */
    ChildProcess child();

    /** @return its output so far */
    default String log() {
        return child().log();
    }

    /** @return whether it is running */
    default boolean isAlive() {
        return child().isAlive();
    }

    /** Kills it as {@code kill -9} would: no shutdown hooks, no last save. */
    default void kill() throws InterruptedException {
        child().kill();
    }

    /** Stops it: SIGTERM, then SIGKILL after 10 s. */
    @Override
    default void close() throws InterruptedException {
        child().close();
    }
}
