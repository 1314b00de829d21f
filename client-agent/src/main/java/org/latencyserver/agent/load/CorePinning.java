package org.latencyserver.agent.load;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Pins every thread of this JVM to one core, after the JVM has started.
 *
 * <p>Why after: a JVM started under {@code taskset -c CORE} sees one processor and sizes itself as
 * a uniprocessor (serial GC, its JIT compiler threads sharing the core with the round trips), which
 * on this kind of machine made paced round trips up to twice as slow as the same round trips from a
 * JVM pinned once running. The profiler pins itself this way, so a client agent that is to be
 * compared with a measured profile ({@code client-agent --pin-core}) must too. Threads started
 * later inherit the affinity of the thread that starts them.
 */
public final class CorePinning {

    private static final Path TASKSET = Path.of("/usr/bin/taskset");

    private CorePinning() {
    }

    /** @return whether {@code taskset} is installed (Debian: util-linux) */
    public static boolean available() {
        return Files.isExecutable(TASKSET);
    }

    /**
     * @param core the core, 0-based
     * @throws IOException when taskset is missing or refuses (no such core, not permitted)
     */
    public static void pinThisProcess(final int core) throws IOException, InterruptedException {
        if (!available()) {
            throw new IOException("taskset is needed to pin to a core (Debian: util-linux)");
        }
        final Process taskset = new ProcessBuilder(TASKSET.toString(), "-a", "-p", "-c", Integer.toString(core),
            Long.toString(ProcessHandle.current().pid())).redirectErrorStream(true).start();
        final String output = new String(taskset.getInputStream().readAllBytes()).trim();
        if (taskset.waitFor() != 0) {
            throw new IOException("taskset could not pin this process to core " + core + ": " + output);
        }
    }
}
