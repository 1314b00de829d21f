package org.latencyserver.systemtests.kit;

import org.latencyserver.launch.ChildProcess;
import org.latencyserver.launch.ReadyFile;

/**
 * A component started by {@link SystemUnderTest#start} that has written its ready file: the
 * process, and what the file says (references, ports, URLs, files, facts; {@code docs/ready-files.md}).
 *
 * <p>Its log, liveness, kill and stop are {@link RunningProcess}'s.
 *
 * <p>Thread-safety: as {@link ChildProcess}; the ready file is immutable.
 *
 * @param child the process
 * @param ready its ready file's content when it became ready
 */
public record ReadyProcess(ChildProcess child, ReadyFile ready) implements RunningProcess {
}
