package org.latencyserver.agent.load;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Drives one core to a target utilisation, as the thesis's load drivers did (Table 3.2.1-1):
 * {@code stress-ng --cpu 1 --cpu-load P --taskset CORE}, a duty-cycled busy loop pinned to the core.
 * Changing the level restarts it; {@link #close()} stops it and its workers.
 *
 * <p>Not thread-safe; one owner.
 */
public final class LoadDriver implements AutoCloseable {

    private static final Path STRESS_NG = Path.of("/usr/bin/stress-ng");

    private final int core;
    private Process process;
    private int percent;

    /** @param core the core to load, 0-based */
    public LoadDriver(final int core) {
        this.core = core;
    }

    /** @return whether stress-ng is installed (Debian: apt-get install stress-ng) */
    public static boolean available() {
        return Files.isExecutable(STRESS_NG);
    }

    /**
     * @param targetPercent 0..100; 0 stops the driver
     * @throws IOException when stress-ng cannot be started
     */
    public void drive(final int targetPercent) throws IOException, InterruptedException {
        if (targetPercent < 0 || targetPercent > 100) {
            throw new IllegalArgumentException("a load must be 0..100 %, was " + targetPercent);
        }
        if (process != null && process.isAlive() && targetPercent == percent) {
            return;
        }
        stop();
        percent = targetPercent;
        if (targetPercent > 0) {
            process = new ProcessBuilder(List.of(STRESS_NG.toString(), "--cpu", "1", "--cpu-load", Integer.toString(targetPercent),
                "--taskset", Integer.toString(core), "--quiet")).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        }
    }

    /** @return the level driven now, percent */
    public int percent() {
        return percent;
    }

    private void stop() throws InterruptedException {
        if (process == null) {
            return;
        }
        final List<ProcessHandle> workers = process.descendants().toList();
        process.destroy();
        workers.forEach(ProcessHandle::destroy);
        if (!process.waitFor(5, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
        workers.forEach(ProcessHandle::destroyForcibly);
        process = null;
    }

    @Override
    public void close() throws InterruptedException {
        stop();
        percent = 0;
    }
}
