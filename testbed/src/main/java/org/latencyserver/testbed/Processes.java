package org.latencyserver.testbed;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Ends processes a testbed started, by PID: SIGTERM, then SIGKILL to any still alive after a grace
 * period; each is checked, never assumed, to have ended.
 *
 * <p>Stateless; thread-safe.
 */
public final class Processes {

    private static final long GRACE_MILLIS = 3_000;

    private Processes() {
    }

    /**
     * @param pidFile a pid file (a number on its first line)
     * @return the PID it holds, if it holds one
     */
    public static Optional<Long> readPid(final Path pidFile) {
        try {
            final String text = Files.readString(pidFile).strip();
            return text.isEmpty() ? Optional.empty() : Optional.of(Long.parseLong(text.lines().findFirst().orElse("")));
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
    }

    /**
     * @param pid a PID
     * @return its process when alive
     */
    public static Optional<ProcessHandle> alive(final long pid) {
        return ProcessHandle.of(pid).filter(ProcessHandle::isAlive);
    }

    /**
     * Ends processes.
     *
     * @param processes what to end
     * @return those still alive after SIGKILL (empty when all ended)
     * @throws InterruptedException when interrupted while waiting
     */
    public static List<ProcessHandle> end(final List<ProcessHandle> processes) throws InterruptedException {
        processes.forEach(ProcessHandle::destroy);
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(GRACE_MILLIS);
        while (processes.stream().anyMatch(ProcessHandle::isAlive) && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        final List<ProcessHandle> left = new ArrayList<>();
        for (final ProcessHandle process : processes) {
            if (process.isAlive()) {
                process.destroyForcibly();
                try {
                    process.onExit().get(2, TimeUnit.SECONDS);
                } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
                    left.add(process);
                }
            }
        }
        return left;
    }
}
