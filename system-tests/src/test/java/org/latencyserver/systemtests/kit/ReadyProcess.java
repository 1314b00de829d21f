package org.latencyserver.systemtests.kit;

import org.latencyserver.launch.ChildProcess;
import org.latencyserver.launch.ReadyFile;

/**
 * A component started by {@link SystemUnderTest#start} that has written its ready file: the
 * process, and what the file says (references, ports, URLs, files, facts; {@code docs/ready-files.md}).
 *
 * <p>Thread-safety: as {@link ChildProcess}; the ready file is immutable.
 *
 * @param child the process
 * @param ready its ready file's content when it became ready
 */
public record ReadyProcess(ChildProcess child, ReadyFile ready) implements AutoCloseable {

    /** @return its output so far */
    public String log() {
        return child.log();
    }

    /** @return whether it is running */
    public boolean isAlive() {
        return child.isAlive();
    }

    /** Kills it as {@code kill -9} would: no shutdown hooks, no last save. */
    public void kill() throws InterruptedException {
        child.kill();
    }

    /** Stops it: SIGTERM, then SIGKILL after 10 s. */
    @Override
    public void close() throws InterruptedException {
        child.close();
    }
}
